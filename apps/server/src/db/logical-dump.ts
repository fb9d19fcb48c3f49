import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * A logical copy of the application's tables, made and loaded through the app's own connection, so
 * it works the same on PGlite and PostgreSQL (and a backup of one restores into the other).
 * Every value travels as its type's own text form (what `value::text` gives and `text::type`
 * reads back), so nothing is rounded or reinterpreted on the way; NULL stays NULL. The pg-boss
 * schema is not copied: the work rows are, and the queue re-sends unfinished work at start
 * (docs/decisions/0005-durable-jobs.md, 0070-backup-and-restore.md).
 */

export interface ColumnShape {
  name: string;
  /** format_type(): `uuid`, `timestamp with time zone`, `jsonb`, `character varying(200)`… */
  type: string;
}

export interface TableShape {
  name: string;
  columns: ColumnShape[];
}

export interface AppliedMigration {
  hash: string;
  createdAt: string;
}

export interface SequenceValue {
  name: string;
  /** null: never used (nextval not yet called). */
  lastValue: string | null;
}

/** A row of `files` as the snapshot saw it: the blob the backup must hold. */
export interface FileRecord {
  id: string;
  storageKey: string;
  sizeBytes: number;
  sha256: string;
}

export interface SnapshotSink {
  /** One table's rows, a batch at a time: each line is a JSON array of the columns' texts (or null). */
  rows(table: TableShape, lines: string[]): Promise<void>;
}

export interface Snapshot {
  migrations: AppliedMigration[];
  tables: (TableShape & { rows: number })[];
  sequences: SequenceValue[];
  files: FileRecord[];
}

const BATCH_ROWS = 1000;

/**
 * Settings that make every type's text form unambiguous and the same in both directions, whatever
 * the server's or the role's defaults (ISO dates, UTC, hex bytea, shortest exact floats).
 */
const TEXT_SETTINGS = [
  "SET LOCAL DateStyle = 'ISO, YMD'",
  "SET LOCAL IntervalStyle = 'postgres'",
  "SET LOCAL TimeZone = 'UTC'",
  "SET LOCAL bytea_output = 'hex'",
  'SET LOCAL extra_float_digits = 1',
];

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

