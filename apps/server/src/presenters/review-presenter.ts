import type {
  GradingReport,
  GradingReportForStaff,
  GradingReportForStudent,
  ReviewQueueItem,
  ReviewQueueOutput,
} from '@gradewise/shared/contracts/review';
import type { GradeRow } from '../models/grades.ts';
import type { GradingRunListRow } from '../models/grading-runs.ts';
import type { SubmissionListRow } from '../models/submissions.ts';
import type { FileUrlSigner } from '../storage/file-url-signer.ts';
import type { StudentIdentities } from '../services/anonymous-grading.ts';
import type { GradingReportSources, GradingReportView } from '../services/read-grading-report.ts';
import type { ReviewQueueView } from '../services/read-review-queue.ts';
import { presentComments, presentGrader, reviewStatusOf } from './grading-presenter.ts';
import { presentEligibility, presentRegradeRequestForStudent } from './regrade-presenter.ts';

export { reviewStatusOf };

/** Review-loop rows -> contract outputs. The student report is built here too, with its own narrow shape. */

interface ReviewQueueSources {
  row: SubmissionListRow;
  grade: GradeRow | undefined;
  latestRun: GradingRunListRow | undefined;
  latestSucceededRun: GradingRunListRow | undefined;
}

function presentReviewQueueItem(sources: ReviewQueueSources, identities: StudentIdentities): ReviewQueueItem {
  const { row, grade, latestSucceededRun } = sources;
  return {
    submissionId: row.submission.id,
    student: identities.person(row.student),
    isLate: row.submission.isLate,
    status: reviewStatusOf(sources),
    // A saved grade keeps the confidence of the suggestion it started from, so an item does not
    // move in the queue when it is saved.
    confidenceLevel: grade ? grade.confidence : (latestSucceededRun?.confidence ?? null),
    missChance: latestSucceededRun?.missChance ?? null,
    grade: grade ? grade.grade : null,
  };
}

/**
 * The review queue (services/read-review-queue.ts): the answers to grade first lead, best first;
 * then the suggestions most likely to be far off (missRiskOf), then lowest confidence first. Then
 * the caller's share, unless they asked for everyone's.
 */
export function presentReviewQueue(view: ReviewQueueView): ReviewQueueOutput {
  const placed = view.entries.map((entry) => ({
    rank: entry.gradeFirst?.rank ?? Number.POSITIVE_INFINITY,
    missRisk: missRiskOf(entry.latestSucceededRun),
    item: {
      ...presentReviewQueueItem(entry, view.identities),
      isGradeFirst: Boolean(entry.gradeFirst),
      represents: entry.gradeFirst ? entry.gradeFirst.represents : null,
      groupSize: entry.groupSize,
      ...entry.work,
    } satisfies ReviewQueueItem,
  }));
  placed.sort((a, b) => {
    if (a.rank !== b.rank) return a.rank < b.rank ? -1 : 1;
    if (a.missRisk !== b.missRisk) return a.missRisk > b.missRisk ? -1 : 1;
    return compareReviewItems(a.item, b.item);
  });
  const items = placed.map((entry) => entry.item);
  const mine = items.filter((item) => item.isMine);
  const listed = view.share === 'mine' ? mine : items;
  return {
    questionPoints: view.questionPoints,
    items: listed,
    remaining: listed.filter((item) => item.status !== 'graded').length,
    gradeFirst: view.gradeFirst,
    share: {
      scope: view.share,
      isSplit: items.some((item) => (item.assignedTo ?? []).length > 0),
      mine: mine.length,
      total: items.length,
      remainingInQuestion: items.filter((item) => item.status !== 'graded').length,
    },
  };
}

/**
 * How likely the suggestion is to be far off (decision 0097): the built-in grader's chance of a
 * big miss; for a grader that does not measure it, the chance the confidence gives of not being
 * kept, which bounds it (a big miss is never kept), so such an answer is not hidden behind the
 * measured ones. No suggestion: last (-1).
 */
function missRiskOf(run: GradingRunListRow | undefined): number {
  if (!run) return -1;
  if (run.missChance !== null) return run.missChance;
  return run.confidence === null ? -1 : 1 - run.confidence / 100;
}

/** Lowest confidence first; items with none go last; then by student, so the order is total and stable. */
function compareReviewItems(a: ReviewQueueItem, b: ReviewQueueItem): number {
  const aConfidence = a.confidenceLevel ?? Number.POSITIVE_INFINITY;
  const bConfidence = b.confidenceLevel ?? Number.POSITIVE_INFINITY;
  if (aConfidence !== bConfidence) return aConfidence < bConfidence ? -1 : 1;
  // `numeric`: anonymous labels order as Student 2 before Student 10.
  return (
    a.student.name.localeCompare(b.student.name, 'en', { sensitivity: 'base', numeric: true }) ||
    a.student.email.localeCompare(b.student.email) ||
    a.submissionId.localeCompare(b.submissionId)
  );
}

/** GET grade/:submissionId/report, for the role the service read it for. */
export function presentGradingReport(view: GradingReportView, signer: FileUrlSigner): GradingReport {
  if (view.viewer === 'staff') return presentGradingReportForStaff(view.sources, signer);
  return {
    ...presentGradingReportForStudent(view.sources, signer),
    gradeWithheld: view.gradeWithheld,
    // The AI-use note follows the release: only a released grade that started from an AI suggestion.
    isAiAssisted: Boolean(view.sources.grade?.gradingRunId),
    regrade: {
      requests: view.requests.map((request) => presentRegradeRequestForStudent(request.row, request.disputed)),
      ...presentEligibility(view.eligibility, view.assignment),
    },
  };
}

function presentReportBase(sources: GradingReportSources, signer: FileUrlSigner) {
  const { submission, question, grade } = sources;
  return {
    submission: {
      _id: submission.id,
      file: signer.urlFor(submission.fileId),
      isLate: submission.isLate,
      submittedAt: submission.submittedAt.toISOString(),
      student: { _id: sources.student.id, name: sources.student.name },
    },
    question: { _id: question.id, title: question.title, points: question.points },
    isAlreadyGraded: Boolean(grade),
    grade: grade ? grade.grade : null,
    isGradeOnEarlierVersion: sources.gradedVersion !== null && sources.gradedVersion < submission.version,
    gradedVersion: sources.gradedVersion,
    extractedText: grade ? (sources.extraction?.text ?? '') : '',
  };
}

function presentGradingReportForStaff(sources: GradingReportSources, signer: FileUrlSigner): GradingReportForStaff {
  const { grade } = sources;
  return {
    ...presentReportBase(sources, signer),
    viewer: 'staff',
    comments: grade ? presentComments(grade.comments, sources.rubric?.items ?? []) : [],
    confidenceLevel: grade?.confidence ?? null,
    grader: presentGrader(sources.gradeRun),
  };
}

/**
 * Only what the instructor decided: the accepted comments and the grade. Comments keep their
 * rubric item id but not the item itself — the rubric is the instructor's, like the solution.
 */
function presentGradingReportForStudent(sources: GradingReportSources, signer: FileUrlSigner): GradingReportForStudent {
  const accepted = sources.grade?.comments.filter((comment) => comment.accepted) ?? [];
  return { ...presentReportBase(sources, signer), viewer: 'student', comments: presentComments(accepted, []) };
}
