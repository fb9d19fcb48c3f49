import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { rubrics } from '../db/schema.ts';

export type RubricRow = typeof rubrics.$inferSelect;
/** Items are always written (the column default is for old rows). */
export type NewRubricRow = typeof rubrics.$inferInsert & Required<Pick<typeof rubrics.$inferInsert, 'items'>>;

// Read by every question page and grading screen: prepared (db/prepared.ts, issue 11).
const rubricByQuestionId = preparedPerDb((db) =>
  db
    .select()
    .from(rubrics)
    .where(eq(rubrics.questionId, sql.placeholder('questionId')))
    .limit(1)
    .prepare('rubric_by_question_id'),
);

export async function selectRubricByQuestionId(db: Db, questionId: string): Promise<RubricRow | undefined> {
  const [row] = await rubricByQuestionId(db).execute({ questionId });
  return row;
}

/** The rubric, row-locked until the transaction ends (a save checks its version, then writes). */
export async function selectRubricForUpdate(db: Db, questionId: string): Promise<RubricRow | undefined> {
  const [row] = await db.select().from(rubrics).where(eq(rubrics.questionId, questionId)).limit(1).for('update');
  return row;
}

/**
 * One current rubric per question: an AI draft or an instructor's save replaces the previous one,
 * and every write bumps `version` (in the statement itself, so concurrent writers never share one).
 */
export async function upsertRubric(db: Db, rubric: NewRubricRow): Promise<RubricRow> {
  const { questionId: _questionId, version: _version, ...changes } = rubric;
  const [row] = await db
    .insert(rubrics)
    .values(rubric)
    .onConflictDoUpdate({
      target: rubrics.questionId,
      set: { ...changes, updatedAt: new Date(), version: sql`${rubrics.version} + 1` },
    })
    .returning();
  return row!;
}
