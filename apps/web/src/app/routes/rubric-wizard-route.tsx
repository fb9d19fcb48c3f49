import { ComingSoon } from '../../components/coming-soon.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Placeholder until the screen is built: Rubric Wizard. */
export function RubricWizardRoute() {
  useDocumentTitle('Rubric Wizard');
  return (
    <ComingSoon
      title="Rubric Wizard"
      description="Instructors will review the AI-generated rubric for this question here."
    />
  );
}
