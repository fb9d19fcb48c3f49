import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteStartOptions } from './memory.ts';

/**
 * Upgrades an embedded database written by PGlite 0.3 (PostgreSQL 17) to the PGlite 0.5
 * (PostgreSQL 18) the server runs, once, at the first start of the new version
 * (docs/decisions/0056-pglite-0.5.md). PostgreSQL 18 cannot open a 17 data directory, so:
 *
 * 1. the 17 directory is opened with PGlite 0.3 (kept as the `pglite-pg17` package) and dumped
 *    with pg_dump 17 (`pglite-tools-pg17`);
 * 2. the dump is restored into a new directory `<dir>-pg18-upgrade` in one transaction;
 * 3. the row count of every table (ours, drizzle's migrations, pg-boss's) is compared;
 * 4. a marker `<dir>-pg18-upgrade.verified` is written, the 17 directory is renamed to
 *    `<dir>-pg17-backup-<time>`, the copy renamed into its place, and the marker removed.
 *
 * A start that finds the marker and no `<dir>` finishes the swap (a stop between the two renames);
 * a copy found beside `<dir>` is a stopped attempt and is removed. Any failure before the swap
 * removes the copy, leaves `<dir>` untouched and refuses to start with a message. A version other
 * than 17 or 18 is refused without a change. The caller holds the data-directory lock.
 *
 * The old PGlite and pg_dump are imported only when an upgrade is due: a normal start loads
 * neither.
 */

export const CURRENT_PG_VERSION = '18';
const UPGRADABLE_PG_VERSION = '17';

export class PgliteUpgradeError extends Error {
  override name = 'PgliteUpgradeError';
}

export interface UpgradeLog {
  warn(message: string): void;
}

export interface UpgradeOptions {
  sharedBuffersMb?: number;
  log?: UpgradeLog;
  /** The time in the backup's name (tests fix it). */
  now?: () => Date;
  /** Tests only: runs between the restore and the comparison, on the new database (a failure there must leave `<dir>` untouched). */
  beforeCompare?: (restored: PGlite) => Promise<void>;
}

/** The directories an upgrade of `dataDir` uses, beside it. */
export function upgradePaths(dataDir: string) {
  const copy = `${dataDir}-pg18-upgrade`;
  return { copy, verified: `${copy}.verified`, backupPrefix: `${dataDir}-pg17-backup-` };
}

