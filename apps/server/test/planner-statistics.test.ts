import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { analyzeStaleTables } from '../src/db/planner-statistics.ts';
import { createTestDatabase } from './support/test-app.ts';

/**
 * PGlite has no autovacuum, so the server analyses its tables itself (decision 0040): those never
 * analysed, and those whose size moved by a fifth since. PostgreSQL analyses by itself.
 */
describe('planner statistics', () => {
  let database: Database;
  let dropDatabase: () => Promise<void>;
  beforeAll(async () => {
    ({ database, dropDatabase } = await createTestDatabase());
  });
  afterAll(async () => {
    await database?.close();
    await dropDatabase?.();
  });

  const relationStats = async (table: string) => {
    const { rows } = await database.executeSql<{ reltuples: number }>(
      `SELECT reltuples FROM pg_class WHERE oid = $1::regclass`,
      [table],
    );
    return rows[0]!;
  };

  it('analyses the PGlite tables never analysed, then only a table that grew; leaves PostgreSQL to autovacuum', async () => {
    if (database.kind === 'postgres') {
      expect(await analyzeStaleTables(database)).toEqual([]);
      return;
    }
    const first = await analyzeStaleTables(database);
    expect(first).toContain('public.grading_runs');
    expect(first).toContain('public.submissions');
    expect((await relationStats('public.login_throttles')).reltuples).toBeGreaterThanOrEqual(0);
    expect(await analyzeStaleTables(database)).toEqual([]);

    // A few hundred rows (several pages) in a table analysed empty: analysed again, alone.
    await database.executeSql(
      `INSERT INTO login_throttles (email, client, failures)
       SELECT 'student' || g || '-' || $1 || '@example.com', '203.0.113.7', 1 FROM generate_series(1, 400) g`,
      [randomUUID()],
    );
    expect(await analyzeStaleTables(database)).toEqual(['public.login_throttles']);
    expect((await relationStats('public.login_throttles')).reltuples).toBeGreaterThan(100);
    expect(await analyzeStaleTables(database)).toEqual([]);
  });
});
