import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { MIGRATIONS_DIR, migrateDatabase, type Database } from '../db/client.ts';
import { listExistingTables, loadDatabase, readAppliedMigrations, type TableShape } from '../db/logical-dump.ts';
import { setLocationOfEveryFile } from '../models/files.ts';
import { LocalDiskStorage, type FileStorage } from '../storage/file-storage.ts';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupError,
  MANIFEST_NAME,
  type BackupManifest,
} from './write-backup.ts';

export interface RestoreTarget {
  /** An empty database (no tables at all); restore migrates it and loads the rows. */
  database: Database;
  /** Where LocalDiskStorage keeps blobs (DATA_DIR/files): must be empty or absent. */
  filesDir: string;
  /**
   * Where the restored blobs go: the storage the server will read (an S3 bucket when S3_BUCKET is
   * set, which must hold no blob yet). Without it, local disk at `filesDir`.
   */
  storage?: FileStorage;
}

export interface RestoreSummary {
  tables: number;
  rows: number;
  files: number;
  fileBytes: number;
  /** Migrations the backup's database had, and the target has now (more: restore upgraded it). */
  migrationsInBackup: number;
  migrations: number;
}

const BATCH_ROWS = 1000;

const sha256OfFile = (file: string) => sha256OfStream(createReadStream(file));

const sha256OfStream = async (stream: AsyncIterable<unknown>) => {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
};

/** Paths in a manifest are ours (`database/…`, `files/…`): nothing may point outside the backup. */
function inside(root: string, relative: string): string {
  const resolved = path.resolve(root, relative);
  if (!resolved.startsWith(root + path.sep))
    throw new BackupError(`The manifest names a path outside the backup: ${relative}`);
  return resolved;
}

/**
 * Reads the manifest and checks every file it lists (size and sha256) before anything is written
 * anywhere: a damaged or incomplete backup is refused whole, naming what is wrong.
 */
