import { queryOptions } from '@tanstack/react-query';
import { AssignmentDetail, AssignmentList } from '@gradewise/shared/contracts/assignments';
import { apiClient } from '../api-client.ts';
import { apiPaths } from '../api-paths.ts';
import { queryKeys } from '../query-keys.ts';

/** The assignments queries: each key (lib/query-keys.ts) with its fetcher; hooks spread them into useQuery. */
export const assignmentQueries = {
  list: (courseId?: string) =>
    queryOptions({
      queryKey: queryKeys.assignments.list(courseId),
      queryFn: ({ signal }) => apiClient.get(apiPaths.assignments.list(courseId), AssignmentList, { signal }),
    }),
  detail: (assignmentId: string) =>
    queryOptions({
      queryKey: queryKeys.assignments.detail(assignmentId),
      queryFn: ({ signal }) => apiClient.get(apiPaths.assignments.one(assignmentId), AssignmentDetail, { signal }),
    }),
};
