import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/client.ts';
import {
  dumpDatabase,
  type AppliedMigration,
  type ColumnShape,
  type SequenceValue,
  type TableShape,
} from '../db/logical-dump.ts';
import type { FileStorage } from '../storage/file-storage.ts';

/**
 * A backup is a folder: `database/<table>.jsonl` (one row a line, each value its type's text),
 * `files/<aa>/<storage key>` (every blob the database's `files` rows name) and `manifest.json`,
 * written last, with the size and sha256 of every one of those files. It is written under a
 * temporary name beside the target and renamed into place only when complete, so a folder named
 * OUT is always a whole backup. Decision 0070 gives the reasons.
 */

export const BACKUP_FORMAT = 'gradewise-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_NAME = 'manifest.json';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_FORMAT_VERSION;
  createdAt: string;
  /** Where it was taken from; a backup restores into either kind. */
  databaseKind: 'pglite' | 'postgres';
  migrations: AppliedMigration[];
  tables: { name: string; columns: ColumnShape[]; rows: number; path: string; bytes: number; sha256: string }[];
  sequences: SequenceValue[];
  files: { id: string; storageKey: string; path: string; bytes: number; sha256: string }[];
}

export interface BackupSummary {
  out: string;
  tables: number;
  rows: number;
  files: number;
  fileBytes: number;
}

export interface BackupSource {
  database: Database;
  storage: FileStorage;
}

export class BackupError extends Error {}

export const tablePath = (table: string) => `database/${encodeURIComponent(table)}.jsonl`;
export const blobPath = (storageKey: string) => `files/${storageKey.slice(0, 2)}/${storageKey}`;

const sha256 = (content: Buffer | string) => createHash('sha256').update(content).digest('hex');

export async function writeBackup(
  source: BackupSource,
  outDir: string,
  log: (message: string) => void = () => {},
): Promise<BackupSummary> {
  const out = path.resolve(outDir);
  if (await exists(out)) throw new BackupError(`${out} already exists: give a new folder for the backup.`);
  await fs.mkdir(path.dirname(out), { recursive: true });
  const partial = await fs.mkdtemp(`${out}.incomplete-`);
  try {
    await fs.mkdir(path.join(partial, 'database'));
    const written = new Map<string, { handle: fs.FileHandle; hash: ReturnType<typeof createHash>; bytes: number }>();
    const open = async (table: TableShape) => {
      let file = written.get(table.name);
      if (!file) {
        const handle = await fs.open(path.join(partial, tablePath(table.name)), 'wx', 0o600);
        written.set(table.name, (file = { handle, hash: createHash('sha256'), bytes: 0 }));
      }
      return file;
    };
    let snapshot;
    try {
      snapshot = await dumpDatabase(source.database.db, {
        rows: async (table, lines) => {
          const file = await open(table);
          const text = lines.join('\n') + '\n';
          file.hash.update(text);
          file.bytes += Buffer.byteLength(text);
          await file.handle.write(text);
        },
      });
      for (const table of snapshot.tables) await open(table);
    } finally {
      for (const file of written.values()) await file.handle.close();
    }
    const rows = snapshot.tables.reduce((sum, table) => sum + table.rows, 0);
    log(`database: ${snapshot.tables.length} tables, ${rows} rows read in one transaction`);

    // The files the snapshot names. Blobs are written before their row commits and never
    // rewritten, so each one is on disk; one that is missing or differs from its row fails the backup.
    const files: BackupManifest['files'] = [];
    const problems: string[] = [];
    let fileBytes = 0;
    for (const record of snapshot.files) {
      let content: Buffer;
      try {
        content = await source.storage.get(record.storageKey);
      } catch (error) {
        problems.push(`file ${record.id} (${record.storageKey}) cannot be read: ${(error as Error).message}`);
        continue;
      }
      const hash = sha256(content);
      if (hash !== record.sha256 || content.length !== record.sizeBytes) {
        problems.push(
          `file ${record.id} (${record.storageKey}) differs from its database row: ${content.length} bytes, sha256 ${hash}; ` +
            `the row says ${record.sizeBytes} bytes, sha256 ${record.sha256}`,
        );
        continue;
      }
      const target = path.join(partial, blobPath(record.storageKey));
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, content, { flag: 'wx', mode: 0o600 });
      files.push({
        id: record.id,
        storageKey: record.storageKey,
        path: blobPath(record.storageKey),
        bytes: content.length,
        sha256: hash,
      });
      fileBytes += content.length;
    }
    if (problems.length > 0) {
      throw new BackupError(
        `The backup is incomplete: ${problems.length} stored file(s) named by the database are missing or damaged:\n` +
          problems.slice(0, 20).join('\n') +
          (problems.length > 20 ? `\n… and ${problems.length - 20} more` : ''),
      );
    }
    log(`files: ${files.length} (${fileBytes} bytes), each checked against its database row`);

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      databaseKind: source.database.kind,
      migrations: snapshot.migrations,
      tables: snapshot.tables.map((table) => {
        const file = written.get(table.name)!;
        return {
          name: table.name,
          columns: table.columns,
          rows: table.rows,
          path: tablePath(table.name),
          bytes: file.bytes,
          sha256: file.hash.digest('hex'),
        };
      }),
      sequences: snapshot.sequences,
      files,
    };
    await fs.writeFile(path.join(partial, MANIFEST_NAME), JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
    await fs.rename(partial, out);
    return { out, tables: manifest.tables.length, rows, files: files.length, fileBytes };
  } catch (error) {
    await fs.rm(partial, { recursive: true, force: true });
    throw error;
  }
}

async function exists(target: string): Promise<boolean> {
  try {
    await fs.lstat(target);
    return true;
  } catch {
    return false;
  }
}