async function rowsOf<Row>(tx: Tx | Db, query: SQL): Promise<Row[]> {
  const result = (await tx.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

/** A table's columns and types, whatever their order (rows are loaded by column name). */
const columnSet = (columns: ColumnShape[]) =>
  JSON.stringify(columns.map((column) => `${column.name} ${column.type}`).sort());

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The application's tables (schema public) and their stored columns, in a stable order. */
async function readShapes(tx: Tx | Db): Promise<TableShape[]> {
  const columns = await rowsOf<{ table_name: string; column_name: string; column_type: string }>(
    tx,
    sql.raw(`SELECT c.relname AS table_name, a.attname AS column_name,
                    format_type(a.atttypid, a.atttypmod) AS column_type
               FROM pg_class c
               JOIN pg_namespace n ON n.oid = c.relnamespace
               JOIN pg_attribute a ON a.attrelid = c.oid
              WHERE n.nspname = 'public' AND c.relkind = 'r'
                AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
              ORDER BY c.relname, a.attnum`),
  );
  const tables = new Map<string, TableShape>();
  for (const row of columns) {
    let table = tables.get(row.table_name);
    if (!table) tables.set(row.table_name, (table = { name: row.table_name, columns: [] }));
    table.columns.push({ name: row.column_name, type: row.column_type });
  }
  return [...tables.values()];
}

async function readMigrations(tx: Tx | Db): Promise<AppliedMigration[]> {
  const exists = await rowsOf<{ found: boolean }>(
    tx,
    sql.raw(`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS found`),
  );
  if (!exists[0]?.found) return [];
  const rows = await rowsOf<{ hash: string; created_at: string }>(
    tx,
    sql.raw('SELECT hash, created_at::text AS created_at FROM drizzle.__drizzle_migrations ORDER BY id'),
  );
  return rows.map((row) => ({ hash: row.hash, createdAt: row.created_at }));
}

/**
 * Reads every table in one REPEATABLE READ, READ ONLY transaction: one consistent moment, while
 * the app goes on writing (on PostgreSQL); on PGlite, which has one connection, the app's queries
 * wait for the copy of the rows (not of the files, which happens after).
 */
export async function dumpDatabase(db: Db, sink: SnapshotSink): Promise<Snapshot> {
  return db.transaction(
    async (tx) => {
      for (const setting of TEXT_SETTINGS) await tx.execute(sql.raw(setting));
      const migrations = await readMigrations(tx);
      const shapes = await readShapes(tx);
      const tables: Snapshot['tables'] = [];
      for (const shape of shapes) {
        const values = shape.columns.map((column) => `${ident(column.name)}::text`).join(', ');
        await tx.execute(
          sql.raw(`DECLARE gradewise_backup NO SCROLL CURSOR FOR
                     SELECT to_json(ARRAY[${values}]::text[])::text AS line FROM ONLY public.${ident(shape.name)}`),
        );
        let count = 0;
        for (;;) {
          const batch = await rowsOf<{ line: string }>(tx, sql.raw(`FETCH ${BATCH_ROWS} FROM gradewise_backup`));
          if (batch.length === 0) break;
          count += batch.length;
          await sink.rows(
            shape,
            batch.map((row) => row.line),
          );
        }
        await tx.execute(sql.raw('CLOSE gradewise_backup'));
        tables.push({ ...shape, rows: count });
      }
      const sequences = await rowsOf<{ name: string; last_value: string | null }>(
        tx,
        sql.raw(`SELECT sequencename AS name, last_value::text AS last_value
                   FROM pg_sequences WHERE schemaname = 'public' ORDER BY sequencename`),
      );
      const files = await rowsOf<{ id: string; storage_key: string; size_bytes: number; sha256: string }>(
        tx,
        sql.raw('SELECT id::text AS id, storage_key, size_bytes, sha256 FROM public.files ORDER BY storage_key'),
      );
      return {
        migrations,
        tables,
        sequences: sequences.map((row) => ({ name: row.name, lastValue: row.last_value })),
        files: files.map((row) => ({
          id: row.id,
          storageKey: row.storage_key,
          sizeBytes: Number(row.size_bytes),
          sha256: row.sha256,
        })),
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** Whether the database holds no table of ours, nor of drizzle or pg-boss: a target restore may fill. */
export async function listExistingTables(db: Db): Promise<string[]> {
  const rows = await rowsOf<{ name: string }>(
    db,
    sql.raw(`SELECT n.nspname || '.' || c.relname AS name
               FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE c.relkind IN ('r', 'p')
                AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
              ORDER BY 1`),
  );
  return rows.map((row) => row.name);
}

export async function readAppliedMigrations(db: Db): Promise<AppliedMigration[]> {
  return readMigrations(db);
}

export interface LoadSource {
  /** The table's rows as `rows()` wrote them, a batch at a time. */
  batches(table: TableShape): AsyncIterable<string[]>;
}

/**
 * Loads a snapshot into a freshly migrated database of the same schema, in one transaction: the
 * tables must have exactly the snapshot's columns; user triggers are off while rows go in (the
 * rows they would have written are in the snapshot already); foreign keys are dropped and added
 * back afterwards, which checks every reference of every row; sequences are set. Returns the
 * number of rows loaded per table.
 */
export async function loadDatabase(
  db: Db,
  snapshot: Pick<Snapshot, 'tables' | 'sequences'>,
  source: LoadSource,
): Promise<Map<string, number>> {
  return db.transaction(async (tx) => {
    for (const setting of TEXT_SETTINGS) await tx.execute(sql.raw(setting));
    const shapes = new Map((await readShapes(tx)).map((shape) => [shape.name, shape]));
    const wanted = new Set(snapshot.tables.map((table) => table.name));
    const problems: string[] = [];
    for (const table of snapshot.tables) {
      const here = shapes.get(table.name);
      if (!here) problems.push(`table ${table.name} is in the backup but not in this database`);
      else if (columnSet(here.columns) !== columnSet(table.columns))
        problems.push(`table ${table.name} has other columns here than in the backup`);
    }
    for (const name of shapes.keys()) if (!wanted.has(name)) problems.push(`table ${name} is not in the backup`);
    if (problems.length > 0)
      throw new Error(`The backup does not match this database's schema: ${problems.join('; ')}.`);

    const foreignKeys = await rowsOf<{ table_name: string; name: string; definition: string }>(
      tx,
      sql.raw(`SELECT c.conrelid::regclass::text AS table_name, c.conname AS name,
                      pg_get_constraintdef(c.oid) AS definition
                 FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
                WHERE c.contype = 'f' AND n.nspname = 'public'
                ORDER BY 1, 2`),
    );
    for (const key of foreignKeys) {
      await tx.execute(sql.raw(`ALTER TABLE ${key.table_name} DROP CONSTRAINT ${ident(key.name)}`));
    }
    const names = snapshot.tables.map((table) => `public.${ident(table.name)}`);
    if (names.length > 0) await tx.execute(sql.raw(`TRUNCATE ${names.join(', ')}`));
    for (const name of names) await tx.execute(sql.raw(`ALTER TABLE ${name} DISABLE TRIGGER USER`));

    const loaded = new Map<string, number>();
    for (const table of snapshot.tables) {
      const columns = table.columns.map((column) => ident(column.name)).join(', ');
      const values = table.columns.map((column, index) => `(v->>${index})::${column.type}`).join(', ');
      const head = sql.raw(`INSERT INTO public.${ident(table.name)} (${columns}) OVERRIDING SYSTEM VALUE
                              SELECT ${values} FROM jsonb_array_elements(`);
      const tail = sql.raw('::jsonb) AS v');
      let count = 0;
      for await (const lines of source.batches(table)) {
        if (lines.length === 0) continue;
        await tx.execute(sql`${head}${`[${lines.join(',')}]`}${tail}`);
        count += lines.length;
      }
      loaded.set(table.name, count);
    }

    for (const name of names) await tx.execute(sql.raw(`ALTER TABLE ${name} ENABLE TRIGGER USER`));
    for (const key of foreignKeys) {
      await tx.execute(sql.raw(`ALTER TABLE ${key.table_name} ADD CONSTRAINT ${ident(key.name)} ${key.definition}`));
    }
    for (const sequence of snapshot.sequences) {
      if (sequence.lastValue === null) continue;
      await tx.execute(
        sql`SELECT setval(${`public.${ident(sequence.name)}`}::regclass, ${sequence.lastValue}::bigint, true)`,
      );
    }
    return loaded;
  });
}
