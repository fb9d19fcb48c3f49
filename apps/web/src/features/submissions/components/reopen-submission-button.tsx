import { Button, Typography } from '@mui/material';
import { messageOf } from '../../../lib/api-client.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { SUBMISSION_MESSAGES, useReopenSubmission } from '../api/submissions-api.ts';
import type { SubmissionTableRow } from './submission-row.ts';

export const REOPENED_TEXT = 'Reopened for resubmission';

/**
 * A graded answer is final for its student; the instructor can reopen the question for them, so
 * they may submit a new version (the saved grade stays and counts until the new one is graded).
 */
export function ReopenSubmissionButton({
  assignmentId,
  questionId,
  row,
}: {
  assignmentId: string;
  questionId: string;
  row: SubmissionTableRow;
}) {
  const reopen = useReopenSubmission(assignmentId, questionId);
  if (row.isReopened) {
    return (
      <Typography variant="body2" color="text.secondary">
        {REOPENED_TEXT}
      </Typography>
    );
  }
  return (
    <Button
      size="small"
      variant="text"
      disabled={reopen.isPending}
      aria-label={`Reopen for ${row.student.name} to resubmit`}
      onClick={() =>
        reopen.mutate(row._id, {
          onSuccess: (output) => showSuccess(output.message),
          onError: (error) => showError(messageOf(error, SUBMISSION_MESSAGES.reopenFailed), error),
        })
      }
    >
      Reopen
    </Button>
  );
}
