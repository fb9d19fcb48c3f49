import { TokenService } from './auth/tokens.ts';
import { loadOrCreateSecret } from './auth/secret.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { lockDataDir } from './db/data-dir-lock.ts';
import { migrateDatabase, openPglite, openPostgres, type Database } from './db/client.ts';
import { createLogger } from './lib/logger.ts';
import { LocalDiskStorage } from './storage/file-storage.ts';
import { FileUrlSigner } from './storage/file-url-signer.ts';
import path from 'node:path';

export interface Runtime {
  ctx: AppContext;
  /** Releases the database and the data-directory lock. Idempotent. */
  shutdown(): Promise<void>;
}

/**
 * Opens everything a process needs, in order: the data-directory lock (embedded mode only), the
 * database with its migrations, the signing secret and the file storage.
 */
export async function openRuntime(config: Config): Promise<Runtime> {
  const log = createLogger(config.logLevel);
  const releaseLock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  let database: Database | undefined;
  try {
    database = config.databaseUrl ? openPostgres(config.databaseUrl) : await openPglite(path.join(config.dataDir, 'pglite'));
    await migrateDatabase(database, config.databaseUrl);
  } catch (error) {
    await database?.close().catch(() => {});
    releaseLock();
    throw error;
  }
  const secret = loadOrCreateSecret(config.dataDir, config.tokenSecret);
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    tokens: new TokenService(secret, config.tokenTtlSeconds),
    storage: new LocalDiskStorage(config.filesDir),
    fileUrls: new FileUrlSigner(secret),
    log,
  };
  let isShutDown = false;
  return {
    ctx,
    shutdown: async () => {
      if (isShutDown) return;
      isShutDown = true;
      await database.close().catch((error) => log.error({ err: error }, 'closing the database failed'));
      releaseLock();
    },
  };
}
