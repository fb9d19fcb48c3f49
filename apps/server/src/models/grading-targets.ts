import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { assignments, courses, grades, gradingRuns, questions, rubrics, submissions } from '../db/schema.ts';
import { anyGradeOnQuestion } from './grades.ts';
import type { QuestionRow } from './questions.ts';
import type { RubricRow } from './rubrics.ts';
import type { SubmissionRow } from './submissions.ts';

/**
 * Reads the grading engine needs across tables it does not own (questions, submissions, files):
 * what a job must load to run. Authorization is not done here: jobs act on rows a service already
 * authorized when it queued them.
 */

export async function selectQuestionById(db: Db, questionId: string): Promise<QuestionRow | undefined> {
  const [row] = await db.select().from(questions).where(eq(questions.id, questionId)).limit(1);
  return row;
}

/**
 * What a grading run loads about its answer, in one read: the submission, its question, the
 * question's rubric (undefined until it has one) and whose AI quotas a provider call counts
 * against (the course and its instructor).
 */
export async function selectGradingTarget(
  db: Db,
  submissionId: string,
): Promise<
  | {
      submission: SubmissionRow;
      question: QuestionRow;
      rubric: RubricRow | undefined;
      /** The course's ids and AI rules: whose quotas a provider call counts against, which provider it may use. */
      course: {
        courseId: string;
        instructorId: string;
        assignmentId: string;
        aiProviderId: string | null;
        aiServerOnly: boolean;
      };
    }
  | undefined
> {
  const [row] = await db
    .select({
      submission: submissions,
      question: questions,
      rubric: rubrics,
      courseId: courses.id,
      instructorId: courses.instructorId,
      assignmentId: assignments.id,
      aiProviderId: courses.aiProviderId,
      aiServerOnly: courses.aiServerOnly,
    })
    .from(submissions)
    .innerJoin(questions, eq(questions.id, submissions.questionId))
    .innerJoin(assignments, eq(assignments.id, questions.assignmentId))
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .leftJoin(rubrics, eq(rubrics.questionId, questions.id))
    .where(eq(submissions.id, submissionId))
    .limit(1);
  if (!row) return undefined;
  const { submission, question, rubric, ...course } = row;
  return { submission, question, rubric: rubric ?? undefined, course };
}

/**
 * Latest submission per student of a question that has no saved grade and no run in flight:
 * what grade-all queues.
 */
export async function selectUngradedLatestSubmissionIds(db: Db, questionId: string): Promise<string[]> {
  const latest = await db
    .selectDistinctOn([submissions.studentId], { id: submissions.id })
    .from(submissions)
    .where(eq(submissions.questionId, questionId))
    .orderBy(submissions.studentId, desc(submissions.version));
  const ids = latest.map((row) => row.id);
  if (ids.length === 0) return [];
  const graded = await db
    .selectDistinct({ id: grades.submissionId })
    .from(grades)
    .where(inArray(grades.submissionId, ids));
  const active = await db
    .selectDistinct({ id: gradingRuns.submissionId })
    .from(gradingRuns)
    .where(and(inArray(gradingRuns.submissionId, ids), inArray(gradingRuns.status, ['queued', 'running'])));
  const skip = new Set([...graded, ...active].map((row) => row.id));
  return ids.filter((id) => !skip.has(id));
}

/**
 * Grade All's candidates, the one home of the rule (services/grade-all.ts queues them, the
 * question page's "Grade All (N left)" counts them): the latest submission of every student with
 * no saved grade, no run in flight and no suggestion yet (a succeeded run). One statement, so
 * counting a class reads no row into JavaScript (decision 0046).
 */
function gradeAllCandidates(db: Db) {
  const latest = db
    .selectDistinctOn([submissions.studentId], { id: submissions.id, studentId: submissions.studentId })
    .from(submissions)
    .where(eq(submissions.questionId, sql.placeholder('questionId')))
    .orderBy(submissions.studentId, desc(submissions.version))
    .as('latest');
  const isLeft = and(
    sql`not exists (select 1 from ${grades} where ${grades.submissionId} = ${latest.id})`,
    // The condition of grading_runs_submission_suggested_idx (db/schema.ts): keep the two the same.
    sql`not exists (select 1 from ${gradingRuns} where ${gradingRuns.submissionId} = ${latest.id} and ${gradingRuns.status} in ('queued', 'running', 'succeeded'))`,
  );
  return { latest, isLeft };
}

const gradeAllCandidateIds = preparedPerDb((db) => {
  const { latest, isLeft } = gradeAllCandidates(db);
  return db
    .select({ id: latest.id })
    .from(latest)
    .where(isLeft)
    .orderBy(latest.studentId)
    .prepare('grade_all_candidate_ids');
});

// The question page's owner reads the count with whether any answer is graded (one statement: on
// PGlite each is a round trip into its WebAssembly); the second is one index probe, read once.
const gradeAllCandidateCountAndAnyGrade = preparedPerDb((db) => {
  const { latest, isLeft } = gradeAllCandidates(db);
  return db
    .select({ count: sql<number>`count(*)::int`, anyGraded: anyGradeOnQuestion() })
    .from(latest)
    .where(isLeft)
    .prepare('grade_all_candidate_count_and_any_grade');
});

/** What Grade All would ask the AI about now, by student id (the order it queues them in). */
export async function selectGradeAllCandidateIds(db: Db, questionId: string): Promise<string[]> {
  const rows = await gradeAllCandidateIds(db).execute({ questionId });
  return rows.map((row) => row.id);
}

/**
 * How many Grade All would ask the AI about now (the question page's "Grade All (N left)"), and
 * whether any answer to the question is graded (`hasGradeOnQuestion`, models/grades.ts).
 */
export async function countGradeAllCandidatesAndAnyGrade(
  db: Db,
  questionId: string,
): Promise<{ left: number; anyGraded: boolean }> {
  const [row] = await gradeAllCandidateCountAndAnyGrade(db).execute({ questionId });
  return { left: Number(row?.count ?? 0), anyGraded: Boolean(row?.anyGraded) };
}
