import { ComingSoon } from '../../components/coming-soon.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Placeholder until the screen is built: Assignment. */
export function AssignmentDetailRoute() {
  useDocumentTitle('Assignment');
  return (
    <ComingSoon
      title="Assignment"
      description="This screen will show the assignment's title, deadline and course, with links to its questions."
    />
  );
}
