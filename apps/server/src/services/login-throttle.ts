import { currentTime } from '../lib/clock.ts';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { loginThrottles } from '../db/schema.ts';
import { rateLimited } from '../lib/errors.ts';

/**
 * Password guessing, held back per account AND client (OWASP ASVS 2.2.1; issue 28). The account
 * is the email, whether or not an account has it, so the throttle tells nothing about which
 * emails exist; the client is its network address (`clientOf`). The first FREE_ATTEMPTS tries of a
 * client at an account cost nothing; from then on each try makes that client's next one wait,
 * doubling from BASE_WAIT_SECONDS up to MAX_WAIT_SECONDS. A right password clears that client's
 * count (a password reset clears every client's). A day without tries starts it over.
 *
 * Per account and client, so nobody can lock a person out: someone guessing from one address
 * makes only that address wait, and the owner signing in from elsewhere (home, a phone, another
 * building) gets in. Guesses from many addresses each meet their own wait, and the per-address
 * flood guard (AUTH_RATE_LIMIT) caps how many any one address sends across accounts; what remains
 * is bounded by the addresses a guesser controls, which the password policy answers (no common
 * or guessable passwords, auth/password-policy.ts). Decision 0069.
 *
 * An attempt is counted *before* its password is checked, in one atomic statement that refuses it
 * while the client must wait: so parallel guesses cannot slip past the count, and a waiting client
 * answers 429 without its password being checked (no oracle for a right guess).
 */
export const FREE_ATTEMPTS = 5;
export const BASE_WAIT_SECONDS = 15;
export const MAX_WAIT_SECONDS = 15 * 60;

/**
 * The client a request comes from, as the throttle counts it: an IPv4 address as it is (IPv4
 * mapped into IPv6 too), an IPv6 address by its /64 network, which one home or phone holds whole,
 * so hopping between its addresses is still one client.
 */
export function clientOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Counts a login attempt from this address (the request's) at this account, or throws 429 (with
 * the wait) while its client must wait.
 */
export async function countLoginAttempt(ctx: AppContext, email: string, address: string): Promise<void> {
  const client = clientOf(address);
  const now = currentTime(ctx);
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  const failures = sql`(case when ${loginThrottles.updatedAt} < ${dayAgo.toISOString()}::timestamptz then 1 else ${loginThrottles.failures} + 1 end)`;
  const waitSeconds = sql`least(${BASE_WAIT_SECONDS} * power(2, greatest(${failures} - ${FREE_ATTEMPTS}, 0)), ${MAX_WAIT_SECONDS})`;
  const counted = await ctx.db
    .insert(loginThrottles)
    .values({ email, client, failures: 1, lockedUntil: null, updatedAt: now })
    .onConflictDoUpdate({
      target: [loginThrottles.email, loginThrottles.client],
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
    .where(and(eq(loginThrottles.email, email), eq(loginThrottles.client, client)));
  const seconds = Math.max(1, Math.ceil(((row?.lockedUntil?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
  throw rateLimited(
    `Too many failed attempts for this account. Please wait ${describeWait(seconds)} and try again, or reset your password.`,
    seconds,
  );
}

/** A right password: this client's count at the account starts over (others' guesses still wait). */
export async function clearLoginAttempts(ctx: AppContext, email: string, address: string): Promise<void> {
  const client = clientOf(address);
  await ctx.db.delete(loginThrottles).where(and(eq(loginThrottles.email, email), eq(loginThrottles.client, client)));
}

/** A password reset proved the address: every client's count at the account starts over. */
export async function clearAllLoginAttempts(ctx: AppContext, email: string): Promise<void> {
  await ctx.db.delete(loginThrottles).where(eq(loginThrottles.email, email));
}

function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
