import { ComingSoon } from '../../components/coming-soon.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Placeholder until the screen is built: Edit Rubric. */
export function RubricEditRoute() {
  useDocumentTitle('Edit Rubric');
  return (
    <ComingSoon title="Edit Rubric" description="Instructors will edit the question's rubric here and preview it." />
  );
}
