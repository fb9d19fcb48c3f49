import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CREATE_COURSE_FILE_FIELDS,
  CreateCourseOutput,
  WaitingInvitationsOutput,
} from '@gradewise/shared/contracts/courses';
import { apiClient } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { courseQueries } from '../../../lib/queries/courses.ts';

export const COURSE_MESSAGES = {
  fetchListFailed: 'Failed to fetch courses.',
  fetchFailed: 'Failed to fetch course.',
  createFailed: 'Failed to create course.',
  created: 'Course created successfully.',
  notFound: 'Course not found or access denied.',
} as const;

/**
 * GET /api/courses: the instructor's own courses, or the student's enrolled ones. `loadedByRoute`:
 * the route's loader started the request as the navigation began (app/router.tsx, decision 0059),
 * so mounting neither asks again nor asks again after a failure it already answered.
 */
export function useCourses(options: { enabled?: boolean; loadedByRoute?: boolean } = {}) {
  return useQuery({
    ...courseQueries.list(),
    enabled: options.enabled ?? true,
    ...(options.loadedByRoute ? { refetchOnMount: false, retryOnMount: false } : {}),
  });
}

/**
 * GET /api/invitations: the courses whose invitation waits for the student's own email (asked
 * only when their course list is empty, where it explains why).
 */
export function useWaitingInvitations(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.courses.waitingInvitations(),
    queryFn: ({ signal }) => apiClient.get(apiPaths.courses.waitingInvitations, WaitingInvitationsOutput, { signal }),
    enabled,
  });
}

/** GET /api/courses/:id: `viewer` says whether the caller owns it ('staff') or is enrolled ('student'). */
export function useCourse(courseId: string | undefined) {
  return useQuery({ ...courseQueries.detail(courseId ?? ''), enabled: Boolean(courseId) });
}

export interface CreateCourseValues {
  title: string;
  courseImage?: File;
  syllabusFile?: File;
}

/** POST /api/courses (multipart: title, optional courseImage and syllabusFile). */
export function useCreateCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ title, courseImage, syllabusFile }: CreateCourseValues) => {
      const form = new FormData();
      form.append('title', title);
      if (courseImage) form.append(CREATE_COURSE_FILE_FIELDS.image, courseImage);
      if (syllabusFile) form.append(CREATE_COURSE_FILE_FIELDS.syllabus, syllabusFile);
      return apiClient.post(apiPaths.courses.create, form, CreateCourseOutput);
    },
    onSuccess: (result) => {
      queryClient.setQueryData(queryKeys.courses.detail(result.course._id), result.course);
      return queryClient.invalidateQueries({ queryKey: queryKeys.courses.list() });
    },
  });
}
