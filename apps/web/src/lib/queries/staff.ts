import { queryOptions } from '@tanstack/react-query';
import { StaffList } from '@gradewise/shared/contracts/staff';
import { WorkSplitOutput } from '@gradewise/shared/contracts/work-split';
import { apiClient } from '../api-client.ts';
import { apiPaths } from '../api-paths.ts';
import { queryKeys } from '../query-keys.ts';

/** A course's team and its work split: each key (lib/query-keys.ts) with its fetcher. */
export const staffQueries = {
  staff: (courseId: string) =>
    queryOptions({
      queryKey: queryKeys.courses.staff(courseId),
      queryFn: ({ signal }) => apiClient.get(apiPaths.courses.staff(courseId), StaffList, { signal }),
    }),
  workSplit: (courseId: string) =>
    queryOptions({
      queryKey: queryKeys.courses.workSplit(courseId),
      queryFn: ({ signal }) => apiClient.get(apiPaths.courses.workSplit(courseId), WorkSplitOutput, { signal }),
    }),
};
