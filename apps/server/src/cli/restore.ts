import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { AppError } from '../lib/errors.ts';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';
import { readVerifiedBackup, restoreBackup } from '../services/restore-backup.ts';
import { BackupError } from '../services/write-backup.ts';
import { closeFileStorage, openFileStorage } from '../storage/open-file-storage.ts';

const USAGE = `Usage: npm run restore -- IN

Restores the backup folder IN (made by npm run backup) into an empty target: an empty DATA_DIR
(embedded database), or, with DATABASE_URL, an empty PostgreSQL database and an empty
DATA_DIR/files. With S3_BUCKET, the files go to that bucket, which must be empty. Every file is
checked against the backup's manifest before and after it is written.
Gradewise must not be running on the target.`;

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((arg) => arg !== '--');
  if (args.length !== 1 || args[0] === '--help' || args[0] === '-h') {
    console.error(USAGE);
    return args[0] === '--help' || args[0] === '-h' ? 0 : 2;
  }
  const backupDir = path.resolve(process.env.INIT_CWD ?? process.cwd(), args[0]!);
  const config = loadConfig();
  const log = (message: string) => console.log(message);
  // A damaged backup is refused before the target is touched.
  await readVerifiedBackup(backupDir);

  const present = fs.existsSync(config.dataDir) ? fs.readdirSync(config.dataDir) : [];
  const inTheWay = config.databaseUrl ? present.filter((name) => name === 'files') : present;
  if (inTheWay.length > 0) {
    console.error(
      `${config.dataDir} is not empty (${inTheWay.slice(0, 5).join(', ')}): restore only into an empty ` +
        (config.databaseUrl
          ? 'files folder (DATA_DIR/files).'
          : 'DATA_DIR. Choose a new DATA_DIR, or move this one away.'),
    );
    return 1;
  }
  // Held until the end: no server may start on the target while it is being filled.
  const release = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  let database: Database | undefined;
  const storage = openFileStorage(config);
  let restored = false;
  try {
    database = config.databaseUrl
      ? openPostgres(config.databaseUrl, 2)
      : await openPglite(path.join(config.dataDir, 'pglite'), { sharedBuffersMb: config.pgliteSharedBuffersMb });
    const summary = await restoreBackup({ database, filesDir: config.filesDir, storage }, backupDir, log);
    log(
      `Restored ${backupDir} into ${config.databaseUrl ? 'the PostgreSQL database of DATABASE_URL' : config.dataDir}: ` +
        `${summary.tables} tables, ${summary.rows} rows, ${summary.files} files (${summary.fileBytes} bytes) in the ${storage.description}, ` +
        `${summary.migrationsInBackup < summary.migrations ? `upgraded from migration ${summary.migrationsInBackup} to ${summary.migrations}` : `migrations 1-${summary.migrations}`}; every file matches the manifest. Start Gradewise on it as usual ` +
        '(everyone signs in again: sign-in tokens are not in backups).',
    );
    restored = true;
    return 0;
  } finally {
    await database?.close();
    closeFileStorage(storage);
    if (!restored && !config.databaseUrl) {
      // The data directory was empty before: leave it so, ready for another try.
      fs.rmSync(path.join(config.dataDir, 'pglite'), { recursive: true, force: true });
      fs.rmSync(config.filesDir, { recursive: true, force: true });
    }
    release();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    // The storage's own sentence too (an unreachable bucket, refused credentials: decision 0071).
    if (
      error instanceof ConfigError ||
      error instanceof BackupError ||
      error instanceof DataDirLockedError ||
      error instanceof AppError
    ) {
      console.error(error.message);
    } else {
      console.error('The restore failed:', error);
    }
    if (process.env.DATABASE_URL) {
      console.error(
        'If the database or DATA_DIR/files is no longer empty, drop and create the database (and empty the folder) before trying again.',
      );
    }
    process.exit(1);
  },
);
