import { ComingSoon } from '../../components/coming-soon.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Placeholder until the screen is built: Questions. */
export function QuestionsRoute() {
  useDocumentTitle('Questions');
  return (
    <ComingSoon title="Questions" description="This screen will list the assignment's questions and their points." />
  );
}
