import { and, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { aiCosts, assignments, courses, gradingBatches, gradingRuns, questions, submissions } from '../db/schema.ts';

/** The course fields the AI rules read (services/course-ai.ts), with the course's ids. */
export interface AiCourseFields {
  courseId: string;
  instructorId: string;
  aiProviderId: string | null;
  aiServerOnly: boolean;
  aiMonthlyBudgetMicros: number | null;
  aiConfirmAboveMicros: number | null;
}

const courseAiColumns = {
  courseId: courses.id,
  instructorId: courses.instructorId,
  aiProviderId: courses.aiProviderId,
  aiServerOnly: courses.aiServerOnly,
  aiMonthlyBudgetMicros: courses.aiMonthlyBudgetMicros,
  aiConfirmAboveMicros: courses.aiConfirmAboveMicros,
};

/** The AI fields of a question's course, with the assignment: what a job needs to choose and price its provider. */
export async function selectAiCourseOfQuestion(
  db: Db,
  questionId: string,
): Promise<(AiCourseFields & { assignmentId: string; questionId: string }) | undefined> {
  const [row] = await db
    .select({ ...courseAiColumns, assignmentId: assignments.id, questionId: questions.id })
    .from(questions)
    .innerJoin(assignments, eq(assignments.id, questions.assignmentId))
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .where(eq(questions.id, questionId))
    .limit(1);
  return row;
}

export async function updateCourseAi(
  db: Db,
  courseId: string,
  change: Partial<
    Pick<
      typeof courses.$inferInsert,
      'aiProviderId' | 'aiServerOnly' | 'aiMonthlyBudgetMicros' | 'aiConfirmAboveMicros'
    >
  >,
): Promise<void> {
  if (Object.keys(change).length === 0) return;
  await db.update(courses).set(change).where(eq(courses.id, courseId));
}

export type NewAiCostRow = typeof aiCosts.$inferInsert;

/** Records what one work row's provider call cost; a second record of the same work is ignored (a retried job). */
export async function insertAiCost(db: Db, row: NewAiCostRow): Promise<void> {
  await db.insert(aiCosts).values(row).onConflictDoNothing();
}

export interface SpendTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
}

const totals = {
  calls: sql<number>`count(*)::int`,
  inputTokens: sql<number>`coalesce(sum(${aiCosts.inputTokens}), 0)::bigint`,
  outputTokens: sql<number>`coalesce(sum(${aiCosts.outputTokens}), 0)::bigint`,
  costMicros: sql<number>`coalesce(sum(${aiCosts.costMicros}), 0)::bigint`,
};

function asTotals(
  row: { calls: unknown; inputTokens: unknown; outputTokens: unknown; costMicros: unknown } | undefined,
) {
  return {
    calls: Number(row?.calls ?? 0),
    inputTokens: Number(row?.inputTokens ?? 0),
    outputTokens: Number(row?.outputTokens ?? 0),
    costMicros: Number(row?.costMicros ?? 0),
  };
}

/** What was spent by a course, an instructor or a batch, since a moment (all time without one). */
export async function sumAiCosts(
  db: Db,
  of: { courseId: string } | { instructorId: string } | { batchId: string },
  since?: Date,
): Promise<SpendTotals> {
  const conditions: SQL[] = [
    'courseId' in of
      ? eq(aiCosts.courseId, of.courseId)
      : 'instructorId' in of
        ? eq(aiCosts.instructorId, of.instructorId)
        : eq(aiCosts.batchId, of.batchId),
  ];
  if (since) conditions.push(gte(aiCosts.recordedAt, since));
  const [row] = await db
    .select(totals)
    .from(aiCosts)
    .where(and(...conditions));
  return asTotals(row);
}

/** A course's spend per assignment (assignments without spend are left out). */
export async function sumAiCostsPerAssignment(
  db: Db,
  courseId: string,
): Promise<(SpendTotals & { assignmentId: string; title: string })[]> {
  const rows = await db
    .select({ assignmentId: assignments.id, title: assignments.title, ...totals })
    .from(aiCosts)
    .innerJoin(assignments, eq(assignments.id, aiCosts.assignmentId))
    .where(eq(aiCosts.courseId, courseId))
    .groupBy(assignments.id, assignments.title)
    .orderBy(assignments.title);
  return rows.map((row) => ({ assignmentId: row.assignmentId, title: row.title, ...asTotals(row) }));
}

