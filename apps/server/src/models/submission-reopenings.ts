import { and, eq, max, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { submissionReopenings } from '../db/schema.ts';
import { toDate } from '../lib/timestamps.ts';
import { anyOfPlaceholder } from './any-of.ts';
import { newestGradeAtOfStudents } from './grades.ts';

export type SubmissionReopeningRow = typeof submissionReopenings.$inferSelect;

export async function insertSubmissionReopening(
  db: Db,
  row: typeof submissionReopenings.$inferInsert,
): Promise<SubmissionReopeningRow> {
  const [inserted] = await db.insert(submissionReopenings).values(row).returning();
  return inserted!;
}

/** When the question was last reopened for this student; null when never. */
export async function selectNewestReopeningAt(db: Db, questionId: string, studentId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: max(submissionReopenings.createdAt) })
    .from(submissionReopenings)
    .where(and(eq(submissionReopenings.questionId, questionId), eq(submissionReopenings.studentId, studentId)));
  return toDate(row?.at);
}

// Read by every question page: prepared (db/prepared.ts, issue 11). The two reads a row's
// "reopened" needs (the newest grade and the newest reopening of each student shown), as one
// statement of two grouped index reads: on PGlite every statement is a round trip into its
// WebAssembly before it reads a row.
const newestGradesAndReopeningsOfStudents = preparedPerDb((db) =>
  unionAll(
    newestGradeAtOfStudents(db),
    db
      .select({
        isReopening: sql<boolean>`true`.as('is_reopening'),
        studentId: submissionReopenings.studentId,
        at: max(submissionReopenings.createdAt),
      })
      .from(submissionReopenings)
      .where(
        and(
          eq(submissionReopenings.questionId, sql.placeholder('questionId')),
          anyOfPlaceholder(submissionReopenings.studentId, 'studentIds'),
        ),
      )
      .groupBy(submissionReopenings.studentId),
  ).prepare('newest_grades_and_reopenings_of_students'),
);

/**
 * Per student of the question among `studentIds` (the rows a page shows): when their newest grade
 * (on any version) was saved, and when the question was last reopened for them. Only those
 * students' rows are read, not the whole class's (issue 11).
 */
export async function selectNewestGradesAndReopeningsOfStudents(
  db: Db,
  questionId: string,
  studentIds: readonly string[],
): Promise<{ newestGradeAt: Map<string, Date>; newestReopeningAt: Map<string, Date> }> {
  const newestGradeAt = new Map<string, Date>();
  const newestReopeningAt = new Map<string, Date>();
  if (studentIds.length === 0) return { newestGradeAt, newestReopeningAt };
  const rows = await newestGradesAndReopeningsOfStudents(db).execute({ questionId, studentIds: [...studentIds] });
  for (const row of rows) {
    if (row.at) (row.isReopening ? newestReopeningAt : newestGradeAt).set(row.studentId, toDate(row.at)!);
  }
  return { newestGradeAt, newestReopeningAt };
}
