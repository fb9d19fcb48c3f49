import { useEffect, useMemo, useReducer, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  IconButton,
  LinearProgress,
  Stack,
  Toolbar,
  Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import type { GradingOutput } from '@gradewise/shared/contracts/grading';
import type { ReviewQueueItem } from '@gradewise/shared/contracts/review';
import { LoadingMessage } from '../../../components/screen-states.tsx';
import { StaleSaveAlert } from '../../../components/stale-save-alert.tsx';
import { ExtractionState } from '../../../components/extraction-state.tsx';
import { SubmissionViewer } from '../../../components/submission-viewer.tsx';
import { visuallyHidden } from '../../../components/visually-hidden.ts';
import { isStaleSave, messageOf } from '../../../lib/api-client.ts';
import { showError, showInfo, showSuccess } from '../../../lib/toasts.tsx';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useGoBack } from '../../../lib/use-go-back.ts';
import {
  GRADING_MESSAGES,
  gradePagePath,
  questionPagePath,
  useGradingQuestion,
  useGradingResult,
  useRegrade,
  useReviewQueue,
  useSaveGrade,
} from '../api/grading-api.ts';
import {
  commentsReducer,
  finalGradeOf,
  initialCommentsState,
  isEditingAny,
  toSaveGradeComments,
  type CommentsAction,
} from '../comment-editing.ts';
import { formatPoints } from '../format.ts';
import { AnswerGroupNotice } from './answer-group-notice.tsx';
import { GraderSummary } from './grader-summary.tsx';
import { commandForKey, ShortcutsHelp, type ShortcutCommand } from './keyboard-shortcuts.tsx';
import { LearnedFromGrades } from './learned-from-grades.tsx';
import { nextToReview, queuePosition, ReviewQueueBar } from './review-queue-bar.tsx';
import { ReviewComments } from './review-comments.tsx';

export const GRADE_DIALOG_TITLE = 'Grade Question Submission';

export interface GradingDialogProps {
  assignmentId: string;
  questionId: string;
  submissionId: string;
  /** Opened from the review queue (?queue=1): Previous / Next, and Save Grade moves on. */
  inQueue: boolean;
  /** Opened with ?regrade=true from a graded row. */
  isRegrade: boolean;
}

/**
 * The grading screen (spec sections 2 and 4): a full-screen dialog with the answer on the left
 * (Original PDF / Converted Text) and the AI's review comments on the right, which the instructor
 * accepts, declines, edits, deletes or adds to before Save Grade. An ungraded submission is
 * graded automatically on opening; a graded one shows what is stored.
 */
