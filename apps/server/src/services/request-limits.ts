import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { AppContext } from '../context.ts';
import { deleteExpiredRequestCounters, incrementRequestCounter } from '../models/request-limit-counters.ts';
import { countHitInRedis, type RequestLimitRedis } from './request-limits-redis.ts';

/**
 * The per-client request limits of the HTTP layer (`config.rateLimit` on the sign-in,
 * registration and password-reset routes; `@fastify/rate-limit`), counted outside each process's
 * memory, so N API processes allow exactly the configured rate, not N times it (issue 30, decisions
 * 0071 and 0089). It is the plugin's own store interface, so the routes keep declaring their limits
 * as before. Every other limit already lives in the database: login guesses (login-throttle.ts),
 * account emails (mail-throttle.ts), AI calls (ai-spend.ts).
 *
 * Two counters behind it, chosen at boot: the database (the default), or Redis when REDIS_URL is set
 * (boot.ts connects to it). A Redis that fails while running counts the request in the database
 * instead, so a sign-in is never refused, nor let through uncounted, because Redis blinked.
 *
 * Each route counts apart (the key is the route and the client). A database that does not answer
 * fails the request (the plugin's default), rather than letting it through uncounted.
 */
export function requestLimitStore(ctx: AppContext): FastifyRateLimitStoreCtor {
  const countHit = ctx.requestLimitRedis ? redisCounter(ctx, ctx.requestLimitRedis) : databaseCounter(ctx);
  class RequestLimitStore implements FastifyRateLimitStore {
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
      countHit(`${this.prefix}${key}`, timeWindow).then(
        ({ hits, msLeft }) => callback(null, { current: hits, ttl: msLeft }),
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
      return new RequestLimitStore(undefined, `${[route.method ?? ''].flat().join(',')} ${route.url ?? ''} `);
    }
  }
  return RequestLimitStore;
}

/** Counts one hit under a key in a fixed window: the hits so far in it and the ms left. */
type CountHit = (key: string, timeWindowMs: number) => Promise<{ hits: number; msLeft: number }>;

/** `request_limit_counters`, on the database's clock (decision 0071). */
function databaseCounter(ctx: AppContext): CountHit {
  let sinceCleanup = 0;
  return async (key, timeWindowMs) => {
    const counted = await incrementRequestCounter(ctx.db, key, timeWindowMs);
    // Now and then, outside the request's answer: drop windows that ran out a day ago.
    sinceCleanup += 1;
    if (sinceCleanup >= 1000) {
      sinceCleanup = 0;
      deleteExpiredRequestCounters(ctx.db, new Date(Date.now() - 86_400_000)).catch((error: unknown) =>
        ctx.log.warn({ err: error }, 'clearing old request-limit windows failed'),
      );
    }
    return counted;
  };
}

/**
 * Redis (decision 0089): keys expire with their window, so nothing needs clearing. While Redis
 * fails, each hit counts in the database: every process that sees the failure counts in the one
 * database, so the limit still holds across them (a process that still reaches Redis counts
 * there: at worst, during the failure, a client gets its rate once per store). Said once per outage.
 */
function redisCounter(ctx: AppContext, redis: RequestLimitRedis): CountHit {
  const inDatabase = databaseCounter(ctx);
  let isFailing = false;
  return async (key, timeWindowMs) => {
    try {
      const counted = await countHitInRedis(redis, key, timeWindowMs);
      if (isFailing) {
        isFailing = false;
        ctx.log.info('Redis answers again: request limits count in Redis');
      }
      return counted;
    } catch (error) {
      if (!isFailing) {
        isFailing = true;
        ctx.log.warn({ err: error }, 'Redis does not answer: request limits count in the database until it does');
      }
      return inDatabase(key, timeWindowMs);
    }
  };
}
