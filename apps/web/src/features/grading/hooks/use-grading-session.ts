import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { GradingComment, GradingOutput } from '@gradewise/shared/contracts/grading';
import { isRetryable, messageOf } from '../../../lib/api-client.ts';
import { useAfterPaint } from '../../../lib/use-after-paint.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
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
}

/**
 * Navigation state of the toast's Undo (decision 0032): the comments of the save just taken back,
 * shown again as unsaved edits, so the screen is as it was before Save Grade (or the key S).
 */
export interface RestoredDraft {
  submissionId: string;
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
}: GradingSessionOptions) {
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
  const restoredDraft = (location.state as { restoredDraft?: RestoredDraft } | null)?.restoredDraft;
  const [hasRestoredDraft, setHasRestoredDraft] = useState(false);

  const showResult = (output: GradingOutput) => {
    setResult(output);
    onResult(output);
  };
  /** Takes what the server has saved now as the screen's starting point. */
  const takeSaved = (output: GradingOutput) => {
    showResult(output);
    setLoadedGradeId(output.currentGradeId);
    setStaleMessage(null);
  };
  // The stored or suggested result arrives once per opening: take it into the editing state while
  // rendering (React's pattern for state that follows a changing input), not in an effect.
  const [loadedFrom, setLoadedFrom] = useState<GradingOutput | null>(null);
  if (grading.data && grading.data !== loadedFrom) {
    setLoadedFrom(grading.data);
    takeSaved(grading.data);
    // Back from an Undo: what the server has now is the starting point (the expected grade), and
    // the undone save's comments are the edits on top of it, not saved.
    if (restoredDraft?.submissionId === submissionId && !hasRestoredDraft) {
      setHasRestoredDraft(true);
      onResult(grading.data, restoredDraft.comments);
    }
  }
  // Used once: a reload of the page starts from what is saved.
  const { pathname, search, state: locationState } = location;
  useEffect(() => {
    if (!hasRestoredDraft || !restoredDraft) return;
    const rest = { ...(locationState as Record<string, unknown>) };
    delete rest.restoredDraft;
    void navigate(`${pathname}${search}`, { replace: true, state: rest });
  }, [hasRestoredDraft, restoredDraft, locationState, pathname, search, navigate]);

  /** After a refused save: load what is saved now (the other person's grade), discarding the edits here. */
  const reload = async (): Promise<GradingOutput | undefined> => {
    void question.refetch();
    const { data } = await grading.refetch();
    if (data) takeSaved(data);
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
    showResult,
    loadedGradeId,
    staleMessage,
    setStaleMessage,
    reload,
    queueItems: queue.data?.items ?? [],
    /** The queue as the server orders it now (after a save the grade-first rule may have switched off). */
    refetchQueue: async () => (await queue.refetch()).data?.items,
    position: inQueue && queue.data ? queuePosition(queue.data.items, submissionId, queue.data.remaining) : null,
  };
}

export type GradingSession = ReturnType<typeof useGradingSession>;
