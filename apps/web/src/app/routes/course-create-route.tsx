import { ComingSoon } from '../../components/coming-soon.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Placeholder until the screen is built: Create Course. */
export function CourseCreateRoute() {
  useDocumentTitle('Create Course');
  return (
    <ComingSoon
      title="Create Course"
      description="Instructors will create a course here with a title, an optional course image and an optional syllabus PDF."
    />
  );
}