export async function readVerifiedBackup(backupDir: string): Promise<BackupManifest> {
  const root = path.resolve(backupDir);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await fs.readFile(path.join(root, MANIFEST_NAME), 'utf8')) as BackupManifest;
  } catch (error) {
    throw new BackupError(
      `${root} is not a Gradewise backup: its ${MANIFEST_NAME} cannot be read (${(error as Error).message}).`,
    );
  }
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== BACKUP_FORMAT_VERSION) {
    throw new BackupError(
      `${root} is not a Gradewise backup of format ${BACKUP_FORMAT} version ${BACKUP_FORMAT_VERSION}.`,
    );
  }
  const problems: string[] = [];
  const listed = [
    ...manifest.tables.map((table) => ({ what: `table ${table.name}`, ...table })),
    ...manifest.files.map((file) => ({ what: `file ${file.id}`, ...file })),
  ];
  for (const entry of listed) {
    try {
      const found = await sha256OfFile(inside(root, entry.path));
      if (found.sha256 !== entry.sha256 || found.bytes !== entry.bytes) {
        problems.push(`${entry.what} (${entry.path}) does not match the manifest`);
      }
    } catch (error) {
      problems.push(`${entry.what} (${entry.path}) cannot be read: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) {
    throw new BackupError(
      `The backup ${root} is damaged; nothing was restored:\n` +
        problems.slice(0, 20).join('\n') +
        (problems.length > 20 ? `\n… and ${problems.length - 20} more` : ''),
    );
  }
  return manifest;
}

/**
 * Restores a backup into an empty target: refuses a database with any table or a files folder
 * with anything in it; migrates the database with this version's migrations, which must be the
 * backup's (same hashes, same order); loads every row in one transaction (db/logical-dump.ts);
 * writes every blob and reads it back against the manifest; counts every table's rows.
 */
export async function restoreBackup(
  target: RestoreTarget,
  backupDir: string,
  log: (message: string) => void = () => {},
): Promise<RestoreSummary> {
  const root = path.resolve(backupDir);
  const manifest = await readVerifiedBackup(root);
  log(`backup verified: ${manifest.tables.length} tables, ${manifest.files.length} files, taken ${manifest.createdAt}`);

  const existing = await listExistingTables(target.database.db);
  if (existing.length > 0) {
    throw new BackupError(
      `The target database is not empty (it has ${existing.length} tables, e.g. ${existing.slice(0, 3).join(', ')}): ` +
        'restore only into a new, empty database (or an empty DATA_DIR).',
    );
  }
  const filesPresent = await fs.readdir(target.filesDir).catch(() => []);
  if (filesPresent.length > 0) {
    throw new BackupError(`The files folder ${target.filesDir} is not empty: restore only into an empty one.`);
  }
  const storage = target.storage ?? new LocalDiskStorage(target.filesDir);
  await storage.check();
  for await (const blob of storage.list()) {
    throw new BackupError(
      `The ${storage.description} already holds stored files (e.g. ${blob.storageKey}): restore only into an empty one.`,
    );
  }
  // The backup's migrations must be this version's first ones: the target is migrated to exactly
  // the backup's, loaded, then migrated on (an upgrade, as a start of this version would do).
  const ours = readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR }).map((migration) => migration.hash);
  const theirs = manifest.migrations.map((migration) => migration.hash);
  if (theirs.length > ours.length || theirs.some((hash, index) => hash !== ours[index])) {
    throw new BackupError(
      `The backup was made by a database at migration ${theirs.length}, which this Gradewise (${ours.length} migrations) ` +
        `does not know${theirs.length > ours.length ? ' (a newer version made it)' : ' (its migrations differ)'}. ` +
        'Restore it with the Gradewise version that made it. Nothing was written.',
    );
  }
  if (theirs.length < ours.length) {
    const folder = await migrationsUpTo(theirs.length);
    try {
      await migrateDatabase(target.database, folder);
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  } else {
    await migrateDatabase(target.database);
  }
  const applied = (await readAppliedMigrations(target.database.db)).map((migration) => migration.hash);
  if (applied.join() !== theirs.join())
    throw new BackupError('The migrated target does not have the backup’s migrations.');

  const loaded = await loadDatabase(target.database.db, manifest, {
    batches: (table: TableShape) => readBatches(inside(root, manifest.tables.find((t) => t.name === table.name)!.path)),
  });
  const counts = await countRows(
    target.database,
    manifest.tables.map((table) => table.name),
  );
  const wrong = manifest.tables.filter(
    (table) => loaded.get(table.name) !== table.rows || counts.get(table.name) !== table.rows,
  );
  if (wrong.length > 0) {
    throw new BackupError(
      `Rows restored differ from the manifest in ${wrong.map((table) => `${table.name} (${table.rows} expected, ${counts.get(table.name)} found)`).join(', ')}.`,
    );
  }
  const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
  log(`database: ${manifest.tables.length} tables, ${rows} rows loaded and counted; every foreign key checked`);
  if (theirs.length < ours.length) {
    await migrateDatabase(target.database);
    log(`database upgraded from migration ${theirs.length} to ${ours.length}`);
  }

  const fileBytes = await restoreFiles(storage, root, manifest);
  // The rows say where their blobs are now (a backup of a server on S3 restored to disk, or the reverse).
  await setLocationOfEveryFile(target.database.db, storage.location);
  log(
    `files: ${manifest.files.length} (${fileBytes} bytes) written to the ${storage.description} and read back against the manifest`,
  );
  return {
    tables: manifest.tables.length,
    rows,
    files: manifest.files.length,
    fileBytes,
    migrationsInBackup: theirs.length,
    migrations: ours.length,
  };
}

/**
 * Streams every blob from the backup to the storage under its own key, then reads each back from
 * where the server will read it and checks it against the manifest. If anything fails, the blobs
 * written so far are deleted again, so the storage is empty for another try.
 */
async function restoreFiles(storage: FileStorage, root: string, manifest: BackupManifest): Promise<number> {
  const written: string[] = [];
  try {
    for (const file of manifest.files) {
      await storage.putAt(file.storageKey, createReadStream(inside(root, file.path)), file.bytes);
      written.push(file.storageKey);
    }
    let fileBytes = 0;
    for (const file of manifest.files) {
      const found = await sha256OfStream((await storage.open(file.storageKey)).body);
      if (found.sha256 !== file.sha256 || found.bytes !== file.bytes) {
        throw new BackupError(`The restored file ${file.id} does not match the manifest after writing it.`);
      }
      fileBytes += found.bytes;
    }
    return fileBytes;
  } catch (error) {
    await Promise.all(written.map((key) => storage.delete(key).catch(() => {})));
    throw error;
  }
}

/** A copy of the migrations folder whose journal lists only the first `count` migrations. */
async function migrationsUpTo(count: number): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'gradewise-migrations-'));
  await fs.cp(MIGRATIONS_DIR, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await fs.readFile(journalPath, 'utf8')) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, count);
  await fs.writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

async function* readBatches(file: string): AsyncIterable<string[]> {
  let batch: string[] = [];
  for await (const line of readline.createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    if (line === '') continue;
    batch.push(line);
    if (batch.length >= BATCH_ROWS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

async function countRows(database: Database, tables: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const table of tables) {
    const { rows } = await database.executeSql<{ count: string }>(
      `SELECT count(*)::text AS count FROM public."${table.replace(/"/g, '""')}"`,
    );
    counts.set(table, Number(rows[0]!.count));
  }
  return counts;
}
