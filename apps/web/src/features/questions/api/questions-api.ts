import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CREATE_QUESTION_FILE_FIELDS,
  CreateQuestionOutput,
  QuestionDetail,
} from '@gradewise/shared/contracts/questions';
import { apiClient } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { questionQueries } from '../../../lib/queries/questions.ts';

export const QUESTION_MESSAGES = {
  fetchListFailed: 'Failed to fetch questions.',
  fetchFailed: 'Failed to fetch question.',
  createFailed: 'Failed to create question.',
  created: 'Question created successfully!',
  notFound: 'Question not found.',
} as const;

/** The question page reads the shared contract as is: staff or student view, grading fields included. */
export const QuestionPageData = QuestionDetail;
export type QuestionPageData = QuestionDetail;

/** GET /api/assignments/:assignmentId/questions, in creation order. */
export function useQuestions(assignmentId: string | undefined) {
  return useQuery({ ...questionQueries.list(assignmentId ?? ''), enabled: Boolean(assignmentId) });
}

/** GET .../questions/:questionId?includeSubmissions=1: the question's one cache entry, with the submissions the caller may see. */
export function useQuestion(assignmentId: string | undefined, questionId: string | undefined) {
  return useQuery({
    ...questionQueries.detail(assignmentId ?? '', questionId ?? ''),
    enabled: Boolean(assignmentId && questionId),
    // Submitted PDFs are read and AI suggestions made in the background (Grade All): while any row
    // waits for either, look again every few seconds, so its state appears without a reload.
    refetchInterval: (query) => (hasWorkInFlight(query.state.data) ? BACKGROUND_POLL_MS : false),
  });
}

const BACKGROUND_POLL_MS = 3_000;

function hasWorkInFlight(data: QuestionPageData | undefined): boolean {
  if (!data) return false;
  if (data.viewer === 'staff') {
    return (data.submissions ?? []).some(
      (row) =>
        row.extractionStatus === 'queued' || row.extractionStatus === 'reading' || row.reviewStatus === 'grading',
    );
  }
  return (data.submissions ?? []).some(
    (row) => row.extractionStatus === 'queued' || row.extractionStatus === 'reading',
  );
}

export interface CreateQuestionValues {
  title: string | null;
  points: number;
  questionFile: File;
  solutionFile?: File;
}

/** POST .../questions (multipart: title, points, questionFile, optional solutionFile). */
export function useCreateQuestion(assignmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ title, points, questionFile, solutionFile }: CreateQuestionValues) => {
      const form = new FormData();
      if (title) form.append('title', title);
      form.append('points', String(points));
      form.append(CREATE_QUESTION_FILE_FIELDS.question, questionFile);
      if (solutionFile) form.append(CREATE_QUESTION_FILE_FIELDS.solution, solutionFile);
      return apiClient.post(apiPaths.questions.list(assignmentId), form, CreateQuestionOutput);
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.questions.list(assignmentId) }),
        // The assignment's total points just changed.
        queryClient.invalidateQueries({ queryKey: queryKeys.assignments.all }),
      ]),
  });
}
