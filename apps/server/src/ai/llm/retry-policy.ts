import { setTimeout as sleepFor } from 'node:timers/promises';
import { ProviderCallError, type ProviderFailureKind } from '../provider/call-errors.ts';

/**
 * When and how long we wait before asking the provider again. Explicit here (the SDK's own
 * retries are off) so the policy is visible, tested, and the same for every provider:
 *
 * - retry: 429 (honouring Retry-After), 5xx, our timeout, network errors — all transient;
 * - never retry: other 4xx (a bad key or unknown model fails the same way every time, and each
 *   try may be billed), invalid output (the grader sends one repair prompt instead), and the
 *   caller's abort (shutdown must not be delayed by backoff).
 *
 * Backoff is exponential with "equal jitter" (half fixed, half random) so a burst of grading jobs
 * that hit the same rate limit do not come back in lockstep.
 */

export type Sleep = (milliseconds: number, signal?: AbortSignal) => Promise<void>;

export interface RetryPolicy {
  /** Tries after the first one; total tries = maxRetries + 1. */
  maxRetries: number;
  /** First backoff before jitter; doubles per retry. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails now with the reason. */
  maxRetryAfterMs: number;
  sleep: Sleep;
  /** 0..1; injectable so tests can predict the jitter. */
  random: () => number;
}

export const defaultSleep: Sleep = async (milliseconds, signal) => {
  await sleepFor(milliseconds, undefined, { signal });
};

export const RETRYABLE_KINDS: ReadonlySet<ProviderFailureKind> = new Set([
  'rate-limited',
  'server-error',
  'timeout',
  'network',
]);

/** The shortest time worth giving one more try within a call's total budget. */
export const MIN_TRY_MS = 1000;

/** Delay before retry number `retry` (1 for the first retry). */
export function backoffDelayMs(
  retry: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'random'>,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * policy.random());
}

/** The last failure and how many tries were spent, so the final message can say both. */
export class RetriesExhaustedError extends Error {
  constructor(
    readonly lastError: ProviderCallError,
    readonly tries: number,
    /** Set when we stopped early because the provider asked us to wait too long. */
    readonly refusedRetryAfterMs?: number,
    /** True when we stopped because the call's total time budget would not allow another try. */
    readonly isOutOfTime = false,
  ) {
    super(lastError.message);
    this.name = 'RetriesExhaustedError';
  }
}

/**
 * Runs `attempt` until it succeeds or the policy gives up. Non-retryable ProviderCallErrors
 * (rejected, invalid-output, aborted) and non-provider errors pass through untouched; retryable
 * ones that run out become RetriesExhaustedError. `onFailedTry` sees every failure (to count
 * tokens that were billed on a failed try).
 */
export async function callWithRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
  onFailedTry?: (error: ProviderCallError) => void,
  /** What is left of the call's total budget: no retry is started that could not finish in it. */
  remainingMs: () => number = () => Number.POSITIVE_INFINITY,
): Promise<{ value: T; tries: number }> {
  for (let tryNumber = 1; ; tryNumber += 1) {
    try {
      return { value: await attempt(), tries: tryNumber };
    } catch (error) {
      if (!(error instanceof ProviderCallError)) throw error;
      onFailedTry?.(error);
      if (!RETRYABLE_KINDS.has(error.kind)) throw error;
      if (tryNumber > policy.maxRetries) throw new RetriesExhaustedError(error, tryNumber);
      const retryAfterMs = error.details.retryAfterMs;
      if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) {
        throw new RetriesExhaustedError(error, tryNumber, retryAfterMs);
      }
      // The provider's Retry-After is an instruction, not a hint: wait exactly that long.
      const delay = retryAfterMs ?? backoffDelayMs(tryNumber, policy);
      // A retry needs the wait plus some time to answer; a budget that cannot hold both ends the call now.
      if (delay + MIN_TRY_MS > remainingMs()) throw new RetriesExhaustedError(error, tryNumber, undefined, true);
      await policy.sleep(delay, signal);
      if (signal?.aborted)
        throw new ProviderCallError('aborted', 'The AI call was cancelled.', { cause: signal.reason });
    }
  }
}
