import { queryOptions } from '@tanstack/react-query';
import { AiQuotaOutput } from '@gradewise/shared/contracts/ai-quota';
import { AnswerGroupOfSubmissionOutput, AnswerGroupsOutput } from '@gradewise/shared/contracts/answer-groups';
import { GradeHistoryOutput } from '@gradewise/shared/contracts/grade-audit';
import { GradingOutput, GradingProgressOutput } from '@gradewise/shared/contracts/grading';
import { ReviewQueueOutput } from '@gradewise/shared/contracts/review';
import { SuggestionSummary } from '@gradewise/shared/contracts/suggestions';
import { GradingLeaseOutput } from '@gradewise/shared/contracts/work-split';
import { apiClient } from '../api-client.ts';
import { apiPaths } from '../api-paths.ts';
import { queryKeys } from '../query-keys.ts';

/** POST grade/:submissionId, as `gradingQueries.result` reads it (also read again after a refresh). */
export function readGradingResult(assignmentId: string, questionId: string, submissionId: string) {
  return apiClient.post(apiPaths.submissions.grade(assignmentId, questionId, submissionId), undefined, GradingOutput);
}

/** The grading queries: each key (lib/query-keys.ts) with its fetcher; hooks spread them into useQuery. */
export const gradingQueries = {
  /**
   * POST grade/:submissionId: the stored result of a graded submission, else a new AI suggestion
   * (the server waits for it). A query rather than a mutation so it runs once per opening, even
   * when React mounts the screen twice; dropped from the cache when the screen closes, so the next
   * opening reads the latest state.
   */
  result: (assignmentId: string, questionId: string, submissionId: string) =>
    queryOptions({
      queryKey: queryKeys.grading.result(submissionId),
      queryFn: () => readGradingResult(assignmentId, questionId, submissionId),
      retry: false,
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: 0,
    }),
  /** Latest submissions, lowest AI confidence first. */
  queue: (assignmentId: string, questionId: string) =>
    queryOptions({
      queryKey: queryKeys.grading.queue(questionId),
      queryFn: ({ signal }) =>
        apiClient.get(apiPaths.questions.reviewQueue(assignmentId, questionId), ReviewQueueOutput, { signal }),
    }),
  /** The question's latest Grade All batch. */
  progress: (assignmentId: string, questionId: string) =>
    queryOptions({
      queryKey: queryKeys.grading.progress(questionId),
      queryFn: ({ signal }) =>
        apiClient.get(apiPaths.questions.gradeAllProgress(assignmentId, questionId), GradingProgressOutput, {
          signal,
        }),
    }),
  /** The groups of alike answers, biggest first. */
  answerGroups: (assignmentId: string, questionId: string) =>
    queryOptions({
      queryKey: queryKeys.grading.answerGroups(questionId),
      queryFn: ({ signal }) =>
        apiClient.get(apiPaths.questions.answerGroups(assignmentId, questionId), AnswerGroupsOutput, { signal }),
    }),
  /** The open answer's group as the grading screen's notice shows it, without the other members (decision 0095). */
  answerGroupOf: (assignmentId: string, questionId: string, submissionId: string) =>
    queryOptions({
      queryKey: queryKeys.grading.answerGroupOf(questionId, submissionId),
      queryFn: ({ signal }) =>
        apiClient.get(
          apiPaths.questions.answerGroupOf(assignmentId, questionId, submissionId),
          AnswerGroupOfSubmissionOutput,
          { signal },
        ),
    }),
  suggestionSummary: (assignmentId: string, questionId: string) =>
    queryOptions({
      queryKey: queryKeys.grading.suggestions(questionId),
      queryFn: ({ signal }) =>
        apiClient.get(apiPaths.questions.suggestionSummary(assignmentId, questionId), SuggestionSummary, { signal }),
    }),
  /** The AI calls left to the instructor on this question's course. */
  aiQuota: (assignmentId: string, questionId: string) =>
    queryOptions({
      queryKey: queryKeys.grading.aiQuota(questionId),
      queryFn: ({ signal }) =>
        apiClient.get(apiPaths.questions.aiQuota(assignmentId, questionId), AiQuotaOutput, { signal }),
    }),
  /** Read when the History dialog opens, always fresh. */
  history: (assignmentId: string, questionId: string, submissionId: string) =>
    queryOptions({
      queryKey: queryKeys.grading.history(submissionId),
      queryFn: ({ signal }) =>
        apiClient.get(apiPaths.submissions.gradeHistory(assignmentId, questionId, submissionId), GradeHistoryOutput, {
          signal,
        }),
      staleTime: 0,
    }),
  /**
   * POST lease: takes or renews "I have this answer open" (decision 0031). A failure only means the
   * mark is missing, so it is not retried, and nothing of it outlives the screen.
   */
  lease: (assignmentId: string, questionId: string, submissionId: string) =>
    queryOptions({
      queryKey: queryKeys.grading.lease(submissionId),
      queryFn: ({ signal }) =>
        apiClient.post(
          apiPaths.submissions.lease(assignmentId, questionId, submissionId),
          undefined,
          GradingLeaseOutput,
          {
            signal,
          },
        ),
      retry: false,
      gcTime: 0,
    }),
};
