import { ComingSoon } from '../../components/coming-soon.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Placeholder until the screen is built: Assignments. */
export function AssignmentsRoute() {
  useDocumentTitle('Assignments');
  return (
    <ComingSoon
      title="Assignments"
      description="This screen will list your assignments with their total points; instructors will create new ones here."
    />
  );
}