export function GradingDialog({ assignmentId, questionId, submissionId, inQueue, isRegrade }: GradingDialogProps) {
  const navigate = useNavigate();
  const { goBack, backState } = useGoBack(questionPagePath(assignmentId, questionId));
  const question = useGradingQuestion(assignmentId, questionId);
  const detail = question.data;
  const isStaffView = detail?.viewer === 'staff';
  const submission = isStaffView ? detail.submissions?.find((row) => row._id === submissionId) : undefined;
  const isMissing = question.isSuccess && (!isStaffView || !submission);
  const grading = useGradingResult(assignmentId, questionId, submissionId, Boolean(submission));
  const queue = useReviewQueue(assignmentId, questionId, inQueue);
  const regrade = useRegrade(assignmentId, questionId, submissionId);
  const save = useSaveGrade(assignmentId, questionId, submissionId);

  useErrorToast(question.error, GRADING_MESSAGES.fetchFailed);
  useErrorToast(grading.error, GRADING_MESSAGES.gradeFailed);
  const missing = useMemo(() => (isMissing ? new Error(GRADING_MESSAGES.notFound) : null), [isMissing]);
  useErrorToast(missing, GRADING_MESSAGES.notFound);

  const [result, setResult] = useState<GradingOutput | null>(null);
  // The saved grade this screen loaded (sent back as expectedGradeId): set when the screen loads or
  // reloads, never by a regrade, so a grade saved by someone else meanwhile is not overwritten unseen.
  const [loadedGradeId, setLoadedGradeId] = useState<string | null | undefined>(undefined);
  const [staleMessage, setStaleMessage] = useState<string | null>(null);
  const [state, dispatch] = useReducer(commentsReducer, undefined, () => initialCommentsState());
  const [activeTempId, setActiveTempId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [isHelpOpen, setHelpOpen] = useState(false);
  const cards = useRef(new Map<string, HTMLLIElement>());
  const addButtonRef = useRef<HTMLButtonElement | null>(null);

  const showResult = (output: GradingOutput) => {
    setResult(output);
    dispatch({ type: 'load', comments: output.gradingResult.comments, points: output.questionPoints });
    setActiveTempId(null);
  };
  // The stored or suggested result arrives once per opening: take it into the editing state while
  // rendering (React's pattern for state that follows a changing input), not in an effect.
  const [loadedFrom, setLoadedFrom] = useState<GradingOutput | null>(null);
  if (grading.data && grading.data !== loadedFrom) {
    setLoadedFrom(grading.data);
    showResult(grading.data);
    setLoadedGradeId(grading.data.currentGradeId);
    setStaleMessage(null);
  }

  // Focus moves after the list has re-rendered: to a card, or to Add Comment when the list is empty.
  const pendingFocus = useRef<{ tempId: string | null } | null>(null);
  const moveFocusAfterRender = (tempId: string | null) => {
    pendingFocus.current = { tempId };
  };
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    pendingFocus.current = null;
    const card = target.tempId ? cards.current.get(target.tempId) : undefined;
    (card ?? addButtonRef.current)?.focus();
  });

  const announce = (text: string) => setAnnouncement((previous) => (previous === text ? `${text}\u00a0` : text));
  const finalGrade = finalGradeOf(state);
  const points = result?.questionPoints ?? detail?.points ?? 0;
  const isBusy = regrade.isPending || save.isPending;
  const position = inQueue && queue.data ? queuePosition(queue.data.items, submissionId, queue.data.remaining) : null;

  /** Applies a comment action and tells screen readers what changed and the grade it gives. */
  const apply = (action: CommentsAction, describe?: (index: number, total: number) => string) => {
    const next = commentsReducer(state, action);
    dispatch(action);
    if (!describe) return next;
    const tempId = 'tempId' in action ? action.tempId : null;
    const index = tempId ? state.comments.findIndex((comment) => comment.tempId === tempId) : -1;
    announce(
      `${describe(index, state.comments.length)} Final grade ${formatPoints(finalGradeOf(next))} of ${formatPoints(next.points)}.`,
    );
    return next;
  };

  const handlers = {
    onActivate: setActiveTempId,
    onAcceptAll: () => apply({ type: 'acceptAll' }, () => 'All comments accepted.'),
    onDeclineAll: () => apply({ type: 'declineAll' }, () => 'All comments declined.'),
    onAdd: () => {
      const next = apply({ type: 'add' });
      setActiveTempId(next.comments[0]?.tempId ?? null);
      announce('New comment added at the top. Type its text and points, then Done.');
    },
    onAccept: (tempId: string) =>
      apply({ type: 'setAccepted', tempId, accepted: true }, (i, n) => `Comment ${i + 1} of ${n} accepted.`),
    onDecline: (tempId: string) =>
      apply({ type: 'setAccepted', tempId, accepted: false }, (i, n) => `Comment ${i + 1} of ${n} declined.`),
    onEdit: (tempId: string) => {
      setActiveTempId(tempId);
      apply({ type: 'edit', tempId });
    },
    onDelete: (tempId: string) => {
      const index = state.comments.findIndex((comment) => comment.tempId === tempId);
      const next = apply({ type: 'remove', tempId }, (i, n) => `Comment ${i + 1} of ${n} deleted.`);
      const neighbour = next.comments[Math.min(index, next.comments.length - 1)];
      setActiveTempId(neighbour?.tempId ?? null);
      moveFocusAfterRender(neighbour?.tempId ?? null);
    },
    onChange: (tempId: string, change: { text?: string; points?: string }) =>
      dispatch({ type: 'change', tempId, ...change }),
    onSave: (tempId: string) => {
      const wasNew = state.comments.find((comment) => comment.tempId === tempId)?.isNew;
      apply({ type: 'save', tempId }, (i, n) => (wasNew ? 'New comment kept.' : `Comment ${i + 1} of ${n} saved.`));
      moveFocusAfterRender(tempId);
    },
    onCancel: (tempId: string) => {
      const wasNew = state.comments.find((comment) => comment.tempId === tempId)?.isNew;
      apply({ type: 'cancel', tempId });
      announce(wasNew ? 'New comment removed.' : 'Edit cancelled.');
      moveFocusAfterRender(
        wasNew ? (state.comments.find((comment) => comment.tempId !== tempId)?.tempId ?? null) : tempId,
      );
    },
  };

  const goToQueueItem = (item: ReviewQueueItem) =>
    navigate(gradePagePath(assignmentId, questionId, item.submissionId, { queue: true }), {
      replace: true,
      state: backState,
    });

  const onRegrade = () => {
    regrade.mutate(undefined, {
      onSuccess: (output) => {
        showResult(output);
        showSuccess(GRADING_MESSAGES.regraded);
        announce(`Regrading completed. ${describeResult(output)}`);
      },
      onError: (error) => showError(messageOf(error, GRADING_MESSAGES.regradeFailed), error),
    });
  };

  const onSaveGrade = () => {
    if (!result || isBusy) return;
    const open = state.comments.find((comment) => comment.editor !== null);
    if (open) {
      announce('Finish the comment you are editing first: Save, Done or Cancel.');
      moveFocusAfterRender(open.tempId);
      setActiveTempId(open.tempId);
      return;
    }
    const queueItems = queue.data?.items ?? [];
    save.mutate(
      {
        grade: finalGrade,
        feedback: '',
        comments: toSaveGradeComments(state),
        // The version this screen loaded and the AI run it shows (not whichever run is newest).
        ...(loadedGradeId !== undefined ? { expectedGradeId: loadedGradeId } : {}),
        basedOnRunId: result.gradingRunId,
      },
      {
        onSuccess: (output) => {
          showSuccess(output.message || GRADING_MESSAGES.saved);
          if (!inQueue) return goBack();
          const next = nextToReview(queueItems, submissionId);
          if (next) return goToQueueItem(next);
          showInfo('Review queue done: every submission of this question has a saved grade.');
          goBack();
        },
        onError: (error) => {
          if (isStaleSave(error)) {
            setStaleMessage(messageOf(error, GRADING_MESSAGES.saveFailed));
            announce(messageOf(error, GRADING_MESSAGES.saveFailed));
            return;
          }
          showError(messageOf(error, GRADING_MESSAGES.saveFailed), error);
        },
      },
    );
  };

  /** After a refused save: load what is saved now (the other person's grade), discarding the edits here. */
  const onReload = () => {
    void question.refetch();
    void grading.refetch().then(({ data }) => {
      if (!data) return;
      showResult(data);
      setLoadedGradeId(data.currentGradeId);
      setStaleMessage(null);
      announce(`Reloaded. ${describeResult(data)}`);
    });
  };

  const runCommand = (command: ShortcutCommand) => {
    const comments = state.comments;
    const activeIndex = comments.findIndex((comment) => comment.tempId === activeTempId);
    const current = comments[activeIndex] ?? comments[0];
    const focusAt = (index: number) => {
      const target = comments[Math.max(0, Math.min(comments.length - 1, index))];
      if (!target) return;
      setActiveTempId(target.tempId);
      cards.current.get(target.tempId)?.focus();
    };
    switch (command) {
      case 'nextComment':
        return focusAt(activeIndex < 0 ? 0 : activeIndex + 1);
      case 'previousComment':
        return focusAt(activeIndex < 0 ? 0 : activeIndex - 1);
      case 'accept':
        return current && handlers.onAccept(current.tempId);
      case 'decline':
        return current && handlers.onDecline(current.tempId);
      case 'edit':
        return current && handlers.onEdit(current.tempId);
      case 'addComment':
        return handlers.onAdd();
      case 'saveGrade':
        return onSaveGrade();
      case 'nextSubmission':
        return position?.next && goToQueueItem(position.next);
      case 'previousSubmission':
        return position?.previous && goToQueueItem(position.previous);
      case 'help':
        return setHelpOpen(true);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || !result || isBusy) return;
    const command = commandForKey(event, inQueue);
    if (!command) return;
    event.preventDefault();
    runCommand(command);
  };

  const registerCard = (tempId: string, element: HTMLLIElement | null) => {
    if (element) cards.current.set(tempId, element);
    else cards.current.delete(tempId);
  };

  const hasFailed = question.isError || isMissing || grading.isError;
  // A grade saved on an earlier version is not this version's: opening it grades it afresh.
  const isAlreadyGraded =
    Boolean(submission?.isAlreadyGraded && !submission.isGradeOnEarlierVersion) ||
    submission?.gradingStatus === 'succeeded';

  return (
    <Dialog
      fullScreen
      open
      onClose={(_event, reason) => {
        // Escape must not throw away a review in progress; the Close button leaves on purpose.
        if (reason !== 'escapeKeyDown') goBack();
      }}
      aria-labelledby="grade-dialog-title"
      aria-describedby="grade-dialog-help"
      onKeyDown={onKeyDown}
    >
      <Toolbar sx={{ gap: 1, flexWrap: 'wrap', flexShrink: 0, borderBottom: 1, borderColor: 'divider', py: 1 }}>
        <IconButton edge="start" color="inherit" aria-label="Close" onClick={goBack}>
          <CloseIcon />
        </IconButton>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography id="grade-dialog-title" variant="h6" component="h1">
            {GRADE_DIALOG_TITLE}
          </Typography>
          {submission && detail ? (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {submission.student.name} · {detail.title ?? 'Question'} · {formatPoints(detail.points)} points
            </Typography>
          ) : null}
        </Box>
        <Box sx={{ order: 2 }}>
          <ShortcutsHelp inQueue={inQueue} open={isHelpOpen} onOpenChange={setHelpOpen} />
        </Box>
        {position ? (
          // On a phone the queue gets a line of its own under the title.
          <Box
            sx={{
              order: { xs: 3, md: 1 },
              width: { xs: '100%', md: 'auto' },
              display: 'flex',
              justifyContent: 'center',
            }}
          >
            <ReviewQueueBar position={position} onGo={goToQueueItem} />
          </Box>
        ) : null}
      </Toolbar>
      <Typography id="grade-dialog-help" sx={visuallyHidden}>
        Press question mark for keyboard shortcuts.
      </Typography>
      <Box aria-live="polite" aria-atomic="true" sx={visuallyHidden}>
        {announcement || (result ? describeResult(result) : '')}
      </Box>

      <DialogContent sx={{ px: { xs: 1.5, sm: 3 } }}>
        {question.isPending ? <LoadingMessage text="Loading grading data…" /> : null}
        {hasFailed ? (
          <Alert severity="error" variant="outlined" sx={{ my: 2 }}>
            {isMissing
              ? GRADING_MESSAGES.notFound
              : question.isError
                ? messageOf(question.error, GRADING_MESSAGES.fetchFailed)
                : messageOf(grading.error, GRADING_MESSAGES.gradeFailed)}
          </Alert>
        ) : null}
        {submission && !result && grading.isFetching ? (
          <>
            <LoadingMessage text={isAlreadyGraded ? 'Loading grading data…' : GRADING_MESSAGES.gradingInProgress} />
            <Box sx={{ display: 'flex', justifyContent: 'center' }}>
              <ExtractionState status={submission.extractionStatus} error={submission.extractionError} />
            </Box>
          </>
        ) : null}
        {submission && result ? (
          <Box
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 7fr) minmax(0, 5fr)' },
              gap: 3,
              alignItems: 'start',
            }}
          >
            <SubmissionViewer
              fileUrl={submission.file}
              text={result.submissionText}
              title={`Answer of ${submission.student.name}`}
              extraction={{ status: submission.extractionStatus, error: submission.extractionError }}
            />
            <Box>
              {regrade.isPending ? (
                <Box sx={{ mb: 2 }} role="status">
                  <Typography>{GRADING_MESSAGES.gradingInProgress}</Typography>
                  <LinearProgress sx={{ mt: 1 }} aria-hidden />
                </Box>
              ) : null}
              {isRegrade && result.isAlreadyGraded ? (
                <Alert severity="info" sx={{ mb: 2 }}>
                  Saved grade: {formatPoints(result.gradingResult.totalScore)} / {formatPoints(points)}. Change it
                  below, or ask for a fresh suggestion with Regrade With AI; nothing changes until you save.
                </Alert>
              ) : null}
              {staleMessage ? (
                <StaleSaveAlert message={staleMessage} onReload={onReload} isReloading={grading.isFetching} />
              ) : null}
              {submission.isGradeOnEarlierVersion && !result.isAlreadyGraded ? (
                <Alert severity="info" sx={{ mb: 2 }}>
                  Grade on an earlier version
                  {submission.gradedVersion ? ` (version ${submission.gradedVersion})` : ''}:{' '}
                  {formatPoints(submission.grade ?? 0)} / {formatPoints(points)}. It counts until you save a grade for
                  this version {submission.version}.
                </Alert>
              ) : null}
              <AnswerGroupNotice assignmentId={assignmentId} questionId={questionId} submissionId={submissionId} />
              <GraderSummary grader={result.grader} hiddenText={result.hiddenText} />
              {result.isAlreadyGraded ? null : <LearnedFromGrades examplesUsed={result.examplesUsed} />}
              <ReviewComments
                comments={state.comments}
                questionPoints={points}
                finalGrade={finalGrade}
                confidence={result.confidenceLevel}
                activeTempId={activeTempId}
                disabled={isBusy}
                addButtonRef={addButtonRef}
                registerCard={registerCard}
                {...handlers}
              />
            </Box>
          </Box>
        ) : null}
      </DialogContent>

      <DialogActions
        sx={{ borderTop: 1, borderColor: 'divider', px: { xs: 1.5, sm: 3 }, py: 1.5, flexWrap: 'wrap', gap: 1 }}
      >
        {hasFailed ? <Button onClick={goBack}>Close</Button> : null}
        {isEditingAny(state) ? (
          <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto' }}>
            Finish editing the open comment to save the grade.
          </Typography>
        ) : null}
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" onClick={onRegrade} disabled={!result || isBusy}>
            Regrade With AI
          </Button>
          <Button
            variant="contained"
            onClick={onSaveGrade}
            disabled={!result || isBusy || isEditingAny(state)}
            aria-busy={save.isPending}
          >
            Save Grade
          </Button>
        </Stack>
      </DialogActions>
    </Dialog>
  );
}

/** What a screen reader hears when a result arrives. */
function describeResult({ gradingResult, questionPoints, confidenceLevel }: GradingOutput): string {
  const count = gradingResult.comments.length;
  return `${count} ${count === 1 ? 'comment' : 'comments'} to review. Final grade ${formatPoints(gradingResult.totalScore)} of ${formatPoints(questionPoints)}. Confidence ${Math.round(confidenceLevel)}%.`;
}
