import type { FastifyBaseLogger } from 'fastify';
import type { TokenService } from './auth/tokens.ts';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import type { Slots } from './lib/slots.ts';
import type { Mailer } from './mail/mailer.ts';
import type { RequestLimitRedis } from './services/request-limits-redis.ts';
import type { FileStorage } from './storage/file-storage.ts';
import type { FileUrlSigner } from './storage/file-url-signer.ts';

/** Everything a request or a job needs, built once at boot and passed explicitly (no globals). */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  tokens: TokenService;
  storage: FileStorage;
  /** Signs the expiring links to stored files that responses carry (see storage/file-url-signer.ts). */
  fileUrls: FileUrlSigner;
  log: FastifyBaseLogger;
  /** Outgoing email (SMTP); absent when SMTP_URL is not set, and email features say so. */
  mailer?: Mailer;
  /**
   * The durable job queue (pg-boss). Absent in processes started without jobs (API-only tests);
   * services that need it answer 503 then. Whether this process also runs workers is its choice.
   */
  jobs?: JobQueue;
  /**
   * The grader calls this process makes at once: GRADING_CONCURRENCY slots, each held for one
   * call only (services/run-grading.ts), so the AI provider never sees more than that many calls
   * from one process, while more grading jobs read their answers ahead (decision 0041).
   */
  gradingCalls: Slots;
  /** Where the request limits count when REDIS_URL is set; absent: in the database (decision 0089). */
  requestLimitRedis?: RequestLimitRedis;
  /** The time, for rules that count per minute, hour or day (AI spend); tests set it to let time pass. Default: the system clock (lib/clock.ts). */
  clock?: () => Date;
}
