import {
  fromMicros,
  toMicros,
  type CourseAiReader,
  type CourseAiSettings,
  type CourseAiSettingsInput,
  type AssignmentAiSpend,
  type CourseAiSpend,
  type SubmissionAiRuns,
} from '@gradewise/shared/contracts/ai-cost';
import type { AppContext } from '../context.ts';
import { AppError, badRequest, notFound } from '../lib/errors.ts';
import { isId } from '../lib/ids.ts';
import { selectRunCostsOfSubmission, sumAiCosts, sumAiCostsPerAssignment, updateCourseAi } from '../models/ai-costs.ts';
import { selectSubmissionInQuestion } from '../models/submissions.ts';
import type { CourseRow } from '../models/courses.ts';
import type { UserRow } from '../models/users.ts';
import {
  loadVisibleAssignment,
  loadVisibleCourse,
  loadVisibleQuestion,
  mayManage,
  requireGrader,
  requireOwner,
} from '../policies/course-access.ts';
import { confirmAboveMicros, readBudgetLeft, startOfMonth } from './ai-budget.ts';
import { now } from './ai-spend.ts';
import { chosenProvider, findProvider, locationOf, providerChoices } from './course-ai.ts';
import { courseMoneyOf, presentSpend } from './grade-all.ts';

/** GET /api/courses/:id/ai-settings: the course's provider, its rules and its month (course staff). */
export async function readCourseAiSettings(
  ctx: AppContext,
  user: UserRow,
  courseId: string,
): Promise<CourseAiSettings> {
  const scope = requireGrader(await loadVisibleCourse(ctx.db, user, courseId), "see the course's AI settings");
  return presentSettings(ctx, scope.course, mayManage(scope.role));
}

/**
 * PATCH /api/courses/:id/ai-settings (the owner): the provider, "on this server only", the monthly
 * budget and the confirmation amount. A provider that is not configured, or an external one for a
 * course held to this server, is refused with the field named; nothing is changed then. A run in
 * flight finishes on the provider it started with.
 */
export async function updateCourseAiSettings(
  ctx: AppContext,
  user: UserRow,
  courseId: string,
  input: CourseAiSettingsInput,
): Promise<CourseAiSettings> {
  const scope = requireOwner(await loadVisibleCourse(ctx.db, user, courseId), "change the course's AI settings");
  const { course } = scope;
  const providerId = input.providerId ?? course.aiProviderId;
  const provider = providerId === null ? ctx.config.ai : findProvider(ctx.config, providerId);
  if (!provider) {
    throw badRequest(`providerId: "${providerId}" is not a provider of this server.`, [
      {
        path: 'providerId',
        message: `must be one of ${ctx.config.aiProviders.map((known) => known.id).join(', ')}`,
      },
    ]);
  }
  const serverOnly = input.serverOnly ?? course.aiServerOnly;
  if (serverOnly && !provider.onServer) {
    throw new AppError(
      'AI_PROVIDER_NOT_ALLOWED',
      `providerId: "${provider.label}" sends answers to an external service, and this course would be held to AI on this server only. Pick a provider on this server, or turn "on this server only" off.`,
      [{ path: 'providerId', message: 'must be a provider on this server while serverOnly is true' }],
    );
  }
  await updateCourseAi(ctx.db, course.id, {
    ...(input.providerId !== undefined ? { aiProviderId: input.providerId } : {}),
    ...(input.serverOnly !== undefined ? { aiServerOnly: input.serverOnly } : {}),
    ...(input.monthlyBudget !== undefined
      ? { aiMonthlyBudgetMicros: input.monthlyBudget === null ? null : toMicros(input.monthlyBudget) }
      : {}),
    ...(input.confirmAbove !== undefined ? { aiConfirmAboveMicros: toMicros(input.confirmAbove) } : {}),
  });
  const updated: CourseRow = {
    ...course,
    aiProviderId: input.providerId ?? course.aiProviderId,
    aiServerOnly: serverOnly,
    aiMonthlyBudgetMicros:
      input.monthlyBudget === undefined
        ? course.aiMonthlyBudgetMicros
        : input.monthlyBudget === null
          ? null
          : toMicros(input.monthlyBudget),
    aiConfirmAboveMicros: input.confirmAbove === undefined ? course.aiConfirmAboveMicros : toMicros(input.confirmAbove),
  };
  return presentSettings(ctx, updated, true);
}

