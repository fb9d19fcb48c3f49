import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { Button, Container, Paper } from '@mui/material';
import { PageHeader } from '../../components/page-header.tsx';
import { ErrorMessage } from '../../components/screen-states.tsx';
import { ASSIGNMENT_MESSAGES } from '../../features/assignments/api/assignments-api.ts';
import { assignmentPath } from '../../features/assignments/components/assignment-list.tsx';
import {
  CreateAssignmentForm,
  readCreateAssignmentState,
} from '../../features/assignments/components/create-assignment-form.tsx';
import { useSession } from '../../lib/session.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export const ONLY_INSTRUCTORS_CREATE_ASSIGNMENTS = 'Only instructors can create assignments.';

/**
 * Create assignment (spec section 2): the course comes through the navigation state from a course
 * page; without it there is nothing to attach the assignment to, and the page says so.
 */
export function AssignmentCreateRoute() {
  useDocumentTitle('Create Assignment');
  const { user } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const target = readCreateAssignmentState(location.state);
  const back = target
    ? { to: `/courses/${encodeURIComponent(target.courseId)}`, label: target.courseTitle ?? 'Course' }
    : { to: '/courses', label: 'Courses' };

  let content;
  if (user?.role !== 'instructor') {
    content = <ErrorMessage text={ONLY_INSTRUCTORS_CREATE_ASSIGNMENTS} />;
  } else if (!target) {
    content = (
      <ErrorMessage
        text={ASSIGNMENT_MESSAGES.noCourseId}
        action={
          <Button component={RouterLink} to="/courses" color="inherit" size="small">
            Go to Courses
          </Button>
        }
      />
    );
  } else {
    content = (
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <CreateAssignmentForm
          courseId={target.courseId}
          onCreated={(assignmentId) => navigate(assignmentPath(assignmentId))}
        />
      </Paper>
    );
  }

  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, md: 5 } }}>
      <PageHeader
        back={back}
        title="Create Assignment"
        subtitle={target?.courseTitle ? `Course: ${target.courseTitle}` : undefined}
      />
      {content}
    </Container>
  );
}
