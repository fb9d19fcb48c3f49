import { currentTime } from '../lib/clock.ts';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { loginThrottles } from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';

/**
 * Password guessing, held back per account (per email, whether or not an account has it, so the
 * throttle tells nothing about which emails exist). The first FREE_ATTEMPTS tries cost nothing;
 * from then on each try makes the next one wait, doubling from BASE_WAIT_SECONDS up to
 * MAX_WAIT_SECONDS. A right password clears the count. A day without tries starts it over.
 *
 * This is per account, not per client address: guesses from any number of addresses count against
 * the same account, and one person guessing behind a school's shared address does not lock out the
 * classmates behind it (the per-address limit, AUTH_RATE_LIMIT, only stops floods).
 *
 * An attempt is counted *before* its password is checked, in one atomic statement that refuses it
 * while the account is waiting: so parallel guesses cannot slip past the count, and a locked
 * account answers 429 without its password being checked (no oracle for a right guess).
 */
export const FREE_ATTEMPTS = 5;
export const BASE_WAIT_SECONDS = 15;
export const MAX_WAIT_SECONDS = 15 * 60;

/** Counts a login attempt, or throws 429 (with the wait) while the account must wait. */
export async function countLoginAttempt(ctx: AppContext, email: string): Promise<void> {
  const now = currentTime(ctx);
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  const failures = sql`(case when ${loginThrottles.updatedAt} < ${dayAgo.toISOString()}::timestamptz then 1 else ${loginThrottles.failures} + 1 end)`;
  const waitSeconds = sql`least(${BASE_WAIT_SECONDS} * power(2, greatest(${failures} - ${FREE_ATTEMPTS}, 0)), ${MAX_WAIT_SECONDS})`;
  const counted = await ctx.db
    .insert(loginThrottles)
    .values({ email, failures: 1, lockedUntil: null, updatedAt: now })
    .onConflictDoUpdate({
      target: loginThrottles.email,
      set: {
        failures,
        lockedUntil: sql`case when ${failures} >= ${FREE_ATTEMPTS} then ${now.toISOString()}::timestamptz + ${waitSeconds} * interval '1 second' else null end`,
        updatedAt: now,
      },
      setWhere: sql`${loginThrottles.lockedUntil} is null or ${loginThrottles.lockedUntil} <= ${now.toISOString()}::timestamptz`,
    })
    .returning({ failures: loginThrottles.failures });
  if (counted.length > 0) return;

  const [row] = await ctx.db
    .select({ lockedUntil: loginThrottles.lockedUntil })
    .from(loginThrottles)
    .where(eq(loginThrottles.email, email));
  const seconds = Math.max(1, Math.ceil(((row?.lockedUntil?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
  throw new AppError(
    'RATE_LIMITED',
    `Too many failed attempts for this account. Please wait ${describeWait(seconds)} and try again, or reset your password.`,
  );
}

/** A right password: the account's count starts over. */
export async function clearLoginAttempts(ctx: AppContext, email: string): Promise<void> {
  await ctx.db.delete(loginThrottles).where(eq(loginThrottles.email, email));
}

function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
