import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { grades, gradingRuns, submissions, users } from '../db/schema.ts';
import { anyOf } from './any-of.ts';
import type { StoredComment } from './grading-runs.ts';

/**
 * What the statistics are computed from, for a set of questions: every submission version, every
 * saved grade (the whole history, oldest first) with its saver's name, and every succeeded AI run.
 * Three set-based queries whatever the class size; the numbers are worked out in memory
 * (services/grade-statistics.ts), so the rules live in one readable place rather than in SQL.
 */
export interface StatisticsSources {
  submissions: { id: string; questionId: string; studentId: string; version: number; isLate: boolean }[];
  grades: {
    id: string;
    submissionId: string;
    grade: number;
    comments: StoredComment[];
    gradingRunId: string | null;
    savedBy: { id: string; name: string };
    createdAt: Date;
  }[];
  /** `confidence`: what the suggestion said (0..100), for the reliability diagram; null or absent: it said none. */
  runs: { id: string; submissionId: string; totalScore: number | null; confidence?: number | null; createdAt: Date }[];
}

export async function selectStatisticsSources(db: Db, questionIds: string[]): Promise<StatisticsSources> {
  if (questionIds.length === 0) return { submissions: [], grades: [], runs: [] };
  const [submissionRows, gradeRows, runRows] = await Promise.all([
    db
      .select({
        id: submissions.id,
        questionId: submissions.questionId,
        studentId: submissions.studentId,
        version: submissions.version,
        isLate: submissions.isLate,
      })
      .from(submissions)
      .where(anyOf(submissions.questionId, questionIds)),
    db
      .select({
        id: grades.id,
        submissionId: grades.submissionId,
        grade: grades.grade,
        comments: grades.comments,
        gradingRunId: grades.gradingRunId,
        savedBy: { id: users.id, name: users.name },
        createdAt: grades.createdAt,
      })
      .from(grades)
      .innerJoin(submissions, eq(submissions.id, grades.submissionId))
      .innerJoin(users, eq(users.id, grades.savedById))
      .where(anyOf(submissions.questionId, questionIds))
      .orderBy(asc(grades.createdAt), asc(grades.id)),
    db
      .select({
        id: gradingRuns.id,
        submissionId: gradingRuns.submissionId,
        totalScore: gradingRuns.totalScore,
        confidence: gradingRuns.confidence,
        createdAt: gradingRuns.createdAt,
      })
      .from(gradingRuns)
      .innerJoin(submissions, eq(submissions.id, gradingRuns.submissionId))
      .where(and(anyOf(submissions.questionId, questionIds), eq(gradingRuns.status, 'succeeded')))
      .orderBy(asc(gradingRuns.createdAt), asc(gradingRuns.id)),
  ]);
  return {
    submissions: submissionRows,
    grades: gradeRows,
    runs: runRows,
  };
}
