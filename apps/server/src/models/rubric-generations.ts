import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rubricGenerations } from '../db/schema.ts';
import { ACTIVE_STATUSES } from './grading-runs.ts';

export type RubricGenerationRow = typeof rubricGenerations.$inferSelect;
export type NewRubricGenerationRow = typeof rubricGenerations.$inferInsert;

export async function selectRubricGenerationById(db: Db, id: string): Promise<RubricGenerationRow | undefined> {
  const [row] = await db.select().from(rubricGenerations).where(eq(rubricGenerations.id, id)).limit(1);
  return row;
}

/** Inserts a queued draft unless the question has one in flight (partial unique index). */
export async function insertRubricGenerationUnlessActive(
  db: Db,
  row: NewRubricGenerationRow,
): Promise<RubricGenerationRow | undefined> {
  const [inserted] = await db.insert(rubricGenerations).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function selectActiveRubricGeneration(
  db: Db,
  questionId: string,
): Promise<RubricGenerationRow | undefined> {
  const [row] = await db
    .select()
    .from(rubricGenerations)
    .where(and(eq(rubricGenerations.questionId, questionId), inArray(rubricGenerations.status, [...ACTIVE_STATUSES])))
    .limit(1);
  return row;
}

export async function selectUnfinishedRubricGenerationIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: rubricGenerations.id })
    .from(rubricGenerations)
    .where(inArray(rubricGenerations.status, [...ACTIVE_STATUSES]))
    .orderBy(rubricGenerations.createdAt);
  return rows.map((row) => row.id);
}

/** Claims an unfinished draft for an attempt, counting the start; answers undefined when it already finished. */
export async function markRubricGenerationRunning(db: Db, id: string): Promise<RubricGenerationRow | undefined> {
  const [row] = await db
    .update(rubricGenerations)
    .set({ status: 'running', attempts: sql`${rubricGenerations.attempts} + 1` })
    .where(and(eq(rubricGenerations.id, id), inArray(rubricGenerations.status, [...ACTIVE_STATUSES])))
    .returning();
  return row;
}

export async function storeRubricGenerationOutput(
  db: Db,
  id: string,
  output: Pick<
    NewRubricGenerationRow,
    'rawOutput' | 'graderKind' | 'provider' | 'model' | 'promptVersion' | 'inputTokens' | 'outputTokens' | 'latencyMs'
  >,
): Promise<void> {
  await db.update(rubricGenerations).set(output).where(eq(rubricGenerations.id, id));
}

export async function markRubricGenerationSucceeded(
  db: Db,
  id: string,
  result: unknown,
): Promise<RubricGenerationRow | undefined> {
  const [row] = await db
    .update(rubricGenerations)
    .set({ status: 'succeeded', result, error: null, errorCode: null, finishedAt: new Date() })
    .where(and(eq(rubricGenerations.id, id), inArray(rubricGenerations.status, [...ACTIVE_STATUSES])))
    .returning();
  return row;
}

export async function recordRubricGenerationFailure(
  db: Db,
  id: string,
  failure: { code: string; message: string },
  isFinal: boolean,
): Promise<void> {
  await db
    .update(rubricGenerations)
    .set({
      error: failure.message,
      errorCode: failure.code,
      ...(isFinal ? { status: 'failed' as const, finishedAt: new Date() } : {}),
    })
    .where(and(eq(rubricGenerations.id, id), inArray(rubricGenerations.status, [...ACTIVE_STATUSES])));
}
