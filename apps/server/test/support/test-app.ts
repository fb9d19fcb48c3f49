import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { TokenService } from '../../src/auth/tokens.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import { openPglite, openPostgres, type Database } from '../../src/db/client.ts';
import { buildApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { Slots } from '../../src/lib/slots.ts';
import { createMailer } from '../../src/mail/mailer.ts';
import { closeFileStorage, openFileStorage } from '../../src/storage/open-file-storage.ts';
import { FileUrlSigner } from '../../src/storage/file-url-signer.ts';
import { withDatabase } from './global-setup.ts';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Start the real job queue (pg-boss on this test's database) with workers in-process. */
  withJobs?: boolean;
  /** With `withJobs`: false starts a queue that only sends (jobs wait, as in an API-only process). */
  runWorkers?: boolean;
  /** The app's clock (login backoff, link expiry): a test moves it instead of waiting. */
  clock?: () => Date;
}

/**
 * A fresh, migrated database (cloned from the run's template) behind the real HTTP app, with its
 * own temporary data directory. `env` overrides configuration, as the environment would.
 */
export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gradewise-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT: '10000',
    NODE_ENV: 'test',
    ...env,
  });
  const { database, dropDatabase } = await createTestDatabase();
  const secret = new TextEncoder().encode(randomBytes(32).toString('hex'));
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    tokens: new TokenService(secret, config.tokenTtlSeconds),
    storage: openFileStorage(config),
    fileUrls: new FileUrlSigner(secret),
    gradingCalls: new Slots(config.gradingConcurrency),
    mailer: await createMailer(config, createLogger('silent')),
    clock: options.clock,
    log: createLogger('silent'),
  };
  if (options.withJobs) {
    // Loaded only when asked: API-only tests do not pull in the graders and the PDF stack.
    const { JobQueue } = await import('../../src/jobs/job-queue.ts');
    const { JOB_DEFINITIONS } = await import('../../src/job-registry.ts');
    ctx.jobs = await JobQueue.start(ctx, JOB_DEFINITIONS, {
      runWorkers: options.runWorkers ?? true,
      shutdownGraceMs: 5_000,
      pollingIntervalSeconds: 0.5,
    });
  }
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    config,
    close: async () => {
      await ctx.jobs?.stop();
      ctx.mailer?.close();
      await app.close();
      await database.close();
      closeFileStorage(ctx.storage);
      await dropDatabase();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function createTestDatabase(): Promise<{ database: Database; dropDatabase(): Promise<void> }> {
  if (process.env.TEST_DATABASE === 'postgres') {
    const template = inject('postgresTemplateDatabase');
    const name = `gradewise_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    await admin.end();
    const database = openPostgres(withDatabase(process.env.DATABASE_URL!, name), 5);
    return {
      database,
      dropDatabase: async () => {
        const dropper = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await dropper.end();
      },
    };
  }
  const database = await openPglite(undefined, { loadDataDirFrom: inject('pgliteTemplatePath') });
  return { database, dropDatabase: async () => {} };
}
