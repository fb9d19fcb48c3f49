import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { questions } from '../db/schema.ts';

export type QuestionRow = typeof questions.$inferSelect;
export type NewQuestionRow = typeof questions.$inferInsert;

export async function insertQuestion(db: Db, row: NewQuestionRow): Promise<QuestionRow> {
  const [inserted] = await db.insert(questions).values(row).returning();
  return inserted!;
}

/** In creation order: the order the instructor wrote them in. */
export async function selectQuestionsOfAssignment(db: Db, assignmentId: string): Promise<QuestionRow[]> {
  return db
    .select()
    .from(questions)
    .where(eq(questions.assignmentId, assignmentId))
    .orderBy(asc(questions.createdAt), asc(questions.id));
}

/** The question only if it belongs to that assignment: a question id under another assignment's path is not found. */
export async function selectQuestionInAssignment(
  db: Db,
  assignmentId: string,
  questionId: string,
): Promise<QuestionRow | undefined> {
  const [row] = await db
    .select()
    .from(questions)
    .where(and(eq(questions.id, questionId), eq(questions.assignmentId, assignmentId)))
    .limit(1);
  return row;
}

/** Hold or release the grades of one question (decision 0023). */
export async function updateQuestionRelease(
  db: Db,
  id: string,
  release: Pick<NewQuestionRow, 'gradesHeld' | 'gradesReleasedAt'>,
): Promise<QuestionRow> {
  const [row] = await db.update(questions).set(release).where(eq(questions.id, id)).returning();
  return row!;
}
