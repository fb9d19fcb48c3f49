import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BoundedCache } from '../lib/bounded-cache.ts';
import { AppError } from '../lib/errors.ts';
import { isId } from '../lib/ids.ts';

// The algorithm is pinned on both sides: a token claiming any other `alg` (including `none`) is refused.
const ALGORITHM = 'HS256';
const ISSUER = 'gradewise';
/** The header every token we sign carries; computed once. */
const HEADER = Buffer.from(JSON.stringify({ alg: ALGORITHM, typ: 'JWT' })).toString('base64url');

export interface TokenClaims {
  userId: string;
  tokenVersion: number;
}

/** What a verified token says: its claims, its own id (logout revokes exactly this token) and its expiry. */
export interface VerifiedToken extends TokenClaims {
  /** `jti`; tokens issued before logout existed have none (logging one out ends every session). */
  tokenId: string | null;
  expiresAt: Date;
}

/**
 * Compact JWTs (HS256) signed and checked with Node's synchronous HMAC. Every authenticated
 * request verifies one, so this is on the hot path: WebCrypto's promise-based HMAC cost several
 * times more per request (docs/decisions/0019-pglite-thread-and-compiled-start.md). The format is
 * the standard one (tokens issued by the former jose code stay valid), and the checks are jose's:
 * algorithm pinned, signature compared in constant time, issuer, expiry and not-before.
 */
export class TokenService {
  private readonly secret: Buffer;
  /**
   * Tokens that passed every check, by their exact text, with their claims. A session presents
   * the same token on every request; verifying it again (base64 and JSON of two parts, the HMAC)
   * was a tenth of the CPU of an authenticated `GET /api/courses` (issue 11, decision 0061).
   * Only a string equal to one verified here is found (nothing about its parts is trusted), and
   * what verification decides is the same for it at any later time except expiry, which is
   * checked on every use. Revocation is not decided here (auth/sessions.ts reads it every time).
   */
  private readonly verified = new BoundedCache<string, VerifiedClaims>(MAX_VERIFIED);

  constructor(
    secret: Uint8Array,
    private readonly ttlSeconds: number,
  ) {
    this.secret = Buffer.from(secret);
  }

  sign(claims: TokenClaims): string {
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      tv: claims.tokenVersion,
      sub: claims.userId,
      iss: ISSUER,
      iat: now,
      exp: now + this.ttlSeconds,
      jti: randomBytes(16).toString('base64url'),
    };
    const signingInput = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    return `${signingInput}.${this.mac(signingInput).toString('base64url')}`;
  }

  verify(token: string): VerifiedToken {
    const now = Math.floor(Date.now() / 1000);
    const known = this.verified.get(token);
    if (known) {
      if (known.exp <= now) {
        this.verified.delete(token);
        throw tokenExpired();
      }
      return verifiedToken(known);
    }
    const claims = this.check(token, now);
    this.verified.set(token, claims);
    return verifiedToken(claims);
  }

  /** Every check of a token not verified before, at `now` (seconds). */
  private check(token: string, now: number): VerifiedClaims {
    const payload = this.readSignedPayload(token);
    if (typeof payload.exp === 'number' && payload.exp <= now) throw tokenExpired();
    // A subject that is not a user id cannot name a user: refused here, before any query (a
    // signed token with an odd subject is a leaked secret or our bug, never a 500).
    if (
      payload.iss !== ISSUER ||
      typeof payload.exp !== 'number' ||
      (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > now)) ||
      typeof payload.sub !== 'string' ||
      !isId(payload.sub) ||
      typeof payload.tv !== 'number' ||
      (payload.jti !== undefined && (typeof payload.jti !== 'string' || payload.jti.length > 64))
    ) {
      throw invalidToken();
    }
    return {
      userId: payload.sub,
      tokenVersion: payload.tv,
      tokenId: typeof payload.jti === 'string' ? payload.jti : null,
      exp: payload.exp,
    };
  }

  /** The payload of a well-formed token whose header names HS256 and whose signature is ours. */
  private readSignedPayload(token: string): Record<string, unknown> {
    const parts = token.split('.');
    if (parts.length !== 3) throw invalidToken();
    const [header, payload, signature] = parts as [string, string, string];
    const headerFields = parseJsonObject(header);
    if (headerFields?.alg !== ALGORITHM || 'crit' in headerFields) throw invalidToken();
    const given = Buffer.from(signature, 'base64url');
    // Node's decoder ignores the unused bits of the last character and stray characters, so other
    // spellings decode to our signature's bytes; only the one we issue is accepted (a changed
    // token is refused, whatever its bytes). Re-encoding what was given reveals nothing secret.
    if (given.toString('base64url') !== signature) throw invalidToken();
    const expected = this.mac(`${header}.${payload}`);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidToken();
    const fields = parseJsonObject(payload);
    if (!fields) throw invalidToken();
    return fields;
  }

  private mac(signingInput: string): Buffer {
    return createHmac('sha256', this.secret).update(signingInput).digest();
  }
}

/** Enough for every session active at once; beyond it the oldest verified go first (and are verified again if used). */
const MAX_VERIFIED = 10_000;

/** A verified token's claims, its expiry in seconds as signed. */
interface VerifiedClaims extends TokenClaims {
  tokenId: string | null;
  exp: number;
}

/** A new object for each caller (a caller's change never reaches the next request). */
const verifiedToken = ({ userId, tokenVersion, tokenId, exp }: VerifiedClaims): VerifiedToken => ({
  userId,
  tokenVersion,
  tokenId,
  expiresAt: new Date(exp * 1000),
});

function tokenExpired(): AppError {
  return new AppError('TOKEN_EXPIRED', 'Your session has expired. Please log in again.');
}

function parseJsonObject(base64url: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(base64url, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function invalidToken(): AppError {
  return new AppError('UNAUTHENTICATED', 'Your session is not valid. Please log in again.');
}
