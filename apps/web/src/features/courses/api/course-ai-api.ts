import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CourseAiReader, CourseAiSettings, type CourseAiSettingsInput } from '@gradewise/shared/contracts/ai-cost';
import { apiClient } from '../../../lib/api-client.ts';

/** The course's AI provider, budget and confirmation amount (issue 31), and the students' notice. */
const aiCostKeys = {
  settings: (courseId: string) => ['ai-cost', 'settings', courseId] as const,
  reader: (courseId: string) => ['ai-cost', 'reader', courseId] as const,
};

export function useCourseAiSettings(courseId: string, enabled = true) {
  return useQuery({
    queryKey: aiCostKeys.settings(courseId),
    queryFn: ({ signal }) => apiClient.get(`/courses/${courseId}/ai-settings`, CourseAiSettings, { signal }),
    enabled,
  });
}

export function useUpdateCourseAiSettings(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CourseAiSettingsInput) =>
      apiClient.patch(`/courses/${courseId}/ai-settings`, input, CourseAiSettings),
    onSuccess: (settings) => {
      queryClient.setQueryData(aiCostKeys.settings(courseId), settings);
      void queryClient.invalidateQueries({ queryKey: aiCostKeys.reader(courseId) });
    },
  });
}

export function useCourseAiReader(courseId: string) {
  return useQuery({
    queryKey: aiCostKeys.reader(courseId),
    queryFn: ({ signal }) => apiClient.get(`/courses/${courseId}/ai-reader`, CourseAiReader, { signal }),
  });
}
