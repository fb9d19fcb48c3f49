import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { AppContext } from '../context.ts';
import { deleteExpiredRequestCounters, incrementRequestCounter } from '../models/request-limit-counters.ts';

/**
 * The per-client request limits of the HTTP layer (`config.rateLimit` on the sign-in,
 * registration and password-reset routes; `@fastify/rate-limit`), counted in the database instead
 * of each process's memory, so N API processes on one PostgreSQL allow exactly the configured rate,
 * not N times it (issue 30, decision 0071). It is the plugin's own store interface, so the routes
 * keep declaring their limits as before. Every other limit already lives in the database: login
 * guesses (login-throttle.ts), account emails (mail-throttle.ts), AI calls (ai-spend.ts).
 *
 * Each route counts apart (the key is the route and the client). A database that does not answer
 * fails the request (the plugin's default), rather than letting it through uncounted.
 */
export function requestLimitStore(ctx: AppContext): FastifyRateLimitStoreCtor {
  let sinceCleanup = 0;
  class DatabaseRequestLimitStore implements FastifyRateLimitStore {
    /** The plugin constructs the store with its options (unused here); `child` adds the route's prefix. */
    constructor(
      _options?: unknown,
      private readonly prefix = '',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      incrementRequestCounter(ctx.db, `${this.prefix}${key}`, timeWindow).then(
        ({ hits, msLeft }) => {
          callback(null, { current: hits, ttl: msLeft });
          // Now and then, outside the request's answer: drop windows that ran out a day ago.
          sinceCleanup += 1;
          if (sinceCleanup >= 1000) {
            sinceCleanup = 0;
            deleteExpiredRequestCounters(ctx.db, new Date(Date.now() - 86_400_000)).catch((error: unknown) =>
              ctx.log.warn({ err: error }, 'clearing old request-limit windows failed'),
            );
          }
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    /**
     * The plugin asks each limited route for its own store. Its typings say it passes the route's
     * options; it passes the merged limit options, the route's under `routeInfo` (as RedisStore reads them).
     */
    child(options: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const merged = options as unknown as { routeInfo?: { method?: string | string[]; url?: string } };
      const route = merged.routeInfo ?? { method: options.method, url: options.url };
      return new DatabaseRequestLimitStore(undefined, `${[route.method ?? ''].flat().join(',')} ${route.url ?? ''} `);
    }
  }
  return DatabaseRequestLimitStore;
}
