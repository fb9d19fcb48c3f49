import { useQuery } from '@tanstack/react-query';
import { gradingQueries } from '../../../lib/queries/grading.ts';

export const GRADE_HISTORY_MESSAGES = {
  fetchFailed: 'Failed to fetch the grade history.',
  notFound: 'Submission not found.',
  empty: 'No grade has been saved for this answer yet. Its history starts with the first saved grade.',
  auditCsvFailed: 'Failed to download the audit trail.',
} as const;

/** GET .../submissions/:submissionId/grade-history, read when the History dialog opens (always fresh). */
export function useGradeHistory(assignmentId: string, questionId: string, submissionId: string, enabled: boolean) {
  return useQuery({ ...gradingQueries.history(assignmentId, questionId, submissionId), enabled });
}
