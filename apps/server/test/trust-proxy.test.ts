import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { FREE_ATTEMPTS } from '../src/services/login-throttle.ts';
import { registerUser } from './support/http.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * TRUST_PROXY (issue 28): behind a reverse proxy every request comes from the proxy's address, so
 * the per-client limits need the client's address from X-Forwarded-For; but only a proxy the
 * operator named may say it, or any client could choose its own address and slip every limit.
 * Shown through the login throttle, which is per account and client: guesses from one client hold
 * that client back, and the owner from another client signs in.
 */
const PROXY = '10.0.0.1';
const GUESSER = '203.0.113.7';
const OWNER = '198.51.100.9';

const login = (t: TestApp, email: string, password: string, remoteAddress: string, forwardedFor?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

async function guessTooOften(t: TestApp, email: string, remoteAddress: string, forwardedFor?: string) {
  const statuses: number[] = [];
  for (let i = 0; i < FREE_ATTEMPTS + 1; i += 1) {
    statuses.push((await login(t, email, `guess-${i}`, remoteAddress, forwardedFor)).statusCode);
  }
  expect(statuses).toEqual([...Array<number>(FREE_ATTEMPTS).fill(401), 429]);
}

describe('TRUST_PROXY unset (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ignores X-Forwarded-For: every request through the proxy is the proxy, one client', async () => {
    const owner = await registerUser(t.app, { email: 'behind-proxy-off@example.edu' });
    await guessTooOften(t, owner.email, PROXY, GUESSER);
    // Another person behind the same proxy is the same client: held back too.
    expect((await login(t, owner.email, owner.password, PROXY, OWNER)).statusCode).toBe(429);
    // A client that names another address for itself gains nothing either.
    expect((await login(t, owner.email, owner.password, PROXY, '192.0.2.200')).statusCode).toBe(429);
    // Its real address is another client, which signs in.
    expect((await login(t, owner.email, owner.password, OWNER)).statusCode).toBe(200);
  });
});

describe.each([
  ['naming the proxy', PROXY],
  ['counting one proxy', '1'],
])('TRUST_PROXY %s', (_form, setting) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: setting });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("takes the client's address from X-Forwarded-For set by the proxy", async () => {
    const owner = await registerUser(t.app, { email: `behind-proxy-${setting}@example.edu` });
    await guessTooOften(t, owner.email, PROXY, GUESSER);
    // The guesser, through the proxy, stays held back…
    expect((await login(t, owner.email, owner.password, PROXY, GUESSER)).statusCode).toBe(429);
    // …and the owner, through the same proxy from another address, signs in.
    expect((await login(t, owner.email, owner.password, PROXY, OWNER)).statusCode).toBe(200);
  });
});

describe('TRUST_PROXY naming the proxy, reached directly', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: PROXY });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('believes no X-Forwarded-For from an address that is not the proxy', async () => {
    const owner = await registerUser(t.app, { email: 'forged-forwarded-for@example.edu' });
    // Straight to the server, claiming to be someone else each time: one client all the same.
    const statuses: number[] = [];
    for (let i = 0; i < FREE_ATTEMPTS + 1; i += 1) {
      statuses.push((await login(t, owner.email, `guess-${i}`, GUESSER, `192.0.2.${i + 1}`)).statusCode);
    }
    expect(statuses).toEqual([...Array<number>(FREE_ATTEMPTS).fill(401), 429]);
    expect((await login(t, owner.email, owner.password, GUESSER, OWNER)).statusCode).toBe(429);
  });
});

describe('TRUST_PROXY values', () => {
  const read = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;

  it('takes the forms Fastify takes', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(read('false')).toBe(false);
    expect(read('true')).toBe(true);
    expect(read('2')).toBe(2);
    expect(read('10.0.0.1')).toEqual(['10.0.0.1']);
    expect(read(' 10.0.0.0/8, fd00::/8 ,loopback')).toEqual(['10.0.0.0/8', 'fd00::/8', 'loopback']);
  });

  it.each(['yes', '10.0.0.300', '10.0.0.0/33', 'fd00::/129', '10.0.0.1,', 'proxy.school.edu', '1.5'])(
    'refuses %j, naming the variable',
    (value) => {
      expect(() => read(value)).toThrow(ConfigError);
      expect(() => read(value)).toThrow(/TRUST_PROXY: must be false, true, a number of proxies/);
    },
  );
});
