import { useId } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Dialog, DialogContent, Stack, Typography } from '@mui/material';
import AutoFixHighIcon from '@mui/icons-material/AutoFixHigh';
import { LoadingIcon } from '../../../components/loading-icon.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { RUBRIC_MESSAGES, useGenerateRubric } from '../api/rubrics-api.ts';
import { rubricWizardPath } from '../../../lib/paths.ts';

/**
 * Generate Rubric (spec section 4): the button says 'Generating Rubric…' and a blocking dialog
 * says it may take up to 3 minutes; on success the rubric wizard opens, on failure the dialog
 * closes and the error is shown.
 */
export function GenerateRubricButton({ assignmentId, questionId }: { assignmentId: string; questionId: string }) {
  const navigate = useNavigate();
  const generate = useGenerateRubric(assignmentId, questionId);
  const messageId = useId();
  const onClick = () =>
    generate.mutate(undefined, {
      onSuccess: (output) => {
        showSuccess(output.message || RUBRIC_MESSAGES.generated);
        navigate(rubricWizardPath(assignmentId, questionId));
      },
      onError: (error) => showError(messageOf(error, RUBRIC_MESSAGES.generateFailed), error),
    });
  return (
    <>
      <Button
        variant="contained"
        color="secondary"
        startIcon={<AutoFixHighIcon />}
        onClick={onClick}
        disabled={generate.isPending}
      >
        {generate.isPending ? RUBRIC_MESSAGES.generating : RUBRIC_MESSAGES.generate}
      </Button>
      {/* Blocking on purpose: nothing else on the page should change while the rubric is drafted. */}
      <Dialog
        open={generate.isPending}
        disableEscapeKeyDown
        aria-describedby={messageId}
        aria-label="Generating rubric"
      >
        <DialogContent>
          <Stack spacing={2} sx={{ alignItems: 'center', py: 2, px: { xs: 0, sm: 2 } }}>
            <LoadingIcon size={64} label="Generating rubric" />
            <Typography id={messageId} sx={{ textAlign: 'center' }}>
              {RUBRIC_MESSAGES.generatingDialog}
            </Typography>
          </Stack>
        </DialogContent>
      </Dialog>
    </>
  );
}
