import type { AppContext } from '../context.ts';
import { BoundedCache } from '../lib/bounded-cache.ts';
import { selectUserById, type UserRow } from '../models/users.ts';

/**
 * How long a user row read for authentication is reused. Short: it saves the row read of a burst
 * of requests (a page load is several), not of a session. Within one process, a change to the
 * row that matters (the token version, "sign out everywhere") forgets it at once (`forgetUser`);
 * another process on the same PostgreSQL sees that change at most this late.
 */
export const USER_CACHE_TTL_MS = 2_000;
/** Enough for every user active in a few seconds; beyond it, the oldest entries go first. */
const MAX_ENTRIES = 10_000;

interface Entry {
  user: UserRow;
  expiresAt: number;
}

/**
 * The rows of users who presented a token lately, keyed by user id and the token's version: a
 * token of an older version never finds the row cached for a newer one (and is refused by the
 * database read), and a row is only ever served for the version it was read with.
 */
export class UserCache {
  private readonly entries = new BoundedCache<string, Entry>(MAX_ENTRIES);

  async read(ctx: AppContext, userId: string, tokenVersion: number): Promise<UserRow | undefined> {
    const key = `${userId}:${tokenVersion}`;
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > now) return cached.user;
    if (cached) this.entries.delete(key);
    const user = await selectUserById(ctx.db, userId);
    // Only a row that authenticates this token is kept (a revoked token's read is never cached).
    if (user && user.tokenVersion === tokenVersion) {
      this.entries.set(key, { user, expiresAt: now + USER_CACHE_TTL_MS });
    }
    return user;
  }

  /** Drops every cached row of a user: call it after changing the row (token version, role, name). */
  forget(userId: string): void {
    for (const key of this.entries.keys()) {
      if (key.startsWith(`${userId}:`)) this.entries.delete(key);
    }
  }
}

/** One cache per application context (a process has one; each test app its own). */
const caches = new WeakMap<AppContext, UserCache>();

export function userCacheOf(ctx: AppContext): UserCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new UserCache();
    caches.set(ctx, cache);
  }
  return cache;
}

/** After any change to a user's row: the next request reads it again. */
export function forgetUser(ctx: AppContext, userId: string): void {
  userCacheOf(ctx).forget(userId);
}
