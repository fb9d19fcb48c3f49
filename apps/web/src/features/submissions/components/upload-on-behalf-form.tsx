import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Paper, Stack, Typography } from '@mui/material';
import { PDF_ACCEPT } from '@gradewise/shared/contracts/files';
import { UploadOnBehalfFields } from '@gradewise/shared/contracts/submissions';
import { FileField } from '../../../components/file-field.tsx';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { requiredPdf } from '../../../lib/file-schemas.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { SUBMISSION_MESSAGES, useUploadOnBehalf } from '../api/submissions-api.ts';

export const UPLOAD_PDF_REQUIRED_MESSAGE = 'Please select a PDF to upload.';

const UploadOnBehalfSchema = UploadOnBehalfFields.extend({ file: requiredPdf(UPLOAD_PDF_REQUIRED_MESSAGE) });

/** The instructor's 'Upload on Behalf of a Student': an enrolled student's email and their PDF. */
export function UploadOnBehalfForm({ assignmentId, questionId }: { assignmentId: string; questionId: string }) {
  const headingId = useId();
  const uploadOnBehalf = useUploadOnBehalf(assignmentId, questionId);
  const { control, handleSubmit, reset, formState } = useForm({
    resolver: zodResolver(UploadOnBehalfSchema),
    defaultValues: { studentEmail: '', file: undefined },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await uploadOnBehalf.mutateAsync(values);
      showSuccess(result.message || SUBMISSION_MESSAGES.uploaded);
      reset({ studentEmail: '', file: undefined });
    } catch (error) {
      showError(messageOf(error, SUBMISSION_MESSAGES.uploadFailed), error);
    }
  });
  const isSending = formState.isSubmitting;

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 3 }, mb: 4 }}>
      <Typography id={headingId} variant="h6" component="h2" gutterBottom>
        Upload on Behalf of a Student
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        For a student enrolled in this course, for example an answer handed in on paper and scanned.
      </Typography>
      <Stack
        component="form"
        noValidate
        onSubmit={onSubmit}
        spacing={2}
        aria-label="Upload on behalf of a student"
        sx={{ maxWidth: 720 }}
      >
        <FormTextField
          control={control}
          name="studentEmail"
          label="Student Email"
          type="email"
          autoComplete="off"
          required
          fullWidth
        />
        <FileField
          control={control}
          name="file"
          label="Student's PDF"
          accept={PDF_ACCEPT}
          chooseText="Choose PDF"
          required
          disabled={isSending}
        />
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" disabled={isSending}>
            {isSending ? 'Uploading…' : 'Upload'}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
