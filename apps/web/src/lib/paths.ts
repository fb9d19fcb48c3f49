/**
 * The app's page URLs, built in one place: a link, a redirect and a "back" all reach a page by the
 * same function, so a route that moves changes here (the routes themselves are in app/router.tsx).
 * API paths are not pages: each feature's api/ module builds its own.
 */

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
