import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { assignments, questionGraders, questions, studentGraders } from '../db/schema.ts';

/** Every work-split row of one grader in one course: their questions and their students. */
export async function deleteWorkOfGraderInCourse(db: Db, courseId: string, graderId: string): Promise<void> {
  const courseQuestions = db
    .select({ id: questions.id })
    .from(questions)
    .innerJoin(assignments, eq(assignments.id, questions.assignmentId))
    .where(eq(assignments.courseId, courseId));
  await db
    .delete(questionGraders)
    .where(and(eq(questionGraders.graderId, graderId), inArray(questionGraders.questionId, courseQuestions)));
  await db
    .delete(studentGraders)
    .where(and(eq(studentGraders.courseId, courseId), eq(studentGraders.graderId, graderId)));
}

/** Every work-split row of a grader anywhere (their account is being deleted). */
export async function deleteWorkOfGrader(db: Db, graderId: string): Promise<void> {
  await db.delete(questionGraders).where(eq(questionGraders.graderId, graderId));
  await db.delete(studentGraders).where(eq(studentGraders.graderId, graderId));
}
