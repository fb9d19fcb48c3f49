import { queryOptions } from '@tanstack/react-query';
import { QuestionDetail, QuestionList, QuestionPage } from '@gradewise/shared/contracts/questions';
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
   * The question with every submission the caller may see: the rubric screens read this one entry;
   * the question page reads pages of it (`page`) and the grading screen its one submission
   * (`submission`), both under this key, so a save refreshes all of them at once.
   */
  detail: (assignmentId: string, questionId: string) =>
    queryOptions({
      queryKey: queryKeys.questions.detail(assignmentId, questionId),
      queryFn: ({ signal }) =>
        apiClient.get(apiPaths.questions.detail(assignmentId, questionId), QuestionDetail, { signal }),
    }),
  /**
   * The question with one page of its submissions (the question page's table, decision 0042): a
   * class of hundreds is not sent whole to show 25 rows, and staff rows carry the table's fields
   * only, not each answer's text and comments (decision 0057). The rubric screens read `detail`.
   */
  page: (assignmentId: string, questionId: string, offset: number, limit: number) =>
    queryOptions({
      queryKey: queryKeys.questions.page(assignmentId, questionId, offset, limit),
      queryFn: ({ signal }) =>
        apiClient.get(apiPaths.questions.detailPage(assignmentId, questionId, { offset, limit }), QuestionPage, {
          signal,
        }),
    }),
  /**
   * The question with one submission, with the same fields as a row of the list (none when it is
   * not in the list): the grading screen shows one answer and reads only that (decision 0046). Read
   * whole, but the screen relies on the table's fields only (QuestionPage), so a cached page of the
   * table can stand in for it until it arrives (features/grading/api/grading-api.ts).
   */
  submission: (assignmentId: string, questionId: string, submissionId: string) =>
    queryOptions({
      queryKey: queryKeys.questions.submission(assignmentId, questionId, submissionId),
      queryFn: ({ signal }): Promise<QuestionPage> =>
        apiClient.get(apiPaths.questions.detailSubmission(assignmentId, questionId, submissionId), QuestionDetail, {
          signal,
        }),
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
