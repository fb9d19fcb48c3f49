import type { GradingReport } from '@gradewise/shared/contracts/review';
import type { AppContext } from '../context.ts';
import { notFound } from '../lib/errors.ts';
import { selectFileExtraction } from '../models/file-extractions.ts';
import { selectCountingGrades } from '../models/grades.ts';
import { selectGradingRunById } from '../models/grading-runs.ts';
import { selectRubricByQuestionId } from '../models/rubrics.ts';
import { selectLatestSubmissionOfStudent } from '../models/submissions.ts';
import { selectUserById } from '../models/users.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleSubmission, mayGrade } from '../policies/course-access.ts';
import { presentGradingReportForStaff, presentGradingReportForStudent } from '../presenters/review-presenter.ts';

/**
 * GET grade/:submissionId/report. The course owner reads any submission's report; a student reads
 * only the report of their own LATEST submission (spec section 5: students see only their latest),
 * and anything else is 404 — the same answer as for a submission that does not exist.
 */
export async function readGradingReport(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string; submissionId: string },
): Promise<GradingReport> {
  const scope = await loadVisibleSubmission(ctx.db, user, params.assignmentId, params.questionId, params.submissionId);
  const { submission, question } = scope;
  if (!mayGrade(scope.role)) {
    const latest = await selectLatestSubmissionOfStudent(ctx.db, question.id, submission.studentId);
    if (latest?.submission.id !== submission.id) throw notFound('Submission not found.');
  }

  // The grade that counts for this version: its own, else one saved on an earlier version.
  const [counting, student] = await Promise.all([
    selectCountingGrades(ctx.db, [submission.id]).then((grades) => grades.get(submission.id)),
    selectUserById(ctx.db, submission.studentId),
  ]);
  const grade = counting?.grade;
  if (!student) throw notFound('Submission not found.');
  const [extraction, rubric, gradeRun] = await Promise.all([
    grade ? selectFileExtraction(ctx.db, submission.fileId) : undefined,
    mayGrade(scope.role) ? selectRubricByQuestionId(ctx.db, question.id) : undefined,
    mayGrade(scope.role) && grade?.gradingRunId ? selectGradingRunById(ctx.db, grade.gradingRunId) : undefined,
  ]);
  const sources = {
    submission,
    student,
    question,
    grade,
    gradedVersion: counting?.gradedVersion ?? null,
    gradeRun,
    extraction,
    rubric,
  };
  return mayGrade(scope.role)
    ? presentGradingReportForStaff(sources, ctx.fileUrls)
    : presentGradingReportForStudent(sources, ctx.fileUrls);
}
