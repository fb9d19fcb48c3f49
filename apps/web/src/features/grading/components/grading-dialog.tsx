import { useDeferredValue, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Alert, Box, Button, Dialog, DialogContent, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { ExtractionState } from '../../../components/extraction-state.tsx';
import { LoadingMessage, RETRY_LABEL } from '../../../components/screen-states.tsx';
import { visuallyHidden } from '../../../components/visually-hidden.ts';
import { useGoBack } from '../../../lib/use-go-back.ts';
import { GRADING_MESSAGES } from '../api/grading-api.ts';
import { questionPagePath } from '../../../lib/paths.ts';
import { isEditingAny } from '../comment-editing.ts';
import { describeResult, useGradeActions } from '../hooks/use-grade-actions.ts';
import { useCommentReview } from '../hooks/use-comment-review.ts';
import { useGradingPanels, type GradingPanel, type GradingPanels } from '../hooks/use-grading-panels.ts';
import { useGradingSession } from '../hooks/use-grading-session.ts';
import { UPDATED_SUGGESTION_MESSAGES, useRefreshedSuggestion } from '../hooks/use-refreshed-suggestion.ts';
import { useRegionMarking } from '../hooks/use-region-marking.ts';
import { AnswerGroupNotice } from './answer-group-notice.tsx';
import { CommentRegionControls } from './comment-regions/comment-region-controls.tsx';
import { MarkableSubmissionViewer } from './comment-regions/markable-submission-viewer.tsx';
import { FirstViewRest } from './first-view-rest.tsx';
import { GradingDialogActions } from './grading-dialog-actions.tsx';
import { GRADING_CONTENT_SX, GRADING_DATA_LOADING } from './grading-dialog-frame.tsx';
import { GRADE_DIALOG_TITLE_ID, GradingDialogHeader } from './grading-dialog-header.tsx';
import { GradeHistoryButton } from './grade-history-button.tsx';
import { GradeSummary } from './grade-summary.tsx';
import { GradingNotices } from './grading-notices.tsx';
import { GradingLeaseNotice } from './grading-lease-notice.tsx';
import { GradingPanelTabs, panelIds } from './grading-panel-tabs.tsx';
import { GraderSummary } from './grader-summary.tsx';
import { commandForKey, type ShortcutCommand } from '../shortcut-keys.ts';
import { undoLatestSave } from '../undo-after-save.ts';
import { LearnedFromGrades } from './learned-from-grades.tsx';
import { ReviewComments } from './review-comments.tsx';

export { GRADE_DIALOG_TITLE } from './grading-dialog-header.tsx';

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
 *
 * This component lays the screen out and routes keys; what it reads lives in useGradingSession,
 * the comment list's state in useCommentReview, and regrade / save / queue moves in useGradeActions.
 */
export function GradingDialog({ assignmentId, questionId, submissionId, inQueue, isRegrade }: GradingDialogProps) {
  const { goBack, backState } = useGoBack(questionPagePath(assignmentId, questionId));
  const review = useCommentReview();
  const session = useGradingSession({
    assignmentId,
    questionId,
    submissionId,
    inQueue,
    onResult: review.load,
    onBase: review.rebase,
    isEdited: review.isEdited,
  });
  const actions = useGradeActions({
    assignmentId,
    questionId,
    submissionId,
    inQueue,
    session,
    review,
    goBack,
    backState,
  });
  const panels = useGradingPanels();
  const marking = useRegionMarking(review, panels);
  const contentRef = useRef<HTMLDivElement | null>(null);
  const dialogRef = useRef<HTMLDivElement | null>(null);
  const [isHelpOpen, setHelpOpen] = useState(false);
  const { detail, submission, position } = session;
  // The first result is drawn in a transition, in slices the browser can answer input between,
  // instead of in one long task (the query's update is synchronous); its loading state shows until
  // then. Later results (regrade, reload) are shown at once, with their comments (decision 0053).
  const firstResult = useDeferredValue(session.result);
  const result = firstResult ? session.result : null;
  const isDrawingResult = Boolean(session.result && !result);
  const points = result?.questionPoints ?? detail?.points ?? 0;
  // A background refresh that lands while this answer is open (decision 0085).
  const refreshed = useRefreshedSuggestion({
    assignmentId,
    questionId,
    submissionId,
    shown: session.result,
    held: session.heldRead,
    take: session.take,
    announce: review.announce,
    isSaved: actions.isSaving || actions.isSaved,
  });

  const runCommand = (command: ShortcutCommand) => {
    switch (command) {
      case 'saveGrade':
        return actions.onSaveGrade();
      case 'undoSave':
        // The toast's Undo, from the keyboard (the toast sits outside this dialog's focus), also
        // while the save is still out: it is then undone once it has answered (decision 0105).
        return undoLatestSave() || review.announce('Nothing to undo: no grade was saved just now.');
      case 'nextSubmission':
        return position?.next && actions.goToQueueItem(position.next);
      case 'previousSubmission':
        return position?.previous && actions.goToQueueItem(position.previous);
      case 'help':
        return setHelpOpen(true);
      default:
        // A comment key on a phone's Answer tab turns to the comments, where the card it acts on is.
        panels.show('comments');
        return review.runCommand(command);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented) return;
    const command = commandForKey(event, inQueue);
    // Undo works at any time, as the toast's button does: while the save of S is out, and while the
    // next answer in the queue is still loading. The rest need a result and no save or regrade out.
    if (!command || (command !== 'undoSave' && (actions.isBusy || !result))) return;
    event.preventDefault();
    runCommand(command);
  };

  return (
    <Dialog
      fullScreen
      open
      onClose={(_event, reason) => {
        // Escape must not throw away a review in progress; the Close button leaves on purpose.
        if (reason !== 'escapeKeyDown') goBack();
      }}
      aria-labelledby={GRADE_DIALOG_TITLE_ID}
      aria-describedby="grade-dialog-help"
      onKeyDown={onKeyDown}
      // Shown at once, not faded in: it is a whole screen, and text still fading in from opacity 0
      // is not painted as far as Chromium's LCP is concerned. No backdrop either: the screen covers
      // it, and its own fade forced a layout (MUI's reflow) in the first commit (decision 0051).
      slotProps={{ transition: { appear: false } }}
      hideBackdrop
      // Drawn where the route is, not through a portal into <body>: MUI's portal renders nothing on
      // its first pass and sets its node in a layout effect, so the whole screen was then rendered
      // again at once, synchronously, in one long task that the transition above could not slice
      // (decision 0095). The layout makes the page behind inert (app-layout.tsx), as the portal's
      // aria-hidden on the rest did; the dialog keeps its focus trap. Its container is its own
      // parent, so nothing of the screen is hidden; the page behind is never scrolled (full screen).
      disablePortal
      container={() => dialogRef.current?.parentElement ?? null}
      disableScrollLock
      ref={dialogRef}
    >
      <GradingDialogHeader
        subtitle={
          submission && detail
            ? { studentName: submission.student.name, questionTitle: detail.title, points: detail.points }
            : null
        }
        inQueue={inQueue}
        position={position}
        isHelpOpen={isHelpOpen}
        onHelpOpenChange={setHelpOpen}
        onClose={goBack}
        onGo={actions.goToQueueItem}
      />
      <Typography id="grade-dialog-help" sx={visuallyHidden}>
        Press question mark for keyboard shortcuts.
      </Typography>
      <Box aria-live="polite" aria-atomic="true" sx={visuallyHidden}>
        {review.announcement || (result ? describeResult(result) : '')}
      </Box>

      <DialogContent ref={contentRef} sx={GRADING_CONTENT_SX}>
        <GradingLeaseNotice assignmentId={assignmentId} questionId={questionId} submissionId={submissionId} />
        {session.isLoading ? <LoadingMessage text={GRADING_DATA_LOADING} /> : null}
        {session.failure ? (
          <Alert
            severity="error"
            variant="outlined"
            sx={{ my: 2 }}
            action={
              session.retry ? (
                <Button color="inherit" size="small" startIcon={<RefreshIcon />} onClick={session.retry}>
                  {RETRY_LABEL}
                </Button>
              ) : undefined
            }
          >
            {session.failure}
          </Alert>
        ) : null}
        {submission && (session.isGrading || isDrawingResult) ? (
          <>
            <LoadingMessage
              text={session.isAlreadyGraded ? GRADING_DATA_LOADING : GRADING_MESSAGES.gradingInProgress}
            />
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
            {panels.isTabbed ? (
              <GradingPanelTabs
                panel={panels.panel}
                commentCount={review.state.comments.length}
                onChoose={(panel) => {
                  // A tab chosen by hand starts at its top, not wherever the other one was scrolled to.
                  contentRef.current?.scrollTo({ top: 0 });
                  panels.choose(panel);
                }}
              />
            ) : null}
            <PanelFrame which="answer" panels={panels}>
              <MarkableSubmissionViewer
                marking={marking}
                fileUrl={submission.file}
                text={result.submissionText}
                title={`Answer of ${submission.student.name}`}
                extraction={{ status: submission.extractionStatus, error: submission.extractionError }}
              />
            </PanelFrame>
            <PanelFrame which="comments" panels={panels}>
              <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
                <GradeHistoryButton assignmentId={assignmentId} questionId={questionId} submissionId={submissionId} />
              </Box>
              <GradingNotices
                result={result}
                submission={submission}
                points={points}
                isRegrade={isRegrade}
                isRegrading={actions.isRegrading}
                staleMessage={session.staleMessage}
                isReloading={session.isReloading}
                onReload={actions.onReload}
              />
              {refreshed.updated ? <UpdatedSuggestionNotice onShow={refreshed.show} /> : null}
              <AnswerGroupNotice assignmentId={assignmentId} questionId={questionId} submissionId={submissionId} />
              <GraderSummary grader={result.grader} hiddenText={result.hiddenText} ocrPages={result.ocrPages} />
              {result.isAlreadyGraded ? null : <LearnedFromGrades examplesUsed={result.examplesUsed} />}
              <ReviewComments
                comments={review.state.comments}
                questionPoints={points}
                activeTempId={review.activeTempId}
                disabled={actions.isBusy}
                addButtonRef={review.addButtonRef}
                registerCard={review.registerCard}
                {...review.handlers}
                onHover={marking.onHover}
                renderRegionControls={(comment, index) => (
                  <CommentRegionControls
                    number={index + 1}
                    region={comment.region ?? null}
                    isAccepted={comment.accepted}
                    isMarking={marking.drawing?.tempId === comment.tempId}
                    disabled={actions.isBusy}
                    onMark={() => marking.startMarking(comment.tempId)}
                    onShow={() => marking.showOnPage(comment.tempId)}
                    onRemove={() => marking.removeMark(comment.tempId)}
                  />
                )}
              />
            </PanelFrame>
            {/* A grid item of its own, so it can stay stuck at the bottom alongside the PDF too. */}
            <FirstViewRest>
              <GradeSummary
                finalGrade={review.finalGrade}
                questionPoints={points}
                confidence={result.confidenceLevel}
              />
            </FirstViewRest>
          </Box>
        ) : null}
      </DialogContent>

      <GradingDialogActions
        hasFailed={Boolean(session.failure)}
        hasResult={Boolean(result)}
        isBusy={actions.isBusy}
        isSaving={actions.isSaving}
        isEditing={isEditingAny(review.state)}
        onClose={goBack}
        onRegrade={actions.onRegrade}
        onSaveGrade={actions.onSaveGrade}
      />
    </Dialog>
  );
}

/** A refreshed suggestion held back because the comments were edited: shown only when asked for. */
function UpdatedSuggestionNotice({ onShow }: { onShow(): void }) {
  return (
    <Alert
      severity="info"
      role="status"
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" size="small" onClick={onShow}>
          {UPDATED_SUGGESTION_MESSAGES.show}
        </Button>
      }
    >
      {UPDATED_SUGGESTION_MESSAGES.available}. {UPDATED_SUGGESTION_MESSAGES.replaces}
    </Alert>
  );
}

/**
 * One half of the grading screen: side by side a plain grid cell; on a phone a tab panel whose
 * content mounts when first shown and then stays mounted while hidden, so the PDF keeps its page
 * and the comments their cards.
 */
function PanelFrame({ which, panels, children }: { which: GradingPanel; panels: GradingPanels; children: ReactNode }) {
  if (!panels.isTabbed) return <Box sx={{ minWidth: 0 }}>{children}</Box>;
  const ids = panelIds(which);
  return (
    <Box
      role="tabpanel"
      id={ids.panel}
      aria-labelledby={ids.tab}
      hidden={!panels.isShown(which)}
      sx={{ minWidth: 0, pt: 1 }}
    >
      {panels.isOpened(which) ? children : null}
    </Box>
  );
}
