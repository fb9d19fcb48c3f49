import { INSTRUCTOR, jsonResponse, nowSeconds, STUDENT, tokenExpiringAt, type Responder } from './network.ts';

/**
 * Payloads shaped like the server's answers (the shared contracts), for screens that read
 * courses, assignments, questions and submissions.
 */
type User = typeof INSTRUCTOR | typeof STUDENT;

/** A stored, unexpired token and a seen demo; returns the route that answers the session check. */
export function signInAs(user: User): Record<string, Responder> {
  localStorage.setItem('token', tokenExpiringAt(nowSeconds() + 3600));
  localStorage.setItem('seenDemo', 'true');
  return { 'GET /api/auth/user': () => jsonResponse(200, user) };
}

export const fileUrl = (id: string) => `/api/files/${id}?exp=9999999999&sig=test-signature`;

export const COURSE_ID = 'course-1';
export const ASSIGNMENT_ID = 'assignment-1';
export const QUESTION_ID = 'question-1';

export function courseSummary(overrides: Record<string, unknown> = {}) {
  return {
    _id: COURSE_ID,
    title: 'Linear Algebra',
    image: fileUrl('image-1'),
    instructor: { _id: INSTRUCTOR._id, name: INSTRUCTOR.name },
    createdAt: '2030-01-01T10:00:00.000Z',
    ...overrides,
  };
}

export function courseForStaff(overrides: Record<string, unknown> = {}) {
  return {
    _id: COURSE_ID,
    title: 'Linear Algebra',
    image: fileUrl('image-1'),
    syllabus: fileUrl('syllabus-1'),
    instructor: { _id: INSTRUCTOR._id, name: INSTRUCTOR.name, email: INSTRUCTOR.email },
    students: [{ _id: STUDENT._id, name: STUDENT.name, email: STUDENT.email }],
    createdAt: '2030-01-01T10:00:00.000Z',
    viewer: 'staff',
    pendingStudents: [{ email: 'newcomer@example.edu', invitedAt: '2030-01-02T10:00:00.000Z' }],
    ...overrides,
  };
}

export function courseForStudent(overrides: Record<string, unknown> = {}) {
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

export function assignmentSummary(overrides: Record<string, unknown> = {}) {
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

export function assignmentDetail(viewer: 'staff' | 'student', overrides: Record<string, unknown> = {}) {
  return { ...assignmentSummary(), viewer, ...overrides };
}

export function staffSubmission(overrides: Record<string, unknown> = {}) {
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

export function questionForStaff(overrides: Record<string, unknown> = {}) {
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

export function questionForStudent(overrides: Record<string, unknown> = {}) {
  const { solutionFile: _solution, autoRubric: _rubric, ...question } = questionForStaff();
  return { ...question, viewer: 'student', ...overrides };
}

export const errorResponse = (status: number, code: string, message: string) => () =>
  jsonResponse(status, { code, message });
