import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Button, Paper, Stack, Typography } from '@mui/material';
import { MAX_ROSTER_ENTRIES, splitRosterEntries, type InvitationConfirmer } from '@gradewise/shared/contracts/courses';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { ROSTER_MESSAGES, useAddStudentsByEmail } from '../api/rosters-api.ts';
import { showRosterError, showRosterOutcome } from './roster-toasts.tsx';

export const EMAILS_REQUIRED_MESSAGE = 'Please enter at least one email.';

const EmailsFormSchema = z.object({
  // Split on commas (also semicolons and line breaks, as pasted from a spreadsheet), trimmed, empties dropped.
  emails: z
    .string()
    .transform(splitRosterEntries)
    .refine((entries) => entries.length > 0, EMAILS_REQUIRED_MESSAGE)
    .refine(
      (entries) => entries.length <= MAX_ROSTER_ENTRIES,
      `Please add at most ${MAX_ROSTER_ENTRIES} students at a time.`,
    ),
});

/** What happens to an email without an account, as it happens on this server. */
export function invitationHelp(confirmedBy: InvitationConfirmer | undefined): string {
  return confirmedBy === 'email'
    ? 'People without an account yet are invited: they join once they register and confirm their email.'
    : 'People without an account yet are invited: once they register, you confirm them below (Confirm all).';
}

/** 'Add Students by Email' (owning instructor): a box of comma-separated emails. */
export function AddStudentsByEmailForm({
  courseId,
  onAdded,
  confirmedBy,
}: {
  courseId: string;
  onAdded: () => void;
  /** How invited students come in on this server (the course detail says). */
  confirmedBy?: InvitationConfirmer;
}) {
  const headingId = useId();
  const addStudents = useAddStudentsByEmail(courseId);
  const { control, handleSubmit, formState } = useForm({
    resolver: zodResolver(EmailsFormSchema),
    defaultValues: { emails: '' },
  });

  const onSubmit = handleSubmit(async ({ emails }) => {
    try {
      const result = await addStudents.mutateAsync(emails);
      showRosterOutcome(result, ROSTER_MESSAGES.added);
      onAdded();
    } catch (error) {
      showRosterError(error, ROSTER_MESSAGES.addFailed);
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
        Add Students by Email
      </Typography>
      <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-labelledby={headingId}>
        <FormTextField
          control={control}
          name="emails"
          label="Student emails"
          placeholder="ana@school.edu, ben@school.edu"
          helperText={`Separate emails with commas. ${invitationHelp(confirmedBy)}`}
          multiline
          minRows={3}
          fullWidth
          required
        />
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" disabled={isSending}>
            {isSending ? 'Adding…' : 'Add Students'}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
