import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Alert, Button, Stack } from '@mui/material';
import { PDF_ACCEPT } from '@gradewise/shared/contracts/files';
import {
  CreateQuestionFields,
  DEFAULT_QUESTION_POINTS,
  MAX_QUESTION_POINTS,
  QUESTION_TITLE_MAX_LENGTH,
} from '@gradewise/shared/contracts/questions';
import { FileField } from '../../../components/file-field.tsx';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { optionalPdf, requiredPdf } from '../../../lib/file-schemas.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { QUESTION_MESSAGES, useCreateQuestion } from '../api/questions-api.ts';

export const QUESTION_PDF_REQUIRED_MESSAGE = 'Please select a Question PDF.';
export const POINTS_REQUIRED_MESSAGE = 'Please enter the points.';
export const TWO_PAGE_HINT = 'For best results, PDFs should be no longer than two pages and reasonably organized.';

const QuestionFormSchema = z.object({
  title: CreateQuestionFields.shape.title,
  // The field is required here: a cleared box is a mistake to point out, not a silent 10.
  points: z
    .string()
    .trim()
    .min(1, POINTS_REQUIRED_MESSAGE)
    .transform((value, context) => {
      // The shared rule (a number, > 0, at most the maximum) with its messages.
      const parsed = CreateQuestionFields.shape.points.safeParse(value);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', message: issue.message });
      return z.NEVER;
    }),
  questionFile: requiredPdf(QUESTION_PDF_REQUIRED_MESSAGE),
  solutionFile: optionalPdf(),
});

/** Create question (spec section 2): Title (optional), Points (default 10), Question PDF, Solution PDF (optional). */
export function CreateQuestionForm({
  assignmentId,
  onCreated,
}: {
  assignmentId: string;
  onCreated: (questionId: string) => void;
}) {
  const createQuestion = useCreateQuestion(assignmentId);
  const { control, handleSubmit, formState } = useForm({
    resolver: zodResolver(QuestionFormSchema),
    defaultValues: {
      title: '',
      points: String(DEFAULT_QUESTION_POINTS),
      questionFile: undefined,
      solutionFile: undefined,
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await createQuestion.mutateAsync(values);
      showSuccess(result.message || QUESTION_MESSAGES.created);
      onCreated(result.question._id);
    } catch (error) {
      showError(messageOf(error, QUESTION_MESSAGES.createFailed), error);
    }
  });
  const isSaving = formState.isSubmitting;

  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={3} aria-label="Create question">
      <Alert severity="info" variant="outlined">
        {TWO_PAGE_HINT}
      </Alert>
      <FormTextField
        control={control}
        name="title"
        label="Title (optional)"
        fullWidth
        autoFocus
        slotProps={{ htmlInput: { maxLength: QUESTION_TITLE_MAX_LENGTH } }}
      />
      <FormTextField
        control={control}
        name="points"
        label="Points"
        type="number"
        required
        fullWidth
        slotProps={{ htmlInput: { min: 0, max: MAX_QUESTION_POINTS, step: 'any', inputMode: 'decimal' } }}
      />
      <FileField
        control={control}
        name="questionFile"
        label="Question PDF"
        accept={PDF_ACCEPT}
        chooseText="Choose PDF"
        required
        disabled={isSaving}
      />
      <FileField
        control={control}
        name="solutionFile"
        label="Solution PDF"
        accept={PDF_ACCEPT}
        chooseText="Choose PDF"
        helperText="Used to draft the rubric. Students never see it."
        disabled={isSaving}
      />
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" size="large" disabled={isSaving}>
          {isSaving ? 'Creating…' : 'Create Question'}
        </Button>
      </Stack>
    </Stack>
  );
}
