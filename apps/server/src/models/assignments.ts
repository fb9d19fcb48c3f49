import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { assignments, courses, questions } from '../db/schema.ts';
import type { CourseRow } from './courses.ts';

export type AssignmentRow = typeof assignments.$inferSelect;
export type NewAssignmentRow = typeof assignments.$inferInsert;

/** An assignment with its course title and the totals of its questions. */
export interface AssignmentSummaryRow {
  assignment: AssignmentRow;
  course: { id: string; title: string };
  points: number;
  questionCount: number;
}

export async function insertAssignment(db: Db, row: NewAssignmentRow): Promise<AssignmentRow> {
  const [inserted] = await db.insert(assignments).values(row).returning();
  return inserted!;
}

export async function updateAssignmentSettings(
  db: Db,
  id: string,
  settings: Pick<NewAssignmentRow, 'allowsResubmission'>,
): Promise<void> {
  await db.update(assignments).set(settings).where(eq(assignments.id, id));
}

/** Regrade rules and the release state of an assignment (decision 0023). */
export async function updateAssignmentGrading(
  db: Db,
  id: string,
  settings: Partial<
    Pick<NewAssignmentRow, 'gradesHeld' | 'gradesReleasedAt' | 'regradeWindowDays' | 'regradeRequestLimit'>
  >,
): Promise<void> {
  await db.update(assignments).set(settings).where(eq(assignments.id, id));
}

export async function selectAssignmentById(db: Db, id: string): Promise<AssignmentRow | undefined> {
  const [row] = await db.select().from(assignments).where(eq(assignments.id, id)).limit(1);
  return row;
}

// Read by every request under an assignment's path (policies/course-access.ts): prepared (db/prepared.ts).
const assignmentWithCourse = preparedPerDb((db) =>
  db
    .select({ assignment: assignments, course: courses })
    .from(assignments)
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .where(eq(assignments.id, sql.placeholder('id')))
    .prepare('assignment_with_course'),
);

/** The assignment with its course, in one read. */
export async function selectAssignmentWithCourse(
  db: Db,
  id: string,
): Promise<{ assignment: AssignmentRow; course: CourseRow } | undefined> {
  const [row] = await assignmentWithCourse(db).execute({ id });
  return row;
}

/** Assignments of the given courses, newest first, with `points` = the sum of their questions' points. */
export async function selectAssignmentSummaries(db: Db, courseIds: string[]): Promise<AssignmentSummaryRow[]> {
  if (courseIds.length === 0) return [];
  return selectSummaries(db, inArray(assignments.courseId, courseIds));
}

export async function selectAssignmentSummaryById(db: Db, id: string): Promise<AssignmentSummaryRow | undefined> {
  const [row] = await selectSummaries(db, eq(assignments.id, id));
  return row;
}

async function selectSummaries(db: Db, where: SQL): Promise<AssignmentSummaryRow[]> {
  const rows = await db
    .select({
      assignment: assignments,
      course: { id: courses.id, title: courses.title },
      points: sql<number>`coalesce(sum(${questions.points}), 0)::float8`,
      questionCount: sql<number>`count(${questions.id})::int`,
    })
    .from(assignments)
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .leftJoin(questions, eq(questions.assignmentId, assignments.id))
    .where(and(where))
    .groupBy(assignments.id, courses.id)
    .orderBy(desc(assignments.createdAt), asc(assignments.id));
  // Aggregates come back as strings from some drivers: make them numbers once, here.
  return rows.map((row) => ({ ...row, points: Number(row.points), questionCount: Number(row.questionCount) }));
}
