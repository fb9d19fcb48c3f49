import type { ReviewStatus } from '@gradewise/shared/contracts/grading';
import type { ExtractionStatus } from '@gradewise/shared/contracts/submissions';
import { formatPoints } from '@gradewise/shared/points';

/**
 * What the submissions table needs from a row of the question detail's `submissions` (staff or
 * student view: QuestionSubmissionForStaff / QuestionSubmissionForStudent in the shared contract).
 */
export interface SubmissionTableRow {
  _id: string;
  student: { _id: string; name: string; email?: string };
  file: string;
  isLate: boolean;
  version: number;
  submittedAt: string;
  /** Staff view: how many versions this student uploaded. */
  versions?: number;
  /** Staff view: who uploaded this version (the student, or the instructor on their behalf). */
  uploadedBy?: { _id: string; name: string };
  /** The grade the instructor saved; null until then. */
  grade: number | null;
  isAlreadyGraded: boolean;
  /** The grade shown was saved on an earlier version (it counts until this version is graded). */
  isGradeOnEarlierVersion?: boolean;
  gradedVersion?: number | null;
  /** Staff view: the instructor reopened the question for this student and nothing was graded since. */
  isReopened?: boolean;
  /** Staff view: where this version stands for the reviewer (AI suggestion ready, grading, failed...). */
  reviewStatus?: ReviewStatus;
  /** Staff view: the score of the newest AI suggestion, and how sure the AI was of it (0..100). */
  suggestedScore?: number | null;
  confidenceLevel?: number | null;
  /** Where reading the PDF's text stands (absent for files stored before it was read at submission). */
  extractionStatus?: ExtractionStatus;
  extractionError?: string | null;
}

/** A submission counts as graded once the instructor saved a grade. */
export function isGraded(row: SubmissionTableRow): boolean {
  return row.isAlreadyGraded && row.grade !== null;
}

/** Grades are shown as the API sends them, without float noise (7.499999 -> 7.5). */

/**
 * What the staff table says under the Grade column after Grade All (issue 13 item 1): a suggestion
 * ready with its score and confidence, a run on its way, a failed run, or the saved grade.
 * Null when the AI has nothing to say about the row.
 */
export function reviewStateOf(
  row: SubmissionTableRow,
  points: number,
): { tone: 'info' | 'progress' | 'error' | 'success'; label: string; detail?: string } | null {
  switch (row.reviewStatus) {
    case 'needs-review':
      return {
        tone: 'info',
        label: 'Suggestion ready',
        detail: [
          row.suggestedScore != null ? `${formatPoints(row.suggestedScore)} / ${formatPoints(points)}` : null,
          row.confidenceLevel != null ? `${Math.round(row.confidenceLevel)}% confidence` : null,
        ]
          .filter(Boolean)
          .join(' · '),
      };
    case 'grading':
      return { tone: 'progress', label: 'Grading…' };
    case 'failed':
      return { tone: 'error', label: 'Failed', detail: 'The AI could not grade it; open it to try again.' };
    case 'graded':
      return row.grade !== null
        ? { tone: 'success', label: 'Graded', detail: `${formatPoints(row.grade)} / ${formatPoints(points)}` }
        : null;
    default:
      return null;
  }
}
