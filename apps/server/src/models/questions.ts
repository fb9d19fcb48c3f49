import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { assignments, courses, questions } from '../db/schema.ts';
import type { AssignmentRow } from './assignments.ts';
import type { CourseRow } from './courses.ts';

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

// Read by every request under a question's path (policies/course-access.ts): prepared (db/prepared.ts).
const questionWithScope = preparedPerDb((db) =>
  db
    .select({ question: questions, assignment: assignments, course: courses })
    .from(questions)
    .innerJoin(assignments, eq(assignments.id, questions.assignmentId))
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .where(
      and(eq(questions.id, sql.placeholder('questionId')), eq(questions.assignmentId, sql.placeholder('assignmentId'))),
    )
    .prepare('question_with_scope'),
);

/**
 * The question with its assignment and course, in one read; undefined when the question is not
 * under that assignment (or does not exist).
 */
export async function selectQuestionWithScope(
  db: Db,
  assignmentId: string,
  questionId: string,
): Promise<{ question: QuestionRow; assignment: AssignmentRow; course: CourseRow } | undefined> {
  const [row] = await questionWithScope(db).execute({ assignmentId, questionId });
  return row;
}

/** Whether the question's comments may state the expected answer (decision 0088). */
export async function updateQuestionShowExpectedAnswer(
  db: Db,
  id: string,
  showExpectedAnswer: boolean,
): Promise<QuestionRow> {
  const [row] = await db.update(questions).set({ showExpectedAnswer }).where(eq(questions.id, id)).returning();
  return row!;
}
