import type {
  GradingReportForStaff,
  GradingReportForStudent,
  ReviewQueueItem,
} from '@gradewise/shared/contracts/review';
import type { FileExtractionListRow } from '../models/file-extractions.ts';
import type { GradeRow } from '../models/grades.ts';
import type { GradingRunListRow } from '../models/grading-runs.ts';
import type { RubricRow } from '../models/rubrics.ts';
import type { SubmissionListRow, SubmissionRow } from '../models/submissions.ts';
import type { QuestionRow } from '../models/questions.ts';
import type { FileUrlSigner } from '../storage/file-url-signer.ts';
import type { StudentIdentities } from '../services/anonymous-grading.ts';
import { presentComments, presentGrader, reviewStatusOf } from './grading-presenter.ts';

export { reviewStatusOf };

/** Review-loop rows -> contract outputs. The student report is built here too, with its own narrow shape. */

export interface ReviewQueueSources {
  row: SubmissionListRow;
  grade: GradeRow | undefined;
  latestRun: GradingRunListRow | undefined;
  latestSucceededRun: GradingRunListRow | undefined;
}

export function presentReviewQueueItem(sources: ReviewQueueSources, identities: StudentIdentities): ReviewQueueItem {
  const { row, grade, latestSucceededRun } = sources;
  return {
    submissionId: row.submission.id,
    student: identities.person(row.student),
    isLate: row.submission.isLate,
    status: reviewStatusOf(sources),
    // A saved grade keeps the confidence of the suggestion it started from, so an item does not
    // move in the queue when it is saved.
    confidenceLevel: grade ? grade.confidence : (latestSucceededRun?.confidence ?? null),
    grade: grade ? grade.grade : null,
  };
}

/** Lowest confidence first; items with none go last; then by student, so the order is total and stable. */
export function compareReviewItems(a: ReviewQueueItem, b: ReviewQueueItem): number {
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

export interface GradingReportSources {
  submission: SubmissionRow;
  student: { id: string; name: string };
  question: QuestionRow;
  grade: GradeRow | undefined;
  /** The version `grade` was saved on (an earlier one than `submission` when it was resubmitted). */
  gradedVersion: number | null;
  gradeRun: GradingRunListRow | undefined;
  extraction: FileExtractionListRow | undefined;
  rubric: RubricRow | undefined;
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

export function presentGradingReportForStaff(
  sources: GradingReportSources,
  signer: FileUrlSigner,
): GradingReportForStaff {
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
export function presentGradingReportForStudent(
  sources: GradingReportSources,
  signer: FileUrlSigner,
): GradingReportForStudent {
  const accepted = sources.grade?.comments.filter((comment) => comment.accepted) ?? [];
  return { ...presentReportBase(sources, signer), viewer: 'student', comments: presentComments(accepted, []) };
}
