import { and, desc, eq, gt, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { CourseGrade } from '../ai/grader-types.ts';
import type { Db } from '../db/client.ts';
import { assignments, grades, gradingRuns, questions, submissions } from '../db/schema.ts';
import { currentGradesWhere, isCurrentAnswer } from './current-grades.ts';

/**
 * The course's grading convention, as the database holds it (decision 0115): the saved grades on a
 * course's questions with what the built-in grader's cold model said for each answer, and the
 * conventions the course's pending cold suggestions were made with.
 */

/** How many of the course's grades are read: the newest of each question, and at most so many in all. */
export interface CourseGradeLimits {
  perQuestion: number;
  max: number;
}

/**
 * The saved grades on the course's other questions (every assignment of the course), each with the
 * cold share and status of its answer's newest succeeded built-in judgement that records a cold
 * share, most recently saved first: at most `perQuestion` of each question, `max` in all.
 *
 * A grade counts as the grader's examples count one (models/current-grades.ts): the newest grade
 * of a student's current answer. Not a grade on an earlier version (the student stands by the
 * newer answer), nor one applied to an answer group: it copies one decision onto near-identical
 * answers and would count it once per member. Questions of 0 points have no share to give.
 * Grades whose answer the built-in grader never judged (graded by hand, or by an LLM) tell nothing
 * about how the instructor's grades sit against its cold model, and are left out before the limits.
 */
export async function selectCourseGrades(
  db: Db,
  questionId: string,
  limits: CourseGradeLimits,
): Promise<CourseGrade[]> {
  const currentGrades = currentGradesWhere(db, and(isOtherQuestionOfCourse(questionId), hasPoints));
  // The newest such judgement straight from the index of each answer's newest succeeded runs
  // (grading_runs_submission_newest_succeeded_idx), as models/grading-runs.ts reads runs.
  const coldJudgement = db
    .select({
      coldShare: sql<number>`(${gradingRuns.rawOutput} -> 'confidenceInputs' ->> 'coldShare')::float8`.as('cold_share'),
      status: sql<string>`${gradingRuns.rawOutput} ->> 'status'`.as('judged_status'),
    })
    .from(gradingRuns)
    .where(
      and(
        eq(gradingRuns.submissionId, currentGrades.submissionId),
        eq(gradingRuns.status, 'succeeded'),
        eq(gradingRuns.graderKind, 'builtin'),
        sql`jsonb_typeof(${gradingRuns.rawOutput} -> 'confidenceInputs' -> 'coldShare') = 'number'`,
        sql`jsonb_typeof(${gradingRuns.rawOutput} -> 'status') = 'string'`,
      ),
    )
    .orderBy(desc(gradingRuns.finishedAt), desc(gradingRuns.id))
    .limit(1)
    .as('cold_judgement');
  const ranked = db
    .select({
      coldShare: coldJudgement.coldShare,
      status: coldJudgement.status,
      grade: currentGrades.grade,
      points: currentGrades.points,
      savedAt: currentGrades.savedAt,
      submissionId: currentGrades.submissionId,
      rank: sql<number>`row_number() over (partition by ${currentGrades.questionId} order by ${currentGrades.savedAt} desc, ${currentGrades.submissionId} desc)`.as(
        'rank',
      ),
    })
    .from(currentGrades)
    .crossJoinLateral(coldJudgement)
    .where(isNull(currentGrades.appliedFromGradeId))
    .as('ranked');
  const rows = await db
    .select({ coldShare: ranked.coldShare, status: ranked.status, grade: ranked.grade, points: ranked.points })
    .from(ranked)
    .where(lte(ranked.rank, limits.perQuestion))
    .orderBy(desc(ranked.savedAt), desc(ranked.submissionId))
    .limit(limits.max);
  return rows.map((row) => ({
    coldShare: Number(row.coldShare),
    // Not clamped: a grade above points the question has since lost is not a share the grader can use.
    share: row.grade / row.points,
    points: row.points,
    status: row.status,
  }));
}

/**
 * Whether a built-in judgement of this answer can move its course's convention: it holds a grade
 * `selectCourseGrades` reads for the course's other questions (its student's current answer, the
 * answer's own newest grade, not a group copy, on a question with points). A judgement of any
 * other answer is not among the grades the convention is fitted on.
 */
export async function holdsCourseGrade(db: Db, submissionId: string): Promise<boolean> {
  const currentGrades = currentGradesWhere(db, and(eq(submissions.id, submissionId), hasPoints));
  const rows = await db
    .select({ submissionId: currentGrades.submissionId })
    .from(currentGrades)
    .where(isNull(currentGrades.appliedFromGradeId))
    .limit(1);
  return rows.length > 0;
}

/** The convention a pending built-in suggestion was made with, as its judgement stores it. */
export interface PendingConvention {
  questionId: string;
  /** The judgement's `confidenceInputs.course`, parsed; null when it has none. */
  course: unknown;
}

/**
 * The conventions the pending built-in suggestions of questions without a saved grade were made
 * with, each different one of a question once: of the course's other questions (`'others'`), or of
 * the question itself (`'own'`). Pending: a student's current answer's newest succeeded run, when
 * the built-in grader made it. A question with a saved grade on a current answer is left out: its
 * suggestions follow its own grades, not the course's.
 */
export async function selectPendingConventions(
  db: Db,
  questionId: string,
  which: 'own' | 'others',
): Promise<PendingConvention[]> {
  const newestRun = db
    .select({
      graderKind: gradingRuns.graderKind,
      // As text: jsonb reaches JavaScript the same way from both databases' drivers.
      course: sql<string | null>`(${gradingRuns.rawOutput} -> 'confidenceInputs' -> 'course')::text`.as('course'),
    })
    .from(gradingRuns)
    .where(and(eq(gradingRuns.submissionId, submissions.id), eq(gradingRuns.status, 'succeeded')))
    .orderBy(desc(gradingRuns.finishedAt), desc(gradingRuns.id))
    .limit(1)
    .as('newest_run');
  const rows = await db
    .selectDistinct({ questionId: submissions.questionId, course: newestRun.course })
    .from(submissions)
    .innerJoin(questions, eq(questions.id, submissions.questionId))
    .crossJoinLateral(newestRun)
    .where(
      and(
        which === 'own' ? eq(questions.id, questionId) : isOtherQuestionOfCourse(questionId),
        sql`not exists (select 1 from ${grades} g join ${submissions} gs on gs.id = g.submission_id where gs.question_id = ${questions.id} and ${isCurrentAnswer('gs')})`,
        isCurrentAnswer('submissions'),
        eq(newestRun.graderKind, 'builtin'),
      ),
    );
  return rows.map((row) => ({
    questionId: row.questionId,
    course: row.course === null ? null : JSON.parse(row.course),
  }));
}

/** Questions of 0 points have no share to give. */
const hasPoints = gt(questions.points, 0);

/** `questions` is another question of the course `questionId` belongs to (in any of its assignments). */
function isOtherQuestionOfCourse(questionId: string): SQL {
  return sql`${questions.id} <> ${questionId} and ${questions.assignmentId} in (
    select sa.id from ${assignments} sa where sa.course_id = (
      select oa.course_id from ${assignments} oa join ${questions} oq on oq.assignment_id = oa.id where oq.id = ${questionId}))`;
}
