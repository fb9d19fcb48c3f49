import { useQuery } from '@tanstack/react-query';
import { GradeHistoryOutput } from '@gradewise/shared/contracts/grade-audit';
import { apiClient } from '../../../lib/api-client.ts';

export const GRADE_HISTORY_MESSAGES = {
  fetchFailed: 'Failed to fetch the grade history.',
  notFound: 'Submission not found.',
  empty: 'No grade has been saved for this answer yet. Its history starts with the first saved grade.',
  auditCsvFailed: 'Failed to download the audit trail.',
} as const;

const questionPath = (assignmentId: string, questionId: string) =>
  `/assignments/${encodeURIComponent(assignmentId)}/questions/${encodeURIComponent(questionId)}`;

export const gradeHistoryKeys = {
  history: (submissionId: string) => ['grading', 'history', submissionId] as const,
};

/** GET .../submissions/:submissionId/grade-history, read when the History dialog opens (always fresh). */
export function useGradeHistory(assignmentId: string, questionId: string, submissionId: string, enabled: boolean) {
  return useQuery({
    queryKey: gradeHistoryKeys.history(submissionId),
    queryFn: ({ signal }) =>
      apiClient.get(
        `${questionPath(assignmentId, questionId)}/submissions/${encodeURIComponent(submissionId)}/grade-history`,
        GradeHistoryOutput,
        { signal },
      ),
    enabled,
    staleTime: 0,
  });
}

/** The audit CSV of a question (or the whole assignment without `questionId`). */
export function auditCsvPath(assignmentId: string, questionId?: string): string {
  return questionId
    ? `${questionPath(assignmentId, questionId)}/audit.csv`
    : `/assignments/${encodeURIComponent(assignmentId)}/audit.csv`;
}
