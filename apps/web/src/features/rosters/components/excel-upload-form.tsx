import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Button, Paper, Stack, Typography } from '@mui/material';
import { SPREADSHEET_ACCEPT } from '@gradewise/shared/contracts/files';
import { FileField } from '../../../components/file-field.tsx';
import { requiredSpreadsheet } from '../../../lib/file-schemas.ts';
import { ROSTER_MESSAGES, useAddStudentsFromExcel } from '../api/rosters-api.ts';
import { showRosterError, showRosterOutcome } from './roster-toasts.tsx';

export const EXCEL_REQUIRED_MESSAGE = 'Please select an Excel file first.';

const ExcelFormSchema = z.object({ excelFile: requiredSpreadsheet(EXCEL_REQUIRED_MESSAGE) });

/** 'Upload Excel' (owning instructor): every cell holding an email, on every sheet, is read. */
export function ExcelUploadForm({ courseId, onAdded }: { courseId: string; onAdded: () => void }) {
  const headingId = useId();
  const addFromExcel = useAddStudentsFromExcel(courseId);
  const { control, handleSubmit, formState } = useForm({
    resolver: zodResolver(ExcelFormSchema),
    defaultValues: { excelFile: undefined },
  });

  const onSubmit = handleSubmit(async ({ excelFile }) => {
    try {
      const result = await addFromExcel.mutateAsync(excelFile);
      showRosterOutcome(result, ROSTER_MESSAGES.addedViaExcel);
      onAdded();
    } catch (error) {
      showRosterError(error, ROSTER_MESSAGES.excelFailed);
    }
  });
  const isSending = formState.isSubmitting;

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      sx={{ p: { xs: 2, sm: 3 }, height: '100%' }}
    >
      <Typography id={headingId} variant="h6" component="h2" gutterBottom>
        Upload Excel
      </Typography>
      <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-labelledby={headingId}>
        <FileField
          control={control}
          name="excelFile"
          label="Excel file (.xlsx or .xls)"
          accept={SPREADSHEET_ACCEPT}
          chooseText="Choose file"
          helperText="Any column or sheet: every cell that holds an email address is read."
          required
          disabled={isSending}
        />
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" disabled={isSending}>
            {isSending ? 'Uploading…' : 'Upload Excel'}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
