import { ComingSoon } from '../../components/coming-soon.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Placeholder until the screen is built: Create Question. */
export function QuestionCreateRoute() {
  useDocumentTitle('Create Question');
  return (
    <ComingSoon
      title="Create Question"
      description="Instructors will add a question here: a title, its points, the question PDF and an optional solution PDF."
    />
  );
}
