import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { migrateDatabase, openPglite, openPostgres, type Database } from '../db/client.ts';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';
import { AppError } from '../lib/errors.ts';
import { moveFilesToS3 } from '../services/move-files-to-s3.ts';
import { LocalDiskStorage } from '../storage/file-storage.ts';
import { S3Storage } from '../storage/s3-storage.ts';

const USAGE = `Usage: npm run files:to-s3

Copies every stored file from local disk (DATA_DIR/files) to the S3-compatible bucket (S3_BUCKET
and the other S3_* variables), checks each copy (size and sha256), then switches its row to the
bucket. On PostgreSQL the servers may keep running (set S3_* on them first: they read a file from
the bucket, or from the disk until it is moved). Running it again copies nothing twice.
Uses the same environment as the server.`;

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((arg) => arg !== '--');
  if (args.length > 0) {
    console.error(USAGE);
    return args[0] === '--help' || args[0] === '-h' ? 0 : 2;
  }
  const config = loadConfig();
  if (!config.s3) {
    console.error('S3_BUCKET is not set: set it and the other S3_* variables (README, "Several machines") first.');
    return 2;
  }
  const bucket = new S3Storage(config.s3);
  const local = new LocalDiskStorage(config.filesDir);
  let release = () => {};
  let database: Database | undefined;
  try {
    // Before anything is read: a bucket that cannot be used is said in one sentence.
    await bucket.check();
    if (config.databaseUrl) {
      database = openPostgres(config.databaseUrl, 2);
    } else {
      // The embedded database is one process's: the server must be stopped for the move.
      release = lockDataDir(config.dataDir);
      database = await openPglite(path.join(config.dataDir, 'pglite'), {
        sharedBuffersMb: config.pgliteSharedBuffersMb,
      });
    }
    await migrateDatabase(database);
    const summary = await moveFilesToS3(database.db, local, bucket, (message) => console.log(message));
    console.log(
      `${summary.moved} files moved to the ${bucket.description}; ` +
        (summary.problems.length === 0
          ? 'every file row now names the bucket.'
          : `${summary.problems.length} left on local disk (listed above).`),
    );
    return summary.problems.length === 0 ? 0 : 1;
  } finally {
    await database?.close();
    release();
    bucket.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof AppError) {
      console.error(error.message);
    } else {
      console.error('Moving the files failed:', error);
    }
    process.exit(1);
  },
);
