import { ComingSoon } from '../../components/coming-soon.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Placeholder until the screen is built: Course Students. */
export function CourseStudentsRoute() {
  useDocumentTitle('Course Students');
  return (
    <ComingSoon
      title="Course Students"
      description="This screen will list the course's students; the course's instructor will add students by email or from an Excel file."
    />
  );
}
