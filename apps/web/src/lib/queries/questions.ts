import { queryOptions } from '@tanstack/react-query';
import { QuestionDetail, QuestionList } from '@gradewise/shared/contracts/questions';
import { SubmissionVersionsOutput } from '@gradewise/shared/contracts/submissions';
import { apiClient } from '../api-client.ts';
import { apiPaths } from '../api-paths.ts';
import { queryKeys } from '../query-keys.ts';

/** The questions queries: each key (lib/query-keys.ts) with its fetcher; hooks spread them into useQuery. */
export const questionQueries = {
  /** In creation order. */
  list: (assignmentId: string) =>
    queryOptions({
      queryKey: queryKeys.questions.list(assignmentId),
      queryFn: ({ signal }) => apiClient.get(apiPaths.questions.list(assignmentId), QuestionList, { signal }),
    }),
  /**
   * The question with the submissions the caller may see: the question page, the grading screen
   * and the rubric screens all read this one entry, so a save refreshes it once for all of them.
   */
  detail: (assignmentId: string, questionId: string) =>
    queryOptions({
      queryKey: queryKeys.questions.detail(assignmentId, questionId),
      queryFn: ({ signal }) =>
        apiClient.get(apiPaths.questions.detail(assignmentId, questionId), QuestionDetail, { signal }),
    }),
  /** Every upload of one student, newest first. */
  versions: (assignmentId: string, questionId: string, submissionId: string) =>
    queryOptions({
      queryKey: queryKeys.questions.versions(assignmentId, questionId, submissionId),
      queryFn: ({ signal }) =>
        apiClient.get(apiPaths.submissions.versions(assignmentId, questionId, submissionId), SubmissionVersionsOutput, {
          signal,
        }),
    }),
};
