import type { Db } from '../db/client.ts';
import { forbidden, notFound } from '../lib/errors.ts';
import { isId } from '../lib/ids.ts';
import { selectAssignmentWithCourse, type AssignmentRow } from '../models/assignments.ts';
import { selectCourseIdsStaffedBy, selectStaffRole } from '../models/course-staff.ts';
import { selectCourseById, selectCourseIdsOwnedBy, type CourseRow } from '../models/courses.ts';
import { isEnrolled, selectCourseIdsEnrolledBy } from '../models/enrollments.ts';
import { selectQuestionWithScope, type QuestionRow } from '../models/questions.ts';
import { selectSubmissionInQuestion, type SubmissionRow } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';

/**
 * Who may see what inside a course. The rules, in one place:
 * - the instructor who owns a course sees everything in it and is the only one who may manage it
 *   (add students and staff, create assignments and questions, edit rubrics, upload on a student's
 *   behalf, reopen, export grades, start AI grading of a whole question);
 * - a teaching assistant (a staff seat in `course_staff`, decision 0021) sees the course like its
 *   instructor — every submission, the solutions, the review queue — and may grade: ask for AI
 *   suggestions, save grades, apply a grade to a group. They may not manage anything;
 * - a student enrolled in the course sees the course, its roster, assignments and questions, and
 *   only their own submissions;
 * - everybody else gets 404 for anything in the course, exactly as if it did not exist, so ids
 *   cannot be probed. 403 is reserved for callers who can see the thing but not do the action.
 *
 * The loaders below are the only way routes and services reach course-scoped rows: each answers
 * the row together with the caller's role, or throws.
 */
export type CourseRole = 'owner' | 'ta' | 'student';
/** The roles that may grade in a course: its owner and its TAs. */
export type GraderRole = 'owner' | 'ta';

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
  // Staff seats hold instructor-role accounts only (services/course-staff.ts), rosters student ones.
  if (user.role === 'instructor') return (await selectStaffRole(db, course.id, user.id)) ? 'ta' : null;
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
  const found = await selectAssignmentWithCourse(db, assignmentId);
  const role = found ? await roleIn(db, user, found.course) : null;
  if (!found || !role) throw assignmentNotFound();
  return { ...found, role };
}

/**
 * The question, its assignment and course in one read (every request under a question's path
 * starts here). When nothing comes back, the assignment alone says which is missing: a caller who
 * cannot see the assignment learns nothing about its questions.
 */
export async function loadVisibleQuestion(
  db: Db,
  user: UserRow,
  assignmentId: string,
  questionId: string,
): Promise<QuestionScope> {
  const found =
    isId(assignmentId) && isId(questionId) ? await selectQuestionWithScope(db, assignmentId, questionId) : undefined;
  if (!found) {
    await loadVisibleAssignment(db, user, assignmentId);
    throw questionNotFound();
  }
  const role = await roleIn(db, user, found.course);
  if (!role) throw assignmentNotFound();
  return { ...found, role };
}

/**
 * A submission is reachable only through its own question, and only by the course's staff (owner
 * and TAs) or the student who submitted it; anyone else (including classmates) gets 404.
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
  if (!submission || (!mayGrade(scope.role) && submission.studentId !== user.id)) throw submissionNotFound();
  return { ...scope, submission };
}

/** May grade in this course: see every submission and the review queue, suggest and save grades. */
export function mayGrade(role: CourseRole): role is GraderRole {
  return role === 'owner' || role === 'ta';
}

/** May manage this course: its roster, staff, assignments, questions, rubrics, settings. */
export function mayManage(role: CourseRole): role is 'owner' {
  return role === 'owner';
}

/**
 * For owner-only ("manage") actions. Callers who cannot see the course never get here (they got
 * 404 above); an enrolled student or a TA does, and is told plainly what they cannot do.
 */
export function requireOwner<Scope extends CourseScope>(scope: Scope, action: string): AsOwner<Scope> {
  if (scope.role !== 'owner') throw forbidden(`Only the instructor of this course can ${action}.`);
  return scope as AsOwner<Scope>;
}

/** For grading actions, open to the owner and the course's TAs; a student is told they cannot. */
export function requireGrader<Scope extends CourseScope>(scope: Scope, action: string): AsGrader<Scope> {
  if (!mayGrade(scope.role)) throw forbidden(`Only the staff of this course can ${action}.`);
  return scope as AsGrader<Scope>;
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
export type AsGrader<Scope extends CourseScope> = Scope & { role: GraderRole };
export type AsStudent<Scope extends CourseScope> = Scope & { role: 'student' };

/**
 * The courses whose contents the caller may list: owned and TA'd ones for an instructor, enrolled
 * ones for a student (an account has one role, so this is exactly "owned, staffed or enrolled").
 */
export async function listVisibleCourseIds(db: Db, user: UserRow): Promise<string[]> {
  if (user.role !== 'instructor') return selectCourseIdsEnrolledBy(db, user.id);
  const [owned, staffed] = await Promise.all([
    selectCourseIdsOwnedBy(db, user.id),
    selectCourseIdsStaffedBy(db, user.id),
  ]);
  return [...owned, ...staffed];
}
