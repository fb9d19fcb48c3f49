/**
 * The API's endpoint paths, built in one place (relative to the client's `/api` base): every call
 * and every CSV download reaches the server through one of these, so an endpoint that moves changes
 * here, and no screen builds an API address by hand. Page URLs are another table (lib/paths.ts):
 * an API call never takes a page path, and a link never takes an API path.
 */

import { authApiPaths } from './auth-api-paths.ts';

/** Where the API is, on the app's own origin: every path below is relative to it. */
export const API_BASE = '/api';

const segment = encodeURIComponent;

const course = (courseId: string) => `/courses/${segment(courseId)}`;
const assignment = (assignmentId: string) => `/assignments/${segment(assignmentId)}`;
const question = (assignmentId: string, questionId: string) =>
  `${assignment(assignmentId)}/questions/${segment(questionId)}`;
/** The grading calls of one submission (grade, regrade, save, lease, report). */
const grade = (assignmentId: string, questionId: string, submissionId: string) =>
  `${question(assignmentId, questionId)}/grade/${segment(submissionId)}`;
const submission = (assignmentId: string, questionId: string, submissionId: string) =>
  `${question(assignmentId, questionId)}/submissions/${segment(submissionId)}`;
const saveGrade = (assignmentId: string, questionId: string, submissionId: string) =>
  `${question(assignmentId, questionId)}/save-grade/${segment(submissionId)}`;
const regradeRequest = (requestId: string) => `/regrade-requests/${segment(requestId)}`;

