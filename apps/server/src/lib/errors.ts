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
export const unsupportedFile = (message: string) => new AppError('UNSUPPORTED_FILE', message);
export const payloadTooLarge = (message: string) => new AppError('PAYLOAD_TOO_LARGE', message);
