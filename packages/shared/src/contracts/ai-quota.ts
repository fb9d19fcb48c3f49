import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/** One AI spend limit as the instructor sees it: how much of the current window is used and when it resets. */
export const AiLimitUsage = lazySchema(() =>
  z.object({
    limit: z.number().int(),
    used: z.number().int(),
    remaining: z.number().int(),
    /** ISO time at which the current window ends and the count starts again from 0. */
    resetsAt: z.string(),
    /** The environment variable that sets this limit. */
    variable: z.string(),
  }),
);
export type AiLimitUsage = z.infer<typeof AiLimitUsage>;

/** GET .../questions/:questionId/ai-quota: the caller's AI limits on this question's course. */
export const AiQuotaOutput = lazySchema(() =>
  z.object({
    /** 'builtin': the offline grader (no provider quota); 'external': an AI provider, with quotas. */
    provider: z.enum(['builtin', 'external']),
    /** The caller's interactive AI calls this minute (every grader). */
    perMinute: AiLimitUsage,
    /** Calls to the external provider, per course and per instructor; null with the built-in grader. */
    providerQuotas: z
      .object({
        courseHour: AiLimitUsage,
        courseDay: AiLimitUsage,
        instructorHour: AiLimitUsage,
        instructorDay: AiLimitUsage,
      })
      .nullable(),
    /** The fewest calls left across the four provider quotas: how many more the course can send now. */
    providerCallsLeft: z.number().int().nullable(),
  }),
);
export type AiQuotaOutput = z.infer<typeof AiQuotaOutput>;
