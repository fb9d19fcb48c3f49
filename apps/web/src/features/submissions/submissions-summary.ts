import { isLeftForGradeAll } from '@gradewise/shared/contracts/grading';
import type { QuestionPage } from '@gradewise/shared/contracts/questions';
import { isGraded, type SubmissionTableRow } from './components/submission-row.ts';

/** What the table shows from the whole list, whatever the page: how many, whether any is graded, what Grade All has left. */
export interface SubmissionsSummary {
  total: number;
  anyGraded: boolean;
  leftForGradeAll: number;
}

/**
 * From the server's `submissionsPage`; an answer without it carries the whole list, so the rows say
 * the same (the spec's unpaged API, which other clients still read).
 */
export function submissionsSummaryOf(data: QuestionPage): SubmissionsSummary {
  if (data.submissionsPage) {
    const { total, anyGraded, leftForGradeAll } = data.submissionsPage;
    return { total, anyGraded, leftForGradeAll: leftForGradeAll ?? 0 };
  }
  const rows: SubmissionTableRow[] = data.submissions ?? [];
  return {
    total: rows.length,
    anyGraded: rows.some(isGraded),
    leftForGradeAll:
      data.viewer === 'staff'
        ? (data.submissions ?? []).filter((row) => isLeftForGradeAll(row.reviewStatus)).length
        : 0,
  };
}
