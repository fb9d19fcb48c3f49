import { TokenService } from './auth/tokens.ts';
import { loadOrCreateSecret } from './auth/secret.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { lockDataDir } from './db/data-dir-lock.ts';
import { adoptLegacyDataDir } from './db/legacy-data-dir.ts';
import { migrateDatabase, openPglite, openPostgres, type Database } from './db/client.ts';
import { analyzeStaleTables, startPlannerStatistics } from './db/planner-statistics.ts';
import { JobQueue } from './jobs/job-queue.ts';
import { JOB_DEFINITIONS } from './job-registry.ts';
import { createLogger } from './lib/logger.ts';
import { Slots } from './lib/slots.ts';
import { createMailer } from './mail/mailer.ts';
import { listenForBackupRequests, type BackupListener } from './services/backup-socket.ts';
import { openRequestLimitRedis } from './services/request-limits-redis.ts';
import { closeFileStorage, openFileStorage } from './storage/open-file-storage.ts';
import { ORPHAN_GRACE_MS, sweepOrphanFiles } from './services/sweep-orphan-files.ts';
import { jobGraceOf } from './shutdown.ts';
import { FileUrlSigner } from './storage/file-url-signer.ts';
import path from 'node:path';

export interface Runtime {
  ctx: AppContext;
  /** Stops the job workers, then releases the database and the data-directory lock. Idempotent. */
  shutdown(): Promise<void>;
}

export interface RuntimeOptions {
  /**
   * 'workers': send jobs and run them in this process (the embedded default, and worker.ts);
   * 'send-only': an API process that leaves the work to worker processes (PostgreSQL scale-out).
   */
  jobs: 'workers' | 'send-only';
  /** Whether this process serves HTTP, whose request limits count in Redis when REDIS_URL is set. */
  servesHttp?: boolean;
}

/**
 * Opens everything a process needs, in order: the data an older version left in apps/server/data
 * moved to the data directory (once, logged), the data-directory lock (embedded mode only), the
 * database with its migrations, the signing secret, the file storage and the job queue (which
 * re-sends unfinished work at start: see docs/decisions/0005-durable-jobs.md).
 */
export async function openRuntime(config: Config, options: RuntimeOptions = { jobs: 'workers' }): Promise<Runtime> {
  const log = createLogger(config.logLevel);
  const mailer = await createMailer(config, log);
  adoptLegacyDataDir({ dataDir: config.dataDir, isDefault: config.dataDirIsDefault, log });
  const releaseLock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  let database: Database | undefined;
  try {
    database = config.databaseUrl
      ? openPostgres(config.databaseUrl)
      : await openPglite(path.join(config.dataDir, 'pglite'), {
          sharedBuffersMb: config.pgliteSharedBuffersMb,
          // An upgrade from PostgreSQL 17 (once, at the first start of PGlite 0.5) is said in the log.
          log: { warn: (message) => log.warn(message) },
        });
    await migrateDatabase(database);
    // PGlite has no autovacuum: give its planner statistics before the first request (decision 0040).
    await analyzeStaleTables(database);
  } catch (error) {
    await database?.close().catch(() => {});
    releaseLock();
    throw error;
  }
  const secret = loadOrCreateSecret(config.dataDir, config.tokenSecret);
  // REDIS_URL set and Redis silent: the server stops with one sentence (main.ts), rather
  // than start with limits counted somewhere the operator did not choose (decision 0089).
  const requestLimitRedis =
    config.redisUrl && options.servesHttp
      ? await openRequestLimitRedis(config.redisUrl).catch(async (error: unknown) => {
          await database.close().catch(() => {});
          releaseLock();
          throw error;
        })
      : undefined;
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    tokens: new TokenService(secret, config.tokenTtlSeconds),
    storage: openFileStorage(config),
    fileUrls: new FileUrlSigner(secret),
    gradingCalls: new Slots(config.gradingConcurrency),
    mailer,
    log,
    requestLimitRedis,
  };
  try {
    ctx.jobs = await JobQueue.start(ctx, JOB_DEFINITIONS, {
      runWorkers: options.jobs === 'workers',
      shutdownGraceMs: jobGraceOf(config.shutdownTimeoutMs),
    });
  } catch (error) {
    requestLimitRedis?.client.disconnect();
    await database.close().catch(() => {});
    releaseLock();
    throw error;
  }
  // A storage that cannot be used does not stop the process (the bucket may come back, or be
  // created next): it is said now, in a sentence naming the setting at fault, and /readyz fails.
  await ctx.storage.check().then(
    () => log.info(`files are stored in the ${ctx.storage.description}`),
    (error: unknown) => log.error(error instanceof Error ? error.message : String(error)),
  );
  // ...and keep them current as tables grow (grade-all, imports), off the request path.
  const statistics = startPlannerStatistics(database, (error) =>
    log.warn({ err: error }, 'analysing the database tables failed'),
  );
  // Blobs no row names (an upload killed before its row committed, a deleted course's files) are
  // removed from the bucket or the disk by the processes that run jobs, hourly, after a grace
  // period; so are the partial writes and waiting uploads a killed process left (decision 0082).
  const sweeper =
    options.jobs === 'workers'
      ? setInterval(() => {
          sweepOrphanFiles(database.db, ctx.storage, new Date(Date.now() - ORPHAN_GRACE_MS), config.incomingDir).then(
            ({ deleted, leftovers }) => {
              if (deleted.length > 0) log.info({ deleted: deleted.length }, 'removed stored files no row names');
              if (leftovers > 0) log.info({ leftovers }, 'removed partial writes and uploads a stopped process left');
            },
            (error: unknown) => log.warn({ err: error }, 'sweeping stored files no row names failed'),
          );
        }, ORPHAN_GRACE_MS).unref()
      : undefined;
  // `npm run backup` reaches an embedded database through this process (decision 0070).
  let backups: BackupListener | undefined;
  if (!config.databaseUrl) {
    backups = await listenForBackupRequests(ctx, config.dataDir, {
      info: (message) => log.info(message),
      warn: (message) => log.warn(message),
    }).catch((error: unknown) => {
      log.warn({ err: error }, 'npm run backup cannot reach this server: its backup socket could not be opened');
      return undefined;
    });
  }
  let isShutDown = false;
  return {
    ctx,
    shutdown: async () => {
      if (isShutDown) return;
      isShutDown = true;
      clearInterval(sweeper);
      await backups?.close();
      // Workers first: a running job finishes (or is left for a retry) while the database is open.
      await ctx.jobs?.stop().catch((error) => log.error({ err: error }, 'stopping the job queue failed'));
      ctx.mailer?.close();
      await statistics.stop();
      await ctx.requestLimitRedis?.client.quit().catch(() => ctx.requestLimitRedis?.client.disconnect());
      await database.close().catch((error) => log.error({ err: error }, 'closing the database failed'));
      closeFileStorage(ctx.storage);
      releaseLock();
    },
  };
}
