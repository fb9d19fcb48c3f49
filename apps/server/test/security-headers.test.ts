import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADER_OPTIONS } from '../src/http/security-headers.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';
import { registerUser } from './support/http.ts';

/**
 * The security headers are computed once at boot (http/security-headers.ts) instead of by
 * `@fastify/helmet` on every request: every kind of answer must still carry exactly the headers the
 * plugin sets with the same options.
 */
let t: TestApp;
/** [name, value] of what `@fastify/helmet` itself sends, read from a reference instance. */
let reference: Array<[string, string]>;

beforeAll(async () => {
  t = await createTestApp();
  const plain = Fastify();
  await plain.register(helmet, SECURITY_HEADER_OPTIONS);
  plain.get('/', () => 'ok');
  const withHelmet = await plain.inject({ method: 'GET', url: '/' });
  await plain.close();
  const fastifysOwn = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
  reference = Object.entries(withHelmet.headers)
    .filter(([name]) => !fastifysOwn.has(name))
    .map(([name, value]) => [name, String(value)]);
});
afterAll(async () => {
  await t?.close();
});

describe('security headers', () => {
  it('are the ones @fastify/helmet sets, Content-Security-Policy included', () => {
    expect(reference.map(([name]) => name)).toEqual(
      expect.arrayContaining(['content-security-policy', 'x-frame-options', 'strict-transport-security']),
    );
    expect(new Map(reference).get('content-security-policy')).toContain("object-src 'none'");
  });

  it('are on an answer, a refusal, an invalid token, a not-found and a failed validation alike', async () => {
    const user = await registerUser(t.app, { role: 'instructor' });
    const responses = [
      await t.app.inject({ method: 'GET', url: '/api/courses', headers: user.auth }),
      await t.app.inject({ method: 'GET', url: '/api/courses' }),
      await t.app.inject({ method: 'GET', url: '/api/courses', headers: { authorization: 'Bearer a.b.c' } }),
      await t.app.inject({ method: 'GET', url: '/api/no-such-route' }),
      await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'not an email' } }),
    ];
    expect(responses.map((response) => response.statusCode)).toEqual([200, 401, 401, 404, 400]);
    for (const response of responses) {
      for (const [name, value] of reference) {
        expect(response.headers[name], `${name} on ${response.statusCode}`).toBe(value);
      }
    }
  });
});
