import { SignJWT, jwtVerify } from 'jose';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TokenService } from '../src/auth/tokens.ts';
import { forgetUser } from '../src/auth/user-cache.ts';
import { users } from '../src/db/schema.ts';
import { newId } from '../src/lib/ids.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';
import { registerUser } from './support/http.ts';

const secret = new TextEncoder().encode('a-test-secret-a-test-secret-a-test-secret');
const service = new TokenService(secret, 3600);

/**
 * Tokens are signed and checked with Node's synchronous HMAC: the format stays the standard
 * compact JWT, so tokens issued before the change (by jose) stay valid, and the checks stay jose's.
 */
describe('TokenService', () => {
  it('reads back what it signs, and jose accepts its tokens with the algorithm and issuer pinned', async () => {
    const userId = newId();
    const token = service.sign({ userId, tokenVersion: 3 });
    const verified = service.verify(token);
    expect(verified).toEqual({
      userId,
      tokenVersion: 3,
      tokenId: expect.stringMatching(/^[\w-]{22}$/),
      expiresAt: expect.any(Date),
    });
    const { payload, protectedHeader } = await jwtVerify(token, secret, { algorithms: ['HS256'], issuer: 'gradewise' });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.sub).toBe(userId);
    expect(payload.exp! - payload.iat!).toBe(3600);
    // Each token has its own id (logout of this token only) and says when it ends.
    expect(payload.jti).toBe(verified.tokenId);
    expect(verified.expiresAt.getTime()).toBe(payload.exp! * 1000);
  });

  it('accepts a token signed by jose before the change', async () => {
    const userId = newId();
    const token = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer('gradewise')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    // A jose token from before carries no id: it is still accepted, with no id to log out by.
    expect(service.verify(token)).toEqual({ userId, tokenVersion: 0, tokenId: null, expiresAt: expect.any(Date) });
  });

  it('refuses another algorithm with the same secret, a changed payload, another issuer and an early token', async () => {
    const userId = newId();
    const hs512 = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(userId)
      .setIssuer('gradewise')
      .setExpirationTime('1h')
      .sign(secret);
    expect(() => service.verify(hs512)).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED', status: 401 }));

    const [header, , signature] = service.sign({ userId, tokenVersion: 0 }).split('.');
    const forged = Buffer.from(
      JSON.stringify({ tv: 0, sub: newId(), iss: 'gradewise', exp: Math.floor(Date.now() / 1000) + 60 }),
    ).toString('base64url');
    expect(() => service.verify(`${header}.${forged}.${signature}`)).toThrow(
      expect.objectContaining({ code: 'UNAUTHENTICATED' }),
    );

    const otherIssuer = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuer('someone-else')
      .setExpirationTime('1h')
      .sign(secret);
    expect(() => service.verify(otherIssuer)).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));

    const notYet = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuer('gradewise')
      .setNotBefore('1h')
      .setExpirationTime('2h')
      .sign(secret);
    expect(() => service.verify(notYet)).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));

    for (const garbage of ['', 'a.b', 'a.b.c', '...', `${header}.%%%.${signature}`]) {
      expect(() => service.verify(garbage)).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
    }
  });

  it('refuses every token whose signature text differs from the one it issued, also where the bytes decode alike', () => {
    const token = service.sign({ userId: newId(), tokenVersion: 0 });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // The last character of a 32-byte signature carries 4 bits and 2 unused ones: three other
    // characters decode to the same bytes. Each is a different token and must be refused.
    const lastChars = [...alphabet].filter((char) => char !== signature.at(-1));
    const decodingAlike = lastChars.filter((char) =>
      Buffer.from(signature.slice(0, -1) + char, 'base64url').equals(Buffer.from(signature, 'base64url')),
    );
    expect(decodingAlike).toHaveLength(3);
    for (const char of lastChars) {
      expect(() => service.verify(`${header}.${payload}.${signature.slice(0, -1)}${char}`)).toThrow(
        expect.objectContaining({ code: 'UNAUTHENTICATED' }),
      );
    }
    for (const changed of [`${signature}=`, `${signature}A`, signature.slice(0, -1), signature.replace(/-/g, '+')]) {
      if (changed === signature) continue;
      expect(() => service.verify(`${header}.${payload}.${changed}`)).toThrow(
        expect.objectContaining({ code: 'UNAUTHENTICATED' }),
      );
    }
    expect(service.verify(token).tokenVersion).toBe(0);
  });

  it('answers TOKEN_EXPIRED for a token past its expiry', async () => {
    const expired = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(newId())
      .setIssuer('gradewise')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 1)
      .sign(secret);
    expect(() => service.verify(expired)).toThrow(expect.objectContaining({ code: 'TOKEN_EXPIRED', status: 401 }));
  });
});

