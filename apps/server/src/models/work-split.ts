import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { assignments, questionGraders, questions, studentGraders } from '../db/schema.ts';

/** The questions of a course with their assignment, assignments in creation order, questions in order. */
export async function selectQuestionsOfCourse(
  db: Db,
  courseId: string,
): Promise<{ id: string; title: string | null; assignmentId: string; assignmentTitle: string }[]> {
  return db
    .select({
      id: questions.id,
      title: questions.title,
      assignmentId: assignments.id,
      assignmentTitle: assignments.title,
    })
    .from(questions)
    .innerJoin(assignments, eq(assignments.id, questions.assignmentId))
    .where(eq(assignments.courseId, courseId))
    .orderBy(asc(assignments.createdAt), asc(assignments.id), asc(questions.createdAt), asc(questions.id));
}

/** The graders of each question of the course that has any. */
export async function selectQuestionGradersOfCourse(db: Db, courseId: string): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ questionId: questionGraders.questionId, graderId: questionGraders.graderId })
    .from(questionGraders)
    .innerJoin(questions, eq(questions.id, questionGraders.questionId))
    .innerJoin(assignments, eq(assignments.id, questions.assignmentId))
    .where(eq(assignments.courseId, courseId));
  const byQuestion = new Map<string, string[]>();
  for (const row of rows) byQuestion.set(row.questionId, [...(byQuestion.get(row.questionId) ?? []), row.graderId]);
  return byQuestion;
}

// Read by every staff question page, like the students' graders below: prepared (db/prepared.ts, issue 11).
const graderIdsOfQuestion = preparedPerDb((db) =>
  db
    .select({ graderId: questionGraders.graderId })
    .from(questionGraders)
    .where(eq(questionGraders.questionId, sql.placeholder('questionId')))
    .prepare('grader_ids_of_question'),
);
const studentGradersOfCourse = preparedPerDb((db) =>
  db
    .select({ studentId: studentGraders.studentId, graderId: studentGraders.graderId })
    .from(studentGraders)
    .where(eq(studentGraders.courseId, sql.placeholder('courseId')))
    .prepare('student_graders_of_course'),
);

export async function selectGraderIdsOfQuestion(db: Db, questionId: string): Promise<string[]> {
  const rows = await graderIdsOfQuestion(db).execute({ questionId });
  return rows.map((row) => row.graderId);
}

/** Replaces the graders of a question (none: the question has no graders of its own). */
export async function replaceQuestionGraders(db: Db, questionId: string, graderIds: readonly string[]): Promise<void> {
  await db.delete(questionGraders).where(eq(questionGraders.questionId, questionId));
  if (graderIds.length > 0)
    await db.insert(questionGraders).values(graderIds.map((graderId) => ({ questionId, graderId })));
}

/** Each student of the course who has a grader: student id → grader id. */
export async function selectStudentGradersOfCourse(db: Db, courseId: string): Promise<Map<string, string>> {
  const rows = await studentGradersOfCourse(db).execute({ courseId });
  return new Map(rows.map((row) => [row.studentId, row.graderId]));
}

/** Sets (or, with null, removes) the grader of each listed student of the course. */
export async function writeStudentGraders(
  db: Db,
  courseId: string,
  changes: readonly { studentId: string; graderId: string | null }[],
): Promise<void> {
  const cleared = changes.filter((change) => change.graderId === null).map((change) => change.studentId);
  const assigned = changes.flatMap((change) =>
    change.graderId === null ? [] : [{ courseId, studentId: change.studentId, graderId: change.graderId }],
  );
  if (cleared.length > 0)
    await db
      .delete(studentGraders)
      .where(and(eq(studentGraders.courseId, courseId), inArray(studentGraders.studentId, cleared)));
  if (assigned.length > 0)
    await db
      .insert(studentGraders)
      .values(assigned)
      .onConflictDoUpdate({
        target: [studentGraders.courseId, studentGraders.studentId],
        set: { graderId: sql`excluded.grader_id` },
      });
}

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
