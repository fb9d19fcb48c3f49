import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { CreateRegradeRequestOutput, type CreateRegradeRequestInput } from '@gradewise/shared/contracts/regrades';
import { GradingReport } from '@gradewise/shared/contracts/review';
import { apiClient } from '../../../lib/api-client.ts';

/** Texts of spec sections 2 and 8 for the report. */
export const REPORT_MESSAGES = {
  loading: 'Loading Grading Report…',
  fetchFailed: 'Failed to fetch grading report data.',
  notFound: 'Submission not found.',
  csvFailed: 'Failed to download grades.',
  regradeFailed: 'Failed to send the regrade request.',
} as const;

const questionPath = (assignmentId: string, questionId: string) =>
  `/assignments/${encodeURIComponent(assignmentId)}/questions/${encodeURIComponent(questionId)}`;

export const reportKeys = {
  report: (submissionId: string) => ['reports', 'grading', submissionId] as const,
};

/** GET .../grade/:submissionId/report: the staff view, or a student's own latest submission. */
export function useGradingReport(assignmentId: string, questionId: string, submissionId: string) {
  return useQuery({
    queryKey: reportKeys.report(submissionId),
    queryFn: ({ signal }) =>
      apiClient.get(
        `${questionPath(assignmentId, questionId)}/grade/${encodeURIComponent(submissionId)}/report`,
        GradingReport,
        {
          signal,
        },
      ),
  });
}

export type GradesCsvScope = { assignmentId: string; questionId?: string };

export function gradesCsvPath({ assignmentId, questionId }: GradesCsvScope): string {
  return questionId
    ? `${questionPath(assignmentId, questionId)}/grades.csv`
    : `/assignments/${encodeURIComponent(assignmentId)}/grades.csv`;
}

/**
 * Downloads a grades CSV. The API needs the bearer token, which a plain link cannot send, so the
 * file is fetched through the API client (a CSV is not JSON, so the client hands back its text)
 * and saved from a temporary object URL.
 */
export async function downloadGradesCsv(scope: GradesCsvScope, filename: string): Promise<void> {
  const csv = await apiClient.get(gradesCsvPath(scope), z.string());
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the download; the URL is no longer needed.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

/**
 * POST .../regrade-requests (the student, on their own report). The report carries the requests and
 * what is left of the window and the limit, so it is refreshed after a request is sent.
 */
export function useRequestRegrade(assignmentId: string, questionId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<CreateRegradeRequestInput, 'submissionId'>) =>
      apiClient.post(
        `${questionPath(assignmentId, questionId)}/regrade-requests`,
        { ...input, submissionId },
        CreateRegradeRequestOutput,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.report(submissionId) }),
  });
}
