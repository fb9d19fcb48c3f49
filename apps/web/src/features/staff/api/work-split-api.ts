import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { WorkSplitChangeOutput, WorkSplitOutput } from '@gradewise/shared/contracts/work-split';
import { apiClient } from '../../../lib/api-client.ts';

export const WORK_SPLIT_MESSAGES = {
  fetchFailed: 'Could not load the work split.',
  notFound: 'This course does not exist, or you are not on its staff.',
  saveFailed: 'Failed to save the work split.',
} as const;

const splitKey = (courseId: string) => ['courses', 'work-split', courseId] as const;
const splitPath = (courseId: string) => `/courses/${encodeURIComponent(courseId)}/work-split`;

/** GET /api/courses/:id/work-split (owner and TAs). */
export function useWorkSplit(courseId: string) {
  return useQuery({
    queryKey: splitKey(courseId),
    queryFn: ({ signal }) => apiClient.get(splitPath(courseId), WorkSplitOutput, { signal }),
  });
}

/**
 * Every change answers the whole split; it replaces the cached one, and the grading lists (queue,
 * question pages) are asked again since whose answers are whose changed.
 */
function useSplitChange<Input>(courseId: string, send: (input: Input) => Promise<WorkSplitChangeOutput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (output) => {
      queryClient.setQueryData(splitKey(courseId), output.split);
      void queryClient.invalidateQueries({ queryKey: ['grading', 'queue'] });
    },
  });
}

/** PUT /api/courses/:id/work-split/questions/:questionId (owner). */
export function useSetQuestionGraders(courseId: string) {
  return useSplitChange(courseId, ({ questionId, graderIds }: { questionId: string; graderIds: string[] }) =>
    apiClient.put(
      `${splitPath(courseId)}/questions/${encodeURIComponent(questionId)}`,
      { graderIds },
      WorkSplitChangeOutput,
    ),
  );
}

/** PUT /api/courses/:id/work-split/students (owner). */
export function useSetStudentGraders(courseId: string) {
  return useSplitChange(courseId, (students: { studentId: string; graderId: string | null }[]) =>
    apiClient.put(`${splitPath(courseId)}/students`, { students }, WorkSplitChangeOutput),
  );
}

/**
 * Sections of about equal size in list order (by name): the first students go to the first grader,
 * and so on, so each section is a contiguous range of names an instructor can announce.
 */
export function splitEvenly(
  studentIds: readonly string[],
  graderIds: readonly string[],
): { studentId: string; graderId: string }[] {
  return studentIds.map((studentId, index) => ({
    studentId,
    graderId: graderIds[Math.floor((index * graderIds.length) / studentIds.length)]!,
  }));
}
