import type { AiLimitUsage, AiQuotaOutput } from '@gradewise/shared/contracts/ai-quota';
import type { AiProviderConfig, Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { notFound, rateLimited, type AppError } from '../lib/errors.ts';
import { describeMoment } from '../lib/timestamps.ts';
import {
  deleteUsageCountsBefore,
  incrementUsageCounts,
  insertAiCharge,
  selectSpendScopeOfQuestion,
  selectUsageCounts,
  type UsageKey,
} from '../models/ai-usage.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireGrader } from '../policies/course-access.ts';
import { chosenProvider } from './course-ai.ts';

/**
 * AI spend, the one home of its rules (docs/decisions/0015-ai-spend-and-active-pdfs.md):
 *
 * - Every user may START at most AI_USER_CALLS_PER_MINUTE interactive AI calls (grade or regrade
 *   that runs the grader, generate-rubric, rubric-trial) per minute, whatever the grader: a script
 *   cannot hammer the server even with the free built-in grader.
 * - With an external provider, every call to it (one grading, one rubric draft, one trial answer)
 *   also counts against the course's and its instructor's quotas per clock hour and per UTC day.
 *   Work that is queued (Grade All, re-suggest, grade and regrade) is checked before it is queued
 *   (all of it fits, or nothing is queued) and counted when its job calls the provider, once per
 *   work row however often the job runs. Background refreshes by the built-in grader count nowhere.
 *
 * Counts live in the database (ai_usage_counts) in fixed windows, so they hold across restarts and
 * across several processes on one PostgreSQL; a call counts in every window it falls under in one
 * transaction, refused as a whole (429, naming the limit and when it resets) if one would go over.
 */

export interface SpendScope {
  courseId: string;
  instructorId: string;
  /** The provider the work goes to (services/course-ai.ts): only an external one counts against the quotas. */
  provider: AiProviderConfig;
}

type Period = 'minute' | 'hour' | 'day';

interface LimitWindow extends UsageKey {
  limit: number;
  variable: string;
  title: string;
  resetsAt: Date;
}

const PERIOD_MS: Record<Period, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** Whether AI calls go to a provider model (and so count against the hourly and daily quotas). */
export function usesProvider(scope: Pick<SpendScope, 'provider'>): boolean {
  return scope.provider.provider !== 'builtin';
}

export function now(ctx: AppContext): Date {
  return ctx.clock ? ctx.clock() : new Date();
}

/** The course and instructor of a question scope the policy loaded, and the provider its work goes to. */
export function spendScopeOf(
  scope: { course: { id: string; instructorId: string } },
  provider: AiProviderConfig,
): SpendScope {
  return { courseId: scope.course.id, instructorId: scope.course.instructorId, provider };
}

/**
 * Counts one interactive AI call started by this user, for every grader. 429 when the user's
 * per-minute limit is reached (the call is then not counted).
 */
export async function countInteractiveCall(ctx: AppContext, userId: string): Promise<void> {
  const at = now(ctx);
  await ctx.db.transaction(async (tx) => {
    await incrementWithinLimits(tx, [userWindow(ctx.config, userId, at)], 1, [userId], at);
  });
}

/**
 * Before queueing work that will call the provider `calls` times: 429 when a quota of the course
 * or its instructor has fewer calls left. Counts nothing (the jobs count when they call).
 */
export async function checkProviderQuota(ctx: AppContext, scope: SpendScope, calls: number): Promise<void> {
  if (!usesProvider(scope) || calls <= 0) return;
  const at = now(ctx);
  const windows = providerWindows(ctx.config, scope, at);
  const used = await selectUsageCounts(ctx.db, windows);
  windows.forEach((window, index) => {
    if (used[index]! + calls > window.limit) throw refusal(window, used[index]!, calls, at);
  });
}

/**
 * Counts `calls` provider calls against every quota of the course and its instructor, all or none
 * (429 when one would go over). With `workId` (a grading run or rubric generation), a work row is
 * counted once: a job run again after a crash or a retry does not count again.
 */
export async function chargeProviderCalls(
  ctx: AppContext,
  scope: SpendScope,
  calls: number,
  workId?: string,
): Promise<void> {
  if (!usesProvider(scope) || calls <= 0) return;
  const at = now(ctx);
  await ctx.db.transaction(async (tx) => {
    if (workId !== undefined && !(await insertAiCharge(tx, workId, scope.courseId))) return;
    await incrementWithinLimits(
      tx,
      providerWindows(ctx.config, scope, at),
      calls,
      [scope.courseId, scope.instructorId],
      at,
    );
  });
}

/**
 * A job about to call the provider for its work row (a grading run, a rubric draft): counts that
 * one call against the quotas of the question's course, once per row. A refusal (429) fails the
 * row for good with the quota's sentence, before anything is sent.
 */
export async function chargeProviderCallOfWork(
  ctx: AppContext,
  questionId: string,
  workId: string,
  provider: AiProviderConfig,
): Promise<void> {
  const scope = await selectSpendScopeOfQuestion(ctx.db, questionId);
  if (!scope) throw notFound('This question no longer exists.');
  await chargeProviderCalls(ctx, { ...scope, provider }, 1, workId);
}

/** GET ai-quota: what this instructor may still start on this question's course, per limit. */
export async function readAiQuota(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
): Promise<AiQuotaOutput> {
  const scope = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'see its AI quota',
  );
  const at = now(ctx);
  const perUser = userWindow(ctx.config, user.id, at);
  const [userUsed] = await selectUsageCounts(ctx.db, [perUser]);
  const provider = chosenProvider(ctx.config, scope.course);
  if (!usesProvider({ provider })) {
    return { provider: 'builtin', perMinute: usage(perUser, userUsed!), providerQuotas: null, providerCallsLeft: null };
  }
  const windows = providerWindows(ctx.config, spendScopeOf(scope, provider), at);
  const used = await selectUsageCounts(ctx.db, windows);
  const [courseHour, courseDay, instructorHour, instructorDay] = windows.map((window, index) =>
    usage(window, used[index]!),
  ) as [AiLimitUsage, AiLimitUsage, AiLimitUsage, AiLimitUsage];
  return {
    provider: 'external',
    perMinute: usage(perUser, userUsed!),
    providerQuotas: { courseHour, courseDay, instructorHour, instructorDay },
    providerCallsLeft: Math.min(
      courseHour.remaining,
      courseDay.remaining,
      instructorHour.remaining,
      instructorDay.remaining,
    ),
  };
}

