/**
 * TanStack Query keys for server state, in one place so a feature can refresh what another one
 * shows (adding students refreshes the course, submitting refreshes the question) without the
 * features importing each other. Keys are prefixes of each other on purpose: invalidating
 * `assignments.all` refreshes every assignment list and detail (a new question changes points).
 */
export const queryKeys = {
  courses: {
    all: ['courses'] as const,
    list: () => ['courses', 'list'] as const,
    detail: (courseId: string) => ['courses', 'detail', courseId] as const,
  },
  assignments: {
    all: ['assignments'] as const,
    list: (courseId?: string) => ['assignments', 'list', { courseId: courseId ?? null }] as const,
    detail: (assignmentId: string) => ['assignments', 'detail', assignmentId] as const,
  },
  questions: {
    all: ['questions'] as const,
    list: (assignmentId: string) => ['questions', 'list', assignmentId] as const,
    /** Every cached view of one question (with and without submissions). */
    views: (assignmentId: string, questionId: string) => ['questions', 'detail', assignmentId, questionId] as const,
    detail: (assignmentId: string, questionId: string, includeSubmissions: boolean) =>
      ['questions', 'detail', assignmentId, questionId, { includeSubmissions }] as const,
  },
};
