import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { gradingRuns, ltiScorePosts, rubricGenerations, suggestionRefreshes } from '../db/schema.ts';

/**
 * The lifecycle every job's work row shares (grading_runs, rubric_generations,
 * suggestion_refreshes; docs/decisions/0005-durable-jobs.md): queued → running, each start
 * counted in `attempts` (too many starts give the row up: services/job-work.ts) → succeeded, or
 * failed with the error and its code. A try that fails but will be retried notes its error and
 * leaves the row unfinished. Every write is guarded by the row still being unfinished, so a late
 * duplicate of a job changes nothing. Each table's module names its own functions from these.
 */
export type WorkRowTable =
  typeof gradingRuns | typeof rubricGenerations | typeof suggestionRefreshes | typeof ltiScorePosts;

/** Queued or running: the row's job has work left to do. */
export const ACTIVE_STATUSES = ['queued', 'running'] as const;

/** The row, while it is unfinished: the condition of every lifecycle write. */
export function whileUnfinished(table: WorkRowTable, id: string): SQL {
  return and(eq(table.id, id), isUnfinished(table))!;
}

/** Rows still queued or running. */
export function isUnfinished(table: WorkRowTable): SQL {
  return inArray(table.status, [...ACTIVE_STATUSES]);
}

/** A try claims the row: running, and this start counted. */
export function claimedValues(table: WorkRowTable): { status: 'running'; attempts: SQL } {
  return { status: 'running', attempts: sql`${table.attempts} + 1` };
}

/** The row's work is done: an error noted by an earlier try is cleared. */
export function succeededValues(): { status: 'succeeded'; error: null; errorCode: null; finishedAt: Date } {
  return { status: 'succeeded', error: null, errorCode: null, finishedAt: new Date() };
}

/** Ids of the rows still queued or running, oldest first: the boot sweep re-sends their jobs. */
export async function selectUnfinishedWorkRowIds(db: Db, table: WorkRowTable): Promise<string[]> {
  const rows = await db.select({ id: table.id }).from(table).where(isUnfinished(table)).orderBy(table.createdAt);
  return rows.map((row) => row.id);
}

/** Final: marks the row failed. Not final: notes the error and leaves the row for its retry. */
export async function recordWorkRowFailure(
  db: Db,
  table: WorkRowTable,
  id: string,
  failure: { code: string; message: string },
  isFinal: boolean,
): Promise<void> {
  await db
    .update(table)
    .set({
      error: failure.message,
      errorCode: failure.code,
      ...(isFinal ? { status: 'failed' as const, finishedAt: new Date() } : {}),
    })
    .where(whileUnfinished(table, id));
}
