/**
 * The app's page URLs, built in one place: a link, a redirect and a "back" all reach a page by the
 * same function, so a route that moves changes here (the routes themselves are in app/router.tsx).
 * API paths are not pages: they are in lib/api-paths.ts.
 */

export const coursePath = (courseId: string) => `/courses/${encodeURIComponent(courseId)}`;

export const courseStudentsPath = (courseId: string) => `${coursePath(courseId)}/students`;

export const courseRegradeRequestsPath = (courseId: string) => `${coursePath(courseId)}/regrade-requests`;

export const courseWorkSplitPath = (courseId: string) => `${coursePath(courseId)}/work-split`;

export const assignmentPath = (assignmentId: string) => `/assignments/${encodeURIComponent(assignmentId)}`;

export const questionPagePath = (assignmentId: string, questionId: string) =>
  `${assignmentPath(assignmentId)}/questions/${encodeURIComponent(questionId)}`;

export const rubricWizardPath = (assignmentId: string, questionId: string) =>
  `${questionPagePath(assignmentId, questionId)}/rubric-wizard`;

export const rubricEditPath = (assignmentId: string, questionId: string) =>
  `${questionPagePath(assignmentId, questionId)}/rubric`;

export const questionListPath = (assignmentId: string) => `${assignmentPath(assignmentId)}/questions`;

export const questionCreatePath = (assignmentId: string) => `${questionListPath(assignmentId)}/create`;

/** An assignment's statistics, or one question's when `questionId` is given. */
export const statisticsPath = (assignmentId: string, questionId?: string) =>
  `${questionId ? questionPagePath(assignmentId, questionId) : assignmentPath(assignmentId)}/statistics`;

/**
 * The grading screen of one submission: `queue` walks the review queue from it, `regrade` opens it
 * as a regrade (a graded row's Regrade link, a regrade request).
 */
export function gradePagePath(
  assignmentId: string,
  questionId: string,
  submissionId: string,
  options: { queue?: boolean; regrade?: boolean } = {},
) {
  const path = `${questionPagePath(assignmentId, questionId)}/grade/${encodeURIComponent(submissionId)}`;
  if (options.queue) return `${path}?queue=1`;
  return options.regrade ? `${path}?regrade=true` : path;
}

export const gradingReportPath = (assignmentId: string, questionId: string, submissionId: string) =>
  `${gradePagePath(assignmentId, questionId, submissionId)}/report`;
