import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack } from '@mui/material';
import { COURSE_TITLE_MAX_LENGTH, CreateCourseFields } from '@gradewise/shared/contracts/courses';
import { IMAGE_ACCEPT, PDF_ACCEPT } from '@gradewise/shared/contracts/files';
import { FileField } from '../../../components/file-field.tsx';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { optionalImage, optionalPdf } from '../../../lib/file-schemas.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { COURSE_MESSAGES, useCreateCourse } from '../api/courses-api.ts';

const CourseFormSchema = CreateCourseFields.extend({
  courseImage: optionalImage(),
  syllabusFile: optionalPdf(),
});

/** Create course (spec section 2): Course Title (required), Course Image and Syllabus PDF (optional). */
export function CreateCourseForm({ onCreated }: { onCreated: (courseId: string) => void }) {
  const createCourse = useCreateCourse();
  const { control, handleSubmit, formState } = useForm({
    resolver: zodResolver(CourseFormSchema),
    defaultValues: { title: '', courseImage: undefined, syllabusFile: undefined },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await createCourse.mutateAsync(values);
      showSuccess(result.message || COURSE_MESSAGES.created);
      onCreated(result.course._id);
    } catch (error) {
      showError(messageOf(error, COURSE_MESSAGES.createFailed), error);
    }
  });
  const isSaving = formState.isSubmitting;

  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={3} aria-label="Create course">
      <FormTextField
        control={control}
        name="title"
        label="Course Title"
        required
        fullWidth
        autoFocus
        helperText={`At most ${COURSE_TITLE_MAX_LENGTH} characters.`}
        slotProps={{ htmlInput: { maxLength: COURSE_TITLE_MAX_LENGTH } }}
      />
      <FileField
        control={control}
        name="courseImage"
        label="Course Image"
        accept={IMAGE_ACCEPT}
        chooseText="Choose image"
        helperText="PNG, JPEG, WebP or GIF. Shown on the course card and page."
        disabled={isSaving}
      />
      <FileField
        control={control}
        name="syllabusFile"
        label="Syllabus PDF"
        accept={PDF_ACCEPT}
        chooseText="Choose PDF"
        disabled={isSaving}
      />
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" size="large" disabled={isSaving}>
          {isSaving ? 'Creating…' : 'Create Course'}
        </Button>
      </Stack>
    </Stack>
  );
}
