import { ComingSoon } from '../../components/coming-soon.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useSession } from '../../lib/session.tsx';

/**
 * Placeholder until the courses list is built. The title follows the spec already: 'My Courses'
 * for instructors, 'Enrolled Courses' for everyone else. (The seenDemo redirect lives in the
 * route table: see RequireSeenDemo.)
 */
export function CoursesRoute() {
  const { user } = useSession();
  const title = user?.role === 'instructor' ? 'My Courses' : 'Enrolled Courses';
  useDocumentTitle(title);
  const description =
    user?.role === 'instructor'
      ? 'Your courses will be listed here, and you will create new ones from this screen.'
      : 'The courses you are enrolled in will be listed here.';
  return <ComingSoon title={title} description={description} />;
}
