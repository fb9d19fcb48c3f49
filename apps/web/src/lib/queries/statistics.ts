import { queryOptions } from '@tanstack/react-query';
import { StatisticsOutput } from '@gradewise/shared/contracts/statistics';
import { apiClient } from '../api-client.ts';
import { apiPaths } from '../api-paths.ts';
import { queryKeys } from '../query-keys.ts';

/** A question's statistics, or the assignment's without `questionId`. */
export const statisticsQuery = (assignmentId: string, questionId?: string) =>
  queryOptions({
    queryKey: queryKeys.statistics(assignmentId, questionId),
    queryFn: ({ signal }) =>
      apiClient.get(apiPaths.scoped.statistics(assignmentId, questionId), StatisticsOutput, { signal }),
  });
