import type { Db } from '../db/client.ts';
import { forbidden, notFound } from '../lib/errors.ts';
import { isId } from '../lib/ids.ts';
import { selectAssignmentById, type AssignmentRow } from '../models/assignments.ts';
import { selectCourseById, selectCourseIdsOwnedBy, type CourseRow } from '../models/courses.ts';
import { isEnrolled, selectCourseIdsEnrolledBy } from '../models/enrollments.ts';
import { selectQuestionInAssignment, type QuestionRow } from '../models/questions.ts';
import { selectSubmissionInQuestion, type SubmissionRow } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';

/**
 * Who may see what inside a course. The rules, in one place:
 * - the instructor who owns a course sees everything in it and is the only one who may change it
 *   (add students, create assignments and questions, upload on a student's behalf, see every
 *   submission and the solutions);
 * - a student enrolled in the course sees the course, its roster, assignments and questions, and
 *   only their own submissions;
 * - everybody else gets 404 for anything in the course, exactly as if it did not exist, so ids
 *   cannot be probed. 403 is reserved for callers who can see the thing but not do the action.
 *
 * The loaders below are the only way routes and services reach course-scoped rows: each answers
 * the row together with the caller's role, or throws.
 */
export type CourseRole = 'owner' | 'student';

export interface CourseScope {
  course: CourseRow;
  role: CourseRole;
}
export interface AssignmentScope extends CourseScope {
  assignment: AssignmentRow;
}
export interface QuestionScope extends AssignmentScope {
  question: QuestionRow;
}
export interface SubmissionScope extends QuestionScope {
  submission: SubmissionRow;
}

const courseNotFound = () => notFound('Course not found.');
const assignmentNotFound = () => notFound('Assignment not found.');
const questionNotFound = () => notFound('Question not found.');
const submissionNotFound = () => notFound('Submission not found.');

async function roleIn(db: Db, user: UserRow, course: CourseRow): Promise<CourseRole | null> {
  if (course.instructorId === user.id) return 'owner';
  // Rosters hold student accounts only (see services/add-students.ts), so an enrolment is a student seat.
  return (await isEnrolled(db, course.id, user.id)) ? 'student' : null;
}

export async function loadVisibleCourse(db: Db, user: UserRow, courseId: string): Promise<CourseScope> {
  if (!isId(courseId)) throw courseNotFound();
  const course = await selectCourseById(db, courseId);
  const role = course ? await roleIn(db, user, course) : null;
  if (!course || !role) throw courseNotFound();
  return { course, role };
}

export async function loadVisibleAssignment(db: Db, user: UserRow, assignmentId: string): Promise<AssignmentScope> {
  if (!isId(assignmentId)) throw assignmentNotFound();
  const assignment = await selectAssignmentById(db, assignmentId);
  const course = assignment ? await selectCourseById(db, assignment.courseId) : undefined;
  const role = course ? await roleIn(db, user, course) : null;
  if (!assignment || !course || !role) throw assignmentNotFound();
  return { assignment, course, role };
}

export async function loadVisibleQuestion(
  db: Db,
  user: UserRow,
  assignmentId: string,
  questionId: string,
): Promise<QuestionScope> {
  const scope = await loadVisibleAssignment(db, user, assignmentId);
  const question = isId(questionId) ? await selectQuestionInAssignment(db, assignmentId, questionId) : undefined;
  if (!question) throw questionNotFound();
  return { ...scope, question };
}

/**
 * A submission is reachable only through its own question, and only by the course owner or the
 * student who submitted it; anyone else (including classmates) gets 404.
 */
export async function loadVisibleSubmission(
  db: Db,
  user: UserRow,
  assignmentId: string,
  questionId: string,
  submissionId: string,
): Promise<SubmissionScope> {
  const scope = await loadVisibleQuestion(db, user, assignmentId, questionId);
  const submission = isId(submissionId) ? await selectSubmissionInQuestion(db, questionId, submissionId) : undefined;
  if (!submission || (scope.role !== 'owner' && submission.studentId !== user.id)) throw submissionNotFound();
  return { ...scope, submission };
}

/**
 * For owner-only actions. Callers who cannot see the course never get here (they got 404 above);
 * an enrolled student does, and is told plainly what they cannot do.
 */
export function requireOwner<Scope extends CourseScope>(scope: Scope, action: string): AsOwner<Scope> {
  if (scope.role !== 'owner') throw forbidden(`Only the instructor of this course can ${action}.`);
  return scope as AsOwner<Scope>;
}

/** For student-only actions (submitting an answer of one's own). */
export function requireStudent<Scope extends CourseScope>(scope: Scope, message: string): AsStudent<Scope> {
  if (scope.role !== 'student') throw forbidden(message);
  return scope as AsStudent<Scope>;
}

/**
 * A scope whose role has been checked. Services that change a course take these types, so code
 * that forgot the check does not compile.
 */
export type AsOwner<Scope extends CourseScope> = Scope & { role: 'owner' };
export type AsStudent<Scope extends CourseScope> = Scope & { role: 'student' };

/**
 * The courses whose contents the caller may list: owned ones for an instructor, enrolled ones
 * for a student (an account has one role, so this is exactly "owned or enrolled").
 */
export async function listVisibleCourseIds(db: Db, user: UserRow): Promise<string[]> {
  return user.role === 'instructor' ? selectCourseIdsOwnedBy(db, user.id) : selectCourseIdsEnrolledBy(db, user.id);
}
