import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { suggestionRefreshes } from '../db/schema.ts';
import {
  claimedValues,
  recordWorkRowFailure,
  selectUnfinishedWorkRowIds,
  succeededValues,
  whileUnfinished,
} from './work-rows.ts';

export type SuggestionRefreshRow = typeof suggestionRefreshes.$inferSelect;

/**
 * Queues a refresh of the question's suggestions unless one is already queued (a partial unique
 * index decides): that one has not read the saved grades yet, so it will learn from this save too.
 * Answers the inserted row, or undefined when the save joined the queued one.
 */
export async function insertSuggestionRefreshUnlessQueued(
  db: Db,
  row: { id: string; questionId: string; requestedById: string | null },
): Promise<SuggestionRefreshRow | undefined> {
  const [inserted] = await db
    .insert(suggestionRefreshes)
    .values({ ...row, status: 'queued' })
    .onConflictDoNothing()
    .returning();
  return inserted;
}

/** The question's newest refresh, whatever its state. */
export async function selectLatestSuggestionRefresh(
  db: Db,
  questionId: string,
): Promise<SuggestionRefreshRow | undefined> {
  const [row] = await db
    .select()
    .from(suggestionRefreshes)
    .where(eq(suggestionRefreshes.questionId, questionId))
    .orderBy(desc(suggestionRefreshes.createdAt), desc(suggestionRefreshes.id))
    .limit(1);
  return row;
}

export async function selectUnfinishedSuggestionRefreshIds(db: Db): Promise<string[]> {
  return selectUnfinishedWorkRowIds(db, suggestionRefreshes);
}

/**
 * Claims a refresh for an attempt (queued, or running after a crash). Throws the database's unique
 * violation when another refresh of the same question is running: the caller retries later.
 */
export async function markSuggestionRefreshRunning(db: Db, id: string): Promise<SuggestionRefreshRow | undefined> {
  const [row] = await db
    .update(suggestionRefreshes)
    .set({ ...claimedValues(suggestionRefreshes), startedAt: new Date() })
    .where(whileUnfinished(suggestionRefreshes, id))
    .returning();
  return row;
}

export async function markSuggestionRefreshSucceeded(
  db: Db,
  id: string,
  result: { examplesUsed: number; resuggested: number },
): Promise<void> {
  await db
    .update(suggestionRefreshes)
    .set({ ...result, ...succeededValues() })
    .where(and(eq(suggestionRefreshes.id, id), eq(suggestionRefreshes.status, 'running')));
}

/** Final: marks the refresh failed. Not final: notes the error and leaves it for its retry. */
export async function recordSuggestionRefreshFailure(
  db: Db,
  id: string,
  failure: { code: string; message: string },
  isFinal: boolean,
): Promise<void> {
  await recordWorkRowFailure(db, suggestionRefreshes, id, failure, isFinal);
}
