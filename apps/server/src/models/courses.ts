import { desc, eq, inArray, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { courses, courseStaff, enrollments, users } from '../db/schema.ts';

export type CourseRow = typeof courses.$inferSelect;
export type NewCourseRow = typeof courses.$inferInsert;

export interface CourseWithInstructor {
  course: CourseRow;
  instructor: { id: string; name: string; email: string };
}

const instructorColumns = { id: users.id, name: users.name, email: users.email };

export async function insertCourse(db: Db, row: NewCourseRow): Promise<CourseRow> {
  const [inserted] = await db.insert(courses).values(row).returning();
  return inserted!;
}

export async function selectCourseById(db: Db, id: string): Promise<CourseRow | undefined> {
  const [row] = await db.select().from(courses).where(eq(courses.id, id)).limit(1);
  return row;
}

export async function selectCourseWithInstructor(db: Db, id: string): Promise<CourseWithInstructor | undefined> {
  const [row] = await db
    .select({ course: courses, instructor: instructorColumns })
    .from(courses)
    .innerJoin(users, eq(users.id, courses.instructorId))
    .where(eq(courses.id, id))
    .limit(1);
  return row;
}

// GET /api/courses runs one of these on every call: prepared (db/prepared.ts, issue 11).

/**
 * An instructor's courses: those they own, then those they are a TA of, each newest first. One
 * statement (UNION ALL of two index reads) rather than two: on PGlite every statement costs about
 * half a millisecond of CPU before it reads a row, as much as the rest of the request.
 */
const coursesTaughtBy = preparedPerDb((db) => {
  const userId = sql.placeholder('userId');
  // A UNION's ORDER BY names output columns, and "id" is there twice (course, instructor): the
  // sort keys get names of their own.
  const sortKeys = (isOwner: boolean) => ({
    isOwner: sql<boolean>`${sql.raw(isOwner ? 'true' : 'false')}`.as('sort_is_owner'),
    createdAt: sql<Date>`${courses.createdAt}`.as('sort_created_at'),
    id: sql<string>`${courses.id}`.as('sort_id'),
  });
  const owned = db
    .select({ course: courses, instructor: instructorColumns, sort: sortKeys(true) })
    .from(courses)
    .innerJoin(users, eq(users.id, courses.instructorId))
    .where(eq(courses.instructorId, userId));
  const staffed = db
    .select({ course: courses, instructor: instructorColumns, sort: sortKeys(false) })
    .from(courseStaff)
    .innerJoin(courses, eq(courses.id, courseStaff.courseId))
    .innerJoin(users, eq(users.id, courses.instructorId))
    .where(eq(courseStaff.userId, userId));
  return unionAll(owned, staffed)
    .orderBy(sql`sort_is_owner desc`, sql`sort_created_at desc`, sql`sort_id`)
    .prepare('courses_taught_by');
});

const coursesEnrolledBy = preparedPerDb((db) =>
  db
    .select({ course: courses, instructor: instructorColumns })
    .from(enrollments)
    .innerJoin(courses, eq(courses.id, enrollments.courseId))
    .innerJoin(users, eq(users.id, courses.instructorId))
    .where(eq(enrollments.userId, sql.placeholder('userId')))
    .orderBy(desc(courses.createdAt), courses.id)
    .prepare('courses_enrolled_by'),
);

/** The courses an instructor owns, newest first, then those they are a TA of, newest first. */
export async function selectCoursesTaughtBy(db: Db, userId: string): Promise<CourseWithInstructor[]> {
  const rows = await coursesTaughtBy(db).execute({ userId });
  return rows.map(({ course, instructor }) => ({ course, instructor }));
}

/** Newest first. */
export async function selectCoursesEnrolledBy(db: Db, userId: string): Promise<CourseWithInstructor[]> {
  return coursesEnrolledBy(db).execute({ userId });
}

export async function selectCourseIdsOwnedBy(db: Db, instructorId: string): Promise<string[]> {
  const rows = await db.select({ id: courses.id }).from(courses).where(eq(courses.instructorId, instructorId));
  return rows.map((row) => row.id);
}

export async function selectCoursesByIds(db: Db, ids: string[]): Promise<CourseRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(courses).where(inArray(courses.id, ids));
}