/** PostgreSQL's major version of a data directory, or undefined when it holds none yet. */
export function pgVersionOf(dataDir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(dataDir, 'PG_VERSION'), 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Makes `dataDir` a PostgreSQL 18 data directory, or leaves it absent (a new installation);
 * returns the backup's path when it upgraded now.
 */
export async function upgradePgliteDataDir(dataDir: string, options: UpgradeOptions = {}): Promise<string | undefined> {
  const { copy, verified } = upgradePaths(dataDir);
  finishOrDiscardEarlierAttempt(dataDir, options.log);

  const version = pgVersionOf(dataDir);
  if (version === undefined || version === CURRENT_PG_VERSION) return undefined;
  if (version !== UPGRADABLE_PG_VERSION) {
    throw new PgliteUpgradeError(
      `Gradewise cannot start: the embedded database in ${dataDir} is PostgreSQL ${version}; this version of ` +
        `Gradewise runs PostgreSQL ${CURRENT_PG_VERSION} and upgrades only ${UPGRADABLE_PG_VERSION}. Nothing was changed.`,
    );
  }

  const backup = `${upgradePaths(dataDir).backupPrefix}${stamp((options.now ?? (() => new Date()))())}`;
  options.log?.warn(
    `Upgrading the embedded database in ${dataDir} from PostgreSQL ${UPGRADABLE_PG_VERSION} to ${CURRENT_PG_VERSION} ` +
      `(once; a copy is made and checked first). The old directory is kept as ${backup}.`,
  );
  try {
    await copyInto(dataDir, copy, options);
  } catch (error) {
    fs.rmSync(copy, { recursive: true, force: true });
    throw new PgliteUpgradeError(
      `Gradewise cannot start: upgrading the embedded database in ${dataDir} from PostgreSQL ` +
        `${UPGRADABLE_PG_VERSION} to ${CURRENT_PG_VERSION} failed, and the database was left as it was: ` +
        `${(error as Error).message}\nThe previous version of Gradewise still opens it.`,
      { cause: error },
    );
  }
  // Verified: from here on a stop is finished by the next start (finishOrDiscardEarlierAttempt).
  fs.writeFileSync(verified, `${backup}\n`);
  fs.renameSync(dataDir, backup);
  fs.renameSync(copy, dataDir);
  fs.rmSync(verified, { force: true });
  options.log?.warn(
    `Upgraded the embedded database to PostgreSQL ${CURRENT_PG_VERSION}. The PostgreSQL ${UPGRADABLE_PG_VERSION} ` +
      `directory is kept as ${backup}; once Gradewise runs as it should, you may delete it.`,
  );
  return backup;
}

/**
 * What a stopped upgrade left: with the marker and no `dataDir`, the copy was verified and the
 * old directory already renamed, so the copy goes into place; a copy beside `dataDir` never
 * replaced it and is removed (the upgrade runs again).
 */
function finishOrDiscardEarlierAttempt(dataDir: string, log: UpgradeLog | undefined): void {
  const { copy, verified } = upgradePaths(dataDir);
  const hasMarker = fs.existsSync(verified);
  if (!fs.existsSync(dataDir) && fs.existsSync(copy)) {
    if (!hasMarker) {
      throw new PgliteUpgradeError(
        `Gradewise cannot start: ${dataDir} is missing and ${copy}, an unfinished upgrade's copy that was never ` +
          `checked, is there. Put back the data directory (a ${path.basename(dataDir)}-pg17-backup-* directory ` +
          `beside it, if there is one), or remove ${copy} to start with an empty database.`,
      );
    }
    fs.renameSync(copy, dataDir);
    fs.rmSync(verified, { force: true });
    log?.warn(
      `Finished the interrupted upgrade of the embedded database in ${dataDir} (PostgreSQL ${CURRENT_PG_VERSION}).`,
    );
    return;
  }
  if (fs.existsSync(copy)) fs.rmSync(copy, { recursive: true, force: true });
  if (hasMarker) fs.rmSync(verified, { force: true });
}

/** Dumps `dataDir` with PostgreSQL 17's pg_dump and restores it into a new 18 directory `copy`, compared by row counts. */
async function copyInto(dataDir: string, copy: string, options: UpgradeOptions): Promise<void> {
  // Only here: the old PGlite (PostgreSQL 17) and its pg_dump, not loaded by a normal start.
  const [{ PGlite: PGlite17 }, { pgDump }] = await Promise.all([
    import('pglite-pg17'),
    import('pglite-tools-pg17/pg_dump'),
  ]);
  const old = new PGlite17(dataDir);
  let dump: string;
  let counts: Map<string, number>;
  try {
    await old.waitReady;
    counts = await rowCounts(old);
    // pg_dump takes any PGlite that speaks PostgreSQL 17's protocol (it calls execProtocolRawSync);
    // its typings name the root's PGlite. `--inserts` (added by pgDump) with 100 rows a statement:
    // PGlite's exec cannot run COPY from a script.
    const file = await pgDump({
      pg: old as unknown as Parameters<typeof pgDump>[0]['pg'],
      args: ['--rows-per-insert=100'],
    });
    dump = await file.text();
  } finally {
    await old.close();
  }

  fs.rmSync(copy, { recursive: true, force: true });
  const restored = new PGlite({
    dataDir: copy,
    ...(await pgliteStartOptions(options.sharedBuffersMb, { creates: true })),
  });
  try {
    await restored.waitReady;
    await restored.transaction(async (tx) => {
      await tx.exec(dump);
    });
    // pg_dump sets an empty search_path for its script; this session only compares from here.
    await restored.exec('SET search_path TO public');
    await options.beforeCompare?.(restored);
    const after = await rowCounts(restored);
    const differences = [...new Set([...counts.keys(), ...after.keys()])]
      .filter((table) => counts.get(table) !== after.get(table))
      .map((table) => `${table}: ${counts.get(table) ?? 'no table'} before, ${after.get(table) ?? 'no table'} after`);
    if (differences.length > 0) throw new Error(`the copy's rows differ (${differences.join('; ')})`);
  } finally {
    await restored.close();
  }
  if (pgVersionOf(copy) !== CURRENT_PG_VERSION) throw new Error(`the copy is not PostgreSQL ${CURRENT_PG_VERSION}`);
}

interface Queryable {
  query<Row>(text: string): Promise<{ rows: Row[] }>;
}

/** The row count of every table outside PostgreSQL's own schemas, by "schema"."table". */
async function rowCounts(pg: Queryable): Promise<Map<string, number>> {
  const { rows: tables } = await pg.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
      order by 1`,
  );
  const counts = new Map<string, number>();
  for (const { name } of tables) {
    const { rows } = await pg.query<{ n: number }>(`select count(*)::int as n from ${name}`);
    counts.set(name, rows[0]!.n);
  }
  return counts;
}

/** 2026-11-27T14-50-03Z: a time that sorts, in a name every file system takes. */
function stamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
}
