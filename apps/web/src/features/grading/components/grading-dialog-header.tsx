import { Box, IconButton, Toolbar, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import type { ReviewQueueItem } from '@gradewise/shared/contracts/review';
import { formatPoints } from '../format.ts';
import { ShortcutsHelp } from './keyboard-shortcuts.tsx';
import { ReviewQueueBar, type QueuePosition } from './review-queue-bar.tsx';

export const GRADE_DIALOG_TITLE = 'Grade Question Submission';
export const GRADE_DIALOG_TITLE_ID = 'grade-dialog-title';

export interface GradingDialogHeaderProps {
  /** "Sam Student · Eigenvalues · 10 points", once the submission is known. */
  subtitle: { studentName: string; questionTitle: string | null | undefined; points: number } | null;
  inQueue: boolean;
  position: QueuePosition | null;
  isHelpOpen: boolean;
  onHelpOpenChange(open: boolean): void;
  onClose(): void;
  onGo(item: ReviewQueueItem): void;
}

/** The grading screen's top bar: Close, the title and whose answer it is, shortcuts, and the review queue. */
export function GradingDialogHeader({
  subtitle,
  inQueue,
  position,
  isHelpOpen,
  onHelpOpenChange,
  onClose,
  onGo,
}: GradingDialogHeaderProps) {
  return (
    <Toolbar sx={{ gap: 1, flexWrap: 'wrap', flexShrink: 0, borderBottom: 1, borderColor: 'divider', py: 1 }}>
      <IconButton edge="start" color="inherit" aria-label="Close" onClick={onClose}>
        <CloseIcon />
      </IconButton>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography id={GRADE_DIALOG_TITLE_ID} variant="h6" component="h1">
          {GRADE_DIALOG_TITLE}
        </Typography>
        {subtitle ? (
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {subtitle.studentName} · {subtitle.questionTitle ?? 'Question'} · {formatPoints(subtitle.points)} points
          </Typography>
        ) : (
          // The line's place is kept until the submission is known, so the screen below it does not
          // move down when it arrives (a layout shift of 0.014 once the dialog no longer fades in).
          <Typography variant="body2" aria-hidden>
            {'\u00a0'}
          </Typography>
        )}
      </Box>
      <Box sx={{ order: 2 }}>
        <ShortcutsHelp inQueue={inQueue} open={isHelpOpen} onOpenChange={onHelpOpenChange} />
      </Box>
      {position ? (
        // On a phone the queue gets a line of its own under the title.
        <Box
          sx={{
            order: { xs: 3, md: 1 },
            width: { xs: '100%', md: 'auto' },
            display: 'flex',
            justifyContent: 'center',
          }}
        >
          <ReviewQueueBar position={position} onGo={onGo} />
        </Box>
      ) : null}
    </Toolbar>
  );
}
