import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { courses, enrollments, pendingEnrollments, users } from '../db/schema.ts';

export interface RosterStudent {
  id: string;
  name: string;
  email: string;
}

export type PendingEnrollmentRow = typeof pendingEnrollments.$inferSelect;

export async function isEnrolled(db: Db, courseId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: enrollments.userId })
    .from(enrollments)
    .where(and(eq(enrollments.courseId, courseId), eq(enrollments.userId, userId)))
    .limit(1);
  return row !== undefined;
}

export async function selectCourseIdsEnrolledBy(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ courseId: enrollments.courseId })
    .from(enrollments)
    .where(eq(enrollments.userId, userId));
  return rows.map((row) => row.courseId);
}

/** Enrolled students, by name then email. */
export async function selectRosterOfCourse(db: Db, courseId: string): Promise<RosterStudent[]> {
  return db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(enrollments)
    .innerJoin(users, eq(users.id, enrollments.userId))
    .where(eq(enrollments.courseId, courseId))
    .orderBy(asc(users.name), asc(users.email));
}

export interface PendingWithRegistrant extends PendingEnrollmentRow {
  /** The student account registered with this email since, waiting for the instructor's confirmation. */
  registrant: { id: string; name: string } | null;
  /** The email belongs to an instructor account, which never takes a student seat. */
  registeredAsInstructor: boolean;
}

/** Invitations of a course, each with the account registered with its email, if any. */
export async function selectPendingOfCourse(db: Db, courseId: string): Promise<PendingWithRegistrant[]> {
  const rows = await db
    .select({
      pending: pendingEnrollments,
      registrantId: users.id,
      registrantName: users.name,
      registrantRole: users.role,
    })
    .from(pendingEnrollments)
    .leftJoin(users, and(eq(users.email, pendingEnrollments.email), isNull(users.deletedAt)))
    .where(eq(pendingEnrollments.courseId, courseId))
    .orderBy(asc(pendingEnrollments.email));
  return rows.map((row) => ({
    ...row.pending,
    registrant:
      row.registrantRole === 'student' && row.registrantId && row.registrantName
        ? { id: row.registrantId, name: row.registrantName }
        : null,
    registeredAsInstructor: row.registrantRole === 'instructor',
  }));
}

/** Removes one course's invitation for an email; answers whether there was one. */
export async function deletePendingEnrollment(db: Db, courseId: string, email: string): Promise<boolean> {
  const rows = await db
    .delete(pendingEnrollments)
    .where(and(eq(pendingEnrollments.courseId, courseId), eq(pendingEnrollments.email, email)))
    .returning({ email: pendingEnrollments.email });
  return rows.length > 0;
}

export async function selectPendingEmailsOfCourse(db: Db, courseId: string, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .select({ email: pendingEnrollments.email })
    .from(pendingEnrollments)
    .where(and(eq(pendingEnrollments.courseId, courseId), inArray(pendingEnrollments.email, emails)));
  return new Set(rows.map((row) => row.email));
}

/** Enrols users; answers the ids that were not enrolled before (the primary key decides, no race). */
export async function insertEnrollments(db: Db, courseId: string, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .insert(enrollments)
    .values(userIds.map((userId) => ({ courseId, userId })))
    .onConflictDoNothing()
    .returning({ userId: enrollments.userId });
  return rows.map((row) => row.userId);
}

/** Records invitations; answers the emails that were not pending before. */
export async function insertPendingEnrollments(
  db: Db,
  courseId: string,
  emails: string[],
  invitedById: string,
): Promise<string[]> {
  if (emails.length === 0) return [];
  const rows = await db
    .insert(pendingEnrollments)
    .values(emails.map((email) => ({ courseId, email, invitedById })))
    .onConflictDoNothing()
    .returning({ email: pendingEnrollments.email });
  return rows.map((row) => row.email);
}

/** Turns every pending enrolment for this email into a real one for this user. Idempotent. */
// A verified student's GET /api/courses asks this on every call: prepared (db/prepared.ts, issue 11).
const pendingForEmail = preparedPerDb((db) =>
  db
    .select({ courseId: pendingEnrollments.courseId })
    .from(pendingEnrollments)
    .where(eq(pendingEnrollments.email, sql.placeholder('email')))
    .limit(1)
    .prepare('pending_enrollment_for_email'),
);

/** Whether any invitation waits for this email (one index read; claiming is a write transaction). */
export async function hasPendingEnrollments(db: Db, email: string): Promise<boolean> {
  return (await pendingForEmail(db).execute({ email })).length > 0;
}

export async function claimPendingEnrollments(db: Db, userId: string, email: string): Promise<number> {
  const pending = await db.delete(pendingEnrollments).where(eq(pendingEnrollments.email, email)).returning();
  if (pending.length === 0) return 0;
  await db
    .insert(enrollments)
    .values(pending.map((row) => ({ courseId: row.courseId, userId })))
    .onConflictDoNothing();
  return pending.length;
}

export interface WaitingInvitationRow {
  courseTitle: string;
  instructorName: string;
  invitedAt: Date;
}

/** The invitations that wait for one email, with their course's title and instructor, oldest first. */
export async function selectInvitationsOfEmail(db: Db, email: string): Promise<WaitingInvitationRow[]> {
  return db
    .select({ courseTitle: courses.title, instructorName: users.name, invitedAt: pendingEnrollments.createdAt })
    .from(pendingEnrollments)
    .innerJoin(courses, eq(courses.id, pendingEnrollments.courseId))
    .innerJoin(users, eq(users.id, courses.instructorId))
    .where(eq(pendingEnrollments.email, email))
    .orderBy(asc(pendingEnrollments.createdAt), asc(courses.title));
}
