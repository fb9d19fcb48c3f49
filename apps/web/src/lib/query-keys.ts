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
    waitingInvitations: () => ['courses', 'waiting-invitations'] as const,
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
    /** A question with all its submissions (grading, rubric screens); its pages and versions sit under it. */
    detail: (assignmentId: string, questionId: string) => ['questions', 'detail', assignmentId, questionId] as const,
    versions: (assignmentId: string, questionId: string, submissionId: string) =>
      [...queryKeys.questions.detail(assignmentId, questionId), 'versions', submissionId] as const,
    /** One page of the question page's table: under `detail`, so refreshing the question refreshes it. */
    pages: (assignmentId: string, questionId: string) =>
      [...queryKeys.questions.detail(assignmentId, questionId), 'page'] as const,
    page: (assignmentId: string, questionId: string, offset: number, limit: number) =>
      [...queryKeys.questions.pages(assignmentId, questionId), offset, limit] as const,
    /** The question with one submission (the grading screen): under `detail` too. */
    submission: (assignmentId: string, questionId: string, submissionId: string) =>
      [...queryKeys.questions.detail(assignmentId, questionId), 'submission', submissionId] as const,
  },
  grading: {
    /** Every answer's result (what POST grade answered), to drop those no screen shows. */
    results: ['grading', 'result'] as const,
    result: (submissionId: string) => ['grading', 'result', submissionId] as const,
    progress: (questionId: string) => ['grading', 'progress', questionId] as const,
    queues: ['grading', 'queue'] as const,
    queue: (questionId: string) => ['grading', 'queue', questionId] as const,
    answerGroups: (questionId: string) => ['grading', 'answer-groups', questionId] as const,
    /** One answer's group (the grading screen's notice): under the groups' key, so what refreshes them refreshes it. */
    answerGroupOf: (questionId: string, submissionId: string) =>
      [...queryKeys.grading.answerGroups(questionId), 'of', submissionId] as const,
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

/*
 * The fetchers sit beside these keys in lib/queries/<area>.ts, one module per area, so a screen loads
 * only the response contracts of what it reads: one module of every query put the question page's
 * contracts on /courses, the first route, past its 200 KB budget (decision 0039).
 */
