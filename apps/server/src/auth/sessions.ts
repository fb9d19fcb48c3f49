import { currentTime } from '../lib/clock.ts';
import { eq, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { revokedTokens, users } from '../db/schema.ts';
import { BoundedCache } from '../lib/bounded-cache.ts';
import type { UserRow } from '../models/users.ts';
import type { VerifiedToken } from './tokens.ts';
import { forgetUser, USER_CACHE_TTL_MS, userCacheOf } from './user-cache.ts';

/**
 * Whether a signed, unexpired token still speaks for its user: the account exists and is not
 * deleted, the token carries the account's current token version (bumped by "sign out
 * everywhere", a password change or reset, and deletion) and this very token was not logged out.
 * The one place a session is checked: http/access.ts calls it on every authenticated request.
 *
 * Both reads are cached briefly (auth/user-cache.ts for the row; `revocations` below for logged-out
 * tokens), and every change made in this process forgets them at once; another process on the same
 * PostgreSQL sees a logout at most USER_CACHE_TTL_MS late, as it does a version bump.
 */
export async function loadSessionUser(ctx: AppContext, token: VerifiedToken): Promise<UserRow | null> {
  const user = await userCacheOf(ctx).read(ctx, token.userId, token.tokenVersion);
  if (!user || user.deletedAt || user.tokenVersion !== token.tokenVersion) return null;
  if (token.tokenId && (await isRevoked(ctx, token.tokenId))) return null;
  return user;
}

/** Per context: token id -> whether it is logged out, and until when that answer is reused. */
const revocations = new WeakMap<AppContext, BoundedCache<string, { revoked: boolean; until: number }>>();
const MAX_REMEMBERED = 10_000;

function revocationsOf(ctx: AppContext): BoundedCache<string, { revoked: boolean; until: number }> {
  let map = revocations.get(ctx);
  if (!map) revocations.set(ctx, (map = new BoundedCache(MAX_REMEMBERED)));
  return map;
}

async function isRevoked(ctx: AppContext, tokenId: string): Promise<boolean> {
  const remembered = revocationsOf(ctx);
  const now = Date.now();
  const known = remembered.get(tokenId);
  if (known && known.until > now) return known.revoked;
  const [row] = await ctx.db
    .select({ tokenId: revokedTokens.tokenId })
    .from(revokedTokens)
    .where(eq(revokedTokens.tokenId, tokenId))
    .limit(1);
  remembered.set(tokenId, { revoked: row !== undefined, until: now + USER_CACHE_TTL_MS });
  return row !== undefined;
}

/**
 * Logs out one token (its `jti`), until it would have expired anyway. Expired entries are swept
 * here, so the table holds only tokens that could still be presented.
 */
export async function revokeToken(ctx: AppContext, token: VerifiedToken): Promise<void> {
  if (!token.tokenId) {
    // A token from before logout existed has no id to revoke: end every session of the account instead.
    await revokeAllSessions(ctx, token.userId);
    return;
  }
  await ctx.db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, currentTime(ctx)));
  await ctx.db
    .insert(revokedTokens)
    .values({ tokenId: token.tokenId, userId: token.userId, expiresAt: token.expiresAt })
    .onConflictDoNothing();
  revocationsOf(ctx).set(token.tokenId, { revoked: true, until: token.expiresAt.getTime() });
}

/** Ends every session of the account ("sign out everywhere"): tokens issued before now stop working. */
export async function revokeAllSessions(ctx: AppContext, userId: string): Promise<UserRow> {
  const [user] = await ctx.db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId))
    .returning();
  forgetUser(ctx, userId);
  if (!user) throw new Error(`No user ${userId}`);
  return user;
}
