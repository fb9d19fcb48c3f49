import type { Database } from './client.ts';

/**
 * PGlite has no autovacuum (no background processes), so nothing ever runs ANALYZE there and the
 * planner works from defaults: it guessed 3 rows for a question's 300 submissions (decision 0030).
 * This does autovacuum's "analyze" part, simply: a table is analysed when it never was, or when its
 * size on disk moved by a fifth since it last was (PostgreSQL's own threshold is a tenth of the rows
 * changed; PGlite keeps no change counters, so the size is what we can read cheaply). See decision
 * 0040. PostgreSQL does this itself and is never touched here.
 */

/** How often a PGlite server looks for tables to analyse (one catalog query when nothing changed). */
export const ANALYZE_CHECK_INTERVAL_MS = 60_000;

/** A table is analysed again when its pages differ from those counted at its last ANALYZE by more than this share... */
const CHANGED_SHARE = 0.2;
/** ...and by more than this many pages (8 KB each), so a table is not analysed again for every few rows. */
const CHANGED_MIN_PAGES = 1;

/**
 * Our tables and pg-boss's (every schema but the system ones; partitions, not their parents) that
 * were never analysed (`reltuples` is -1 until the first ANALYZE) or whose size moved enough.
 */
const STALE_TABLES_SQL = `
  SELECT format('%I.%I', n.nspname, c.relname) AS name
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind = 'r'
    AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
    AND (c.reltuples < 0 OR abs(pg_relation_size(c.oid) / current_setting('block_size')::int - c.relpages)
         > greatest(${CHANGED_MIN_PAGES}, c.relpages * ${CHANGED_SHARE}))
  ORDER BY 1`;

/**
 * Analyses the PGlite tables that need it; answers their names. Does nothing on PostgreSQL
 * (autovacuum analyses there). Each ANALYZE is a statement of its own, queued behind the requests'
 * queries like any other, so none waits for all of them.
 */
export async function analyzeStaleTables(database: Database): Promise<string[]> {
  if (database.kind !== 'pglite') return [];
  const { rows } = await database.executeSql<{ name: string }>(STALE_TABLES_SQL);
  for (const { name } of rows) await database.executeSql(`ANALYZE ${name}`);
  return rows.map((row) => row.name);
}

/**
 * Runs `analyzeStaleTables` every `intervalMs` until stopped, off the request path: the timer
 * never keeps the process alive, a check never overlaps the previous one, and `stop` waits for a
 * running one so the database is not closed under it. A failure is reported and the next check
 * tries again.
 */
export function startPlannerStatistics(
  database: Database,
  onError: (error: unknown) => void,
  intervalMs = ANALYZE_CHECK_INTERVAL_MS,
): { stop(): Promise<void> } {
  if (database.kind !== 'pglite') return { stop: async () => {} };
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = analyzeStaleTables(database)
      .then(
        () => {},
        (error: unknown) => onError(error),
      )
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
