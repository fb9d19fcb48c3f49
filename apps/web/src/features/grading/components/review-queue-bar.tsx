import { Button, Stack, Typography } from '@mui/material';
import NavigateBeforeIcon from '@mui/icons-material/NavigateBefore';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import type { ReviewQueueItem } from '@gradewise/shared/contracts/review';
import { GradeFirstBadge } from './group-badges.tsx';

export interface QueuePosition {
  index: number;
  /** The open item itself. */
  current: ReviewQueueItem;
  total: number;
  remaining: number;
  previous: ReviewQueueItem | null;
  next: ReviewQueueItem | null;
}

/** Where the open submission stands in the queue (grade-first answers, then the most doubtful suggestions). */
export function queuePosition(
  items: readonly ReviewQueueItem[],
  submissionId: string,
  remaining: number,
): QueuePosition | null {
  const index = items.findIndex((item) => item.submissionId === submissionId);
  if (index < 0) return null;
  return {
    index,
    current: items[index]!,
    total: items.length,
    remaining,
    previous: items[index - 1] ?? null,
    next: items[index + 1] ?? null,
  };
}

/**
 * Where to go after saving in the queue: the next item without a saved grade after this one,
 * wrapping round to skipped ones; null when every item has a grade.
 */
/** The first answer of the queue's order still without a saved grade, other than the one just saved. */
export function firstToReview(items: readonly ReviewQueueItem[], savedId: string): ReviewQueueItem | null {
  return items.find((item) => item.status !== 'graded' && item.submissionId !== savedId) ?? null;
}

export function nextToReview(items: readonly ReviewQueueItem[], submissionId: string): ReviewQueueItem | null {
  const index = items.findIndex((item) => item.submissionId === submissionId);
  const ordered = [...items.slice(index + 1), ...items.slice(0, Math.max(index, 0))];
  return ordered.find((item) => item.status !== 'graded' && item.submissionId !== submissionId) ?? null;
}

export function ReviewQueueBar({ position, onGo }: { position: QueuePosition; onGo(item: ReviewQueueItem): void }) {
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      role="navigation"
      aria-label="Review queue"
      sx={{ alignItems: 'center', flexWrap: 'wrap' }}
    >
      <Button
        size="small"
        color="inherit"
        startIcon={<NavigateBeforeIcon />}
        disabled={!position.previous}
        onClick={() => position.previous && onGo(position.previous)}
      >
        Previous
      </Button>
      <Typography variant="body2" aria-live="polite">
        Review queue: {position.index + 1} of {position.total} · {position.remaining} left
      </Typography>
      {position.current.isGradeFirst ? (
        <GradeFirstBadge represents={position.current.represents} />
      ) : (
        <MissChance chance={position.current.missChance ?? null} />
      )}
      <Button
        size="small"
        color="inherit"
        endIcon={<NavigateNextIcon />}
        disabled={!position.next}
        onClick={() => position.next && onGo(position.next)}
      >
        Next
      </Button>
    </Stack>
  );
}

/**
 * Why this answer comes where it does: after the answers to grade first, the queue puts first the
 * suggestions most likely to be far off (decision 0097). Shown only where the grader measured it.
 */
function MissChance({ chance }: { chance: number | null }) {
  if (chance === null) return null;
  return (
    <Typography
      variant="body2"
      color="text.secondary"
      title="The chance that the suggested score is off by more than 40% of the points. The queue shows the likeliest first."
    >
      {Math.round(chance * 100)}% chance of being far off
    </Typography>
  );
}
