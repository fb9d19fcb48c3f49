import { HTTP_STATUS_OF, type ErrorCode, type StaleSaveConflict } from '@gradewise/shared/errors';

/**
 * The one error type the HTTP layer turns into `{ message, code }`. A call site names what went
 * wrong (the code) and says it (the message); the status follows from the code (`HTTP_STATUS_OF`).
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: { path: string; message: string }[],
    /** What a stale save ran into (409 only). */
    readonly conflict?: StaleSaveConflict,
    /** For a 429: the seconds to wait, sent as `Retry-After` (error-handler.ts). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = HTTP_STATUS_OF[code];
  }
}

export const badRequest = (message: string, issues?: { path: string; message: string }[]) =>
  new AppError('BAD_REQUEST', message, issues);
export const unauthenticated = (message = 'Please log in to continue.') => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
/** A save made on a version that is no longer current: 409 with who saved what and when. */
export const staleSave = (message: string, details: StaleSaveConflict) =>
  new AppError('CONFLICT', message, undefined, details);
/**
 * Too many attempts (429): says how long to wait, in the message and as `Retry-After` (whole
 * seconds, at least 1), so a client can wait exactly that long instead of guessing.
 */
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', message, undefined, undefined, Math.max(1, Math.ceil(retryAfterSeconds)));
export const unsupportedFile = (message: string) => new AppError('UNSUPPORTED_FILE', message);
export const payloadTooLarge = (message: string) => new AppError('PAYLOAD_TOO_LARGE', message);
