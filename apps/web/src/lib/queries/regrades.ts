import { queryOptions } from '@tanstack/react-query';
import { RegradeQueue } from '@gradewise/shared/contracts/regrades';
import { apiClient } from '../api-client.ts';
import { apiPaths } from '../api-paths.ts';
import { queryKeys, type RegradeQueueStatus } from '../query-keys.ts';

/** The regrades queries: each key (lib/query-keys.ts) with its fetcher; hooks spread them into useQuery. */
export const regradeQueries = {
  queue: (courseId: string, status: RegradeQueueStatus) =>
    queryOptions({
      queryKey: queryKeys.regrades.queue(courseId, status),
      queryFn: ({ signal }) =>
        apiClient.get(apiPaths.courses.regradeRequests(courseId, status), RegradeQueue, { signal }),
    }),
};
