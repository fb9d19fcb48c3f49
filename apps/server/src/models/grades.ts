import { and, desc, eq, getTableColumns, lte, max, or, sql, type SQL } from 'drizzle-orm';
import { anyOf, anyOfPlaceholder } from './any-of.ts';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { grades, gradingRuns, questions, regradeRequests, submissions } from '../db/schema.ts';
import { toDate } from '../lib/timestamps.ts';
import { RUN_STANDING, RUN_SUMMARY, type RunOf } from './grading-runs.ts';

export type GradeRow = typeof grades.$inferSelect;
export type NewGradeRow = typeof grades.$inferInsert;

/** Grades are never updated: each save is a new row and the newest is current (history kept). */
export async function insertGrade(db: Db, grade: NewGradeRow): Promise<GradeRow> {
  const [row] = await db.insert(grades).values(grade).returning();
  return row!;
}

/**
 * Removes one grade row: only "undo" of a save moments after it (services/undo-grade-save.ts, which
 * checks that nothing was built on the row). Every other change is a new row.
 */
export async function deleteGrade(db: Db, gradeId: string): Promise<void> {
  await db.delete(grades).where(eq(grades.id, gradeId));
}

/**
 * Whether that version of the student's answer holds a saved grade. A new version replaces it as the
 * student's current answer, and a replaced answer's grade stops counting: as an example of its
 * question and in its course's convention (services/submit-answer.ts asks for a refresh then).
 */