export const apiPaths = {
  auth: authApiPaths,

  courses: {
    list: '/courses',
    create: '/courses',
    one: course,
    addStudents: (courseId: string) => `${course(courseId)}/add-students`,
    addStudentsExcel: (courseId: string) => `${course(courseId)}/add-students/excel`,
    confirmStudent: (courseId: string) => `${course(courseId)}/confirm-student`,
    declineRegistrant: (courseId: string) => `${course(courseId)}/decline-registrant`,
    /** The caller's own invitations waiting for a confirmation. */
    waitingInvitations: '/invitations',
    staff: (courseId: string) => `${course(courseId)}/staff`,
    staffMember: (courseId: string, userId: string) => `${course(courseId)}/staff/${segment(userId)}`,
    workSplit: (courseId: string) => `${course(courseId)}/work-split`,
    workSplitQuestion: (courseId: string, questionId: string) =>
      `${course(courseId)}/work-split/questions/${segment(questionId)}`,
    workSplitStudents: (courseId: string) => `${course(courseId)}/work-split/students`,
    regradeRequests: (courseId: string, status: string) =>
      `${course(courseId)}/regrade-requests?status=${segment(status)}`,
  },

  assignments: {
    /** Every assignment the caller can see; with a course id, that course's only. */
    list: (courseId?: string) => (courseId ? `/assignments?courseId=${segment(courseId)}` : '/assignments'),
    create: '/assignments',
    one: assignment,
    settings: (assignmentId: string) => `${assignment(assignmentId)}/settings`,
    anonymousGrading: (assignmentId: string) => `${assignment(assignmentId)}/anonymous-grading`,
    regradeSettings: (assignmentId: string) => `${assignment(assignmentId)}/regrade-settings`,
  },

  /** Endpoints an assignment and a question both have: the question's when `questionId` is given. */
  scoped: {
    statistics: (assignmentId: string, questionId?: string) =>
      `${questionId ? question(assignmentId, questionId) : assignment(assignmentId)}/statistics`,
    gradesCsv: (assignmentId: string, questionId?: string) =>
      `${questionId ? question(assignmentId, questionId) : assignment(assignmentId)}/grades.csv`,
    auditCsv: (assignmentId: string, questionId?: string) =>
      `${questionId ? question(assignmentId, questionId) : assignment(assignmentId)}/audit.csv`,
    gradeRelease: (assignmentId: string, questionId?: string) =>
      `${questionId ? question(assignmentId, questionId) : assignment(assignmentId)}/grade-release`,
  },

  questions: {
    list: (assignmentId: string) => `${assignment(assignmentId)}/questions`,
    /** The question with the submissions the caller may see (the one way the web reads a question). */
    detail: (assignmentId: string, questionId: string) => `${question(assignmentId, questionId)}?includeSubmissions=1`,
    /** One page of the question's submissions, with the counts the table pages by (decision 0042). */
    detailPage: (assignmentId: string, questionId: string, page: { offset: number; limit: number }) =>
      `${question(assignmentId, questionId)}?includeSubmissions=1&offset=${page.offset}&limit=${page.limit}`,
    /** The question with one of its submissions, as the list shows it: the grading screen's read (decision 0046). */
    detailSubmission: (assignmentId: string, questionId: string, submissionId: string) =>
      `${question(assignmentId, questionId)}?includeSubmissions=1&submissionId=${encodeURIComponent(submissionId)}`,
    generateRubric: (assignmentId: string, questionId: string) =>
      `${question(assignmentId, questionId)}/generate-rubric`,
    saveRubric: (assignmentId: string, questionId: string) => `${question(assignmentId, questionId)}/save-rubric`,
    /** PATCH: whether the grader's comments may state the expected answer (decision 0088). */
    feedbackSettings: (assignmentId: string, questionId: string) =>
      `${question(assignmentId, questionId)}/feedback-settings`,
    rubricTrial: (assignmentId: string, questionId: string) => `${question(assignmentId, questionId)}/rubric-trial`,
    submit: (assignmentId: string, questionId: string) => `${question(assignmentId, questionId)}/submit`,
    uploadSubmission: (assignmentId: string, questionId: string) =>
      `${question(assignmentId, questionId)}/upload-submission`,
    reviewQueue: (assignmentId: string, questionId: string) => `${question(assignmentId, questionId)}/review-queue`,
    gradeAll: (assignmentId: string, questionId: string) => `${question(assignmentId, questionId)}/grade-all`,
    gradeAllProgress: (assignmentId: string, questionId: string) =>
      `${question(assignmentId, questionId)}/grade-all/progress`,
    suggestionSummary: (assignmentId: string, questionId: string) =>
      `${question(assignmentId, questionId)}/suggestion-summary`,
    resuggest: (assignmentId: string, questionId: string) => `${question(assignmentId, questionId)}/resuggest`,
    aiQuota: (assignmentId: string, questionId: string) => `${question(assignmentId, questionId)}/ai-quota`,
    answerGroups: (assignmentId: string, questionId: string) => `${question(assignmentId, questionId)}/answer-groups`,
    answerGroupOf: (assignmentId: string, questionId: string, submissionId: string) =>
      `${question(assignmentId, questionId)}/answer-groups/of/${submissionId}`,
    applyToGroup: (assignmentId: string, questionId: string) =>
      `${question(assignmentId, questionId)}/answer-groups/apply`,
    regradeRequests: (assignmentId: string, questionId: string) =>
      `${question(assignmentId, questionId)}/regrade-requests`,
  },

  /** One submission of a question. */
  submissions: {
    versions: (assignmentId: string, questionId: string, submissionId: string) =>
      `${submission(assignmentId, questionId, submissionId)}/versions`,
    reopen: (assignmentId: string, questionId: string, submissionId: string) =>
      `${submission(assignmentId, questionId, submissionId)}/reopen`,
    gradeHistory: (assignmentId: string, questionId: string, submissionId: string) =>
      `${submission(assignmentId, questionId, submissionId)}/grade-history`,
    grade,
    regrade: (assignmentId: string, questionId: string, submissionId: string) =>
      `${question(assignmentId, questionId)}/regrade/${segment(submissionId)}`,
    saveGrade,
    undoSave: (assignmentId: string, questionId: string, submissionId: string) =>
      `${saveGrade(assignmentId, questionId, submissionId)}/undo`,
    lease: (assignmentId: string, questionId: string, submissionId: string) =>
      `${grade(assignmentId, questionId, submissionId)}/lease`,
    report: (assignmentId: string, questionId: string, submissionId: string) =>
      `${grade(assignmentId, questionId, submissionId)}/report`,
  },

  regradeRequests: {
    resolve: (requestId: string) => `${regradeRequest(requestId)}/resolve`,
    aiRecheck: (requestId: string) => `${regradeRequest(requestId)}/ai-recheck`,
  },
};
