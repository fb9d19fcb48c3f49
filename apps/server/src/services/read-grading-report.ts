import type { GradingReport } from '@gradewise/shared/contracts/review';
import type { AppContext } from '../context.ts';
import { notFound } from '../lib/errors.ts';
import { selectFileExtraction } from '../models/file-extractions.ts';
import { currentTime } from '../lib/clock.ts';
import { selectCountingGrades, selectGradesByIds } from '../models/grades.ts';
import { selectRegradeRequestsOfStudent } from '../models/regrade-requests.ts';
import { isGradeReleased } from '../policies/grade-release.ts';
import { presentRegradeRequestForStudent } from '../presenters/regrade-presenter.ts';
import { presentEligibility, readRegradeEligibility } from './regrade-eligibility.ts';
import { selectGradingRunById } from '../models/grading-runs.ts';
import { selectRubricByQuestionId } from '../models/rubrics.ts';
import { selectLatestSubmissionOfStudent } from '../models/submissions.ts';
import { selectUserById } from '../models/users.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleSubmission, mayGrade } from '../policies/course-access.ts';
import { presentGradingReportForStaff, presentGradingReportForStudent } from '../presenters/review-presenter.ts';
import { readStudentIdentities } from './anonymous-grading.ts';

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
  const [saved, student] = await Promise.all([
    selectCountingGrades(ctx.db, [submission.id]).then((grades) => grades.get(submission.id)),
    selectUserById(ctx.db, submission.studentId),
  ]);
  // A held grade is not there for its student (policies/grade-release.ts): no score, no comments.
  const isReleased = isGradeReleased(scope.assignment, question);
  const counting = mayGrade(scope.role) || isReleased ? saved : undefined;
  const grade = counting?.grade;
  if (!student) throw notFound('Submission not found.');
  const [extraction, rubric, gradeRun] = await Promise.all([
    grade ? selectFileExtraction(ctx.db, submission.fileId) : undefined,
    mayGrade(scope.role) ? selectRubricByQuestionId(ctx.db, question.id) : undefined,
    mayGrade(scope.role) && grade?.gradingRunId ? selectGradingRunById(ctx.db, grade.gradingRunId) : undefined,
  ]);
  // The report stays named for the instructor (issue 12); a TA grading anonymously sees the label.
  const identities = scope.role === 'ta' ? await readStudentIdentities(ctx, scope.assignment, [student.id]) : undefined;
  const shown = identities ? identities.person(student) : undefined;
  const sources = {
    submission,
    student: shown ? { id: shown._id, name: shown.name } : student,
    question,
    grade,
    gradedVersion: counting?.gradedVersion ?? null,
    gradeRun,
    extraction,
    rubric,
  };
  if (mayGrade(scope.role)) return presentGradingReportForStaff(sources, ctx.fileUrls);
  const requests = await selectRegradeRequestsOfStudent(ctx.db, question.id, submission.studentId);
  const disputed = await selectGradesByIds(
    ctx.db,
    requests.flatMap((request) => (request.gradeId ? [request.gradeId] : [])),
  );
  const eligibility = await readRegradeEligibility(ctx.db, scope, submission.studentId, saved, currentTime(ctx));
  return {
    ...presentGradingReportForStudent(sources, ctx.fileUrls),
    gradeWithheld: Boolean(saved) && !isReleased,
    // The AI-use note follows the release: only a released grade that started from an AI suggestion.
    isAiAssisted: Boolean(grade?.gradingRunId),
    regrade: {
      requests: requests.map((request) =>
        presentRegradeRequestForStudent(request, request.gradeId ? disputed.get(request.gradeId) : undefined),
      ),
      ...presentEligibility(eligibility, scope.assignment),
    },
  };
}