/** The cost of each of these runs (absent: no provider call recorded). */
export async function selectCostsOfWork(db: Db, workIds: readonly string[]): Promise<Map<string, number>> {
  if (workIds.length === 0) return new Map();
  const rows = await db
    .select({ workId: aiCosts.workId, costMicros: aiCosts.costMicros })
    .from(aiCosts)
    .where(inArray(aiCosts.workId, [...workIds]));
  return new Map(rows.map((row) => [row.workId, Number(row.costMicros)]));
}

/** Stop: the batch's queued runs are cancelled (failed, CANCELLED); runs already calling finish. */
export async function cancelQueuedBatchRuns(
  db: Db,
  batchId: string,
  stoppedById: string,
  at: Date,
): Promise<{ cancelled: number; stillRunning: number }> {
  return db.transaction(async (tx) => {
    await tx
      .update(gradingBatches)
      .set({ stoppedAt: at, stoppedById })
      .where(and(eq(gradingBatches.id, batchId), sql`${gradingBatches.stoppedAt} is null`));
    const cancelled = await tx
      .update(gradingRuns)
      .set({
        status: 'failed',
        error: 'Stopped before it started: nothing was sent for this answer.',
        errorCode: 'CANCELLED',
        finishedAt: at,
      })
      .where(and(eq(gradingRuns.batchId, batchId), eq(gradingRuns.status, 'queued')))
      .returning({ id: gradingRuns.id });
    const [running] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(gradingRuns)
      .where(and(eq(gradingRuns.batchId, batchId), eq(gradingRuns.status, 'running')));
    return { cancelled: cancelled.length, stillRunning: Number(running?.count ?? 0) };
  });
}

/** Runs of a batch cancelled by Stop. */
export async function countCancelledBatchRuns(db: Db, batchId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(gradingRuns)
    .where(and(eq(gradingRuns.batchId, batchId), eq(gradingRuns.errorCode, 'CANCELLED')));
  return Number(row?.count ?? 0);
}

/**
 * What this provider's grading answers measured per rubric item, over its latest 200 recorded
 * grading calls (any course: only token counts), after `perAnswer` tokens of each answer's frame;
 * null before it has answered once.
 */
export async function selectMeanOutputTokensPerItem(
  db: Db,
  providerId: string,
  perAnswer: number,
): Promise<number | null> {
  const recent = db
    .select({ outputTokens: aiCosts.outputTokens, rubricItems: aiCosts.rubricItems })
    .from(aiCosts)
    .where(and(eq(aiCosts.providerId, providerId), eq(aiCosts.kind, 'grading'), sql`${aiCosts.rubricItems} > 0`))
    .orderBy(sql`${aiCosts.recordedAt} desc`)
    .limit(200)
    .as('recent');
  const [row] = await db
    .select({
      mean: sql<number | null>`avg(greatest(${recent.outputTokens} - ${perAnswer}, 0)::float8 / ${recent.rubricItems})`,
    })
    .from(recent);
  return row?.mean === null || row?.mean === undefined ? null : Number(row.mean);
}

/** Submissions of a question by id, in one read. */
export async function selectQuestionSubmissionsByIds(db: Db, questionId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(submissions)
    .where(and(eq(submissions.questionId, questionId), inArray(submissions.id, [...ids])));
}

/** Every grading run of a submission, newest first, with its recorded cost (null: none recorded). */
export async function selectRunCostsOfSubmission(db: Db, submissionId: string) {
  const rows = await db
    .select({
      runId: gradingRuns.id,
      status: gradingRuns.status,
      providerId: gradingRuns.providerId,
      provider: gradingRuns.provider,
      model: gradingRuns.model,
      inputTokens: gradingRuns.inputTokens,
      outputTokens: gradingRuns.outputTokens,
      costMicros: aiCosts.costMicros,
      batchId: gradingRuns.batchId,
      error: gradingRuns.error,
      createdAt: gradingRuns.createdAt,
      finishedAt: gradingRuns.finishedAt,
    })
    .from(gradingRuns)
    .leftJoin(aiCosts, eq(aiCosts.workId, gradingRuns.id))
    .where(eq(gradingRuns.submissionId, submissionId))
    .orderBy(sql`${gradingRuns.createdAt} desc`, sql`${gradingRuns.id} desc`);
  return rows.map((row) => ({ ...row, costMicros: row.costMicros === null ? null : Number(row.costMicros) }));
}

/** Whether Stop was pressed on this batch. */
export async function isBatchStopped(db: Db, batchId: string): Promise<boolean> {
  const [row] = await db
    .select({ stoppedAt: gradingBatches.stoppedAt })
    .from(gradingBatches)
    .where(eq(gradingBatches.id, batchId))
    .limit(1);
  return Boolean(row?.stoppedAt);
}
