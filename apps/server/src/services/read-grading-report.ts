import type { AppContext } from '../context.ts';
import { notFound } from '../lib/errors.ts';
import { selectFileExtraction, type FileExtractionListRow } from '../models/file-extractions.ts';
import { currentTime } from '../lib/clock.ts';
import type { AssignmentRow } from '../models/assignments.ts';
import { selectCountingGrades, selectGradesByIds, type GradeRow } from '../models/grades.ts';
import { selectRegradeRequestsOfStudent, type RegradeRequestRow } from '../models/regrade-requests.ts';
import { isGradeReleased } from '../policies/grade-release.ts';
import { readRegradeEligibility, type RegradeEligibility } from './regrade-eligibility.ts';
import { selectGradingRunById, type GradingRunListRow } from '../models/grading-runs.ts';
import type { QuestionRow } from '../models/questions.ts';
import { selectRubricByQuestionId, type RubricRow } from '../models/rubrics.ts';
import { selectLatestSubmissionOfStudent, type SubmissionRow } from '../models/submissions.ts';
import { selectUserById } from '../models/users.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleSubmission, mayGrade } from '../policies/course-access.ts';
import { readStudentIdentities } from './anonymous-grading.ts';

/** What a grading report shows, for both roles; presenters/review-presenter.ts presents it. */
export interface GradingReportSources {
  submission: SubmissionRow;
  student: { id: string; name: string };
  question: QuestionRow;
  /** The grade that counts for this version, as the caller may see it (none while held, for a student). */
  grade: GradeRow | undefined;
  /** The version `grade` was saved on (an earlier one than `submission` when it was resubmitted). */
  gradedVersion: number | null;
  gradeRun: GradingRunListRow | undefined;
  extraction: FileExtractionListRow | undefined;
  rubric: RubricRow | undefined;
}

/** The report as read for the caller's role: a student's adds their regrade requests and what they may ask. */
export type GradingReportView =
  | { viewer: 'staff'; sources: GradingReportSources }
  | {
      viewer: 'student';
      sources: GradingReportSources;
      /** A grade is saved but held (policies/grade-release.ts). */
      gradeWithheld: boolean;
      requests: { row: RegradeRequestRow; disputed: GradeRow | undefined }[];
      eligibility: RegradeEligibility;
      assignment: AssignmentRow;
    };

/**
 * GET grade/:submissionId/report. The course owner reads any submission's report; a student reads
 * only the report of their own LATEST submission (spec section 5: students see only their latest),
 * and anything else is 404 — the same answer as for a submission that does not exist.
 */
export async function readGradingReport(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string; submissionId: string },
): Promise<GradingReportView> {
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
  // Staff see the student as on every grading surface: a label while the assignment is anonymous,
  // the owner too (the report opens from the question page, which shows the label; issue 28).
  const identities = mayGrade(scope.role)
    ? await readStudentIdentities(ctx, scope.assignment, [student.id])
    : undefined;
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
  if (mayGrade(scope.role)) return { viewer: 'staff', sources };
  const requests = await selectRegradeRequestsOfStudent(ctx.db, question.id, submission.studentId);
  const disputed = await selectGradesByIds(
    ctx.db,
    requests.flatMap((request) => (request.gradeId ? [request.gradeId] : [])),
  );
  const eligibility = await readRegradeEligibility(ctx.db, scope, submission.studentId, saved, currentTime(ctx));
  return {
    viewer: 'student',
    sources,
    gradeWithheld: Boolean(saved) && !isReleased,
    requests: requests.map((request) => ({
      row: request,
      disputed: request.gradeId ? disputed.get(request.gradeId) : undefined,
    })),
    eligibility,
    assignment: scope.assignment,
  };
}
