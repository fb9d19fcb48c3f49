import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import type { GradingComment, GradingOutput } from '@gradewise/shared/contracts/grading';
import { isRetryable, messageOf } from '../../../lib/api-client.ts';
import { useAfterPaint } from '../../../lib/use-after-paint.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { gradingQueries } from '../../../lib/queries/grading.ts';
import { GRADING_MESSAGES, useGradingQuestion, useGradingResult, useReviewQueue } from '../api/grading-api.ts';
import { useReadAhead, useResultDroppedOnClose } from '../api/grading-prefetch.ts';
import { ROUTE_READ_FRESH_MS } from '../api/grading-reads.ts';
import { queuePosition } from '../components/review-queue-bar.tsx';

export interface GradingSessionOptions {
  assignmentId: string;
  questionId: string;
  submissionId: string;
  inQueue: boolean;
  /**
   * Called with every result the screen shows (opening, regrade, reload), to load its comments;
   * with `draft` after an Undo: the undone save's comments, edits on top of the result.
   */
  onResult(output: GradingOutput, draft?: readonly GradingComment[]): void;
  /**
   * Called with what the server has after an Undo when it is read after the undone comments were
   * put back: the comments on screen stay, and are edits on top of it from now on.
   */
  onBase(output: GradingOutput): void;
  /** Whether the comments on screen differ from the result last loaded (the instructor's edits). */
  isEdited: boolean;
}

/**
 * Navigation state of the toast's Undo (decision 0032): the comments of the save just taken back,
 * shown again as unsaved edits, so the screen is as it was before Save Grade (or the key S).
 * `gradeId` is the undone grade's: a read of the answer whose current grade is still that one was
 * made before the undo (decision 0112).
 */
export interface RestoredDraft {
  submissionId: string;
  gradeId: string;
  comments: GradingComment[];
}

/**
 * What the grading screen reads: the question with the submission, the stored or suggested
 * result (graded on opening when there is none), the review queue, and the saved grade this
 * screen loaded (sent back on save so a grade saved meanwhile by someone else is not overwritten).
 */
