import { queryOptions } from '@tanstack/react-query';
import { AiQuotaOutput } from '@gradewise/shared/contracts/ai-quota';
import { AnswerGroupsOutput } from '@gradewise/shared/contracts/answer-groups';
import { AssignmentDetail, AssignmentList } from '@gradewise/shared/contracts/assignments';
import { CourseDetail, CourseList } from '@gradewise/shared/contracts/courses';
import { GradeHistoryOutput } from '@gradewise/shared/contracts/grade-audit';
import { GradingOutput, GradingProgressOutput } from '@gradewise/shared/contracts/grading';
import { QuestionDetail, QuestionList } from '@gradewise/shared/contracts/questions';
import { RegradeQueue } from '@gradewise/shared/contracts/regrades';
import { GradingReport, ReviewQueueOutput } from '@gradewise/shared/contracts/review';
import { StaffList } from '@gradewise/shared/contracts/staff';
import { StatisticsOutput } from '@gradewise/shared/contracts/statistics';
import { SubmissionVersionsOutput } from '@gradewise/shared/contracts/submissions';
import { SuggestionSummary } from '@gradewise/shared/contracts/suggestions';
import { GradingLeaseOutput, WorkSplitOutput } from '@gradewise/shared/contracts/work-split';
import { apiClient } from './api-client.ts';
import { apiPaths } from './api-paths.ts';

/**
 * Every TanStack Query key of the app, in one place, so a feature can refresh what another one
 * shows (adding students refreshes the course, submitting refreshes the question) without the
 * features importing each other. Keys are prefixes of each other on purpose: invalidating
 * `assignments.all` refreshes every assignment list and detail (a new question changes points),
 * and invalidating a question's `detail` refreshes its submissions' versions too.
 */
export const queryKeys = {
  courses: {
    all: ['courses'] as const,
    list: () => ['courses', 'list'] as const,
    detail: (courseId: string) => ['courses', 'detail', courseId] as const,
    staff: (courseId: string) => ['courses', 'staff', courseId] as const,
    workSplit: (courseId: string) => ['courses', 'work-split', courseId] as const,
  },
  assignments: {
    all: ['assignments'] as const,
    lists: ['assignments', 'list'] as const,
    list: (courseId?: string) => ['assignments', 'list', { courseId: courseId ?? null }] as const,
    detail: (assignmentId: string) => ['assignments', 'detail', assignmentId] as const,
  },
  questions: {
    all: ['questions'] as const,
    list: (assignmentId: string) => ['questions', 'list', assignmentId] as const,
    /** The one cache entry of a question: every screen reads it with its submissions. */
    detail: (assignmentId: string, questionId: string) => ['questions', 'detail', assignmentId, questionId] as const,
    versions: (assignmentId: string, questionId: string, submissionId: string) =>
      [...queryKeys.questions.detail(assignmentId, questionId), 'versions', submissionId] as const,
  },
  grading: {
    result: (submissionId: string) => ['grading', 'result', submissionId] as const,
    progress: (questionId: string) => ['grading', 'progress', questionId] as const,
    queues: ['grading', 'queue'] as const,
    queue: (questionId: string) => ['grading', 'queue', questionId] as const,
    answerGroups: (questionId: string) => ['grading', 'answer-groups', questionId] as const,
    /** The suggestion summary; the AI quota sits under it, so what refreshes one refreshes both. */
    suggestions: (questionId: string) => ['grading', 'suggestions', questionId] as const,
    aiQuota: (questionId: string) => [...queryKeys.grading.suggestions(questionId), 'ai-quota'] as const,
    history: (submissionId: string) => ['grading', 'history', submissionId] as const,
    lease: (submissionId: string) => ['grading', 'lease', submissionId] as const,
  },
  regrades: {
    all: ['regrades'] as const,
    queue: (courseId: string, status: RegradeQueueStatus) => ['regrades', 'queue', courseId, status] as const,
  },
  reports: {
    all: ['reports'] as const,
    grading: (submissionId: string) => ['reports', 'grading', submissionId] as const,
  },
  statistics: (assignmentId: string, questionId?: string) => ['statistics', assignmentId, questionId ?? null] as const,
};

