import type { ErrorCode, StaleSaveConflict } from '@gradewise/shared/errors';

/** The one error type the HTTP layer turns into `{ message, code }`. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly issues?: { path: string; message: string }[],
    /** What a stale save ran into (409 only). */
    readonly conflict?: StaleSaveConflict,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, issues?: { path: string; message: string }[]) =>
  new AppError('BAD_REQUEST', 400, message, issues);
export const unauthenticated = (message = 'Please log in to continue.') =>
  new AppError('UNAUTHENTICATED', 401, message);
export const forbidden = (message: string) => new AppError('FORBIDDEN', 403, message);
export const notFound = (message: string) => new AppError('NOT_FOUND', 404, message);
export const conflict = (message: string) => new AppError('CONFLICT', 409, message);
/** A save made on a version that is no longer current: 409 with who saved what and when. */
export const staleSave = (message: string, details: StaleSaveConflict) =>
  new AppError('CONFLICT', 409, message, undefined, details);
export const unsupportedFile = (message: string) => new AppError('UNSUPPORTED_FILE', 415, message);
export const payloadTooLarge = (message: string) => new AppError('PAYLOAD_TOO_LARGE', 413, message);
