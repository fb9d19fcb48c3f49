import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  GradeAllOutput,
  GradingOutput,
  SaveGradeOutput,
  UndoSaveGradeOutput,
  type SaveGradeInput,
} from '@gradewise/shared/contracts/grading';
import type { QuestionPage } from '@gradewise/shared/contracts/questions';
import { apiClient } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { gradingQueries } from '../../../lib/queries/grading.ts';
import { questionQueries } from '../../../lib/queries/questions.ts';
import { ROUTE_READ_FRESH_MS } from './grading-reads.ts';

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

/**
 * A grade changed (saved, undone, regraded, a suggestion refreshed): results read ahead for answers
 * no screen shows may be out of date, so they are dropped and read again when needed.
 */
function dropUnshownResults(queryClient: QueryClient): void {
  queryClient.removeQueries({
    queryKey: queryKeys.grading.results,
    predicate: (query) => query.getObserversCount() === 0,
  });
}

/** After a grade changes, everything that shows it: the question page, the queue, the progress, reports. */
export function refreshAfterGrading(queryClient: QueryClient, assignmentId: string, questionId: string) {
  // Results read ahead for answers not on screen may predate this change: read again when opened.
  dropUnshownResults(queryClient);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.questions.detail(assignmentId, questionId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.grading.queue(questionId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.grading.answerGroups(questionId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.grading.progress(questionId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.grading.suggestions(questionId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.reports.all }),
  ]);
}

/**
 * The question with this one submission (staff view expected; decision 0046). Until it arrives, a
 * cached copy of the question that holds the submission (a page of the question page's table, or
 * the rubric screens' whole list) stands in for it, so the screen opened from the table shows at
 * once (the session tells a stand-in from the copy read on opening before it says a submission is
 * missing).
 */
export function useGradingQuestion(assignmentId: string, questionId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useQuery({
    ...questionQueries.submission(assignmentId, questionId, submissionId),
    // Not read again on mounting when the route has just read it (decision 0091, as the queue and
    // the groups in 0079): a second read, and a render of the whole screen, before its first view.
    staleTime: ROUTE_READ_FRESH_MS,
    placeholderData: () => cachedCopyWith(queryClient, assignmentId, questionId, submissionId),
  });
}

function cachedCopyWith(queryClient: QueryClient, assignmentId: string, questionId: string, submissionId: string) {
  const copies = queryClient.getQueriesData<QuestionPage>({
    queryKey: queryKeys.questions.detail(assignmentId, questionId),
  });
  return copies
    .map(([, data]) => data)
    .find((data) => data?.viewer === 'staff' && data.submissions?.some((row) => row._id === submissionId));
}

/** POST grade/:submissionId when the screen opens (see `gradingQueries.result`). */
export function useGradingResult(assignmentId: string, questionId: string, submissionId: string, enabled: boolean) {
  return useQuery({ ...gradingQueries.result(assignmentId, questionId, submissionId), enabled });
}

export function useRegrade(assignmentId: string, questionId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiClient.post(apiPaths.submissions.regrade(assignmentId, questionId, submissionId), undefined, GradingOutput),
    onSuccess: () => refreshAfterGrading(queryClient, assignmentId, questionId),
  });
}

/**
 * A save of one answer's grade, as the mutation cache knows it: the queue's next answer is not read
 * ahead while it is out (useReadAhead), so what it moves to is read after it has answered.
 */
export const saveGradeKey = (submissionId: string) => ['grading', 'save-grade', submissionId] as const;

export function useSaveGrade(assignmentId: string, questionId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: saveGradeKey(submissionId),
    mutationFn: (input: SaveGradeInput) =>
      apiClient.post(apiPaths.submissions.saveGrade(assignmentId, questionId, submissionId), input, SaveGradeOutput),
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
      apiPaths.submissions.undoSave(assignmentId, questionId, submissionId),
      { gradeId },
      UndoSaveGradeOutput,
    );
    // The answer's screen must read what is saved now, not the undone grade it cached.
    queryClient.removeQueries({ queryKey: queryKeys.grading.result(submissionId) });
    await refreshAfterGrading(queryClient, assignmentId, questionId);
    return output;
  };
}

/** GET review-queue: latest submissions, lowest AI confidence first. */
export function useReviewQueue(assignmentId: string, questionId: string, enabled = true, staleTime = 0) {
  return useQuery({ ...gradingQueries.queue(assignmentId, questionId), enabled, staleTime });
}

/** How often the progress bar asks while a batch runs; it stops asking once the batch is finished. */
const PROGRESS_POLL_MS = 2000;

/**
 * GET grade-all/progress of the question's latest batch. Read from the server on every visit, so
 * a page reload finds a running batch and keeps showing its progress.
 */
export function useGradeAllProgress(assignmentId: string, questionId: string) {
  return useQuery({
    ...gradingQueries.progress(assignmentId, questionId),
    refetchInterval: (query) => (query.state.data && !query.state.data.isFinished ? PROGRESS_POLL_MS : false),
  });
}

export function useGradeAll(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.post(apiPaths.questions.gradeAll(assignmentId, questionId), undefined, GradeAllOutput),
    onSuccess: () => refreshAfterGrading(queryClient, assignmentId, questionId),
  });
}
