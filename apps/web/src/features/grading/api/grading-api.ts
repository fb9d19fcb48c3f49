import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  GradeAllOutput,
  GradingOutput,
  GradingProgressOutput,
  SaveGradeOutput,
  UndoSaveGradeOutput,
  type SaveGradeInput,
} from '@gradewise/shared/contracts/grading';
import { QuestionDetail } from '@gradewise/shared/contracts/questions';
import { ReviewQueueOutput } from '@gradewise/shared/contracts/review';
import { apiClient } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Texts of spec sections 4 and 8 for the grading screen. */
export const GRADING_MESSAGES = {
  gradingInProgress: 'Grading in progress… This may take up to 90 seconds.',
  gradeFailed: 'Failed to grade submission.',
  regradeFailed: 'Failed to regrade submission.',
  regraded: 'Regrading completed successfully!',
  saveFailed: 'Failed to save grade.',
  saved: 'Grade saved successfully!',
  undoFailed: 'Failed to undo the grade.',
  fetchFailed: 'Failed to fetch grading data.',
  notFound: 'Submission not found.',
  gradeAllFailed: 'Failed to start grading all submissions.',
  queueFailed: 'Failed to fetch the review queue.',
} as const;

/** The question's API path; the grading, suggestion and quota calls hang below it. */
export const questionPath = (assignmentId: string, questionId: string) =>
  `/assignments/${encodeURIComponent(assignmentId)}/questions/${encodeURIComponent(questionId)}`;

export const gradingKeys = {
  /** The question with its submissions, parsed with the full shared contract (under the question's views). */
  question: (assignmentId: string, questionId: string) =>
    [...queryKeys.questions.views(assignmentId, questionId), { includeSubmissions: true, view: 'grading' }] as const,
  grading: (submissionId: string) => ['grading', 'result', submissionId] as const,
  progress: (questionId: string) => ['grading', 'progress', questionId] as const,
  queue: (questionId: string) => ['grading', 'queue', questionId] as const,
  answerGroups: (questionId: string) => ['grading', 'answer-groups', questionId] as const,
};

/** After a grade changes, everything that shows it: the question page, the queue, the progress, reports. */
export function refreshAfterGrading(queryClient: QueryClient, assignmentId: string, questionId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.questions.views(assignmentId, questionId) }),
    queryClient.invalidateQueries({ queryKey: gradingKeys.queue(questionId) }),
    queryClient.invalidateQueries({ queryKey: gradingKeys.answerGroups(questionId) }),
    queryClient.invalidateQueries({ queryKey: gradingKeys.progress(questionId) }),
    queryClient.invalidateQueries({ queryKey: ['grading', 'suggestions', questionId] }),
    queryClient.invalidateQueries({ queryKey: ['reports'] }),
  ]);
}

/** GET .../questions/:questionId?includeSubmissions=1, staff view expected. */
export function useGradingQuestion(assignmentId: string, questionId: string) {
  return useQuery({
    queryKey: gradingKeys.question(assignmentId, questionId),
    queryFn: ({ signal }) =>
      apiClient.get(`${questionPath(assignmentId, questionId)}?includeSubmissions=1`, QuestionDetail, { signal }),
  });
}

/**
 * POST grade/:submissionId when the screen opens: the stored result of a graded submission, else a
 * new AI suggestion (the server waits for it). A query rather than a mutation so it runs once per
 * opening, even when React mounts the screen twice; dropped from the cache when the screen closes,
 * so the next opening reads the latest state.
 */
export function useGradingResult(assignmentId: string, questionId: string, submissionId: string, enabled: boolean) {
  return useQuery({
    queryKey: gradingKeys.grading(submissionId),
    queryFn: () =>
      apiClient.post(
        `${questionPath(assignmentId, questionId)}/grade/${encodeURIComponent(submissionId)}`,
        undefined,
        GradingOutput,
      ),
    enabled,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

export function useRegrade(assignmentId: string, questionId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiClient.post(
        `${questionPath(assignmentId, questionId)}/regrade/${encodeURIComponent(submissionId)}`,
        undefined,
        GradingOutput,
      ),
    onSuccess: () => refreshAfterGrading(queryClient, assignmentId, questionId),
  });
}

export function useSaveGrade(assignmentId: string, questionId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SaveGradeInput) =>
      apiClient.post(
        `${questionPath(assignmentId, questionId)}/save-grade/${encodeURIComponent(submissionId)}`,
        input,
        SaveGradeOutput,
      ),
    onSuccess: () => refreshAfterGrading(queryClient, assignmentId, questionId),
  });
}

/**
 * POST save-grade/:submissionId/undo: takes back a save just made (the toast's Undo). A plain
 * function, not a mutation hook: it runs after the grading screen that saved has closed or moved on.
 */
export function useUndoGradeSave(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return async (submissionId: string, gradeId: string) => {
    const output = await apiClient.post(
      `${questionPath(assignmentId, questionId)}/save-grade/${encodeURIComponent(submissionId)}/undo`,
      { gradeId },
      UndoSaveGradeOutput,
    );
    // The answer's screen must read what is saved now, not the undone grade it cached.
    queryClient.removeQueries({ queryKey: gradingKeys.grading(submissionId) });
    await refreshAfterGrading(queryClient, assignmentId, questionId);
    return output;
  };
}

/** GET review-queue: latest submissions, lowest AI confidence first. */
export function useReviewQueue(assignmentId: string, questionId: string, enabled = true) {
  return useQuery({
    queryKey: gradingKeys.queue(questionId),
    queryFn: ({ signal }) =>
      apiClient.get(`${questionPath(assignmentId, questionId)}/review-queue`, ReviewQueueOutput, { signal }),
    enabled,
  });
}

/** How often the progress bar asks while a batch runs; it stops asking once the batch is finished. */
const PROGRESS_POLL_MS = 2000;

/**
 * GET grade-all/progress of the question's latest batch. Read from the server on every visit, so
 * a page reload finds a running batch and keeps showing its progress.
 */
export function useGradeAllProgress(assignmentId: string, questionId: string) {
  return useQuery({
    queryKey: gradingKeys.progress(questionId),
    queryFn: ({ signal }) =>
      apiClient.get(`${questionPath(assignmentId, questionId)}/grade-all/progress`, GradingProgressOutput, { signal }),
    refetchInterval: (query) => (query.state.data && !query.state.data.isFinished ? PROGRESS_POLL_MS : false),
  });
}

export function useGradeAll(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.post(`${questionPath(assignmentId, questionId)}/grade-all`, undefined, GradeAllOutput),
    onSuccess: () => refreshAfterGrading(queryClient, assignmentId, questionId),
  });
}

export function gradePagePath(
  assignmentId: string,
  questionId: string,
  submissionId: string,
  options: { queue?: boolean } = {},
) {
  return `${questionPath(assignmentId, questionId)}/grade/${encodeURIComponent(submissionId)}${options.queue ? '?queue=1' : ''}`;
}
