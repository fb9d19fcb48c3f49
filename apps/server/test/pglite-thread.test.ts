import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteThreadClient } from '../src/db/pglite-thread-client.ts';

/**
 * The embedded database runs on a thread of its own (docs/decisions/0019-…): what crosses the
 * thread boundary must behave as PGlite in one thread did. (Every other PGlite test runs through
 * this client too; these pin the boundary itself.)
 */
describe('PGlite on its own thread', () => {
  let client: PgliteThreadClient;
  beforeAll(async () => {
    client = await PgliteThreadClient.open({});
    await client.exec('CREATE TABLE t (id int PRIMARY KEY, label text, at timestamptz)');
  });
  afterAll(async () => {
    await client?.close();
  });

  it('answers rows in object and array mode, and keeps the requested types as PostgreSQL text', async () => {
    await client.query(`INSERT INTO t VALUES (1, 'one', '2026-01-02T03:04:05Z')`);
    const objects = await client.query<{ id: number; label: string; at: unknown }>(
      'SELECT * FROM t WHERE id = $1',
      [1],
    );
    expect(objects.rows[0]?.id).toBe(1);
    expect(objects.rows[0]?.at).toBeInstanceOf(Date);
    const arrays = await client.query('SELECT id, at FROM t WHERE id = $1', [1], {
      rowMode: 'array',
      parsers: { 1184: (value: string) => value },
    });
    expect(arrays.rows[0]).toEqual([1, '2026-01-02 03:04:05+00']);
  });

  it('cleans parameters before they cross (NUL removed, as decision 0010 requires)', async () => {
    await client.query('INSERT INTO t (id, label) VALUES ($1, $2)', [2, 'a\u0000b']);
    const { rows } = await client.query<{ label: string }>('SELECT label FROM t WHERE id = 2');
    expect(rows[0]?.label).not.toContain('\u0000');
  });

  it("carries PostgreSQL's error fields across (a unique violation keeps its code and constraint)", async () => {
    const error = await client.query('INSERT INTO t (id) VALUES (1)').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 't_pkey' });
  });

  it('commits a transaction whose callback resolves and rolls back one that throws', async () => {
    await client.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES (10)');
    });
    await expect(
      client.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES (11)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const { rows } = await client.query<{ id: number }>('SELECT id FROM t WHERE id IN (10, 11) ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual([10]);
  });

  it('keeps other queries waiting until an open transaction ends, as PGlite does', async () => {
    let outsideIssued!: () => void;
    const issued = new Promise<void>((resolve) => (outsideIssued = resolve));
    const order: string[] = [];
    const transaction = client.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES (20)');
      await issued;
      // The outside query reached the thread before this one: answered first, it did not wait.
      await tx.query('SELECT 1');
      order.push('inside round trip answered');
    });
    // Issued while the transaction is open (its INSERT is under way or done).
    const outside = client
      .query<{ count: number }>('SELECT count(*)::int AS count FROM t WHERE id = 20')
      .then((result) => {
        order.push('outside query answered');
        return result.rows[0]?.count;
      });
    outsideIssued();
    await transaction;
    expect(await outside).toBe(1);
    expect(order).toEqual(['inside round trip answered', 'outside query answered']);
  });

  it('refuses queries after close with a clear error', async () => {
    const other = await PgliteThreadClient.open({});
    await other.close();
    await expect(other.query('SELECT 1')).rejects.toThrow('The database is closed.');
  });
});
