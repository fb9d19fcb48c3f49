import { useNavigate } from 'react-router-dom';
import { Container, Paper } from '@mui/material';
import { PageHeader } from '../../components/page-header.tsx';
import { ErrorMessage } from '../../components/screen-states.tsx';
import { CreateCourseForm } from '../../features/courses/components/create-course-form.tsx';
import { useSession } from '../../lib/session.tsx';
import { coursePath } from '../../lib/paths.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export const ONLY_INSTRUCTORS_CREATE_COURSES = 'Only instructors can create courses.';

/** Create course (spec section 2): instructors only; on success, the new course's page. */
export function CourseCreateRoute() {
  useDocumentTitle('Create Course');
  const { user } = useSession();
  const navigate = useNavigate();
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, md: 5 } }}>
      <PageHeader back={{ to: '/courses', label: 'Courses' }} title="Create Course" />
      {user?.role === 'instructor' ? (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <CreateCourseForm onCreated={(courseId) => navigate(coursePath(courseId))} />
        </Paper>
      ) : (
        <ErrorMessage text={ONLY_INSTRUCTORS_CREATE_COURSES} />
      )}
    </Container>
  );
}