async function presentSettings(ctx: AppContext, course: CourseRow, canEdit: boolean): Promise<CourseAiSettings> {
  const money = courseMoneyOf({ course });
  const left = await readBudgetLeft(ctx, money);
  // A provider no longer configured shows as the id it names; the course then refuses AI calls until a pick.
  let providerId = course.aiProviderId ?? ctx.config.ai.id;
  try {
    providerId = chosenProvider(ctx.config, course).id;
  } catch {
    // Kept as stored: the settings screen shows it is gone.
  }
  return {
    currency: ctx.config.aiCurrency,
    providers: providerChoices(ctx.config),
    providerId,
    providerChosen: course.aiProviderId !== null,
    serverOnly: course.aiServerOnly,
    monthlyBudget: course.aiMonthlyBudgetMicros === null ? null : fromMicros(course.aiMonthlyBudgetMicros),
    confirmAbove: fromMicros(confirmAboveMicros(money)),
    spentThisMonth: fromMicros(left.spentThisMonthMicros),
    courseBudgetLeft: left.courseLeftMicros === null ? null : fromMicros(left.courseLeftMicros),
    instructorBudgetLeft: left.instructorLeftMicros === null ? null : fromMicros(left.instructorLeftMicros),
    canEdit,
  };
}

/** GET /api/courses/:id/ai-reader: for everyone in the course, who reads the answers and that names are not sent. */
export async function readCourseAiReader(ctx: AppContext, user: UserRow, courseId: string): Promise<CourseAiReader> {
  const { course } = await loadVisibleCourse(ctx.db, user, courseId);
  let location: CourseAiReader['location'];
  try {
    location = locationOf(chosenProvider(ctx.config, course));
  } catch {
    // A provider no longer configured: no call is made until the owner picks one, so none leaves the server.
    location = 'on-server';
  }
  return { location: course.aiServerOnly ? 'on-server' : location, namesSent: false };
}

/** GET /api/courses/:id/ai-spend: what the course spent on AI, all time, this month and per assignment (staff). */
export async function readCourseAiSpend(ctx: AppContext, user: UserRow, courseId: string): Promise<CourseAiSpend> {
  const { course } = requireGrader(await loadVisibleCourse(ctx.db, user, courseId), "see the course's AI spend");
  return spendOfCourse(ctx, course);
}

/** GET /api/assignments/:id/ai-spend: the same, from an assignment (its statistics page) (staff). */
export async function readAssignmentAiSpend(
  ctx: AppContext,
  user: UserRow,
  assignmentId: string,
): Promise<AssignmentAiSpend> {
  const { course, assignment } = requireGrader(
    await loadVisibleAssignment(ctx.db, user, assignmentId),
    "see the course's AI spend",
  );
  return { ...(await spendOfCourse(ctx, course)), courseId: course.id, assignmentId: assignment.id };
}

async function spendOfCourse(ctx: AppContext, course: CourseRow): Promise<CourseAiSpend> {
  const [total, thisMonth, perAssignment] = await Promise.all([
    sumAiCosts(ctx.db, { courseId: course.id }),
    sumAiCosts(ctx.db, { courseId: course.id }, startOfMonth(now(ctx))),
    sumAiCostsPerAssignment(ctx.db, course.id),
  ]);
  return {
    currency: ctx.config.aiCurrency,
    total: presentSpend(total),
    thisMonth: presentSpend(thisMonth),
    assignments: perAssignment.map((row) => ({
      assignmentId: row.assignmentId,
      title: row.title,
      total: presentSpend(row),
    })),
    monthlyBudget: course.aiMonthlyBudgetMicros === null ? null : fromMicros(course.aiMonthlyBudgetMicros),
  };
}

/** GET .../submissions/:submissionId/ai-runs: each AI run of the answer with its tokens and cost (staff). */
export async function readSubmissionAiRuns(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string; submissionId: string },
): Promise<SubmissionAiRuns> {
  const { question } = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'see what grading its answers cost',
  );
  const submission = isId(params.submissionId)
    ? await selectSubmissionInQuestion(ctx.db, question.id, params.submissionId)
    : undefined;
  if (!submission) throw notFound('Submission not found.');
  const rows = await selectRunCostsOfSubmission(ctx.db, submission.id);
  const priced = rows.filter((row) => row.costMicros !== null);
  return {
    currency: ctx.config.aiCurrency,
    runs: rows.map((row) => ({
      runId: row.runId,
      status: row.status,
      providerId: row.providerId,
      provider: row.provider,
      model: row.model,
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      cost: row.costMicros === null ? null : fromMicros(row.costMicros),
      batchId: row.batchId,
      error: row.error,
      createdAt: row.createdAt.toISOString(),
      finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
    })),
    total: presentSpend({
      calls: priced.length,
      inputTokens: priced.reduce((sum, row) => sum + (row.inputTokens ?? 0), 0),
      outputTokens: priced.reduce((sum, row) => sum + (row.outputTokens ?? 0), 0),
      costMicros: priced.reduce((sum, row) => sum + (row.costMicros ?? 0), 0),
    }),
  };
}
