import { and, desc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { fileExtractions, gradingRuns, submissions } from '../db/schema.ts';
import { currentGradesWhere } from './current-grades.ts';
import type { StoredComment } from './grading-runs.ts';

/** A saved grade on a question, with what the grader needs to learn from it. */
export interface SavedGradeExample {
  submissionId: string;
  studentId: string;
  fileId: string;
  /** The answer's extracted text; null when it was never extracted (graded without an AI run). */
  answerText: string | null;
  score: number;
  /** Every comment of the saved grade (accepted or not); callers keep the accepted ones. */
  comments: StoredComment[];
  /** Total score of the AI run the grade started from; null when graded without one. */
  suggestedScore: number | null;
}

/**
 * More saved grades than this are not read per grading call: the newest ones describe how the
 * instructor grades now, and the cost of a call must not grow with the class without bound.
 */
export const MAX_GRADED_EXAMPLES = 200;

/**
 * The current saved grade of every student's current answer to a question, newest first, with the
 * answer's extracted text and the score of the AI suggestion it started from. Answers whose text
 * could not be extracted are left out: there is nothing to compare with. So are grades applied to
 * an answer group (decision 0012): they copy one decision onto near-identical answers, and as
 * examples they would count it once per member, outweigh the instructor's other grades among the
 * nearest answers, and predict each other in the question's leave-one-out record, which would make
 * the confidence claim a track record the instructor never gave. The grade they were applied from
 * is the example; a member saved again by hand is one of the instructor's own grades again.
 */
export async function selectSavedGradeExamples(db: Db, questionId: string): Promise<SavedGradeExample[]> {
  const currentGrades = currentGradesWhere(db, eq(submissions.questionId, questionId));
  const rows = await db
    .select({
      submissionId: currentGrades.submissionId,
      studentId: submissions.studentId,
      grade: currentGrades.grade,
      comments: currentGrades.comments,
      suggestedScore: gradingRuns.totalScore,
      fileId: submissions.fileId,
      // A text still queued or being read (extraction starts at submission) counts as not read yet.
      answerText: sql<
        string | null
      >`case when ${fileExtractions.status} = 'succeeded' then ${fileExtractions.text} else null end`,
    })
    .from(currentGrades)
    .innerJoin(submissions, eq(submissions.id, currentGrades.submissionId))
    .leftJoin(fileExtractions, eq(fileExtractions.fileId, submissions.fileId))
    .leftJoin(gradingRuns, eq(gradingRuns.id, currentGrades.gradingRunId))
    .where(isExample(currentGrades))
    .orderBy(desc(currentGrades.savedAt), desc(currentGrades.submissionId))
    .limit(MAX_GRADED_EXAMPLES);
  return rows.map((row) => ({
    submissionId: row.submissionId,
    studentId: row.studentId,
    fileId: row.fileId,
    answerText: row.answerText,
    score: row.grade,
    comments: row.comments ?? [],
    suggestedScore: row.suggestedScore ?? null,
  }));
}

/**
 * How many saved grades a grader of this question learns from now (the N of "your N grades", and
 * what a suggestion's `examplesUsed` is compared with to say it is up to date): what
 * selectSavedGradeExamples reads, counted — the same rows, so grades applied to a group are not
 * counted either (they were, and a question with a group applied never read as up to date).
 */
export async function countCurrentSavedGrades(db: Db, questionId: string): Promise<number> {
  const currentGrades = currentGradesWhere(db, eq(submissions.questionId, questionId));
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(currentGrades)
    .innerJoin(submissions, eq(submissions.id, currentGrades.submissionId))
    .leftJoin(fileExtractions, eq(fileExtractions.fileId, submissions.fileId))
    .where(isExample(currentGrades));
  return Math.min(MAX_GRADED_EXAMPLES, Number(row?.count ?? 0));
}

/** Of those, the examples: the instructor's own (not applied to a group), on an answer not failed to read. */
function isExample(currentGrades: ReturnType<typeof currentGradesWhere>) {
  return and(
    isNull(currentGrades.appliedFromGradeId),
    or(isNull(fileExtractions.fileId), ne(fileExtractions.status, 'failed')),
  );
}
