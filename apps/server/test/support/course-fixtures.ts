import type { AssignmentDetail } from '@gradewise/shared/contracts/assignments';
import type { AddStudentsOutput, CourseForStaff } from '@gradewise/shared/contracts/courses';
import type { QuestionForStaff } from '@gradewise/shared/contracts/questions';
import type { SubmissionForStudent } from '@gradewise/shared/contracts/submissions';
import type { AddStaffOutput } from '@gradewise/shared/contracts/staff';
import type { FastifyInstance } from 'fastify';
import { expectStatus, registerUser, type TestUser } from './http.ts';
import { makePdf } from './files.ts';
import { multipart, pdfPart, type FormValue } from './multipart.ts';

/**
 * Course-world helpers that go through the real HTTP API (no shortcuts into the database), so
 * every test starts from a state the product itself can produce.
 */
export async function createCourse(
  app: FastifyInstance,
  instructor: TestUser,
  parts: Record<string, FormValue> = {},
): Promise<CourseForStaff> {
  const form = await multipart({ title: 'Algorithms 101', ...parts });
  const response = await app.inject({
    method: 'POST',
    url: '/api/courses',
    headers: { ...instructor.auth, ...form.headers },
    payload: form.payload,
  });
  return expectStatus<{ course: CourseForStaff }>(response, 201, 'create course').course;
}

export async function addStudents(
  app: FastifyInstance,
  instructor: TestUser,
  courseId: string,
  emails: string[],
): Promise<AddStudentsOutput> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/courses/${courseId}/add-students`,
    headers: instructor.auth,
    payload: { emails },
  });
  return expectStatus<AddStudentsOutput>(response, 200, 'add students');
}

/** The owner makes an (instructor) account a teaching assistant of the course. */
export async function addTa(
  app: FastifyInstance,
  owner: TestUser,
  courseId: string,
  ta: TestUser,
): Promise<AddStaffOutput> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/courses/${courseId}/staff`,
    headers: owner.auth,
    payload: { email: ta.email, role: 'ta' },
  });
  return expectStatus<AddStaffOutput>(response, 201, 'add TA');
}

export async function createAssignment(
  app: FastifyInstance,
  instructor: TestUser,
  courseId: string,
  fields: { title?: string; deadline?: string | null } = {},
): Promise<AssignmentDetail> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/assignments',
    headers: instructor.auth,
    payload: { title: fields.title ?? 'Homework 1', courseId, deadline: fields.deadline ?? null },
  });
  return expectStatus<{ assignment: AssignmentDetail }>(response, 201, 'create assignment').assignment;
}

export async function createQuestion(
  app: FastifyInstance,
  instructor: TestUser,
  assignmentId: string,
  fields: { title?: string; points?: string; withSolution?: boolean } = {},
): Promise<QuestionForStaff> {
  const form = await multipart({
    title: fields.title ?? 'Question 1',
    points: fields.points ?? '10',
    questionFile: pdfPart(await makePdf('What is 2 + 2?'), 'question.pdf'),
    solutionFile: fields.withSolution === false ? undefined : pdfPart(await makePdf('4'), 'solution.pdf'),
  });
  const response = await app.inject({
    method: 'POST',
    url: `/api/assignments/${assignmentId}/questions`,
    headers: { ...instructor.auth, ...form.headers },
    payload: form.payload,
  });
  return expectStatus<{ question: QuestionForStaff }>(response, 201, 'create question').question;
}

export async function submitAnswer(
  app: FastifyInstance,
  student: TestUser,
  assignmentId: string,
  questionId: string,
  text = 'My answer is 4.',
): Promise<SubmissionForStudent> {
  const form = await multipart({ file: pdfPart(await makePdf(text)) });
  const response = await app.inject({
    method: 'POST',
    url: `/api/assignments/${assignmentId}/questions/${questionId}/submit`,
    headers: { ...student.auth, ...form.headers },
    payload: form.payload,
  });
  return expectStatus<{ submission: SubmissionForStudent }>(response, 201, 'submit').submission;
}

export interface CourseWorld {
  instructor: TestUser;
  student: TestUser;
  course: CourseForStaff;
  assignment: AssignmentDetail;
  question: QuestionForStaff;
}

/** An instructor's course with one enrolled student, one assignment and one question (with a solution). */
export async function createCourseWorld(
  app: FastifyInstance,
  options: { deadline?: string | null } = {},
): Promise<CourseWorld> {
  const instructor = await registerUser(app, { role: 'instructor', name: 'Prof Ada' });
  const student = await registerUser(app, { role: 'student', name: 'Sam Student' });
  const course = await createCourse(app, instructor);
  await addStudents(app, instructor, course._id, [student.email]);
  const assignment = await createAssignment(app, instructor, course._id, { deadline: options.deadline ?? null });
  const question = await createQuestion(app, instructor, assignment._id);
  return { instructor, student, course, assignment, question };
}

/** Fetches a signed file URL the way a browser would (no Authorization header). */
export function fetchFile(app: FastifyInstance, url: string) {
  return app.inject({ method: 'GET', url });
}
