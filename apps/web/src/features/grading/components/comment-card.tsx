import { forwardRef, lazy, Suspense, useEffect, useId, type ReactNode } from 'react';
import { Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { LoadingMessage } from '../../../components/screen-states.tsx';
import { afterFirstView } from '../../../lib/after-first-view.ts';
import type { DraftComment } from '../comment-editing.ts';
import { formatPoints } from '../format.ts';

// The editor (MUI's TextField, with its inputs, select and helper text: about a fifth of the grading
// screen's code) is on no first view: it is fetched once the first view is on screen
// (usePreloadedEditor), and Edit or Add Comment finds it there (decision 0091).
const loadEditor = () => import('./comment-editor.tsx');
const CommentEditor = lazy(async () => ({ default: (await loadEditor()).CommentEditor }));

/**
 * Asks for the editor's code once the first view is on screen (afterFirstView: its reads drawn and
 * painted), not before: on a phone the screen's largest paint is the answer group's notice above
 * the comments, drawn when its read ends, and the editor is not part of it (decision 0125).
 */
export function usePreloadedEditor(): void {
  const queryClient = useQueryClient();
  useEffect(() => afterFirstView(queryClient, () => void loadEditor().catch(() => undefined)), [queryClient]);
}

export interface CommentCardProps {
  comment: DraftComment;
  index: number;
  total: number;
  questionPoints: number;
  isActive: boolean;
  onFocus(): void;
  onAccept(): void;
  onDecline(): void;
  onEdit(): void;
  onDelete(): void;
  onChange(change: { text?: string; points?: string }): void;
  onSave(): void;
  onCancel(): void;
  /** The comment's place on the page (comment-regions/), shown under its buttons while viewed. */
  regionControls?: ReactNode;
  /** The pointer is over the card (its box on the page stands out) or has left it. */
  onHoverChange?(isHovered: boolean): void;
}

/**
 * One review comment: viewed (text, points deducted, the rubric item it judges, accepted or
 * declined, with Accept, Decline, Edit and Delete) or edited (text and points, with Save / Cancel,
 * or Done / Cancel for a comment just added). The card itself takes focus for keyboard review.
 */
export const CommentCard = forwardRef<HTMLLIElement, CommentCardProps>(function CommentCard(props, ref) {
  const { comment, index, total } = props;
  const textId = useId();
  const statusId = useId();
  const position = `Comment ${index + 1} of ${total}`;
  return (
    <Paper
      component="li"
      ref={ref}
      tabIndex={-1}
      variant="outlined"
      aria-label={position}
      aria-describedby={comment.editor ? undefined : `${statusId} ${textId}`}
      data-comment-card=""
      onFocus={(event) => {
        if (event.target === event.currentTarget) props.onFocus();
      }}
      onMouseEnter={() => props.onHoverChange?.(true)}
      onMouseLeave={() => props.onHoverChange?.(false)}
      sx={{
        p: 1.5,
        borderLeftWidth: 4,
        borderLeftColor: comment.accepted ? 'success.main' : 'text.disabled',
        outline: props.isActive ? '2px solid' : 'none',
        outlineColor: 'primary.main',
        outlineOffset: 2,
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
      }}
    >
      {comment.editor ? (
        <Suspense fallback={<LoadingMessage text="Opening the editor…" />}>
          <CommentEditor {...props} />
        </Suspense>
      ) : (
        <CommentView {...props} textId={textId} statusId={statusId} />
      )}
    </Paper>
  );
});

function CommentView({
  comment,
  index,
  onAccept,
  onDecline,
  onEdit,
  onDelete,
  regionControls,
  textId,
  statusId,
}: CommentCardProps & { textId: string; statusId: string }) {
  const number = index + 1;
  return (
    <>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', mb: 1 }}>
        <Chip
          id={statusId}
          size="small"
          color={comment.accepted ? 'success' : 'default'}
          variant={comment.accepted ? 'filled' : 'outlined'}
          label={comment.accepted ? 'Accepted' : 'Declined'}
        />
        {comment.rubricItem ? (
          <Chip
            size="small"
            variant="outlined"
            label={`Rubric: ${comment.rubricItem.criterion} (${formatPoints(comment.rubricItem.points)} pts)`}
            sx={{ maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
          />
        ) : (
          <Chip size="small" variant="outlined" label="General remark" />
        )}
      </Stack>
      <Box id={textId}>
        <Typography
          sx={{
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            ...(comment.accepted ? {} : { color: 'text.secondary' }),
          }}
        >
          {comment.text || '(no text)'}
        </Typography>
        <Typography
          variant="body2"
          sx={{ mt: 0.5, color: comment.pointsDeducted > 0 ? 'error.light' : 'success.light' }}
        >
          Points Deducted: {formatPoints(comment.pointsDeducted)}
        </Typography>
      </Box>
      <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', mt: 1 }}>
        <Button
          size="small"
          color="success"
          variant={comment.accepted ? 'contained' : 'text'}
          startIcon={<CheckIcon />}
          aria-pressed={comment.accepted}
          aria-label={`Accept comment ${number}`}
          onClick={onAccept}
        >
          Accept
        </Button>
        <Button
          size="small"
          color="inherit"
          variant={comment.accepted ? 'text' : 'contained'}
          startIcon={<CloseIcon />}
          aria-pressed={!comment.accepted}
          aria-label={`Decline comment ${number}`}
          onClick={onDecline}
        >
          Decline
        </Button>
        <Button size="small" startIcon={<EditOutlinedIcon />} aria-label={`Edit comment ${number}`} onClick={onEdit}>
          Edit
        </Button>
        <Button
          size="small"
          color="error"
          startIcon={<DeleteOutlineIcon />}
          aria-label={`Delete comment ${number}`}
          onClick={onDelete}
        >
          Delete
        </Button>
      </Stack>
      {regionControls}
    </>
  );
}