export function useGradingSession({
  assignmentId,
  questionId,
  submissionId,
  inQueue,
  onResult,
  onBase,
  isEdited,
}: GradingSessionOptions) {
  const queryClient = useQueryClient();
  const question = useGradingQuestion(assignmentId, questionId, submissionId);
  const detail = question.data;
  const isStaffView = detail?.viewer === 'staff';
  const submission = isStaffView ? detail.submissions?.find((row) => row._id === submissionId) : undefined;
  // The question page's cached copy shows at once, but only the copy read on opening says an answer
  // is gone: one sent since that copy (a new version, a regrade request's) is not in it yet. The
  // route's read, started as the navigation did, is one (ROUTE_READ_FRESH_MS, decision 0091).
  const [openedAt] = useState(() => Date.now());
  const isRead =
    question.isFetchedAfterMount ||
    (question.isSuccess && !question.isPlaceholderData && question.dataUpdatedAt >= openedAt - ROUTE_READ_FRESH_MS);
  const isMissing = isRead && question.isSuccess && (!isStaffView || !submission);
  const grading = useGradingResult(assignmentId, questionId, submissionId, Boolean(submission));
  useResultDroppedOnClose(submissionId);
  // Not read again on mounting when the route has just read it (ROUTE_READ_FRESH_MS, decision 0079).
  const queue = useReviewQueue(assignmentId, questionId, inQueue, ROUTE_READ_FRESH_MS);
  // The route starts POST grade before the submission is known (decision 0079): its refusal of an
  // answer that is not there is the screen's "not found", said once, not a grading failure too.
  const gradingError = submission ? grading.error : null;

  useErrorToast(question.error, GRADING_MESSAGES.fetchFailed);
  useErrorToast(gradingError, GRADING_MESSAGES.gradeFailed);
  const missing = useMemo(() => (isMissing ? new Error(GRADING_MESSAGES.notFound) : null), [isMissing]);
  useErrorToast(missing, GRADING_MESSAGES.notFound);

  const [result, setResult] = useState<GradingOutput | null>(null);
  // The saved grade this screen loaded (sent back as expectedGradeId): set when the screen loads or
  // reloads, never by a regrade, so a grade saved by someone else meanwhile is not overwritten unseen.
  const [loadedGradeId, setLoadedGradeId] = useState<string | null | undefined>(undefined);
  const [staleMessage, setStaleMessage] = useState<string | null>(null);
  const location = useLocation();
  const navigate = useNavigate();
  const requested = (location.state as { restoredDraft?: RestoredDraft } | null)?.restoredDraft;
  const restoredDraft = requested?.submissionId === submissionId ? requested : undefined;

  const showResult = (output: GradingOutput) => {
    setResult(output);
    onResult(output);
  };
  /** Makes what the server has now the base of the screen: its result and the expected grade. */
  const setBase = (output: GradingOutput) => {
    setResult(output);
    setLoadedGradeId(output.currentGradeId);
    setStaleMessage(null);
  };
  /** Takes what the server has saved now as the screen's starting point, comments included. */
  const takeSaved = (output: GradingOutput) => {
    setBase(output);
    onResult(output);
  };

  // What the server sends is taken into the editing state while rendering (React's pattern for
  // state that follows a changing input), not in an effect; what the instructor has on screen and
  // not saved is never replaced by a read that arrives later (decisions 0112, 0117). A read arrives on
  // opening, and again when something drops the answer's stored result while its screen is open
  // (the toast's Undo), or sets it (a refreshed suggestion, read by useRefreshedSuggestion); the
  // Undo's comments arrive by navigation, before or after that read, in either order. This render
  // is the one place that tells whether the comments are edited when a read lands: a check made
  // when the read was asked for or answered can be passed by an edit made before it is drawn.
  const [loadedFrom, setLoadedFrom] = useState<GradingOutput | null>(null);
  // The newest read kept off the screen by the instructor's edits: offered, shown only when asked
  // for (take). Dropped when the screen takes another result.
  const [heldRead, setHeldRead] = useState<GradingOutput | null>(null);
  // The Undo whose comments were put back (its undone grade), so they are put back once.
  const [restoredGradeId, setRestoredGradeId] = useState<string | null>(null);
  // Put back on a result read before the undo (its current grade the undone one): what the server
  // has now is still to be read, and the comments stay through that read.
  const [awaitingUndoneRead, setAwaitingUndoneRead] = useState<RestoredDraft | null>(null);
  const read = grading.data;
  if (read && read !== loadedFrom) {
    setLoadedFrom(read);
    const isAfterUndo = awaitingUndoneRead !== null && read.currentGradeId !== awaitingUndoneRead.gradeId;
    if (loadedFrom === null || (!isEdited && !awaitingUndoneRead)) {
      // The first read, or nothing of the instructor's on screen to lose.
      takeSaved(read);
      setHeldRead(null);
    } else if (isAfterUndo) {
      // What the server has after the undo, under the comments it put back (and any edits since).
      setBase(read);
      onBase(read);
      setAwaitingUndoneRead(null);
      setHeldRead(null);
    } else if (!awaitingUndoneRead) {
      // The instructor's edits stay, on the result and the expected grade they were made on: a save
      // then answers as it would have (a grade saved meanwhile by someone else is refused, and
      // Reload shows it). The read is held, to be offered (a refreshed suggestion's Show).
      setHeldRead(read);
    }
    // Otherwise a read made before the undo, while its comments wait for the read after it: neither
    // taken nor offered.
  }
  // Back from an Undo: what the server has now (the newest read, also one kept off the screen by
  // edits) is the starting point, the expected grade, and the undone save's comments are the edits
  // on top of it, not saved. They replace what was on screen: the instructor asked for them.
  const latest = read ?? result;
  if (restoredDraft && latest && restoredDraft.gradeId !== restoredGradeId) {
    setRestoredGradeId(restoredDraft.gradeId);
    setBase(latest);
    onResult(latest, restoredDraft.comments);
    setHeldRead(null);
    setAwaitingUndoneRead(latest.currentGradeId === restoredDraft.gradeId ? restoredDraft : null);
  }
  // Used once: a reload of the page starts from what is saved.
  const { pathname, search, state: locationState } = location;
  const isRestored = Boolean(restoredDraft && restoredDraft.gradeId === restoredGradeId);
  useEffect(() => {
    if (!isRestored) return;
    const rest = { ...(locationState as Record<string, unknown>) };
    delete rest.restoredDraft;
    void navigate(`${pathname}${search}`, { replace: true, state: rest });
  }, [isRestored, locationState, pathname, search, navigate]);

  /**
   * Shows what the server sent in place of what is on screen, edits and all (Reload, a refreshed
   * suggestion the instructor asked to see): the instructor chose it.
   */
  const take = (output: GradingOutput) => {
    setLoadedFrom(output);
    setAwaitingUndoneRead(null);
    setHeldRead(null);
    takeSaved(output);
  };

  /** After a refused save: load what is saved now (the other person's grade), discarding the edits here. */
  const reload = async (): Promise<GradingOutput | undefined> => {
    void question.refetch();
    const { data } = await grading.refetch();
    if (data) take(data);
    return data;
  };

  const failure = isMissing
    ? GRADING_MESSAGES.notFound
    : question.isError
      ? messageOf(question.error, GRADING_MESSAGES.fetchFailed)
      : gradingError
        ? messageOf(gradingError, GRADING_MESSAGES.gradeFailed)
        : null;
  // A read that failed for a passing reason (a server error, a lost connection) can be tried again;
  // a refusal of the request (a submission that is not there, a malformed id) cannot, and the
  // screen only offers Close then.
  const failedRead = question.isError ? question : gradingError ? grading : null;
  const retry = failedRead && !isMissing && isRetryable(failedRead.error) ? () => void failedRead.refetch() : null;
  // A grade saved on an earlier version is not this version's: opening it grades it afresh.
  const isAlreadyGraded =
    Boolean(submission?.isAlreadyGraded && !submission.isGradeOnEarlierVersion) ||
    submission?.gradingStatus === 'succeeded';

  // While this answer is read, the next ones of the queue are read ahead (decision 0079): once its
  // result has been painted, so their requests and parsing are not part of the screen's first view
  // (on a phone its largest paint, decision 0091).
  const isResultPainted = useAfterPaint(Boolean(result));
  useReadAhead({
    assignmentId,
    questionId,
    submissionId,
    items: queue.data?.items ?? [],
    queueReadAt: queue.dataUpdatedAt,
    enabled: inQueue && isResultPainted,
  });

  return {
    detail,
    submission,
    isLoading: question.isPending || (!submission && !isRead),
    /** Grading (or loading a stored grade) on opening, before any result is shown. */
    isGrading: Boolean(submission && !result && grading.isFetching),
    isReloading: grading.isFetching,
    isAlreadyGraded,
    failure,
    /** Reads the failed data again; null when trying again cannot help. */
    retry,
    result,
    /** Shows a result in place of the one on screen and its comments (a regrade). */
    showResult: (output: GradingOutput) => {
      setAwaitingUndoneRead(null);
      setHeldRead(null);
      showResult(output);
    },
    take,
    /** The newest read of this answer kept off the screen by the instructor's edits (null: none). */
    heldRead,
    loadedGradeId,
    staleMessage,
    setStaleMessage,
    reload,
    queueItems: queue.data?.items ?? [],
    /**
     * The queue as the server orders it after a save (the grade-first rule may have switched off).
     * The save's refreshAfterGrading marks it out of date and waits for its read again (this screen
     * observes it) before the save's own callbacks run: that read is the one used, not a second
     * (decision 0121). Read here only when it was not read again, or that read failed.
     */
    queueAfterSave: async () => {
      const state = queryClient.getQueryState(gradingQueries.queue(assignmentId, questionId).queryKey);
      const isReadAfterSave = state?.status === 'success' && !state.isInvalidated && state.fetchStatus === 'idle';
      return isReadAfterSave ? state.data?.items : (await queue.refetch()).data?.items;
    },
    position: inQueue && queue.data ? queuePosition(queue.data.items, submissionId, queue.data.remaining) : null,
  };
}

export type GradingSession = ReturnType<typeof useGradingSession>;