export type RegradeQueueStatus = 'open' | 'resolved';

/**
 * Every query's key with its fetcher (and, where the entry needs them, its cache lifetimes). Hooks
 * spread these into `useQuery` and add what is the screen's choice (`enabled`, polling, `select`).
 */
export const queries = {
  courses: {
    /** The instructor's own courses, or the student's enrolled ones. */
    list: () =>
      queryOptions({
        queryKey: queryKeys.courses.list(),
        queryFn: ({ signal }) => apiClient.get(apiPaths.courses.list, CourseList, { signal }),
      }),
    detail: (courseId: string) =>
      queryOptions({
        queryKey: queryKeys.courses.detail(courseId),
        queryFn: ({ signal }) => apiClient.get(apiPaths.courses.one(courseId), CourseDetail, { signal }),
      }),
    staff: (courseId: string) =>
      queryOptions({
        queryKey: queryKeys.courses.staff(courseId),
        queryFn: ({ signal }) => apiClient.get(apiPaths.courses.staff(courseId), StaffList, { signal }),
      }),
    workSplit: (courseId: string) =>
      queryOptions({
        queryKey: queryKeys.courses.workSplit(courseId),
        queryFn: ({ signal }) => apiClient.get(apiPaths.courses.workSplit(courseId), WorkSplitOutput, { signal }),
      }),
  },

  assignments: {
    list: (courseId?: string) =>
      queryOptions({
        queryKey: queryKeys.assignments.list(courseId),
        queryFn: ({ signal }) => apiClient.get(apiPaths.assignments.list(courseId), AssignmentList, { signal }),
      }),
    detail: (assignmentId: string) =>
      queryOptions({
        queryKey: queryKeys.assignments.detail(assignmentId),
        queryFn: ({ signal }) => apiClient.get(apiPaths.assignments.one(assignmentId), AssignmentDetail, { signal }),
      }),
  },

  questions: {
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
          apiClient.get(
            apiPaths.submissions.versions(assignmentId, questionId, submissionId),
            SubmissionVersionsOutput,
            {
              signal,
            },
          ),
      }),
  },

  grading: {
    /**
     * POST grade/:submissionId: the stored result of a graded submission, else a new AI suggestion
     * (the server waits for it). A query rather than a mutation so it runs once per opening, even
     * when React mounts the screen twice; dropped from the cache when the screen closes, so the next
     * opening reads the latest state.
     */
    result: (assignmentId: string, questionId: string, submissionId: string) =>
      queryOptions({
        queryKey: queryKeys.grading.result(submissionId),
        queryFn: () =>
          apiClient.post(apiPaths.submissions.grade(assignmentId, questionId, submissionId), undefined, GradingOutput),
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
  },

  regrades: {
    queue: (courseId: string, status: RegradeQueueStatus) =>
      queryOptions({
        queryKey: queryKeys.regrades.queue(courseId, status),
        queryFn: ({ signal }) =>
          apiClient.get(apiPaths.courses.regradeRequests(courseId, status), RegradeQueue, { signal }),
      }),
  },

  reports: {
    /** The staff view, or a student's own latest submission. */
    grading: (assignmentId: string, questionId: string, submissionId: string) =>
      queryOptions({
        queryKey: queryKeys.reports.grading(submissionId),
        queryFn: ({ signal }) =>
          apiClient.get(apiPaths.submissions.report(assignmentId, questionId, submissionId), GradingReport, { signal }),
      }),
  },

  /** A question's statistics, or the assignment's without `questionId`. */
  statistics: (assignmentId: string, questionId?: string) =>
    queryOptions({
      queryKey: queryKeys.statistics(assignmentId, questionId),
      queryFn: ({ signal }) =>
        apiClient.get(apiPaths.scoped.statistics(assignmentId, questionId), StatisticsOutput, { signal }),
    }),
};
