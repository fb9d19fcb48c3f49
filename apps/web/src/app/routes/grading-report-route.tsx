import { ComingSoon } from '../../components/coming-soon.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Placeholder until the screen is built: Grading Report. */
export function GradingReportRoute() {
  useDocumentTitle('Grading Report');
  return (
    <ComingSoon
      title="Grading Report"
      description="This screen will show the graded submission with its review comments, deductions and final grade."
    />
  );
}