export async function isVersionGraded(
  db: Db,
  questionId: string,
  studentId: string,
  version: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: grades.id })
    .from(grades)
    .innerJoin(submissions, eq(submissions.id, grades.submissionId))
    .where(
      and(
        eq(submissions.questionId, questionId),
        eq(submissions.studentId, studentId),
        eq(submissions.version, version),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Whether anything points at this grade: a grade copied from it (Apply to group) or a regrade request. */
export async function isGradeReferenced(db: Db, gradeId: string): Promise<boolean> {
  const [copy] = await db
    .select({ id: grades.id })
    .from(grades)
    .where(or(eq(grades.appliedFromGradeId, gradeId), eq(grades.replacesGradeId, gradeId)))
    .limit(1);
  if (copy) return true;
  const [request] = await db
    .select({ id: regradeRequests.id })
    .from(regradeRequests)
    .where(or(eq(regradeRequests.gradeId, gradeId), eq(regradeRequests.resolvedGradeId, gradeId)))
    .limit(1);
  return Boolean(request);
}

export async function selectCurrentGrade(db: Db, submissionId: string): Promise<GradeRow | undefined> {
  const [row] = await db
    .select()
    .from(grades)
    .where(eq(grades.submissionId, submissionId))
    .orderBy(desc(grades.createdAt), desc(grades.id))
    .limit(1);
  return row;
}

/** Newest saved grade per submission. */
export async function selectCurrentGrades(db: Db, submissionIds: string[]): Promise<Map<string, GradeRow>> {
  if (submissionIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([grades.submissionId])
    .from(grades)
    .where(anyOf(grades.submissionId, submissionIds))
    .orderBy(grades.submissionId, desc(grades.createdAt), desc(grades.id));
  return new Map(rows.map((row) => [row.submissionId, row]));
}

/** Every saved grade of a submission, newest first. */
export async function selectGradeHistory(db: Db, submissionId: string): Promise<GradeRow[]> {
  const rows = await db
    .select()
    .from(grades)
    .where(eq(grades.submissionId, submissionId))
    .orderBy(desc(grades.createdAt), desc(grades.id));
  return rows;
}

/** A saved grade as a row of the staff table shows it (decision 0057): without its comments. */
export type GradeStanding = Omit<GradeRow, 'comments'>;
const { comments: _gradeComments, ...gradeStandingColumns } = getTableColumns(grades);

/**
 * The columns of a grade a question page's read takes, as a value its caller passes (decision
 * 0084): a row of the whole list reads the grade's comments, a row of a page of the staff table
 * does not (decision 0057).
 */
const GRADE_WHOLE = { name: 'grade_whole', columns: getTableColumns(grades) } as const;
const GRADE_STANDING = { name: 'grade_standing', columns: gradeStandingColumns } as const;
type GradeColumns = typeof GRADE_WHOLE | typeof GRADE_STANDING;
type GradeOf<Columns extends GradeColumns> = Columns extends typeof GRADE_WHOLE ? GradeRow : GradeStanding;

/** The grade that counts for a submission, and the version it was saved on. */
export interface CountingGrade<Grade extends GradeStanding = GradeRow> {
  grade: Grade;
  gradedSubmissionId: string;
  gradedVersion: number;
  /** Saved on an earlier version than the submission it counts for. */
  isEarlierVersion: boolean;
}

// Read by every question page: prepared (db/prepared.ts, issue 11).
const countingTarget = alias(submissions, 'target');
function countingGradesQuery<Selection extends { grade: GradeColumns['columns'] }>(db: Db, selection: Selection) {
  return db
    .selectDistinctOn([countingTarget.id], {
      targetId: countingTarget.id,
      targetVersion: countingTarget.version,
      gradedVersion: submissions.version,
      ...selection,
    })
    .from(countingTarget)
    .innerJoin(
      submissions,
      and(
        eq(submissions.questionId, countingTarget.questionId),
        eq(submissions.studentId, countingTarget.studentId),
        lte(submissions.version, countingTarget.version),
      ),
    )
    .innerJoin(grades, eq(grades.submissionId, submissions.id));
}
const countingGrades = preparedPerDb((db) =>
  countingGradesQuery(db, { grade: GRADE_WHOLE.columns })
    .where(anyOfPlaceholder(countingTarget.id, 'submissionIds'))
    .orderBy(countingTarget.id, desc(submissions.version), desc(grades.createdAt), desc(grades.id))
    .prepare('counting_grades'),
);
/**
 * The two column sets a question page reads counting grades with their runs in, as values its
 * caller passes (decision 0084): the whole list's (every column of both) and the staff table's
 * (neither's comments, decision 0057). `name` names the set's statement.
 */
export const COUNTING_GRADE_WHOLE = {
  name: 'counting_grades_with_runs',
  grade: GRADE_WHOLE,
  run: RUN_SUMMARY,
} as const;
export const COUNTING_GRADE_STANDING = {
  name: 'counting_grade_standings_with_runs',
  grade: GRADE_STANDING,
  run: RUN_STANDING,
} as const;
type CountingGradeColumns = typeof COUNTING_GRADE_WHOLE | typeof COUNTING_GRADE_STANDING;

// The question page's rows read each counting grade with the AI run it started from in the same
// statement (the run by its primary key, only for the grades that point at one): one round trip
// fewer than reading the runs by id afterwards (issue 11).
function prepareCountingGradesWithRuns(db: Db, { name, grade, run }: CountingGradeColumns) {
  return countingGradesQuery(db, { grade: grade.columns, gradeRun: run.columns })
    .leftJoin(gradingRuns, eq(gradingRuns.id, grades.gradingRunId))
    .where(anyOfPlaceholder(countingTarget.id, 'submissionIds'))
    .orderBy(countingTarget.id, desc(submissions.version), desc(grades.createdAt), desc(grades.id))
    .prepare(name);
}
const countingGradesWithRuns = {
  [COUNTING_GRADE_WHOLE.name]: preparedPerDb((db) => prepareCountingGradesWithRuns(db, COUNTING_GRADE_WHOLE)),
  [COUNTING_GRADE_STANDING.name]: preparedPerDb((db) => prepareCountingGradesWithRuns(db, COUNTING_GRADE_STANDING)),
};

/**
 * Per given submission, the grade that counts for it: its own newest saved grade, else the newest
 * grade saved on the nearest earlier version of the same student's answer. A saved grade belongs to
 * the version it graded, and a resubmission never turns it into a blank.
 */
export async function selectCountingGrades(db: Db, submissionIds: string[]): Promise<Map<string, CountingGrade>> {
  if (submissionIds.length === 0) return new Map();
  const rows = await countingGrades(db).execute({ submissionIds });
  return new Map(rows.map((row) => [row.targetId, countingGradeOf(row)]));
}

/** A counting grade with the AI run it started from, when it started from one that is still there. */
export interface CountingGradeWithRun<Columns extends CountingGradeColumns> extends CountingGrade<
  GradeOf<Columns['grade']>
> {
  gradeRun: RunOf<Columns['run']> | undefined;
}

/**
 * `selectCountingGrades` with each grade's AI run, as a question page's row shows them, in the
 * given columns: `COUNTING_GRADE_WHOLE` for the whole list, `COUNTING_GRADE_STANDING` for a page of
 * the staff table.
 */
export async function selectCountingGradesWithRuns<Columns extends CountingGradeColumns>(
  db: Db,
  columns: Columns,
  submissionIds: string[],
): Promise<Map<string, CountingGradeWithRun<Columns>>> {
  if (submissionIds.length === 0) return new Map();
  const rows = await countingGradesWithRuns[columns.name](db).execute({ submissionIds });
  // The statement of `columns` selects exactly its grade's and run's columns: the rows are this set's.
  return new Map(
    rows.map((row) => [
      row.targetId,
      {
        ...countingGradeOf(row as typeof row & { grade: GradeOf<Columns['grade']> }),
        gradeRun: (row.gradeRun ?? undefined) as RunOf<Columns['run']> | undefined,
      },
    ]),
  );
}

function countingGradeOf<Grade extends GradeStanding>(row: {
  targetVersion: number;
  gradedVersion: number;
  grade: Grade;
}): CountingGrade<Grade> {
  return {
    grade: row.grade,
    gradedSubmissionId: row.grade.submissionId,
    gradedVersion: row.gradedVersion,
    isEarlierVersion: row.gradedVersion < row.targetVersion,
  };
}

/** When the newest grade on any version of this student's answer was saved; null when none was. */
export async function selectNewestGradeAtOfAnswer(db: Db, questionId: string, studentId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: max(grades.createdAt) })
    .from(grades)
    .innerJoin(submissions, eq(submissions.id, grades.submissionId))
    .where(and(eq(submissions.questionId, questionId), eq(submissions.studentId, studentId)));
  return toDate(row?.at);
}

/**
 * Per student of the question among the placeholder `studentIds` (the rows a page shows): when
 * their newest grade (on any version) was saved. Only those students' answers are read, not the
 * whole class's (issue 11). A select to run in another statement
 * (models/submission-reopenings.ts reads it beside the reopenings, in one round trip);
 * `isReopening` is false, to tell its rows apart there.
 */
export function newestGradeAtOfStudents(db: Db) {
  return db
    .select({
      isReopening: sql<boolean>`false`.as('is_reopening'),
      studentId: submissions.studentId,
      at: max(grades.createdAt),
    })
    .from(grades)
    .innerJoin(submissions, eq(submissions.id, grades.submissionId))
    .where(
      and(
        eq(submissions.questionId, sql.placeholder('questionId')),
        anyOfPlaceholder(submissions.studentId, 'studentIds'),
      ),
    )
    .groupBy(submissions.studentId);
}

/**
 * `hasGradeOnQuestion`'s condition for the placeholder `questionId`, as SQL, for a statement that
 * reads it beside other things (models/grading-targets.ts counts Grade All's candidates with it).
 */
export function anyGradeOnQuestion(): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${grades} inner join ${submissions} on ${eq(submissions.id, grades.submissionId)}
    where ${eq(submissions.questionId, sql.placeholder('questionId'))})`;
}
// Read by a teaching assistant's question page (the owner's reads it with Grade All's count): prepared.
const anyGradeOnQuestionOf = preparedPerDb((db) =>
  db
    .select({ anyGraded: anyGradeOnQuestion() })
    .from(questions)
    .where(eq(questions.id, sql.placeholder('questionId')))
    .prepare('any_grade_on_question'),
);

/**
 * Whether any version of any answer to the question has a saved grade: then some latest answer has
 * a grade that counts (its own, or one saved on an earlier version), which is what the question
 * page's Grading Report column asks of the whole list.
 */
export async function hasGradeOnQuestion(db: Db, questionId: string): Promise<boolean> {
  const [row] = await anyGradeOnQuestionOf(db).execute({ questionId });
  return Boolean(row?.anyGraded);
}

/** Several grades at once (Apply to group), in the caller's transaction. */
export async function insertGrades(db: Db, rows: NewGradeRow[]): Promise<GradeRow[]> {
  if (rows.length === 0) return [];
  return await db.insert(grades).values(rows).returning();
}

/** Which of these submissions have any saved grade (read in the caller's transaction). */
export async function selectGradedSubmissionIds(db: Db, submissionIds: string[]): Promise<Set<string>> {
  if (submissionIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ submissionId: grades.submissionId })
    .from(grades)
    .where(anyOf(grades.submissionId, submissionIds));
  return new Set(rows.map((row) => row.submissionId));
}

/** grade id -> the submission it grades, for any grade rows (current or older). */
export async function selectSubmissionIdsOfGrades(db: Db, gradeIds: string[]): Promise<Map<string, string>> {
  if (gradeIds.length === 0) return new Map();
  const rows = await db
    .select({ id: grades.id, submissionId: grades.submissionId })
    .from(grades)
    .where(anyOf(grades.id, gradeIds));
  return new Map(rows.map((row) => [row.id, row.submissionId]));
}

/** Grade rows by id (current or older), e.g. the grades regrade requests point at. */
export async function selectGradesByIds(db: Db, gradeIds: string[]): Promise<Map<string, GradeRow>> {
  if (gradeIds.length === 0) return new Map();
  const rows = await db.select().from(grades).where(anyOf(grades.id, gradeIds));
  return new Map(rows.map((row) => [row.id, row]));
}

/** A saved grade with the answer it grades: whose, which question, which version. */
export interface GradeOfAnswer {
  grade: GradeRow;
  questionId: string;
  studentId: string;
  submissionVersion: number;
}

/**
 * The current (newest) grade of every graded submission of a question, every version of every
 * answer: a rubric change re-applies to each of them (read under the answers' locks).
 */
export async function selectCurrentGradesOfQuestion(db: Db, questionId: string): Promise<GradeOfAnswer[]> {
  const rows = await db
    .selectDistinctOn([grades.submissionId], {
      grade: grades,
      questionId: submissions.questionId,
      studentId: submissions.studentId,
      submissionVersion: submissions.version,
    })
    .from(grades)
    .innerJoin(submissions, eq(submissions.id, grades.submissionId))
    .where(eq(submissions.questionId, questionId))
    .orderBy(grades.submissionId, desc(grades.createdAt), desc(grades.id));
  return rows.map((row) => ({ ...row, grade: row.grade }));
}

/** The students with any saved grade on the question (whose answers a rubric change may touch). */
export async function selectGradedStudentIdsOfQuestion(db: Db, questionId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ studentId: submissions.studentId })
    .from(grades)
    .innerJoin(submissions, eq(submissions.id, grades.submissionId))
    .where(eq(submissions.questionId, questionId));
  return rows.map((row) => row.studentId);
}

/** Every grade row ever saved on these questions (the audit export), oldest first per answer. */
export async function selectAllGradesOfQuestions(db: Db, questionIds: string[]): Promise<GradeOfAnswer[]> {
  if (questionIds.length === 0) return [];
  const rows = await db
    .select({
      grade: grades,
      questionId: submissions.questionId,
      studentId: submissions.studentId,
      submissionVersion: submissions.version,
    })
    .from(grades)
    .innerJoin(submissions, eq(submissions.id, grades.submissionId))
    .where(anyOf(submissions.questionId, questionIds))
    .orderBy(submissions.questionId, submissions.studentId, submissions.version, grades.createdAt, grades.id);
  return rows.map((row) => ({ ...row, grade: row.grade }));
}
