import { desc, eq, sql } from 'drizzle-orm';
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

/** What a course list shows of a course (the summary of the contract): no syllabus, no instructor email. */
export interface CourseSummaryRow {
  id: string;
  title: string;
  imageFileId: string | null;
  isDemo: boolean;
  createdAt: Date;
  instructor: { id: string; name: string };
}

/**
 * The summary's columns, read as rows: PostgreSQL building the list as one JSON value
 * (`json_agg(json_build_object(...))`, decision 0052) cost more in its WebAssembly than the rows
 * and PGlite's reading of them now cost together (decision 0063: for 20 courses 138 against 182 µs
 * of CPU, in process), since PGlite's rows are decoded once, straight from its buffer (decision 0055).
 */
const summaryColumns = {
  id: courses.id,
  title: courses.title,
  imageFileId: courses.imageFileId,
  isDemo: courses.isDemo,
  createdAt: courses.createdAt,
  instructor: { id: users.id, name: users.name },
};

/**
 * An instructor's courses: those they own, then those they are a TA of, each newest first. One
 * statement (a UNION ALL of two index reads) rather than two: on PGlite every statement costs a
 * round trip into its WebAssembly before it reads a row.
 */
const courseSummariesTaughtBy = preparedPerDb((db) => {
  const userId = sql.placeholder('userId');
  const taught = db.$with('taught').as(
    unionAll(
      db
        .select({ courseId: sql<string>`${courses.id}`.as('course_id'), isOwner: sql<boolean>`true`.as('is_owner') })
        .from(courses)
        .where(eq(courses.instructorId, userId)),
      db
        .select({
          courseId: sql<string>`${courseStaff.courseId}`.as('course_id'),
          isOwner: sql<boolean>`false`.as('is_owner'),
        })
        .from(courseStaff)
        .where(eq(courseStaff.userId, userId)),
    ),
  );
  return db
    .with(taught)
    .select(summaryColumns)
    .from(taught)
    .innerJoin(courses, eq(courses.id, taught.courseId))
    .innerJoin(users, eq(users.id, courses.instructorId))
    .orderBy(desc(taught.isOwner), desc(courses.createdAt), courses.id)
    .prepare('course_summaries_taught_by');
});

const courseSummariesEnrolledBy = preparedPerDb((db) =>
  db
    .select(summaryColumns)
    .from(enrollments)
    .innerJoin(courses, eq(courses.id, enrollments.courseId))
    .innerJoin(users, eq(users.id, courses.instructorId))
    .where(eq(enrollments.userId, sql.placeholder('userId')))
    .orderBy(desc(courses.createdAt), courses.id)
    .prepare('course_summaries_enrolled_by'),
);

/** The courses an instructor owns, newest first, then those they are a TA of, newest first. */
export async function selectCourseSummariesTaughtBy(db: Db, userId: string): Promise<CourseSummaryRow[]> {
  return courseSummariesTaughtBy(db).execute({ userId });
}

/** The courses a student is enrolled in, newest first. */
export async function selectCourseSummariesEnrolledBy(db: Db, userId: string): Promise<CourseSummaryRow[]> {
  return courseSummariesEnrolledBy(db).execute({ userId });
}

export async function selectCourseIdsOwnedBy(db: Db, instructorId: string): Promise<string[]> {
  const rows = await db.select({ id: courses.id }).from(courses).where(eq(courses.instructorId, instructorId));
  return rows.map((row) => row.id);
}
