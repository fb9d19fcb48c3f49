import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Alert, Button, Checkbox, FormControlLabel, FormHelperText, Stack } from '@mui/material';
import { ASSIGNMENT_TITLE_MAX_LENGTH, CreateAssignmentInput } from '@gradewise/shared/contracts/assignments';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { ASSIGNMENT_MESSAGES, useCreateAssignment } from '../api/assignments-api.ts';

const AssignmentFormSchema = z.object({
  title: CreateAssignmentInput.shape.title,
  /** The datetime-local value: local wall-clock time without a zone, or '' for no deadline. */
  deadline: z
    .string()
    .refine((value) => value === '' || !Number.isNaN(new Date(value).getTime()), 'Please enter a valid deadline.'),
  allowsResubmission: z.boolean(),
});

/** What /assignments/create expects in the navigation state: the spec passes the course id there. */
export interface CreateAssignmentState {
  courseId: string;
  /** Shown on the form, so the instructor sees which course the assignment goes to. */
  courseTitle?: string;
}

/** The state as it arrived: anything else (a bookmark, a reload in another tab) has no course. */
export function readCreateAssignmentState(state: unknown): CreateAssignmentState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { courseId, courseTitle } = state as Record<string, unknown>;
  if (typeof courseId !== 'string' || courseId.trim() === '') return null;
  return { courseId, courseTitle: typeof courseTitle === 'string' ? courseTitle : undefined };
}

/** A datetime-local value is the reader's local time; the API wants an instant (ISO 8601 with zone). */
export const toDeadlineInstant = (localValue: string): string | null =>
  localValue ? new Date(localValue).toISOString() : null;

/**
 * A deadline already gone is allowed (an assignment entered after the fact), but said: every
 * answer submitted to it would be marked late (issue 13 item 10).
 */
export function isPastDeadline(localValue: string, now = Date.now()): boolean {
  if (!localValue) return false;
  const at = new Date(localValue).getTime();
  return !Number.isNaN(at) && at < now;
}

/** Create assignment (spec section 2): title (required) and an optional deadline, for one course. */
export function CreateAssignmentForm({
  courseId,
  onCreated,
}: {
  courseId: string;
  onCreated: (assignmentId: string) => void;
}) {
  const createAssignment = useCreateAssignment();
  const { control, handleSubmit, formState } = useForm({
    resolver: zodResolver(AssignmentFormSchema),
    defaultValues: { title: '', deadline: '', allowsResubmission: false },
  });

  const onSubmit = handleSubmit(async ({ title, deadline, allowsResubmission }) => {
    try {
      const result = await createAssignment.mutateAsync({
        title,
        courseId,
        deadline: toDeadlineInstant(deadline),
        allowsResubmission,
      });
      showSuccess(result.message || ASSIGNMENT_MESSAGES.created);
      onCreated(result.assignment._id);
    } catch (error) {
      showError(messageOf(error, ASSIGNMENT_MESSAGES.createFailed), error);
    }
  });
  const isSaving = formState.isSubmitting;
  const deadline = useWatch({ control, name: 'deadline' });

  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={3} aria-label="Create assignment">
      <FormTextField
        control={control}
        name="title"
        label="Title"
        required
        fullWidth
        autoFocus
        slotProps={{ htmlInput: { maxLength: ASSIGNMENT_TITLE_MAX_LENGTH } }}
      />
      <FormTextField
        control={control}
        name="deadline"
        label="Deadline (optional)"
        type="datetime-local"
        fullWidth
        helperText="In your time zone. Answers submitted after it are marked late."
        slotProps={{ inputLabel: { shrink: true } }}
      />
      {isPastDeadline(deadline) ? (
        <Alert severity="warning" role="status" sx={{ mt: -1.5 }}>
          This deadline has already passed: every answer submitted will be marked late. You can still create the
          assignment.
        </Alert>
      ) : null}
      <Controller
        control={control}
        name="allowsResubmission"
        render={({ field }) => (
          <Stack>
            <FormControlLabel
              control={
                <Checkbox
                  checked={field.value}
                  onChange={(event) => field.onChange(event.target.checked)}
                  slotProps={{ input: { 'aria-describedby': 'allows-resubmission-help' } }}
                />
              }
              label="Allow resubmission after grading"
            />
            <FormHelperText id="allows-resubmission-help" sx={{ mt: 0 }}>
              Off: a graded answer is final unless you reopen it for that student. On: students may send a new version
              at any time; their earlier grade counts until you grade the new one.
            </FormHelperText>
          </Stack>
        )}
      />
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" size="large" disabled={isSaving}>
          {isSaving ? 'Creating…' : 'Create Assignment'}
        </Button>
      </Stack>
    </Stack>
  );
}
