import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { assignments, questionGraders, questions, studentGraders } from '../db/schema.ts';
import { activeLeasesJson, leasesFromJson, type ActiveLease } from './grading-leases.ts';

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

const studentGradersOfCourse = preparedPerDb((db) =>
  db
    .select({ studentId: studentGraders.studentId, graderId: studentGraders.graderId })
    .from(studentGraders)
    .where(eq(studentGraders.courseId, sql.placeholder('courseId')))
    .prepare('student_graders_of_course'),
);

/** [student id, grader id]. */
type StudentGraderPair = [string, string];

// Read by every staff question page and review queue: prepared (db/prepared.ts, issue 11). The
// question's graders, the course's students' graders and the shown answers' leases, each one JSON
// value, in one statement (one row: the question's, by its key): on PGlite every statement is a
// round trip into its WebAssembly before it reads a row, and one value is parsed once.
const gradingWorkOfQuestion = preparedPerDb((db) =>
  db
    .select({
      questionGraderIds: sql<string[]>`(select coalesce(json_agg(${questionGraders.graderId}), '[]'::json)
        from ${questionGraders} where ${eq(questionGraders.questionId, questions.id)})`,
      studentGraders: sql<StudentGraderPair[]>`(select coalesce(json_agg(json_build_array(
          ${studentGraders.studentId}, ${studentGraders.graderId})), '[]'::json)
        from ${studentGraders} where ${eq(studentGraders.courseId, sql.placeholder('courseId'))})`,
      leases: activeLeasesJson(),
    })
    .from(questions)
    .where(eq(questions.id, sql.placeholder('questionId')))
    .prepare('grading_work_of_question'),
);

/**
 * What says whose an answer to the question is and who has it open (services/work-split.ts): the
 * question's own graders, each student of the course who has a grader (student id → grader id),
 * and the leases of these submissions that have not lapsed at `now`. Nothing when the question is
 * gone.
 */
export async function selectGradingWorkOfQuestion(
  db: Db,
  params: { questionId: string; courseId: string; submissionIds: readonly string[]; now: Date },
): Promise<{ questionGraderIds: string[]; studentGraders: Map<string, string>; leases: Map<string, ActiveLease> }> {
  const [row] = await gradingWorkOfQuestion(db).execute({
    questionId: params.questionId,
    courseId: params.courseId,
    submissionIds: [...params.submissionIds],
    now: params.now,
  });
  return {
    questionGraderIds: row?.questionGraderIds ?? [],
    studentGraders: new Map(row?.studentGraders ?? []),
    leases: leasesFromJson(row?.leases ?? []),
  };
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
