import { Button, DialogActions, Typography } from '@mui/material';
import { GRADING_ACTIONS_SX, GradingActionButtons } from './grading-dialog-frame.tsx';

export interface GradingDialogActionsProps {
  hasFailed: boolean;
  hasResult: boolean;
  isBusy: boolean;
  isSaving: boolean;
  isEditing: boolean;
  onClose(): void;
  onRegrade(): void;
  onSaveGrade(): void;
}

/**
 * The bottom bar: Regrade With AI and Save Grade (spec section 2), and Close when the screen failed.
 * A screen that failed with nothing to show (a submission not found, a read that failed) offers
 * only Close: there is no answer to regrade or save.
 */
export function GradingDialogActions({
  hasFailed,
  hasResult,
  isBusy,
  isSaving,
  isEditing,
  onClose,
  onRegrade,
  onSaveGrade,
}: GradingDialogActionsProps) {
  return (
    <DialogActions sx={GRADING_ACTIONS_SX}>
      {hasFailed ? <Button onClick={onClose}>Close</Button> : null}
      {isEditing ? (
        <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto' }}>
          Finish editing the open comment to save the grade.
        </Typography>
      ) : null}
      {hasFailed && !hasResult ? null : (
        <GradingActionButtons
          canAct={hasResult && !isBusy}
          canSave={hasResult && !isBusy && !isEditing}
          isSaving={isSaving}
          onRegrade={onRegrade}
          onSaveGrade={onSaveGrade}
        />
      )}
    </DialogActions>
  );
}
