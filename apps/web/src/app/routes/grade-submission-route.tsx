import { lazy, startTransition, Suspense, useEffect, useState } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router-dom';
import { GRADE_DIALOG_TITLE, GradingDialogFrame } from '../../features/grading/components/grading-dialog-frame.tsx';
import { useSession } from '../../lib/session.tsx';
import { questionPagePath } from '../../lib/paths.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useGoBack } from '../../lib/use-go-back.ts';

/** The grading dialog and everything it imports (about 45 files). */
const GradingDialog = lazy(async () => ({
  default: (await import('../../features/grading/components/grading-dialog.tsx')).GradingDialog,
}));

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
  const isFrameShown = useFirstPaintDone();
  if (user?.role === 'student') return <Navigate to="report" relative="path" replace />;
  const frame = <GradingDialogFrame onClose={goBack} />;
  // The frame first, then the dialog's code, asked for once the frame is on screen: the frame's
  // few files are not queued behind the dialog's 45 (a browser opens six connections to a server),
  // so the title bar comes after one round instead of eight. As a transition, so the frame stays
  // (the same elements, not a fallback drawn anew) until the dialog replaces it (decision 0053).
  return (
    <Suspense fallback={frame}>
      {isFrameShown ? (
        <GradingDialog
          key={submissionId}
          assignmentId={assignmentId}
          questionId={questionId}
          submissionId={submissionId}
          inQueue={search.get('queue') === '1'}
          isRegrade={search.get('regrade') === 'true'}
        />
      ) : (
        frame
      )}
    </Suspense>
  );
}

/**
 * True from the first task after the screen's first paint (a frame, then a task). In a tab opened
 * in the background nothing is painted (nor are frames run) until it is shown: there at once.
 */
function useFirstPaintDone(): boolean {
  const [isDone, setDone] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => startTransition(() => setDone(true));
    if (document.visibilityState === 'hidden') {
      done();
      return undefined;
    }
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(done);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return isDone;
}
