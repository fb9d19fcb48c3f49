import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import type { GradingOutput, SavedGrade } from '@gradewise/shared/contracts/grading';
import type { ReviewQueueItem } from '@gradewise/shared/contracts/review';
import { isStaleSave, messageOf } from '../../../lib/api-client.ts';
import { showError, showInfo, showSuccess, showSuccessWithUndo } from '../../../lib/toasts.tsx';
import type { BackState } from '../../../lib/use-go-back.ts';
import { gradePagePath } from '../../../lib/paths.ts';
import { GRADING_MESSAGES, useRegrade, useSaveGrade, useUndoGradeSave } from '../api/grading-api.ts';
import { toSaveGradeComments } from '../comment-editing.ts';
import { firstToReview, nextToReview } from '../components/review-queue-bar.tsx';
import { formatPoints } from '../format.ts';
import { startSaveTime, type SaveTime } from '../undo-after-save.ts';
import type { CommentReview } from './use-comment-review.ts';
import type { GradingSession, RestoredDraft } from './use-grading-session.ts';

export interface GradeActionsOptions {
  assignmentId: string;
  questionId: string;
  submissionId: string;
  inQueue: boolean;
  session: GradingSession;
  review: CommentReview;
  goBack(): void;
  backState: BackState;
}

/**
 * The grading screen's three ways out of a review: Regrade With AI (a fresh suggestion, nothing
 * saved), Save Grade (then back, or on to the next answer in the queue), and moving through the queue.
 */
export function useGradeActions({
  assignmentId,
  questionId,
  submissionId,
  inQueue,
  session,
  review,
  goBack,
  backState,
}: GradeActionsOptions) {
  const navigate = useNavigate();
  const regrade = useRegrade(assignmentId, questionId, submissionId);
  const save = useSaveGrade(assignmentId, questionId, submissionId);
  const undoSave = useUndoGradeSave(assignmentId, questionId);
  const isBusy = regrade.isPending || save.isPending;
  const { result } = session;
  // Whether this screen is still open: a save in the queue moves on only after the queue is read
  // again, and an instructor who closed the screen meanwhile is not taken back into the queue.
  const isOpen = useRef(true);
  // The save under way from S to the end of its move, for a U pressed meanwhile (undo-after-save.ts).
  const saveTime = useRef<SaveTime | null>(null);
  useEffect(() => {
    isOpen.current = true;
    return () => {
      isOpen.current = false;
      // Closed before the save answered: its callbacks never run here, so its time ends now.
      saveTime.current?.drop();
    };
  }, []);

  const goToQueueItem = (item: ReviewQueueItem) =>
    navigate(gradePagePath(assignmentId, questionId, item.submissionId, { queue: true }), {
      replace: true,
      state: backState,
    });

  const onRegrade = () => {
    regrade.mutate(undefined, {
      onSuccess: (output) => {
        session.showResult(output);
        showSuccess(GRADING_MESSAGES.regraded);
        review.announce(`Regrading completed. ${describeResult(output)}`);
      },
      onError: (error) => showError(messageOf(error, GRADING_MESSAGES.regradeFailed), error),
    });
  };

  /**
   * The saved toast's Undo (decision 0032): the save is taken back on the server, and the screen of
   * this answer opens again with the undone comments as unsaved edits — as it was before the save.
   * It runs after this screen has closed or moved on in the queue, so it uses nothing of its state.
   */
  const offerUndo = (message: string, saved: SavedGrade) =>
    showSuccessWithUndo(message, () => {
      undoSave(submissionId, saved._id).then(
        (output) => {
          showInfo(output.message);
          const restoredDraft: RestoredDraft = { submissionId, gradeId: saved._id, comments: saved.comments };
          void navigate(gradePagePath(assignmentId, questionId, submissionId, { queue: inQueue }), {
            // In the queue the screen was replaced by the next answer: replace it back.
            replace: inQueue,
            state: { ...(inQueue ? backState : { canGoBack: true }), restoredDraft },
          });
        },
        (error: unknown) => showError(messageOf(error, GRADING_MESSAGES.undoFailed), error),
      );
    });

  const onSaveGrade = () => {
    if (!result || isBusy) return;
    if (review.holdForOpenEditor()) return;
    const queueItems = session.queueItems;
    const thisSave = startSaveTime();
    saveTime.current = thisSave;
    save.mutate(
      {
        grade: review.finalGrade,
        feedback: '',
        comments: toSaveGradeComments(review.state),
        // The version this screen loaded and the AI run it shows (not whichever run is newest).
        ...(session.loadedGradeId !== undefined ? { expectedGradeId: session.loadedGradeId } : {}),
        basedOnRunId: result.gradingRunId,
      },
      {
        onSuccess: async (output) => {
          // Answered: its time ends below, whether or not the screen closes meanwhile.
          saveTime.current = null;
          offerUndo(output.message || GRADING_MESSAGES.saved, output.grade);
          try {
            await moveOnAfterSave(queueItems);
          } finally {
            // A U pressed since S undoes this save now, after the move (decision 0105).
            thisSave.end();
          }
        },
        onError: (error) => {
          thisSave.drop();
          const message = messageOf(error, GRADING_MESSAGES.saveFailed);
          if (isStaleSave(error)) {
            session.setStaleMessage(message);
            review.announce(message);
            return;
          }
          showError(message, error);
        },
      },
    );
  };

  /** After a save: back, or on to the next answer of the queue. */
  const moveOnAfterSave = async (queueItems: readonly ReviewQueueItem[]) => {
    if (!inQueue) return goBack();
    // The queue as the server orders it after this save, not the copy read before it: the save can
    // end "grade these first" (the k-th own grade) or change other answers, and the next answer is
    // the first still ungraded of the caller's share in that order (the most doubtful first,
    // grade-first answers leading while the rule holds). Read failed: the copy read before the save.
    const fresh = await session.queueAfterSave().catch(() => undefined);
    if (!isOpen.current) return;
    const next = fresh ? firstToReview(fresh, submissionId) : nextToReview(queueItems, submissionId);
    // Its result is taken from the cache when it is there: what was read ahead before the save was
    // dropped as the save answered (refreshAfterGrading), and the answer is read ahead again only
    // once the save is done (useReadAhead), so what the cache has was read after it (decision 0121).
    // Not awaited: the screen that saved unmounts as the navigation ends.
    if (next) return void goToQueueItem(next);
    showInfo('Review queue done: every submission of this question has a saved grade.');
    goBack();
  };

  const onReload = () => {
    void session.reload().then((data) => {
      if (data) review.announce(`Reloaded. ${describeResult(data)}`);
    });
  };

  return {
    onRegrade,
    onSaveGrade,
    onReload,
    goToQueueItem,
    isBusy,
    isRegrading: regrade.isPending,
    isSaving: save.isPending,
    /** This screen's save was stored (it then closes or moves on in the queue). */
    isSaved: save.isSuccess,
  };
}

/** What a screen reader hears when a result arrives. */
export function describeResult({ gradingResult, questionPoints, confidenceLevel }: GradingOutput): string {
  const count = gradingResult.comments.length;
  return `${count} ${count === 1 ? 'comment' : 'comments'} to review. Final grade ${formatPoints(gradingResult.totalScore)} of ${formatPoints(questionPoints)}. Confidence ${Math.round(confidenceLevel)}%.`;
}
