import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { AppError } from '../lib/errors.ts';
import { isId } from '../lib/ids.ts';

// The algorithm is pinned on both sides: a token claiming any other `alg` (including `none`) is refused.
const ALGORITHM = 'HS256';
const ISSUER = 'gradewise';

export interface TokenClaims {
  userId: string;
  tokenVersion: number;
}

export class TokenService {
  constructor(
    private readonly secret: Uint8Array,
    private readonly ttlSeconds: number,
  ) {}

  sign(claims: TokenClaims): Promise<string> {
    return new SignJWT({ tv: claims.tokenVersion })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.ttlSeconds)
      .sign(this.secret);
  }

  async verify(token: string): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: [ALGORITHM], issuer: ISSUER });
      // A subject that is not a user id cannot name a user: refused here, before any query (a
      // signed token with an odd subject is a leaked secret or our bug, never a 500).
      if (typeof payload.sub !== 'string' || !isId(payload.sub) || typeof payload.tv !== 'number') {
        throw new Error('claims');
      }
      return { userId: payload.sub, tokenVersion: payload.tv };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw new AppError('TOKEN_EXPIRED', 401, 'Your session has expired. Please log in again.');
      }
      throw new AppError('UNAUTHENTICATED', 401, 'Your session is not valid. Please log in again.');
    }
  }
}
