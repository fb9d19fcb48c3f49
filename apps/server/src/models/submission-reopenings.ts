import { and, eq, max, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { submissionReopenings } from '../db/schema.ts';
import { toDate } from '../lib/timestamps.ts';
import { anyOfPlaceholder } from './any-of.ts';

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

// Read by every question page: prepared (db/prepared.ts, issue 11).
const newestReopeningsOfStudents = preparedPerDb((db) =>
  db
    .select({ studentId: submissionReopenings.studentId, at: max(submissionReopenings.createdAt) })
    .from(submissionReopenings)
    .where(
      and(
        eq(submissionReopenings.questionId, sql.placeholder('questionId')),
        anyOfPlaceholder(submissionReopenings.studentId, 'studentIds'),
      ),
    )
    .groupBy(submissionReopenings.studentId)
    .prepare('newest_reopenings_of_students'),
);

/** Per student of the question among `studentIds` (the rows a page shows): when it was last reopened for them. */
export async function selectNewestReopeningsOfStudents(
  db: Db,
  questionId: string,
  studentIds: readonly string[],
): Promise<Map<string, Date>> {
  if (studentIds.length === 0) return new Map();
  const rows = await newestReopeningsOfStudents(db).execute({ questionId, studentIds: [...studentIds] });
  return new Map(rows.flatMap((row) => (row.at ? [[row.studentId, toDate(row.at)!]] : [])));
}
