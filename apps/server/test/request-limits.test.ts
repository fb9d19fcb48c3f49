import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/http/app.ts';
import { requestLimitCounters } from '../src/db/schema.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * The per-client limits of sign-in, registration and password reset count in the database
 * (services/request-limits.ts), so API processes on one database share one count: here two HTTP
 * apps, each with its own plugin state as two processes would have, on one database. (The same
 * with two real server processes on PostgreSQL: scale-out.test.ts.)
 */
let t: TestApp;
let second: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT: '4' });
  second = await buildApp({ ...t.ctx });
  await second.ready();
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

const login = (app: FastifyInstance) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'x@example.edu', password: 'whatever-pw' } });

describe('request limits shared by every process', () => {
  it('two apps on one database allow the configured rate in total, and every 429 says when to retry', async () => {
    const statuses: number[] = [];
    for (const app of [t.app, second, t.app, second]) statuses.push((await login(app)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401]);
    for (const app of [t.app, second]) {
      const blocked = await login(app);
      expect(blocked.statusCode).toBe(429);
      const retryAfter = Number(blocked.headers['retry-after']);
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      expect(blocked.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: retryAfter });
    }
    // Another limited route counts apart.
    const register = await second.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Ada', email: 'ada@example.edu', password: 'correct-horse-battery', role: 'student' },
    });
    expect(register.statusCode).toBe(201);
  });

  it('a window that has run out starts over', async () => {
    expect((await login(t.app)).statusCode).toBe(429);
    // The minute passes (moved in the database, the one clock every process shares).
    await t.ctx.db.update(requestLimitCounters).set({ resetsAt: sql`clock_timestamp() - interval '1 second'` });
    expect((await login(second)).statusCode).toBe(401);
    const [row] = await t.ctx.db
      .select({ hits: requestLimitCounters.hits })
      .from(requestLimitCounters)
      .where(sql`${requestLimitCounters.key} LIKE 'POST /api/auth/login %'`);
    expect(row!.hits).toBe(1);
  });
});
