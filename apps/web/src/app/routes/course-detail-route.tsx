import { ComingSoon } from '../../components/coming-soon.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Placeholder until the screen is built: Course. */
export function CourseDetailRoute() {
  useDocumentTitle('Course');
  return (
    <ComingSoon
      title="Course"
      description="This screen will show the course's title, image, syllabus, students and assignments."
    />
  );
}
