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
  'AI_FAILED',
  'EXTRACTION_FAILED',
  /** Work that stopped its worker again and again (a poison job): given up on, never retried by itself. */
  'UNPROCESSABLE',
  /** The work continues in the background (a long AI job, a restarting server): try again later. */
  'UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

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
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const MessageOutput = z.object({ message: z.string() });
export type MessageOutput = z.infer<typeof MessageOutput>;
