import { Redis } from 'ioredis';

/** A Redis client for the request limits, with the prefix its keys start with. */
export interface RequestLimitRedis {
  client: Redis;
  /** Keeps these counters apart from anything else in the same Redis (and tests apart from each other). */
  keyPrefix: string;
}

const DEFAULT_REQUEST_LIMIT_KEY_PREFIX = 'gradewise:request-limit:';

/** Raised at boot when REDIS_URL is set and its Redis does not answer: the process says so and stops. */
export class RedisUnreachableError extends Error {}

/**
 * Connects to REDIS_URL and checks that Redis answers a PING, or throws one sentence naming the
 * setting. The URL is not repeated whole (it may hold a password), only its host and port.
 *
 * Commands are not queued while disconnected and not retried: a Redis that goes away makes the
 * count fail at once (and the store falls back to the database, request-limits.ts), instead of a
 * sign-in hanging until Redis comes back. The client reconnects by itself meanwhile.
 */
export async function openRequestLimitRedis(
  url: string,
  keyPrefix = DEFAULT_REQUEST_LIMIT_KEY_PREFIX,
): Promise<RequestLimitRedis> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 3_000,
    commandTimeout: 1_000,
  });
  // Without a listener, ioredis prints every failed reconnection; the store logs what matters.
  // The socket's own error (ECONNREFUSED, a refused password) says more than the failed command.
  let socketError: Error | undefined;
  client.on('error', (error: Error) => {
    socketError = error;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    const { host, port } = client.options;
    const reason = socketError?.message ?? (error instanceof Error ? error.message : String(error));
    throw new RedisUnreachableError(
      `Gradewise cannot start: REDIS_URL is set but Redis at ${host ?? '?'}:${port ?? '?'} does not answer (${reason}); start it, correct REDIS_URL, or unset it to count request limits in the database.`,
    );
  }
  return { client, keyPrefix };
}

/**
 * One fixed window per key, atomically: the first hit of a window sets its end, later hits read
 * what is left of it. The same INCR + PEXPIRE as @fastify/rate-limit's RedisStore, without its
 * backoff options (our limits use none). A key left without an expiry (never by this script) gets
 * one, so no counter outlives its window.
 */
const COUNT_HIT = `
  local current = redis.call('INCR', KEYS[1])
  local ttl = redis.call('PTTL', KEYS[1])
  if current == 1 or ttl < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  return {current, ttl}
`;

/** Counts one request under `key` in a window of `timeWindowMs`: hits so far in it and ms left. */
export async function countHitInRedis(
  redis: RequestLimitRedis,
  key: string,
  timeWindowMs: number,
): Promise<{ hits: number; msLeft: number }> {
  const result = (await redis.client.eval(COUNT_HIT, 1, `${redis.keyPrefix}${key}`, String(timeWindowMs))) as [
    number,
    number,
  ];
  return { hits: result[0], msLeft: result[1] };
}
