import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';
import { requestBackupFromServer } from '../services/backup-socket.ts';
import { BackupError, writeBackup, type BackupSummary } from '../services/write-backup.ts';
import { openFileStorage } from '../storage/open-file-storage.ts';

const USAGE = `Usage: npm run backup -- OUT

Writes one consistent backup of the database and the stored files into the new folder OUT:
every table's rows as of one moment, every file those rows name, and manifest.json with the
size and sha256 of each. The server may keep running. Restore with npm run restore -- OUT.
Uses the same environment as the server (DATA_DIR, DATABASE_URL).`;

/** A relative OUT is taken from where the command was typed (npm runs scripts from the repository root). */
export function resolveFromCaller(given: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
}

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((arg) => arg !== '--');
  if (args.length !== 1 || args[0] === '--help' || args[0] === '-h') {
    console.error(USAGE);
    return args[0] === '--help' || args[0] === '-h' ? 0 : 2;
  }
  const out = resolveFromCaller(args[0]!);
  const config = loadConfig();
  const log = (message: string) => console.log(message);
  const storage = openFileStorage(config);
  let summary: BackupSummary;
  if (config.databaseUrl) {
    // PostgreSQL: our own connection; the snapshot is one REPEATABLE READ transaction beside the app's.
    const database = openPostgres(config.databaseUrl, 2);
    try {
      summary = await writeBackup({ database, storage }, out, log);
    } finally {
      await database.close();
    }
  } else {
    const pgliteDir = path.join(config.dataDir, 'pglite');
    if (!fs.existsSync(pgliteDir)) {
      console.error(`There is no embedded database in ${config.dataDir} (no pglite/ folder): nothing to back up.`);
      return 1;
    }
    let release: (() => void) | undefined;
    try {
      release = lockDataDir(config.dataDir);
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
    }
    if (release === undefined) {
      // The server holds the data directory: it writes the backup through its own connection.
      log(`The Gradewise server is running on ${config.dataDir}: asking it to write the backup.`);
      summary = await requestBackupFromServer(config.dataDir, out, log);
    } else {
      // Nobody runs on it: open it here, holding the lock, so no server starts meanwhile.
      let database: Database | undefined;
      try {
        database = await openPglite(pgliteDir, { sharedBuffersMb: config.pgliteSharedBuffersMb });
        summary = await writeBackup({ database, storage }, out, log);
      } finally {
        await database?.close();
        release();
      }
    }
  }
  log(
    `Backup written to ${summary.out}: ${summary.tables} tables, ${summary.rows} rows, ` +
      `${summary.files} files (${summary.fileBytes} bytes), checksums in manifest.json.`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof BackupError || error instanceof DataDirLockedError) {
      console.error(error.message);
    } else {
      console.error('The backup failed:', error);
    }
    process.exit(1);
  },
);
