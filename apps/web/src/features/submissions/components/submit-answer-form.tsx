import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Alert, Button, Paper, Stack, Typography } from '@mui/material';
import { PDF_ACCEPT } from '@gradewise/shared/contracts/files';
import { RESUBMISSION_REFUSED_MESSAGE } from '@gradewise/shared/resubmission';
import { FileField } from '../../../components/file-field.tsx';
import { ApiError, messageOf } from '../../../lib/api-client.ts';
import { requiredPdf } from '../../../lib/file-schemas.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { SUBMISSION_MESSAGES, useSubmitAnswer } from '../api/submissions-api.ts';

export const SUBMIT_PDF_REQUIRED_MESSAGE = 'Please select a PDF to submit.';

const SubmitAnswerSchema = z.object({ file: requiredPdf(SUBMIT_PDF_REQUIRED_MESSAGE) });

/** A student's 'Submit Your Answer' (PDF). Submitting again adds a new version; the latest counts. */
export function SubmitAnswerForm({
  assignmentId,
  questionId,
  hasSubmitted,
  canResubmit = true,
}: {
  assignmentId: string;
  questionId: string;
  /** The student already has a submission: say that a new one replaces it. */
  hasSubmitted: boolean;
  /** False once the answer is graded (and not reopened): say so before the student tries. */
  canResubmit?: boolean;
}) {
  const headingId = useId();
  const reasonId = useId();
  // The server's refusal (409), kept on the form: the toast goes, the reason must not.
  const [refusal, setRefusal] = useState<string | null>(null);
  const submitAnswer = useSubmitAnswer(assignmentId, questionId);
  const { control, handleSubmit, reset, formState } = useForm({
    resolver: zodResolver(SubmitAnswerSchema),
    defaultValues: { file: undefined },
  });

  const onSubmit = handleSubmit(async ({ file }) => {
    setRefusal(null);
    try {
      const result = await submitAnswer.mutateAsync(file);
      showSuccess(result.message || SUBMISSION_MESSAGES.submitted);
      reset({ file: undefined });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setRefusal(messageOf(error, RESUBMISSION_REFUSED_MESSAGE));
      }
      showError(messageOf(error, SUBMISSION_MESSAGES.submitFailed), error);
    }
  });
  const isSending = formState.isSubmitting;
  // Graded and not reopened: the server would refuse, so the form says why and offers nothing to press.
  const isClosed = hasSubmitted && !canResubmit;

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 3 }, mb: 4 }}>
      <Typography id={headingId} variant="h6" component="h2" gutterBottom>
        Submit Your Answer
      </Typography>
      {refusal ? (
        <Alert id={reasonId} severity="warning" sx={{ mb: 2 }}>
          {refusal}
        </Alert>
      ) : isClosed ? (
        <Typography id={reasonId} variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {RESUBMISSION_REFUSED_MESSAGE}
        </Typography>
      ) : hasSubmitted ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          You have already submitted an answer. Submitting again replaces it; the newest one is graded.
        </Typography>
      ) : null}
      <Stack
        component="form"
        noValidate
        onSubmit={onSubmit}
        aria-label="Submit your answer"
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { xs: 'stretch', sm: 'flex-end' } }}
      >
        <Stack sx={{ flex: 1 }}>
          <FileField
            control={control}
            name="file"
            label="Answer PDF"
            accept={PDF_ACCEPT}
            chooseText="Choose PDF"
            required
            disabled={isSending || isClosed}
          />
        </Stack>
        <Button
          type="submit"
          variant="contained"
          disabled={isSending || isClosed}
          aria-describedby={isClosed || refusal ? reasonId : undefined}
          sx={{ flexShrink: 0 }}
        >
          {isSending ? 'Submitting…' : 'Submit'}
        </Button>
      </Stack>
    </Paper>
  );
}
