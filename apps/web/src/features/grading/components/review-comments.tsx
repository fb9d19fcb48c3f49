import type { Ref } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import AddCommentOutlinedIcon from '@mui/icons-material/AddCommentOutlined';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import RemoveDoneIcon from '@mui/icons-material/RemoveDone';
import type { DraftComment } from '../comment-editing.ts';
import { formatPoints } from '../format.ts';
import { CommentCard } from './comment-card.tsx';

export interface ReviewCommentsProps {
  comments: readonly DraftComment[];
  questionPoints: number;
  finalGrade: number;
  confidence: number;
  activeTempId: string | null;
  disabled: boolean;
  addButtonRef: Ref<HTMLButtonElement>;
  cardRef(tempId: string): (element: HTMLLIElement | null) => void;
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
}

/** The right pane of the grading screen (spec section 2): Review Comments, the list, Final Grade and Confidence. */
export function ReviewComments(props: ReviewCommentsProps) {
  const { comments } = props;
  return (
    <Box component="section" aria-labelledby="review-comments-heading" sx={{ minWidth: 0 }}>
      <Typography id="review-comments-heading" variant="h6" component="h2" gutterBottom>
        Review Comments
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mb: 2 }}>
        <Button size="small" variant="outlined" startIcon={<DoneAllIcon />} onClick={props.onAcceptAll} disabled={props.disabled || comments.length === 0}>
          Accept All
        </Button>
        <Button size="small" variant="outlined" startIcon={<RemoveDoneIcon />} onClick={props.onDeclineAll} disabled={props.disabled || comments.length === 0}>
          Decline All
        </Button>
        <Button
          size="small"
          variant="contained"
          startIcon={<AddCommentOutlinedIcon />}
          onClick={props.onAdd}
          disabled={props.disabled}
          ref={props.addButtonRef}
        >
          Add Comment
        </Button>
      </Stack>
      {comments.length === 0 ? (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          No comments yet.
        </Typography>
      ) : (
        <Stack component="ul" spacing={1.5} aria-label="Review comments" sx={{ listStyle: 'none', p: 0, m: 0, mb: 2 }}>
          {comments.map((comment, index) => (
            <CommentCard
              key={comment.tempId}
              ref={props.cardRef(comment.tempId)}
              comment={comment}
              index={index}
              total={comments.length}
              questionPoints={props.questionPoints}
              isActive={props.activeTempId === comment.tempId}
              onFocus={() => props.onActivate(comment.tempId)}
              onAccept={() => props.onAccept(comment.tempId)}
              onDecline={() => props.onDecline(comment.tempId)}
              onEdit={() => props.onEdit(comment.tempId)}
              onDelete={() => props.onDelete(comment.tempId)}
              onChange={(change) => props.onChange(comment.tempId, change)}
              onSave={() => props.onSave(comment.tempId)}
              onCancel={() => props.onCancel(comment.tempId)}
            />
          ))}
        </Stack>
      )}
      <Box sx={{ borderTop: 1, borderColor: 'divider', pt: 1.5 }}>
        <Typography variant="h6" component="p">
          Final Grade: {formatPoints(props.finalGrade)} / {formatPoints(props.questionPoints)}
        </Typography>
        <Typography color={props.confidence < 50 ? 'warning.light' : 'text.secondary'}>Confidence: {Math.round(props.confidence)}%</Typography>
      </Box>
    </Box>
  );
}
