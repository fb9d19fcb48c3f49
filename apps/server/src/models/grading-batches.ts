import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { gradingBatches } from '../db/schema.ts';

export type GradingBatchRow = typeof gradingBatches.$inferSelect;

export async function insertGradingBatch(db: Db, batch: typeof gradingBatches.$inferInsert): Promise<GradingBatchRow> {
  const [row] = await db.insert(gradingBatches).values(batch).returning();
  return row!;
}

export async function selectGradingBatch(
  db: Db,
  questionId: string,
  batchId: string,
): Promise<GradingBatchRow | undefined> {
  const [row] = await db
    .select()
    .from(gradingBatches)
    .where(and(eq(gradingBatches.id, batchId), eq(gradingBatches.questionId, questionId)))
    .limit(1);
  return row;
}

export async function selectLatestGradingBatch(db: Db, questionId: string): Promise<GradingBatchRow | undefined> {
  const [row] = await db
    .select()
    .from(gradingBatches)
    .where(eq(gradingBatches.questionId, questionId))
    .orderBy(desc(gradingBatches.createdAt), desc(gradingBatches.id))
    .limit(1);
  return row;
}

export async function updateGradingBatchTotal(db: Db, batchId: string, total: number): Promise<void> {
  await db.update(gradingBatches).set({ total }).where(eq(gradingBatches.id, batchId));
}
