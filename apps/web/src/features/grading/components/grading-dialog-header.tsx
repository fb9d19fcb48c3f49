import { Box } from '@mui/material';
import type { ReviewQueueItem } from '@gradewise/shared/contracts/review';
import { GradingTitleBar, type GradingTitleBarProps } from './grading-dialog-frame.tsx';
import { ShortcutsHelp } from './keyboard-shortcuts.tsx';
import { ReviewQueueBar, type QueuePosition } from './review-queue-bar.tsx';

export { GRADE_DIALOG_TITLE, GRADE_DIALOG_TITLE_ID } from './grading-dialog-frame.tsx';

export interface GradingDialogHeaderProps {
  subtitle: GradingTitleBarProps['subtitle'];
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
    <GradingTitleBar subtitle={subtitle} onClose={onClose}>
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
    </GradingTitleBar>
  );
}
