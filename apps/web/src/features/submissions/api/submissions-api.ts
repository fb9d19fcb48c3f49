import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SUBMISSION_FILE_FIELD,
  SubmitAnswerOutput,
  UploadOnBehalfOutput,
} from '@gradewise/shared/contracts/submissions';
import { ReopenSubmissionOutput } from '@gradewise/shared/contracts/grading';
import { apiClient } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { questionQueries } from '../../../lib/queries/questions.ts';

export const SUBMISSION_MESSAGES = {
  submitFailed: 'Failed to submit answer.',
  submitted: 'Submission successful!',
  uploadFailed: 'Failed to upload submission.',
  uploaded: 'Uploaded on behalf of the student!',
  reopenFailed: 'Failed to reopen the question for this student.',
} as const;

function useRefreshQuestion(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.questions.detail(assignmentId, questionId) });
}

/** POST .../submit: a student's own answer PDF (multipart `file`); each upload is a new version. */
export function useSubmitAnswer(assignmentId: string, questionId: string) {
  const refreshQuestion = useRefreshQuestion(assignmentId, questionId);
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append(SUBMISSION_FILE_FIELD, file);
      return apiClient.post(apiPaths.questions.submit(assignmentId, questionId), form, SubmitAnswerOutput);
    },
    onSuccess: refreshQuestion,
  });
}

/** POST .../upload-submission: the owning instructor uploads a PDF for an enrolled student, by email. */
export function useUploadOnBehalf(assignmentId: string, questionId: string) {
  const refreshQuestion = useRefreshQuestion(assignmentId, questionId);
  return useMutation({
    mutationFn: ({ studentEmail, file }: { studentEmail: string; file: File }) => {
      const form = new FormData();
      form.append('studentEmail', studentEmail);
      form.append(SUBMISSION_FILE_FIELD, file);
      return apiClient.post(apiPaths.questions.uploadSubmission(assignmentId, questionId), form, UploadOnBehalfOutput);
    },
    onSuccess: refreshQuestion,
  });
}

/** GET .../submissions/:submissionId/versions (owning instructor): every upload of that student, newest first. */
export function useSubmissionVersions(
  assignmentId: string,
  questionId: string,
  submissionId: string,
  enabled: boolean,
) {
  return useQuery({ ...questionQueries.versions(assignmentId, questionId, submissionId), enabled });
}

/**
 * POST .../submissions/:submissionId/reopen (owning instructor): the student of that submission may
 * send a new version although it was graded, until a grade is saved again.
 */
export function useReopenSubmission(assignmentId: string, questionId: string) {
  const refreshQuestion = useRefreshQuestion(assignmentId, questionId);
  return useMutation({
    mutationFn: (submissionId: string) =>
      apiClient.post(
        apiPaths.submissions.reopen(assignmentId, questionId, submissionId),
        undefined,
        ReopenSubmissionOutput,
      ),
    onSuccess: refreshQuestion,
  });
}
