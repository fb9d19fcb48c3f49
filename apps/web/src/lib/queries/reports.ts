import { queryOptions } from '@tanstack/react-query';
import { GradingReport } from '@gradewise/shared/contracts/review';
import { apiClient } from '../api-client.ts';
import { apiPaths } from '../api-paths.ts';
import { queryKeys } from '../query-keys.ts';

/** The reports queries: each key (lib/query-keys.ts) with its fetcher; hooks spread them into useQuery. */
export const reportQueries = {
  /** The staff view, or a student's own latest submission. */
  grading: (assignmentId: string, questionId: string, submissionId: string) =>
    queryOptions({
      queryKey: queryKeys.reports.grading(submissionId),
      queryFn: ({ signal }) =>
        apiClient.get(apiPaths.submissions.report(assignmentId, questionId, submissionId), GradingReport, { signal }),
    }),
};
