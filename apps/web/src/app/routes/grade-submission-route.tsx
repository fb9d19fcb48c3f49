import { Navigate, useParams, useSearchParams } from 'react-router-dom';
import { GRADE_DIALOG_TITLE, GradingDialog } from '../../features/grading/components/grading-dialog.tsx';
import { useSession } from '../../lib/session.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

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
  useDocumentTitle(GRADE_DIALOG_TITLE);
  if (user?.role === 'student') return <Navigate to="report" relative="path" replace />;
  return (
    <GradingDialog
      key={submissionId}
      assignmentId={assignmentId}
      questionId={questionId}
      submissionId={submissionId}
      inQueue={search.get('queue') === '1'}
      isRegrade={search.get('regrade') === 'true'}
    />
  );
}
