import { ComingSoon } from '../../components/coming-soon.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Placeholder until the screen is built: Create Assignment. */
export function AssignmentCreateRoute() {
  useDocumentTitle('Create Assignment');
  return (
    <ComingSoon
      title="Create Assignment"
      description="Instructors will create an assignment for one of their courses here, with a title and an optional deadline."
    />
  );
}
