import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADD_STUDENTS_EXCEL_FILE_FIELD, AddStudentsOutput } from '@gradewise/shared/contracts/courses';
import { MessageOutput } from '@gradewise/shared/errors';
import { apiClient } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const ROSTER_MESSAGES = {
  addFailed: 'Failed to add students.',
  excelFailed: 'Failed to upload Excel.',
  added: 'Students added successfully.',
  addedViaExcel: 'Students added via Excel successfully!',
} as const;

function useRefreshCourse(courseId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.courses.detail(courseId) });
}

/** POST /api/courses/:id/add-students with the already split list of emails. */
export function useAddStudentsByEmail(courseId: string) {
  const refreshCourse = useRefreshCourse(courseId);
  return useMutation({
    mutationFn: (emails: string[]) =>
      apiClient.post(apiPaths.courses.addStudents(courseId), { emails }, AddStudentsOutput),
    onSuccess: refreshCourse,
  });
}

/** POST /api/courses/:id/add-students/excel (multipart `excelFile`, .xlsx or .xls). */
export function useAddStudentsFromExcel(courseId: string) {
  const refreshCourse = useRefreshCourse(courseId);
  return useMutation({
    mutationFn: (excelFile: File) => {
      const form = new FormData();
      form.append(ADD_STUDENTS_EXCEL_FILE_FIELD, excelFile);
      return apiClient.post(apiPaths.courses.addStudentsExcel(courseId), form, AddStudentsOutput);
    },
    onSuccess: refreshCourse,
  });
}

/** POST /api/courses/:id/confirm-student: the instructor confirms a registrant their invitation waits for. */
export function useConfirmStudent(courseId: string) {
  const refreshCourse = useRefreshCourse(courseId);
  return useMutation({
    mutationFn: (email: string) => apiClient.post(apiPaths.courses.confirmStudent(courseId), { email }, MessageOutput),
    onSuccess: refreshCourse,
  });
}

/**
 * POST /api/courses/:id/decline-registrant: "Not my student". The account registered with an
 * invited email is closed, so the invited student can register with it; the invitation waits.
 */
export function useDeclineRegistrant(courseId: string) {
  const refreshCourse = useRefreshCourse(courseId);
  return useMutation({
    mutationFn: (email: string) =>
      apiClient.post(apiPaths.courses.declineRegistrant(courseId), { email }, MessageOutput),
    onSuccess: refreshCourse,
  });
}