/**
 * A token verified once is remembered by its exact text (auth/tokens.ts): what it decides must be
 * what a full verification decides, at any later time.
 */
describe('TokenService, a token verified before', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is refused with TOKEN_EXPIRED once its expiry passes, though it was accepted before', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const shortLived = new TokenService(secret, 60);
    const token = shortLived.sign({ userId: newId(), tokenVersion: 0 });
    expect(shortLived.verify(token).expiresAt.toISOString()).toBe('2030-01-01T00:01:00.000Z');
    vi.setSystemTime(new Date('2030-01-01T00:00:59Z'));
    expect(shortLived.verify(token).tokenVersion).toBe(0);
    vi.setSystemTime(new Date('2030-01-01T00:01:00Z'));
    expect(() => shortLived.verify(token)).toThrow(expect.objectContaining({ code: 'TOKEN_EXPIRED', status: 401 }));
    expect(() => shortLived.verify(token)).toThrow(expect.objectContaining({ code: 'TOKEN_EXPIRED' }));
  });

  it('does not make any other text accepted: each changed character, a changed payload, a prefix', () => {
    const token = service.sign({ userId: newId(), tokenVersion: 0 });
    expect(service.verify(token).tokenVersion).toBe(0);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const forgedPayload = Buffer.from(
      JSON.stringify({ tv: 0, sub: newId(), iss: 'gradewise', exp: Math.floor(Date.now() / 1000) + 60 }),
    ).toString('base64url');
    const others = [
      `${header}.${forgedPayload}.${signature}`,
      `${token}x`,
      token.slice(0, -1),
      ` ${token}`,
      ...[...token].map((char, index) =>
        char === '.' ? null : `${token.slice(0, index)}${char === 'A' ? 'B' : 'A'}${token.slice(index + 1)}`,
      ),
    ];
    for (const other of others) {
      if (other === null) continue;
      expect(() => service.verify(other), other).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
    }
    expect(service.verify(`${header}.${payload}.${signature}`).tokenVersion).toBe(0);
  });

  it('answers each caller its own copy: a change to one answer does not reach the next', () => {
    const userId = newId();
    const token = service.sign({ userId, tokenVersion: 4 });
    const first = service.verify(token);
    const expiresAt = first.expiresAt.getTime();
    first.expiresAt.setTime(0);
    first.userId = 'someone else';
    const second = service.verify(token);
    expect(second).not.toBe(first);
    expect(second.userId).toBe(userId);
    expect(second.expiresAt.getTime()).toBe(expiresAt);
  });
});

describe('the user row cache behind authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a token at once when its version is bumped and the row forgotten, though the row was cached', async () => {
    const user = await registerUser(t.app);
    const before = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: user.auth });
    expect(before.statusCode).toBe(200);
    await t.ctx.db.update(users).set({ tokenVersion: 1 }).where(eq(users.id, user.id));
    forgetUser(t.ctx, user.id);
    const after = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: user.auth });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('UNAUTHENTICATED');
  });

  it('accepts a token of the new version after a bump, and never serves the old version row for it', async () => {
    const user = await registerUser(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: user.auth })).statusCode).toBe(200);
    await t.ctx.db.update(users).set({ tokenVersion: 2, name: 'Renamed' }).where(eq(users.id, user.id));
    forgetUser(t.ctx, user.id);
    const fresh = t.ctx.tokens.sign({ userId: user.id, tokenVersion: 2 });
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { authorization: `Bearer ${fresh}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().name).toBe('Renamed');
  });
});
