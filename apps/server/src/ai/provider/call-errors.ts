import type { APICallError } from 'ai';
import type { TokenUsage } from './language-model-client.ts';

/**
 * A failed call, classified (rate limited, timed out, rejected, ...) so the retry policy never has
 * to know the SDK's error types; and the provider's Retry-After, read into milliseconds.
 */

export type ProviderFailureKind =
  /** HTTP 429. */
  | 'rate-limited'
  /** HTTP 5xx. */
  | 'server-error'
  /** Our per-call timeout fired (or HTTP 408). */
  | 'timeout'
  /** No HTTP answer at all: refused connection, DNS, reset. */
  | 'network'
  /** Any other 4xx: bad key, unknown model, request too large. Retrying cannot help. */
  | 'rejected'
  /** The model answered, but not JSON matching the schema. */
  | 'invalid-output'
  /** The caller's signal aborted (shutdown, job cancelled). */
  | 'aborted';

/** One failed call, classified so the retry policy never has to know the SDK's error types. */
export class ProviderCallError extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    readonly details: {
      statusCode?: number;
      /** From Retry-After / retry-after-ms, when the provider sent one. */
      retryAfterMs?: number;
      /** What the model answered, for invalid-output. */
      answerText?: string;
      /** Short, human-readable schema problems, for invalid-output. */
      issues?: string[];
      usage?: TokenUsage;
      cause?: unknown;
    } = {},
  ) {
    super(message);
    this.name = 'ProviderCallError';
  }
}

/**
 * The AI SDK's own test for its APICallError (`APICallError.isInstance`): the SDK marks its errors
 * with a registered symbol, so the check holds across copies of the SDK. It is repeated here rather
 * than imported because importing `ai` for it loaded the whole SDK (3 MB of heap, 4 MB of RSS) into
 * every server at start, also on the built-in grader; the SDK now loads at the first model call
 * (create-client.ts, docs/decisions/0047-idle-server-loads-on-first-use.md). The tests' 429, 5xx,
 * 401 and network failures come from the real SDK, so a change of marker fails them.
 */
const API_CALL_ERROR_MARKER = Symbol.for('vercel.ai.error.AI_APICallError');

function isApiCallError(error: unknown): error is APICallError {
  return (
    typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[API_CALL_ERROR_MARKER] === true
  );
}

/** The SDK's or fetch's failure as a ProviderCallError. */
export function classifyCallError(error: unknown): ProviderCallError {
  if (isApiCallError(error)) {
    const statusCode = error.statusCode;
    const detail = providerMessage(error);
    if (statusCode === undefined) {
      return new ProviderCallError('network', `could not be reached (${networkCause(error)})`, { cause: error });
    }
    if (statusCode === 429) {
      return new ProviderCallError('rate-limited', `HTTP 429 Too Many Requests${detail}`, {
        statusCode,
        retryAfterMs: parseRetryAfterMs(error.responseHeaders),
        cause: error,
      });
    }
    if (statusCode === 408)
      return new ProviderCallError('timeout', `HTTP 408 Request Timeout${detail}`, { statusCode, cause: error });
    if (statusCode >= 500) {
      return new ProviderCallError('server-error', `HTTP ${statusCode}${detail}`, {
        statusCode,
        retryAfterMs: parseRetryAfterMs(error.responseHeaders),
        cause: error,
      });
    }
    return new ProviderCallError('rejected', `HTTP ${statusCode}${detail}`, { statusCode, cause: error });
  }
  // fetch failures the SDK did not wrap (it wraps most as APICallError without a status).
  if (error instanceof TypeError) {
    return new ProviderCallError('network', `could not be reached (${networkCause(error)})`, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderCallError('rejected', message, { cause: error });
}

/** The provider's own explanation, shortened: " (Incorrect API key provided)". */
function providerMessage(error: APICallError): string {
  const raw = error.message?.trim();
  if (!raw || /^(Bad Request|Unauthorized|Forbidden|Too Many Requests|Internal Server Error|Not Found)$/i.test(raw)) {
    return '';
  }
  return `: ${raw.length > 300 ? `${raw.slice(0, 300)}…` : raw}`;
}

function networkCause(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Retry-After as seconds or an HTTP date, or OpenAI's retry-after-ms. */
export function parseRetryAfterMs(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  const milliseconds = Number.parseFloat(lower['retry-after-ms'] ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const raw = lower['retry-after'];
  if (!raw) return undefined;
  const seconds = Number(raw.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
