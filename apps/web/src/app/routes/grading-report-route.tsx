import { useParams } from 'react-router-dom';
import { GradingReportDialog, REPORT_DIALOG_TITLE } from '../../features/reports/components/grading-report-dialog.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** .../grade/:submissionId/report — the grading report, for the instructor and for the student who submitted. */
export function GradingReportRoute() {
  const { assignmentId = '', questionId = '', submissionId = '' } = useParams();
  useDocumentTitle(REPORT_DIALOG_TITLE);
  return (
    <GradingReportDialog
      key={submissionId}
      assignmentId={assignmentId}
      questionId={questionId}
      submissionId={submissionId}
    />
  );
}
