import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Runs raw SQL for libraries that bring their own (pg-boss). Multi-statement text without values is allowed. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: any[] }>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  executeSql: ExecuteSql;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Wraps an open PGlite instance. `dataDir` undefined means in-memory (tests). */
export function wrapPglite(client: PGlite): Database {
  return {
    kind: 'pglite',
    db: drizzlePglite(client, { schema }) as unknown as Db,
    executeSql: async (text, values) => {
      // PGlite's extended-protocol query() takes one statement; exec() takes many but no values.
      if (values && values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    close: () => client.close(),
  };
}

export function wrapPostgres(pool: pg.Pool): Database {
  return {
    kind: 'postgres',
    db: drizzlePg(pool, { schema }) as unknown as Db,
    executeSql: async (text, values) => pool.query(text, values as any[]),
    close: () => pool.end(),
  };
}

export async function openPglite(dataDir: string | undefined): Promise<Database> {
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
  await client.waitReady;
  return wrapPglite(client);
}

export function openPostgres(databaseUrl: string, max = 10): Database {
  const pool = new pg.Pool({ connectionString: databaseUrl, max });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return wrapPostgres(pool);
}

/** Applies every pending migration. Same files for PGlite and PostgreSQL. */
export async function migrateDatabase(database: Database, databaseUrl?: string): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as any, { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  // Several processes may start together on one PostgreSQL: serialise migrations with an
  // advisory lock held on one dedicated connection for the whole run.
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(7271001)');
    await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query('SELECT pg_advisory_unlock(7271001)').catch(() => {});
    await client.end();
  }
}
