import { z } from 'zod';

/** Every error the API answers with has one of these codes; the client shows `message`. */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'TOKEN_EXPIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  /**
   * A change that must say which version it starts from and did not (a grade save without
   * `expectedGradeId`): refused rather than risk overwriting a save made since.
   */
  'PRECONDITION_REQUIRED',
  'EMAIL_TAKEN',
  'INVALID_CREDENTIALS',
  /** A password the policy refuses (too common, too close to the email). */
  'WEAK_PASSWORD',
  /** Email delivery is on and this account has not followed its verification link yet. */
  'EMAIL_NOT_VERIFIED',
  /** The feature needs email and this server has no SMTP configured. */
  'EMAIL_NOT_CONFIGURED',
  /** A verification or reset link that is unknown, used or expired. */
  'LINK_INVALID',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_FILE',
  'RATE_LIMITED',
  /** The course is held to AI on this server, and this call would go to an external provider. */
  'AI_PROVIDER_NOT_ALLOWED',
  /** The work does not fit what is left of the course's or the instructor's monthly AI budget. */
  'AI_BUDGET_EXCEEDED',
  /** The estimate is above the course's confirmation amount: ask again with `confirmCost: true`. */
  'COST_CONFIRMATION_REQUIRED',
  /** Queued work cancelled by the instructor (Stop on Grade All) before it was sent. */
  'CANCELLED',
  'AI_FAILED',
  'EXTRACTION_FAILED',
  /** A request sent in a content type this route does not read (not JSON where JSON is expected). */
  'UNSUPPORTED_MEDIA_TYPE',
  /**
   * Work given up on, never retried by itself: a job that stopped its worker again and again (a
   * poison job), or a file that could not be read within the time allowed.
   */
  'UNPROCESSABLE',
  /** The work continues in the background (a long AI job, a restarting server): try again later. */
  'UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The HTTP status of each error code: the one place a status is chosen, so a code always answers
 * with the same status and a new code cannot be added without one.
 */
export const HTTP_STATUS_OF: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  TOKEN_EXPIRED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_REQUIRED: 428,
  EMAIL_TAKEN: 409,
  INVALID_CREDENTIALS: 401,
  WEAK_PASSWORD: 400,
  EMAIL_NOT_VERIFIED: 403,
  EMAIL_NOT_CONFIGURED: 503,
  LINK_INVALID: 400,
  PAYLOAD_TOO_LARGE: 413,
  // A file we do not take (not a PDF, a PDF with active content, not a spreadsheet) is a bad request.
  UNSUPPORTED_FILE: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  AI_PROVIDER_NOT_ALLOWED: 403,
  AI_BUDGET_EXCEEDED: 409,
  COST_CONFIRMATION_REQUIRED: 409,
  CANCELLED: 409,
  AI_FAILED: 502,
  EXTRACTION_FAILED: 422,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** A code read back from storage (a failed job's row); anything unknown is INTERNAL. */
export function asErrorCode(value: string | null | undefined): ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(value ?? '') ? (value as ErrorCode) : 'INTERNAL';
}

/**
 * A stale save (409 CONFLICT): what was saved since the caller loaded, by whom and when, so the
 * screen can say it and offer to reload. `id` is the saved grade's id or the rubric's version.
 */
export const StaleSaveConflict = z.object({
  kind: z.enum(['grade', 'rubric']),
  id: z.string(),
  savedBy: z.object({ _id: z.string(), name: z.string() }).nullable(),
  savedAt: z.string(),
  /** The grade saved since (kind 'grade'). */
  grade: z.number().optional(),
  /** The rubric version now current (kind 'rubric'). */
  version: z.number().optional(),
});
export type StaleSaveConflict = z.infer<typeof StaleSaveConflict>;

export const ErrorBody = z.object({
  message: z.string(),
  code: z.enum(ERROR_CODES),
  /** Field-level problems, when the request failed validation. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** Present on a 409 for a stale save. */
  conflict: StaleSaveConflict.optional(),
  /** On a 429: how long to wait before trying again, as the `Retry-After` header says. */
  retryAfterSeconds: z.number().int().positive().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const MessageOutput = z.object({ message: z.string() });
export type MessageOutput = z.infer<typeof MessageOutput>;
