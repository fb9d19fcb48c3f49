import type { ReactNode, Ref } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import AddCommentOutlinedIcon from '@mui/icons-material/AddCommentOutlined';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import RemoveDoneIcon from '@mui/icons-material/RemoveDone';
import type { DraftComment } from '../comment-editing.ts';
import { CommentCard, usePreloadedEditor } from './comment-card.tsx';
import { FirstViewRest } from './first-view-rest.tsx';

export interface ReviewCommentsProps {
  comments: readonly DraftComment[];
  questionPoints: number;
  activeTempId: string | null;
  disabled: boolean;
  addButtonRef: Ref<HTMLButtonElement>;
  registerCard(tempId: string, element: HTMLLIElement | null): void;
  onActivate(tempId: string): void;
  onAcceptAll(): void;
  onDeclineAll(): void;
  onAdd(): void;
  onAccept(tempId: string): void;
  onDecline(tempId: string): void;
  onEdit(tempId: string): void;
  onDelete(tempId: string): void;
  onChange(tempId: string, change: { text?: string; points?: string }): void;
  onSave(tempId: string): void;
  onCancel(tempId: string): void;
  /** A comment's place on the page (comment-regions/), under its buttons. */
  renderRegionControls?(comment: DraftComment, index: number): ReactNode;
  /** The pointer entered a comment's card (its tempId) or left it (null). */
  onHover?(tempId: string | null): void;
}

/** The right pane of the grading screen (spec section 2): Review Comments and the list (Final Grade and Confidence are GradeSummary). */
export function ReviewComments({
  comments,
  questionPoints,
  activeTempId,
  disabled,
  addButtonRef,
  registerCard,
  renderRegionControls,
  onHover,
  ...on
}: ReviewCommentsProps) {
  usePreloadedEditor();
  return (
    <Box component="section" aria-labelledby="review-comments-heading" sx={{ minWidth: 0 }}>
      <Typography id="review-comments-heading" variant="h6" component="h2" gutterBottom>
        Review Comments
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mb: 2 }}>
        <Button
          size="small"
          variant="outlined"
          startIcon={<DoneAllIcon />}
          onClick={on.onAcceptAll}
          disabled={disabled || comments.length === 0}
        >
          Accept All
        </Button>
        <Button
          size="small"
          variant="outlined"
          startIcon={<RemoveDoneIcon />}
          onClick={on.onDeclineAll}
          disabled={disabled || comments.length === 0}
        >
          Decline All
        </Button>
        <Button
          size="small"
          variant="contained"
          startIcon={<AddCommentOutlinedIcon />}
          onClick={on.onAdd}
          disabled={disabled}
          ref={addButtonRef}
        >
          Add Comment
        </Button>
      </Stack>
      <FirstViewRest>
        {comments.length === 0 ? (
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            No comments yet.
          </Typography>
        ) : (
          <Stack
            component="ul"
            spacing={1.5}
            aria-label="Review comments"
            sx={{ listStyle: 'none', p: 0, m: 0, mb: 2 }}
          >
            {comments.map((comment, index) => (
              <CommentCard
                key={comment.tempId}
                ref={(element: HTMLLIElement | null) => registerCard(comment.tempId, element)}
                comment={comment}
                index={index}
                total={comments.length}
                questionPoints={questionPoints}
                isActive={activeTempId === comment.tempId}
                onFocus={() => on.onActivate(comment.tempId)}
                onAccept={() => on.onAccept(comment.tempId)}
                onDecline={() => on.onDecline(comment.tempId)}
                onEdit={() => on.onEdit(comment.tempId)}
                onDelete={() => on.onDelete(comment.tempId)}
                onChange={(change) => on.onChange(comment.tempId, change)}
                onSave={() => on.onSave(comment.tempId)}
                onCancel={() => on.onCancel(comment.tempId)}
                regionControls={renderRegionControls?.(comment, index)}
                onHoverChange={(isHovered) => onHover?.(isHovered ? comment.tempId : null)}
              />
            ))}
          </Stack>
        )}
      </FirstViewRest>
    </Box>
  );
}
