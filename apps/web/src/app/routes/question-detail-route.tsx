import { ComingSoon } from '../../components/coming-soon.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Placeholder until the screen is built: Question Details. */
export function QuestionDetailRoute() {
  useDocumentTitle('Question Details');
  return (
    <ComingSoon
      title="Question Details"
      description="This screen will show the question PDF, its rubric and its submissions; students will submit their answers here."
    />
  );
}
