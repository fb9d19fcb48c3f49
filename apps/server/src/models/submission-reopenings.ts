import { and, eq, max } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { submissionReopenings } from '../db/schema.ts';
import { toDate } from '../lib/timestamps.ts';

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

/** Per student of the question: when it was last reopened for them. */
export async function selectNewestReopeningsOfQuestion(db: Db, questionId: string): Promise<Map<string, Date>> {
  const rows = await db
    .select({ studentId: submissionReopenings.studentId, at: max(submissionReopenings.createdAt) })
    .from(submissionReopenings)
    .where(eq(submissionReopenings.questionId, questionId))
    .groupBy(submissionReopenings.studentId);
  return new Map(rows.flatMap((row) => (row.at ? [[row.studentId, toDate(row.at)!]] : [])));
}
