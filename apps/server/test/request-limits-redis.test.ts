import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/http/app.ts';
import { requestLimitCounters } from '../src/db/schema.ts';
import {
  openRequestLimitRedis,
  RedisUnreachableError,
  type RequestLimitRedis,
} from '../src/services/request-limits-redis.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * With REDIS_URL set the request limits count in Redis (services/request-limits.ts, decision 0089):
 * two HTTP apps, each with its own Redis connection and plugin state as two processes would have,
 * share one count. Against the machine's Redis (CI runs one): a Redis that does not answer fails
 * this file, it is not skipped. Each run uses its own key prefix and deletes its keys.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const keyPrefix = `gradewise-test:${randomUUID()}:`;

let t: TestApp;
let first: RequestLimitRedis;
let second: RequestLimitRedis;
let firstApp: FastifyInstance;
let secondApp: FastifyInstance;

const open = () =>
  openRequestLimitRedis(REDIS_URL, keyPrefix).catch((error: unknown) => {
    throw new Error(
      `These tests need Redis at ${REDIS_URL} (set TEST_REDIS_URL to use another): ${error instanceof Error ? error.message : String(error)}`,
    );
  });

beforeAll(async () => {
  first = await open();
  second = await open();
  t = await createTestApp({ AUTH_RATE_LIMIT: '4' });
  // Both count in Redis, as boot.ts makes it when REDIS_URL is set.
  firstApp = await buildApp({ ...t.ctx, requestLimitRedis: first });
  await firstApp.ready();
  secondApp = await buildApp({ ...t.ctx, requestLimitRedis: second });
  await secondApp.ready();
});
afterAll(async () => {
  await firstApp?.close();
  await secondApp?.close();
  if (first) {
    const keys = await first.client.keys(`${keyPrefix}*`);
    if (keys.length > 0) await first.client.del(...keys);
    await first.client.quit();
  }
  await second?.client.quit();
  await t?.close();
});

/** A failed sign-in; another address where the account's own guess throttle (login-throttle.ts) would refuse first. */
const login = (app: FastifyInstance, email = 'x@example.edu') =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'whatever-pw' } });

const loginKeys = () => first.client.keys(`${keyPrefix}POST /api/auth/login *`);

describe('request limits in Redis', () => {
  it('two apps on one Redis allow the configured rate in total, and every 429 says when to retry', async () => {
    const statuses: number[] = [];
    for (const app of [firstApp, secondApp, firstApp, secondApp]) statuses.push((await login(app)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401]);
    for (const app of [firstApp, secondApp]) {
      const blocked = await login(app);
      expect(blocked.statusCode).toBe(429);
      const retryAfter = Number(blocked.headers['retry-after']);
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      expect(blocked.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: retryAfter });
    }
    // Counted in Redis, not in the database, under one key whose expiry is the window's end.
    const keys = await loginKeys();
    expect(keys).toHaveLength(1);
    expect(await first.client.get(keys[0]!)).toBe('6');
    const msLeft = await first.client.pttl(keys[0]!);
    expect(msLeft > 0 && msLeft <= 60_000).toBe(true);
    expect(await t.ctx.db.select().from(requestLimitCounters)).toEqual([]);
    // Another limited route counts apart.
    const register = await secondApp.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Ada', email: 'ada@example.edu', password: 'correct-horse-battery', role: 'student' },
    });
    expect(register.statusCode).toBe(201);
  });

  it('the key expires with its window, and the next request starts a new one', async () => {
    expect((await login(firstApp)).statusCode).toBe(429);
    const [key] = await loginKeys();
    // The window ends now (Redis removes the key itself; polled on the condition, not slept on).
    await first.client.pexpire(key!, 1);
    while ((await first.client.exists(key!)) === 1) await first.client.ping();
    expect((await login(secondApp)).statusCode).toBe(401);
    expect(await first.client.get(key!)).toBe('1');
    const msLeft = await first.client.pttl(key!);
    expect(msLeft > 0 && msLeft <= 60_000).toBe(true);
  });

  it('a Redis that fails while running counts in the database instead: a sign-in is answered, never a 500', async () => {
    const failing = await open();
    const app = await buildApp({ ...t.ctx, requestLimitRedis: failing });
    await app.ready();
    try {
      // The connection is gone (the server closed it) and later commands fail.
      await failing.client.quit();
      expect((await login(app, 'other@example.edu')).statusCode).toBe(401);
      const rows = await t.ctx.db
        .select({ hits: requestLimitCounters.hits })
        .from(requestLimitCounters)
        .where(sql`${requestLimitCounters.key} LIKE 'POST /api/auth/login %'`);
      expect(rows).toEqual([{ hits: 1 }]);
    } finally {
      await app.close();
    }
  });

  it('a Redis that does not answer at start is one sentence naming REDIS_URL', async () => {
    // Port 1 on loopback: nothing listens there.
    const refused = openRequestLimitRedis('redis://127.0.0.1:1', keyPrefix);
    await expect(refused).rejects.toThrow(RedisUnreachableError);
    await expect(refused).rejects.toThrow(
      /^Gradewise cannot start: REDIS_URL is set but Redis at 127\.0\.0\.1:1 does not answer/,
    );
  });
});
