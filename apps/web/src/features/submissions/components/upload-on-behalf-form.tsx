import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Accordion, AccordionDetails, AccordionSummary, Box, Button, Stack, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
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

/**
 * The instructor's 'Upload on Behalf of a Student': an enrolled student's email and their PDF,
 * folded until opened. It stays open after an upload, for the next scanned answer.
 */
export function UploadOnBehalfForm({ assignmentId, questionId }: { assignmentId: string; questionId: string }) {
  const headingId = useId();
  const panelId = useId();
  const [isOpen, setIsOpen] = useState(false);
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
    // Rarely used, so it waits folded under the submissions (issue 13): the table starts above the
    // fold at a desk and near the top on a phone. Opening it is one click or Enter on its heading.
    <Accordion
      variant="outlined"
      disableGutters
      expanded={isOpen}
      onChange={(_, expanded) => setIsOpen(expanded)}
      slotProps={{ heading: { component: 'h2' }, transition: { unmountOnExit: true } }}
      sx={{ mb: 4, '&::before': { display: 'none' } }}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />} id={headingId} aria-controls={panelId}>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="span" sx={{ display: 'block' }}>
            Upload on Behalf of a Student
          </Typography>
        </Box>
      </AccordionSummary>
      <AccordionDetails id={panelId} sx={{ px: { xs: 2, sm: 3 }, pb: 3 }}>
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
      </AccordionDetails>
    </Accordion>
  );
}
