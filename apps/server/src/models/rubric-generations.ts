import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rubricGenerations } from '../db/schema.ts';
import {
  claimedValues,
  isUnfinished,
  recordWorkRowFailure,
  selectUnfinishedWorkRowIds,
  succeededValues,
  whileUnfinished,
} from './work-rows.ts';

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
    .where(and(eq(rubricGenerations.questionId, questionId), isUnfinished(rubricGenerations)))
    .limit(1);
  return row;
}

export async function selectUnfinishedRubricGenerationIds(db: Db): Promise<string[]> {
  return selectUnfinishedWorkRowIds(db, rubricGenerations);
}

/** Claims an unfinished draft for an attempt, counting the start; answers undefined when it already finished. */
export async function markRubricGenerationRunning(db: Db, id: string): Promise<RubricGenerationRow | undefined> {
  const [row] = await db
    .update(rubricGenerations)
    .set(claimedValues(rubricGenerations))
    .where(whileUnfinished(rubricGenerations, id))
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
    .set({ result, ...succeededValues() })
    .where(whileUnfinished(rubricGenerations, id))
    .returning();
  return row;
}

/** Final: marks the draft failed. Not final: notes the error and leaves it for its retry. */
export async function recordRubricGenerationFailure(
  db: Db,
  id: string,
  failure: { code: string; message: string },
  isFinal: boolean,
): Promise<void> {
  await recordWorkRowFailure(db, rubricGenerations, id, failure, isFinal);
}
