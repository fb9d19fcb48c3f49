import { queryOptions } from '@tanstack/react-query';
import { CourseDetail, CourseList } from '@gradewise/shared/contracts/courses';
import { apiClient } from '../api-client.ts';
import { apiPaths } from '../api-paths.ts';
import { queryKeys } from '../query-keys.ts';

/** The courses queries: each key (lib/query-keys.ts) with its fetcher; hooks spread them into useQuery. */
export const courseQueries = {
  /** The instructor's own courses, or the student's enrolled ones. */
  list: () =>
    queryOptions({
      queryKey: queryKeys.courses.list(),
      queryFn: ({ signal }) => apiClient.get(apiPaths.courses.list, CourseList, { signal }),
    }),
  detail: (courseId: string) =>
    queryOptions({
      queryKey: queryKeys.courses.detail(courseId),
      queryFn: ({ signal }) => apiClient.get(apiPaths.courses.one(courseId), CourseDetail, { signal }),
    }),
};
