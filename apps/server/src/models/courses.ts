import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { courses, enrollments, users } from '../db/schema.ts';

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
const coursesOwnedBy = preparedPerDb((db) =>
  db
    .select({ course: courses, instructor: instructorColumns })
    .from(courses)
    .innerJoin(users, eq(users.id, courses.instructorId))
    .where(eq(courses.instructorId, sql.placeholder('instructorId')))
    .orderBy(desc(courses.createdAt), courses.id)
    .prepare('courses_owned_by'),
);

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

/** Newest first. */
export async function selectCoursesOwnedBy(db: Db, instructorId: string): Promise<CourseWithInstructor[]> {
  return coursesOwnedBy(db).execute({ instructorId });
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
