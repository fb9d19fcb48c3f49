import type { AssignmentDetail, AssignmentSummary } from '@gradewise/shared/contracts/assignments';
import type { UserOutput } from '@gradewise/shared/contracts/auth';
import type { CourseForStaff, CourseForStudent, CourseSummary } from '@gradewise/shared/contracts/courses';
import type { ErrorBody, ErrorCode } from '@gradewise/shared/errors';
import type {
  QuestionForStaff,
  QuestionForStudent,
  QuestionSubmissionForStaff,
} from '@gradewise/shared/contracts/questions';
import { INSTRUCTOR, jsonResponse, nowSeconds, STUDENT, tokenExpiringAt, type Responder } from './network.ts';

/**
 * Payloads typed by the server's answers (the shared contracts), for screens that read courses,
 * assignments, questions and submissions. Overrides are checked against the same contract, so a
 * fixture cannot drift from what the server sends.
 */

/** A stored, unexpired token and a seen demo; returns the route that answers the session check. */
export function signInAs(user: UserOutput): Record<string, Responder> {
  localStorage.setItem('token', tokenExpiringAt(nowSeconds() + 3600));
  localStorage.setItem('seenDemo', 'true');
  return { 'GET /api/auth/user': () => jsonResponse(200, user) };
}

export const fileUrl = (id: string) => `/api/files/${id}?exp=9999999999&sig=test-signature`;

export const COURSE_ID = 'course-1';
export const ASSIGNMENT_ID = 'assignment-1';
export const QUESTION_ID = 'question-1';

export function courseSummary(overrides: Partial<CourseSummary> = {}): CourseSummary {
  return {
    _id: COURSE_ID,
    title: 'Linear Algebra',
    image: fileUrl('image-1'),
    instructor: { _id: INSTRUCTOR._id, name: INSTRUCTOR.name },
    createdAt: '2030-01-01T10:00:00.000Z',
    ...overrides,
  };
}

export function courseForStaff(overrides: Partial<CourseForStaff> = {}): CourseForStaff {
  return {
    _id: COURSE_ID,
    title: 'Linear Algebra',
    image: fileUrl('image-1'),
    syllabus: fileUrl('syllabus-1'),
    instructor: { _id: INSTRUCTOR._id, name: INSTRUCTOR.name, email: INSTRUCTOR.email },
    students: [{ _id: STUDENT._id, name: STUDENT.name, email: STUDENT.email }],
    createdAt: '2030-01-01T10:00:00.000Z',
    viewer: 'staff',
    pendingStudents: [
      {
        email: 'newcomer@example.edu',
        invitedAt: '2030-01-02T10:00:00.000Z',
        registeredName: null,
        registeredAsInstructor: false,
      },
    ],
    ...overrides,
  };
}

export function courseForStudent(overrides: Partial<CourseForStudent> = {}): CourseForStudent {
  // The student view carries names only (no emails), like the server's CourseForStudent.
  const { pendingStudents: _pending, ...course } = courseForStaff();
  return {
    ...course,
    instructor: { _id: INSTRUCTOR._id, name: INSTRUCTOR.name },
    students: [{ _id: STUDENT._id, name: STUDENT.name }],
    viewer: 'student',
    ...overrides,
  };
}

export function assignmentSummary(overrides: Partial<AssignmentSummary> = {}): AssignmentSummary {
  return {
    _id: ASSIGNMENT_ID,
    title: 'Homework 1',
    points: 25,
    deadline: '2030-03-01T17:00:00.000Z',
    course: { _id: COURSE_ID, title: 'Linear Algebra' },
    questionCount: 2,
    createdAt: '2030-01-03T10:00:00.000Z',
    ...overrides,
  };
}

export function assignmentDetail(
  viewer: AssignmentDetail['viewer'],
  overrides: Partial<AssignmentDetail> = {},
): AssignmentDetail {
  return { ...assignmentSummary(), viewer, ...overrides };
}

export function staffSubmission(overrides: Partial<QuestionSubmissionForStaff> = {}): QuestionSubmissionForStaff {
  return {
    _id: 'submission-1',
    file: fileUrl('answer-1'),
    isLate: false,
    version: 1,
    submittedAt: '2030-02-01T10:00:00.000Z',
    student: { _id: STUDENT._id, name: STUDENT.name, email: STUDENT.email },
    versions: 1,
    uploadedBy: { _id: STUDENT._id, name: STUDENT.name },
    // Grading fields, as for a submission nobody has graded yet.
    grade: null,
    isAlreadyGraded: false,
    confidenceLevel: null,
    comments: [],
    extractedText: '',
    grader: null,
    gradingStatus: 'none',
    reviewStatus: 'not-graded',
    suggestedScore: null,
    hasHiddenText: false,
    hiddenText: [],
    ...overrides,
  };
}

export function questionForStaff(overrides: Partial<QuestionForStaff> = {}): QuestionForStaff {
  return {
    _id: QUESTION_ID,
    title: 'Eigenvalues',
    points: 10,
    createdAt: '2030-01-04T10:00:00.000Z',
    assignment: { _id: ASSIGNMENT_ID, title: 'Homework 1' },
    course: { _id: COURSE_ID, title: 'Linear Algebra' },
    questionFile: fileUrl('question-file-1'),
    viewer: 'staff',
    solutionFile: fileUrl('solution-file-1'),
    autoRubric: [],
    submissions: [],
    ...overrides,
  };
}

export function questionForStudent(overrides: Partial<QuestionForStudent> = {}): QuestionForStudent {
  const { solutionFile: _solution, autoRubric: _rubric, ...question } = questionForStaff();
  return { ...question, viewer: 'student', ...overrides };
}

export const errorResponse = (status: number, code: ErrorCode, message: string) => () =>
  jsonResponse(status, { code, message });

/**
 * The body of Save Grade refused as stale (409): Grace Colleague saved 6 points on this answer since
 * the screen opened (decision 0032's Reload). Typed by the server's error contract.
 */
export function staleGradeSave(message: string): ErrorBody {
  return {
    code: 'CONFLICT',
    message,
    conflict: {
      kind: 'grade',
      id: 'grade-theirs',
      grade: 6,
      savedBy: { _id: 'user-9', name: 'Grace Colleague' },
      savedAt: '2030-02-02T10:00:00.000Z',
    },
  };
}
