import type { ExtractionStatus } from '@gradewise/shared/contracts/submissions';

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
  /** Where reading the PDF's text stands (absent for files stored before it was read at submission). */
  extractionStatus?: ExtractionStatus;
  extractionError?: string | null;
}

/** A submission counts as graded once the instructor saved a grade. */
export function isGraded(row: SubmissionTableRow): boolean {
  return row.isAlreadyGraded && row.grade !== null;
}

/** Links of the grading screens (spec section 2), relative to nothing: absolute app paths. */
export function gradingPaths(assignmentId: string, questionId: string, submissionId: string) {
  const grade = `/assignments/${encodeURIComponent(assignmentId)}/questions/${encodeURIComponent(questionId)}/grade/${encodeURIComponent(submissionId)}`;
  return { grade, regrade: `${grade}?regrade=true`, report: `${grade}/report` };
}

/** Grades are shown as the API sends them, without float noise (7.499999 -> 7.5). */
export const formatPoints = (value: number) => String(Math.round(value * 100) / 100);