// ---------------------------------------------------------------------------------------------

/**
 * Counts `calls` in every window, in the caller's transaction (a refusal rolls all of them back).
 * When a window opens (its counter is new: counts only grow, so a count equal to `calls` was
 * created by this call), the subjects' counters of windows that ended before today are dropped:
 * they can never be read again. No window opens without its counter row, and the first call of
 * a day opens the day's, so nothing is kept longer than when this ran on every call.
 */
async function incrementWithinLimits(
  db: Db,
  windows: readonly LimitWindow[],
  calls: number,
  subjectIds: readonly string[],
  at: Date,
): Promise<void> {
  const counts = await incrementUsageCounts(db, windows, calls);
  windows.forEach((window, index) => {
    // Thrown inside the caller's transaction: every increment of this call is rolled back.
    if (counts[index]! > window.limit) throw refusal(window, counts[index]! - calls, calls, at);
  });
  if (counts.some((count) => count === calls)) await deleteUsageCountsBefore(db, subjectIds, startOf('day', at));
}

function userWindow(config: Config, userId: string, at: Date): LimitWindow {
  const limit = config.aiSpend.userCallsPerMinute;
  return window('user-minute', userId, 'minute', at, {
    limit,
    variable: 'AI_USER_CALLS_PER_MINUTE',
    title: `Your limit of ${limit} AI calls (grade, regrade, rubric drafts and trials) per minute`,
  });
}

/** In a fixed order (course before instructor, hour before day): increments lock rows in this order. */
function providerWindows(config: Config, scope: SpendScope, at: Date): LimitWindow[] {
  const limits = config.aiSpend;
  return [
    window('course-hour', scope.courseId, 'hour', at, {
      limit: limits.courseCallsPerHour,
      variable: 'AI_COURSE_CALLS_PER_HOUR',
      title: `This course's quota of ${limits.courseCallsPerHour} AI provider calls per hour`,
    }),
    window('course-day', scope.courseId, 'day', at, {
      limit: limits.courseCallsPerDay,
      variable: 'AI_COURSE_CALLS_PER_DAY',
      title: `This course's quota of ${limits.courseCallsPerDay} AI provider calls per day`,
    }),
    window('instructor-hour', scope.instructorId, 'hour', at, {
      limit: limits.instructorCallsPerHour,
      variable: 'AI_INSTRUCTOR_CALLS_PER_HOUR',
      title: `The instructor's quota of ${limits.instructorCallsPerHour} AI provider calls per hour (all their courses)`,
    }),
    window('instructor-day', scope.instructorId, 'day', at, {
      limit: limits.instructorCallsPerDay,
      variable: 'AI_INSTRUCTOR_CALLS_PER_DAY',
      title: `The instructor's quota of ${limits.instructorCallsPerDay} AI provider calls per day (all their courses)`,
    }),
  ];
}

function window(
  limitName: string,
  subjectId: string,
  period: Period,
  at: Date,
  described: { limit: number; variable: string; title: string },
): LimitWindow {
  const windowStart = startOf(period, at);
  return {
    limitName,
    subjectId,
    windowStart,
    resetsAt: new Date(windowStart.getTime() + PERIOD_MS[period]),
    ...described,
  };
}

/** Minutes, clock hours and days in UTC: the same windows in every process and time zone. */
function startOf(period: Period, at: Date): Date {
  return new Date(Math.floor(at.getTime() / PERIOD_MS[period]) * PERIOD_MS[period]);
}

function usage(window: LimitWindow, used: number): AiLimitUsage {
  return {
    limit: window.limit,
    used,
    remaining: Math.max(0, window.limit - used),
    resetsAt: window.resetsAt.toISOString(),
    variable: window.variable,
  };
}

/** 429 naming the quota and when it resets, which is also its Retry-After. */
function refusal(window: LimitWindow, used: number, calls: number, at: Date): AppError {
  const left = Math.max(0, window.limit - used);
  const needs = calls > 1 ? `, and this needs ${calls}` : '';
  return rateLimited(
    `${window.title} (${window.variable}) is reached: ${used} used, ${left} left${needs}. Nothing was sent. It resets at ${describeMoment(window.resetsAt)}.`,
    (window.resetsAt.getTime() - at.getTime()) / 1000,
  );
}
