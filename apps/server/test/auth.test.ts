import { SignJWT } from 'jose';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';
import { registerUser } from './support/http.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('POST /api/auth/register', () => {
  const SIGN_IN_NEXT = {
    message: 'Registration successful! Please log in with your email and password.',
    signInNext: true,
  };
  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

  it('creates an account, trims and lower-cases the email, and offers to sign in (no token); login answers { token, user } without the hash', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: '  Ada Lovelace ',
        email: '  Ada@Example.EDU ',
        password: 'analytical-engine',
        role: 'instructor',
      },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual(SIGN_IN_NEXT);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.email, 'ada@example.edu'));
    expect(row?.passwordHash.startsWith('$argon2id$')).toBe(true);

    const signedIn = await login('ada@example.edu', 'analytical-engine');
    expect(signedIn.statusCode).toBe(200);
    const body = signedIn.json();
    expect(body.user).toEqual({
      _id: row!.id,
      id: row!.id,
      name: 'Ada Lovelace',
      email: 'ada@example.edu',
      role: 'instructor',
    });
    expect(body.token.split('.')).toHaveLength(3);
    expect(JSON.stringify(body)).not.toContain('argon2');
  });

  it('defaults the role to student', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Sam', email: 'sam@example.edu', password: 'long-enough-pw' },
    });
    expect(response.statusCode).toBe(201);
    expect((await login('sam@example.edu', 'long-enough-pw')).json().user.role).toBe('student');
  });

  it('answers a taken email (whatever its case) exactly as a new one, keeps the first account, and lets only its owner in', async () => {
    const owner = await registerUser(t.app, { email: 'taken@example.edu', name: 'First' });
    const fresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Other', email: 'never-seen@example.edu', password: 'another-password' },
    });
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Other', email: 'TAKEN@example.edu', password: 'another-password' },
    });
    // Nothing tells the two apart: status, body and headers that vary per request aside.
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.body).toBe(fresh.body);
    expect(taken.json()).toEqual(SIGN_IN_NEXT);
    const rows = await t.ctx.db.select().from(users).where(eq(users.email, 'taken@example.edu'));
    expect(rows.map((row) => row.name)).toEqual(['First']);
    expect((await login('taken@example.edu', 'another-password')).statusCode).toBe(401);
    expect((await login('taken@example.edu', owner.password)).json().user.name).toBe('First');
  });

  it.each([
    [{ email: 'a@example.edu', password: 'long-enough-pw', role: 'student' }, 'Name is required.'],
    [{ name: 'A', password: 'long-enough-pw', role: 'student' }, 'Email is required.'],
    [{ name: 'A', email: 'not-an-email', password: 'long-enough-pw' }, 'Please enter a valid email address.'],
    [{ name: 'A', email: 'a@example.edu', role: 'student' }, 'Password is required.'],
    [{ name: 'A', email: 'a@example.edu', password: 'short' }, 'Password must be at least 8 characters.'],
    [{ name: 'A', email: 'a@example.edu', password: 'long-enough-pw', role: 'admin' }, 'role'],
  ])('refuses %j with a clear 400 and creates nothing', async (payload, message) => {
    const before = await t.ctx.db.select().from(users);
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_FAILED');
    expect(response.json().message).toContain(message);
    expect(await t.ctx.db.select().from(users)).toHaveLength(before.length);
  });

  it('answers malformed JSON with a 400, not a 500', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "A", ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'The request body is not valid JSON.', code: 'BAD_REQUEST' });
  });
});

describe('POST /api/auth/login', () => {
  it('logs in with the right password, whatever the email case', async () => {
    const user = await registerUser(t.app, { email: 'login@example.edu', password: 'right-password' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: ' LOGIN@example.edu', password: 'right-password' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(user.id);
  });

  it('says the same thing for a wrong password and an unknown email', async () => {
    await registerUser(t.app, { email: 'known@example.edu', password: 'right-password' });
    const wrongPassword = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'known@example.edu', password: 'wrong-password' },
    });
    const unknownEmail = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@example.edu', password: 'wrong-password' },
    });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual(unknownEmail.json());
    expect(wrongPassword.json()).toEqual({ message: 'Invalid email or password.', code: 'INVALID_CREDENTIALS' });
  });

  it('requires email and password', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Email is required.');
  });
});

describe('GET /api/auth/user', () => {
  it('answers the current user for a valid token', async () => {
    const user = await registerUser(t.app, { role: 'instructor' });
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: user.auth });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ _id: user.id, email: user.email, role: 'instructor' });
  });

  it('refuses a request without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/user' });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHENTICATED');
  });

  it('refuses a token whose signature was forged', async () => {
    const user = await registerUser(t.app);
    const [header, payload] = user.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = `${header}.${base64url({ ...claims, sub: '00000000-0000-4000-8000-000000000000' })}.${user.token.split('.')[2]}`;
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('refuses a token signed with another secret', async () => {
    const user = await registerUser(t.app);
    const token = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('gradewise')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('refuses an unsigned token (alg: none)', async () => {
    const user = await registerUser(t.app);
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: user.id, tv: 0, iss: 'gradewise', exp })}.`;
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { authorization: `Bearer ${unsigned}` },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHENTICATED');
  });

  it('refuses an expired token with TOKEN_EXPIRED', async () => {
    const expired = await createTestApp({ TOKEN_TTL: '0' });
    try {
      const user = await registerUser(expired.app);
      // exp is in whole seconds: with a zero lifetime it is at or before "now", so it is expired.
      const response = await expired.app.inject({ method: 'GET', url: '/api/auth/user', headers: user.auth });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        message: 'Your session has expired. Please log in again.',
        code: 'TOKEN_EXPIRED',
      });
    } finally {
      await expired.close();
    }
  });

  it('refuses tokens issued before the user token version was bumped (revocation)', async () => {
    const user = await registerUser(t.app);
    await t.ctx.db.update(users).set({ tokenVersion: 1 }).where(eq(users.id, user.id));
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: user.auth });
    expect(response.statusCode).toBe(401);
  });

  it('puts exp in seconds since the epoch', async () => {
    const user = await registerUser(t.app);
    const claims = JSON.parse(Buffer.from(user.token.split('.')[1]!, 'base64url').toString());
    const now = Date.now() / 1000;
    expect(claims.exp).toBeGreaterThan(now);
    expect(claims.exp).toBeLessThan(now + t.config.tokenTtlSeconds + 5);
  });
});

describe('rate limits and errors', () => {
  it('limits login attempts per client and answers 429 with a message and Retry-After', async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT: '3' });
    try {
      const attempt = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'x@example.edu', password: 'whatever-pw' },
        });
      for (let i = 0; i < 3; i += 1) expect((await attempt()).statusCode).toBe(401);
      const blocked = await attempt();
      expect(blocked.statusCode).toBe(429);
      // The window is a minute, so the wait is a whole number of seconds within it.
      const retryAfter = Number(blocked.headers['retry-after']);
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      expect(blocked.json()).toEqual({
        message: 'Too many attempts. Please wait a minute and try again.',
        code: 'RATE_LIMITED',
        retryAfterSeconds: retryAfter,
      });
    } finally {
      await limited.close();
    }
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'No route for GET /api/nothing-here.', code: 'NOT_FOUND' });
  });

  it('sends a strict Content-Security-Policy', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/user' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/https?:/);
  });
});
