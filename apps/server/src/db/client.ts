import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { openPgliteConnection } from './pglite/connection.ts';
import { upgradePgliteDataDir, type UpgradeLog } from './pglite/upgrade.ts';
import * as schema from './schema.ts';
import { toStorableParameters } from './storable-text.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Runs raw SQL for libraries that bring their own (pg-boss). Multi-statement text without values is allowed. */
export type ExecuteSql = <Row = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<{ rows: Row[] }>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  executeSql: ExecuteSql;
  /**
   * Runs `setup` alone among every process on this database, on one connection (`db`). Schema
   * changes taken concurrently deadlock on PostgreSQL (two processes creating pg-boss's queues at
   * once did, in 2 of 6 simultaneous starts), so migrations and queue setup run under this lock.
   */
  withSetupLock<T>(setup: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** pg_advisory_lock key of the setup lock (any constant of ours; pg-boss uses hashed keys of its own). */
const SETUP_LOCK_KEY = 7271001;

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Wraps an embedded database: the server's (db/pglite/connection.ts, which cleans every parameter
 * so no NUL or lone surrogate reaches the database, and runs each query as a named statement), or
 * a bare PGlite (the tests' template, made once per run by test/support/global-setup.ts).
 */
export function wrapPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    // The caller names the row type of its own SQL; the database does not check it.
    executeSql: async <Row>(text: string, values?: unknown[]) => {
      // PGlite's extended-protocol query() takes one statement; exec() takes many but no values.
      if (values && values.length > 0) return { rows: (await client.query(text, values)).rows as Row[] };
      const results = await client.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as Row[] };
    },
    // A data directory is locked to one process (data-dir-lock.ts), and PGlite has one connection.
    withSetupLock: (setup) => setup(db),
    close: () => client.close(),
  };
}

export function wrapPostgres(pool: pg.Pool): Database {
  return {
    kind: 'postgres',
    db: drizzlePg(pool, { schema }) as unknown as Db,
    executeSql: async <Row>(text: string, values?: unknown[]) => ({
      rows: (await pool.query(text, values)).rows as Row[],
    }),
    withSetupLock: async (setup) => {
      // A session lock on a connection of its own: it is released when we unlock, or by the server
      // when this process dies holding it (its connection closes), so a crash never leaves it taken.
      const client = await pool.connect();
      let releaseError: Error | undefined;
      try {
        await client.query('SELECT pg_advisory_lock($1)', [SETUP_LOCK_KEY]);
        try {
          return await setup(drizzlePg(client, { schema }) as unknown as Db);
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [SETUP_LOCK_KEY]).catch((error: Error) => {
            // Never return a connection that may still hold the lock to the pool: destroy it instead.
            releaseError = error;
          });
        }
      } finally {
        client.release(releaseError);
      }
    },
    close: () => pool.end(),
  };
}

/**
 * Opens the embedded database in this process: `dataDir` on disk, or in memory when undefined
 * (tests), optionally loaded from a dump file (`loadDataDirFrom`, in memory only); with
 * `sharedBuffersMb` of page cache (PGLITE_SHARED_BUFFERS_MB, default in db/pglite/memory.ts). A
 * data directory an older version wrote with PostgreSQL 17 is upgraded first (db/pglite/upgrade.ts,
 * said in `log`). Callers hold the data-directory lock (boot.ts).
 */
export async function openPglite(
  dataDir: string | undefined,
  options: { loadDataDirFrom?: string; sharedBuffersMb?: number; log?: UpgradeLog } = {},
): Promise<Database> {
  const { sharedBuffersMb, loadDataDirFrom } = options;
  if (dataDir !== undefined) await upgradePgliteDataDir(dataDir, { sharedBuffersMb, log: options.log });
  return wrapPglite(await openPgliteConnection({ dataDir, loadDataDirFrom, sharedBuffersMb }));
}

export function openPostgres(databaseUrl: string, max = 10): Database {
  // Every pooled connection is a StorableTextClient: drizzle (pool.query, and transactions on a
  // checked-out client) and pg-boss (executeSql over pool.query) all send cleaned parameters.
  const pool = new pg.Pool({ connectionString: databaseUrl, max, Client: StorableTextClient });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return wrapPostgres(pool);
}

/**
 * Applies every pending migration. Same files for PGlite and PostgreSQL. `migrationsFolder`: a
 * copy holding only the first migrations (restore of an older backup, services/restore-backup.ts).
 */
export async function migrateDatabase(database: Database, migrationsFolder = MIGRATIONS_DIR): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as Parameters<typeof migratePglite>[0], { migrationsFolder });
    return;
  }
  // Several processes may start together on one PostgreSQL: they migrate one after the other, on
  // the connection that holds the setup lock.
  await database.withSetupLock((db) =>
    migratePg(db as unknown as Parameters<typeof migratePg>[0], { migrationsFolder }),
  );
}

// ------------------------------------------------------------------ storable parameters

/** pg's client with every parameter cleaned, whichever form `query` is called in. */
class StorableTextClient extends pg.Client {
  // pg's query has a dozen overloads (callbacks, submittables, configs); this one forwards them all.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: unknown[]): any {
    const [first, second] = args;
    if (Array.isArray(second)) args[1] = toStorableParameters(second);
    else if (
      first &&
      typeof first === 'object' &&
      typeof (first as { submit?: unknown }).submit !== 'function' &&
      Array.isArray((first as { values?: unknown }).values)
    ) {
      args[0] = { ...first, values: toStorableParameters((first as { values: unknown[] }).values) };
    }
    return (super.query as (...a: unknown[]) => unknown)(...args);
  }
}
