import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CREATE_QUESTION_FILE_FIELDS,
  CreateQuestionOutput,
  QuestionFeedbackSettingsOutput,
  QuestionPage,
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
  feedbackSettingFailed: 'Failed to change what comments show.',
} as const;

/**
 * The question page reads the shared contract as is: staff or student view, and for staff the
 * table's fields of each row (a page, decision 0057). Whole reads (QuestionDetail) fit it too.
 */
export const QuestionPageData = QuestionPage;
export type QuestionPageData = QuestionPage;

/** GET /api/assignments/:assignmentId/questions, in creation order. */
export function useQuestions(assignmentId: string | undefined) {
  return useQuery({ ...questionQueries.list(assignmentId ?? ''), enabled: Boolean(assignmentId) });
}

/** Rows per page of the question page's table: the choices its pager offers, and the first one shown. */
export const SUBMISSIONS_PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_SUBMISSIONS_PAGE_SIZE = SUBMISSIONS_PAGE_SIZES[0];

/**
 * GET .../questions/:questionId?includeSubmissions=1&offset=&limit=: the question with one page of
 * the submissions the caller may see (decision 0042). The page shown stays while the next one loads.
 */
export function useQuestionPage(
  assignmentId: string | undefined,
  questionId: string | undefined,
  page: { offset: number; limit: number },
) {
  return useQuery({
    ...questionQueries.page(assignmentId ?? '', questionId ?? '', page.offset, page.limit),
    enabled: Boolean(assignmentId && questionId),
    placeholderData: keepPreviousData,
    // Submitted PDFs are read and AI suggestions made in the background (Grade All): while any row
    // shown waits for either, look again every few seconds, so its state appears without a reload.
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

/**
 * PATCH .../feedback-settings (the owner): whether the grader's comments may state the expected
 * answer (decision 0088). The question is read again (it carries the setting), and the suggestion
 * summary too: with the built-in grader the change starts a refresh of the pending suggestions.
 */
export function useQuestionFeedbackSettings(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (showExpectedAnswer: boolean) =>
      apiClient.patch(
        apiPaths.questions.feedbackSettings(assignmentId, questionId),
        { showExpectedAnswer },
        QuestionFeedbackSettingsOutput,
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.questions.detail(assignmentId, questionId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.grading.suggestions(questionId) }),
      ]),
  });
}
