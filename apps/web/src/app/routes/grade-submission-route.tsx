import { ComingSoon } from '../../components/coming-soon.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Placeholder until the screen is built: Grade Question Submission. */
export function GradeSubmissionRoute() {
  useDocumentTitle('Grade Question Submission');
  return (
    <ComingSoon
      title="Grade Question Submission"
      description="Instructors will review the AI's suggested comments and point deductions for this submission here, and save the final grade."
    />
  );
}
