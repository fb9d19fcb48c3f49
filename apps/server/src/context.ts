import type { FastifyBaseLogger } from 'fastify';
import type { TokenService } from './auth/tokens.ts';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { FileStorage } from './storage/file-storage.ts';

/** Everything a request or a job needs, built once at boot and passed explicitly (no globals). */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  tokens: TokenService;
  storage: FileStorage;
  log: FastifyBaseLogger;
}
