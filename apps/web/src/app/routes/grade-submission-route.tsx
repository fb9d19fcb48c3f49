import { lazy, Suspense, useDeferredValue, useEffect, useState } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { GRADE_DIALOG_TITLE, GradingDialogFrame } from '../../features/grading/components/grading-dialog-frame.tsx';
import { ROUTE_READ_FRESH_MS } from '../../features/grading/api/grading-reads.ts';
import { useUndoKeyBetweenScreens } from '../../features/grading/undo-after-save.ts';
import { gradingQueries } from '../../lib/queries/grading.ts';
import { useSession } from '../../lib/session.tsx';
import { useAfterPaint } from '../../lib/use-after-paint.ts';
import { releaseFirstView } from '../../lib/after-first-view.ts';
import { questionPagePath } from '../../lib/paths.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useGoBack } from '../../lib/use-go-back.ts';

/**
 * The grading dialog and everything it imports, in two chunks (vite.config.ts), asked for as soon
 * as this module runs, beside the title's font: the screen's largest paint is the dialog's content
 * (on a 300-answer question the answer-group notice), so it is what the screen waits for. The
 * frame's own files have arrived by then, so they are not queued behind it (decisions 0053, 0079).
 */
const gradingDialogModule = import('../../features/grading/components/grading-dialog.tsx');
// A failed load is said by the route's error screen when the dialog renders; a student, taken to
// the report, never renders it, and the failure is not an unhandled rejection.
gradingDialogModule.catch(() => undefined);
const GradingDialog = lazy(async () => ({ default: (await gradingDialogModule).GradingDialog }));

/**
 * .../grade/:submissionId — the grading screen. `?regrade=true` comes from a graded row's Regrade
 * link; `?queue=1` walks the review queue. Keyed by submission so moving through the queue starts
 * each submission from a clean slate.
 *
 * Students never grade (the server refuses them), so a student who opens this address (a link
 * shared by the instructor, a bookmark) is taken to the report of the same submission, which the
 * server shows them only when the answer is their own.
 */
export function GradeSubmissionRoute() {
  const { assignmentId = '', questionId = '', submissionId = '' } = useParams();
  const [search] = useSearchParams();
  const { user } = useSession();
  const { goBack } = useGoBack(questionPagePath(assignmentId, questionId));
  useDocumentTitle(GRADE_DIALOG_TITLE);
  const isFrameShown = useAfterPaint();
  const inQueue = search.get('queue') === '1';
  // U right after S: heard here, where it outlives the move from one answer's screen to the next.
  useUndoKeyBetweenScreens(inQueue);
  // In the queue, the frame stays until the queue is known (the route's loader asked for it with the
  // answer): on a phone its bar takes a line of its own under the title, and drawn after the dialog
  // it pushed the dialog's content down (a layout shift of 0.08-0.11, decision 0079). The frame is
  // replaced, not moved, so the swap itself shifts nothing. A failed read does not hold the dialog.
  // Not read again when this route mounts after the loader's read has answered (it mounts once the
  // title's font is there, which on a first visit can come after the queue): that was a second read
  // of the whole queue, 16 KB, on the screen's first view (decision 0109).
  const queue = useQuery({
    ...gradingQueries.queue(assignmentId, questionId),
    enabled: inQueue,
    staleTime: ROUTE_READ_FRESH_MS,
  });
  const isQueueKnown = !inQueue || !queue.isPending;
  // So does the answer's group the route asked for, during its first try: its notice sits above
  // the comments, and drawn after them it pushed them down (a layout shift of 0.068 once the screen
  // drew sooner, decision 0091). Only observed, never asked for here; a failed try (then retried)
  // or no read by the route holds nothing.
  const groups = useQuery({
    ...gradingQueries.answerGroupOf(assignmentId, questionId, submissionId),
    enabled: false,
  });
  const areGroupsAwaited = groups.data === undefined && groups.fetchStatus === 'fetching' && groups.failureCount === 0;
  // Only before the answer's dialog is first drawn: a group read that had failed starts again from
  // its first try (the dialog retries it as it mounts, a landed refresh or a save reads the groups
  // again), and the frame then took the open dialog away, the instructor's edits with it, and
  // opened it afresh on whatever the answer's read said by then (decision 0117).
  const [drawnFor, setDrawnFor] = useState<string | null>(null);
  const isDialogDue = drawnFor === submissionId || (isFrameShown && isQueueKnown && !areGroupsAwaited);
  // The dialog comes in a transition however it becomes due. The last of the conditions above is
  // often a read's answer, an urgent update: rendered in it, the dialog's lazy module suspended the
  // urgent render, React put the fallback (the frame, drawn anew) in, and committed the dialog as a
  // Suspense retry, which it holds until 300 ms after a fallback was shown (its throttle of
  // revealed content): the dialog, the screen's largest paint, waited about 200 ms for nothing
  // (decision 0109). Deferred, the urgent render keeps the frame and the dialog's render is a
  // transition, which keeps the frame on screen while the module resolves. Not deferred the other
  // way: when it stops being due (a next answer's group still being read), the frame is at once.
  const isDialogShown = useDeferredValue(isDialogDue) && isDialogDue;
  if (isDialogShown && drawnFor !== submissionId) setDrawnFor(submissionId);
  // The loader of the page's first grading screen held what no first view needs (the toasts' and
  // the editor's code, the PDF, the lease): the view is the dialog; leaving the screen before it
  // is drawn lets them go too (decision 0125).
  useEffect(() => {
    if (isDialogShown) releaseFirstView();
  }, [isDialogShown, submissionId]);
  useEffect(() => releaseFirstView, []);
  if (user?.role === 'student') return <Navigate to="report" relative="path" replace />;
  const frame = <GradingDialogFrame onClose={goBack} />;
  // The frame first, then the dialog, rendered once the frame is on screen (its code was asked for
  // as this module ran). As a transition, so the frame stays (the same elements, not a fallback
  // drawn anew) until the dialog replaces it (decisions 0053, 0079).
  return (
    <Suspense fallback={frame}>
      {isDialogShown ? (
        <GradingDialog
          key={submissionId}
          assignmentId={assignmentId}
          questionId={questionId}
          submissionId={submissionId}
          inQueue={inQueue}
          isRegrade={search.get('regrade') === 'true'}
        />
      ) : (
        frame
      )}
    </Suspense>
  );
}
