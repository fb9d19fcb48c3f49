import { useParams, useSearchParams } from 'react-router-dom';
import { GRADE_DIALOG_TITLE, GradingDialog } from '../../features/grading/components/grading-dialog.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/**
 * .../grade/:submissionId — the grading screen. `?regrade=true` comes from a graded row's Regrade
 * link; `?queue=1` walks the review queue. Keyed by submission so moving through the queue starts
 * each submission from a clean slate.
 */
export function GradeSubmissionRoute() {
  const { assignmentId = '', questionId = '', submissionId = '' } = useParams();
  const [search] = useSearchParams();
  useDocumentTitle(GRADE_DIALOG_TITLE);
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
