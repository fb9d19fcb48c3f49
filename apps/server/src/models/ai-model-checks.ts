import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  aiCosts,
  aiModelCheckAnswers,
  aiModelChecks,
  assignments,
  questions,
  rubrics,
  type ModelCheckVerdict,
} from '../db/schema.ts';
import type { QuestionRow } from './questions.ts';
import type { RubricRow } from './rubrics.ts';
import { ACTIVE_STATUSES } from './work-rows.ts';

/**
 * Model checks (issue 31, item 5; decision 0077): the check's row (a work row: queued → running →
 * succeeded or failed, its starts counted) and one row per answer of its sample.
 */

export type ModelCheckRow = typeof aiModelChecks.$inferSelect;
export type ModelCheckAnswerRow = typeof aiModelCheckAnswers.$inferSelect;

/** The check and its sample, in one transaction: a check is never queued without its answers. */
export async function insertModelCheck(
  db: Db,
  check: typeof aiModelChecks.$inferInsert,
  answers: (typeof aiModelCheckAnswers.$inferInsert)[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(aiModelChecks).values(check);
    if (answers.length > 0) await tx.insert(aiModelCheckAnswers).values(answers);
  });
}

const whileUnfinished = (id: string) =>
  and(eq(aiModelChecks.id, id), inArray(aiModelChecks.status, [...ACTIVE_STATUSES]));

/** A try claims the check: running, this start counted. Undefined when it is finished (a late duplicate). */
export async function markModelCheckRunning(db: Db, id: string): Promise<ModelCheckRow | undefined> {
  const [row] = await db
    .update(aiModelChecks)
    .set({ status: 'running', attempts: sql`${aiModelChecks.attempts} + 1` })
    .where(whileUnfinished(id))
    .returning();
  return row;
}

export async function markModelCheckSucceeded(db: Db, id: string, result: unknown, costMicros: number): Promise<void> {
  await db
    .update(aiModelChecks)
    .set({ status: 'succeeded', result, costMicros, error: null, errorCode: null, finishedAt: new Date() })
    .where(whileUnfinished(id));
}

/** Final: failed, with what it spent until then. Not final: the error noted, the row left for its retry. */
export async function recordModelCheckFailure(
  db: Db,
  id: string,
  failure: { code: string; message: string },
  isFinal: boolean,
): Promise<void> {
  await db
    .update(aiModelChecks)
    .set({
      error: failure.message,
      errorCode: failure.code,
      ...(isFinal
        ? {
            status: 'failed' as const,
            finishedAt: new Date(),
            costMicros: sql`(select coalesce(sum(${aiCosts.costMicros}), 0) from ${aiCosts} where ${aiCosts.workId} in (select ${aiModelCheckAnswers.id} from ${aiModelCheckAnswers} where ${aiModelCheckAnswers.checkId} = ${id} union all select ${aiModelCheckAnswers.currentWorkId} from ${aiModelCheckAnswers} where ${aiModelCheckAnswers.checkId} = ${id}))`,
          }
        : {}),
    })
    .where(whileUnfinished(id));
}

export async function selectUnfinishedModelCheckIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: aiModelChecks.id })
    .from(aiModelChecks)
    .where(inArray(aiModelChecks.status, [...ACTIVE_STATUSES]))
    .orderBy(aiModelChecks.createdAt);
  return rows.map((row) => row.id);
}

export async function selectModelCheckAnswers(db: Db, checkId: string): Promise<ModelCheckAnswerRow[]> {
  return db
    .select()
    .from(aiModelCheckAnswers)
    .where(eq(aiModelCheckAnswers.checkId, checkId))
    .orderBy(asc(aiModelCheckAnswers.position));
}

/** One provider's verdict on one answer, kept once (a verdict already written stays). */
export async function storeModelCheckVerdict(
  db: Db,
  answerId: string,
  side: 'candidate' | 'current',
  verdict: ModelCheckVerdict,
): Promise<void> {
  const column = side === 'candidate' ? aiModelCheckAnswers.candidate : aiModelCheckAnswers.current;
  await db
    .update(aiModelCheckAnswers)
    .set(side === 'candidate' ? { candidate: verdict } : { current: verdict })
    .where(and(eq(aiModelCheckAnswers.id, answerId), sql`${column} is null`));
}

/** A course's checks, newest first, with how many answers of each are done and what each spent. */
export async function selectModelChecksOfCourse(
  db: Db,
  courseId: string,
  checkId?: string,
): Promise<(ModelCheckRow & { done: number; spentMicros: number })[]> {
  // Drizzle writes a column of a one-table select without its table, so the outer row is named in full.
  const outerId = sql.raw('"ai_model_checks"."id"');
  const done = sql<number>`(select count(*)::int from ${aiModelCheckAnswers} where ${aiModelCheckAnswers.checkId} = ${outerId} and ${aiModelCheckAnswers.candidate} is not null and ${aiModelCheckAnswers.current} is not null)`;
  const spent = sql<number>`(select coalesce(sum(${aiCosts.costMicros}), 0)::bigint from ${aiCosts} where ${aiCosts.workId} in (select ${aiModelCheckAnswers.id} from ${aiModelCheckAnswers} where ${aiModelCheckAnswers.checkId} = ${outerId} union all select ${aiModelCheckAnswers.currentWorkId} from ${aiModelCheckAnswers} where ${aiModelCheckAnswers.checkId} = ${outerId}))`;
  const rows = await db
    .select({ check: aiModelChecks, done, spent })
    .from(aiModelChecks)
    .where(
      checkId === undefined
        ? eq(aiModelChecks.courseId, courseId)
        : and(eq(aiModelChecks.courseId, courseId), eq(aiModelChecks.id, checkId)),
    )
    .orderBy(desc(aiModelChecks.createdAt), desc(aiModelChecks.id))
    .limit(50);
  return rows.map((row) => ({ ...row.check, done: Number(row.done), spentMicros: Number(row.spent) }));
}

/** The course's questions that have a saved rubric, with it: the only ones a model check can grade on. */
export async function selectCourseQuestionsWithRubric(
  db: Db,
  courseId: string,
): Promise<{ question: QuestionRow; rubric: RubricRow; assignmentTitle: string }[]> {
  return db
    .select({ question: questions, rubric: rubrics, assignmentTitle: assignments.title })
    .from(questions)
    .innerJoin(assignments, eq(assignments.id, questions.assignmentId))
    .innerJoin(rubrics, eq(rubrics.questionId, questions.id))
    .where(eq(assignments.courseId, courseId))
    .orderBy(asc(assignments.title), asc(questions.id));
}
