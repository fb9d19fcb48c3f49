import type { SubmissionGradeForStudent, SubmissionGradingFields } from '@gradewise/shared/contracts/grading';
import type { AppContext } from '../context.ts';
import { selectFileExtractions } from '../models/file-extractions.ts';
import { selectCurrentGrades } from '../models/grades.ts';
import {
  selectGradingRunsByIds,
  selectLatestRunsBySubmission,
  selectLatestSucceededRunsBySubmission,
} from '../models/grading-runs.ts';
import { selectRubricByQuestionId, type RubricRow } from '../models/rubrics.ts';
import type { SubmissionRow } from '../models/submissions.ts';
import { presentSubmissionGrading } from '../presenters/grading-presenter.ts';

/**
 * The grading side of a question detail, for the courses API's presenters to merge in: the
 * rubric (`autoRubric`) and, per submission row, its grade, confidence, grader and hidden-text flag.
 * A handful of set-based queries, whatever the number of rows.
 */
export async function readQuestionGradingForStaff(
  ctx: AppContext,
  questionId: string,
  submissions: readonly SubmissionRow[],
): Promise<{ rubric: RubricRow | undefined; bySubmission: Map<string, SubmissionGradingFields> }> {
  const ids = submissions.map((submission) => submission.id);
  const [rubric, grades, latestRuns, succeededRuns, extractions] = await Promise.all([
    selectRubricByQuestionId(ctx.db, questionId),
    selectCurrentGrades(ctx.db, ids),
    selectLatestRunsBySubmission(ctx.db, ids),
    selectLatestSucceededRunsBySubmission(ctx.db, ids),
    selectFileExtractions(
      ctx.db,
      submissions.map((submission) => submission.fileId),
    ),
  ]);
  const gradeRunIds = [...grades.values()].map((grade) => grade.gradingRunId).filter((id): id is string => id !== null);
  const gradeRuns = await selectGradingRunsByIds(ctx.db, gradeRunIds);
  const bySubmission = new Map<string, SubmissionGradingFields>();
  for (const submission of submissions) {
    const grade = grades.get(submission.id);
    bySubmission.set(
      submission.id,
      presentSubmissionGrading({
        grade,
        latestRun: latestRuns.get(submission.id),
        latestSucceededRun: succeededRuns.get(submission.id),
        gradeRun: grade?.gradingRunId ? gradeRuns.get(grade.gradingRunId) : undefined,
        extraction: extractions.get(submission.fileId),
        rubricItems: rubric?.items ?? [],
      }),
    );
  }
  return { rubric, bySubmission };
}

/** A student's own rows: the saved grade only, nothing of the AI's draft. */
export async function readSubmissionGradesForStudent(
  ctx: AppContext,
  submissions: readonly SubmissionRow[],
): Promise<Map<string, SubmissionGradeForStudent>> {
  const grades = await selectCurrentGrades(
    ctx.db,
    submissions.map((submission) => submission.id),
  );
  return new Map(
    submissions.map((submission) => {
      const grade = grades.get(submission.id);
      return [submission.id, { grade: grade ? grade.grade : null, isAlreadyGraded: Boolean(grade) }];
    }),
  );
}
