import { Button, DialogActions, Stack, Typography } from '@mui/material';

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

/** The bottom bar: Regrade With AI and Save Grade (spec section 2), or Close when the screen failed. */
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
    <DialogActions
      sx={{ borderTop: 1, borderColor: 'divider', px: { xs: 1.5, sm: 3 }, py: 1.5, flexWrap: 'wrap', gap: 1 }}
    >
      {hasFailed ? <Button onClick={onClose}>Close</Button> : null}
      {isEditing ? (
        <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto' }}>
          Finish editing the open comment to save the grade.
        </Typography>
      ) : null}
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" onClick={onRegrade} disabled={!hasResult || isBusy}>
          Regrade With AI
        </Button>
        <Button
          variant="contained"
          onClick={onSaveGrade}
          disabled={!hasResult || isBusy || isEditing}
          aria-busy={isSaving}
        >
          Save Grade
        </Button>
      </Stack>
    </DialogActions>
  );
}
