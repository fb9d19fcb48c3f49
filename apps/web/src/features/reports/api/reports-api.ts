import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreateRegradeRequestOutput, type CreateRegradeRequestInput } from '@gradewise/shared/contracts/regrades';
import { apiClient } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { downloadCsv } from '../../../lib/download-csv.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { reportQueries } from '../../../lib/queries/reports.ts';

/** Texts of spec sections 2 and 8 for the report. */
export const REPORT_MESSAGES = {
  loading: 'Loading Grading Report…',
  fetchFailed: 'Failed to fetch grading report data.',
  notFound: 'Submission not found.',
  csvFailed: 'Failed to download grades.',
  regradeFailed: 'Failed to send the regrade request.',
} as const;

/** GET .../grade/:submissionId/report: the staff view, or a student's own latest submission. */
export function useGradingReport(assignmentId: string, questionId: string, submissionId: string) {
  return useQuery(reportQueries.grading(assignmentId, questionId, submissionId));
}

export type GradesCsvScope = { assignmentId: string; questionId?: string };

/** Downloads the grades CSV of an assignment, or of one question (see lib/download-csv.ts). */
export function downloadGradesCsv({ assignmentId, questionId }: GradesCsvScope, filename: string): Promise<void> {
  return downloadCsv(apiPaths.scoped.gradesCsv(assignmentId, questionId), filename);
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
        apiPaths.questions.regradeRequests(assignmentId, questionId),
        { ...input, submissionId },
        CreateRegradeRequestOutput,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.reports.grading(submissionId) }),
  });
}
