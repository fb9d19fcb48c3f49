import { Link as RouterLink } from 'react-router-dom';
import { Button, Container } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { PageHeader } from '../../components/page-header.tsx';
import { EmptyMessage, ErrorMessage, LoadingMessage } from '../../components/screen-states.tsx';
import { ASSIGNMENT_MESSAGES, useAssignments } from '../../features/assignments/api/assignments-api.ts';
import { AssignmentList } from '../../features/assignments/components/assignment-list.tsx';
import { messageOf } from '../../lib/api-client.ts';
import { useSession } from '../../lib/session.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useErrorToast } from '../../lib/use-error-toast.ts';

/**
 * Assignments list (spec section 2): every assignment of the caller's courses, title and total
 * points linking to its page. Instructors also get Create Assignment, which needs a course: it
 * goes to /assignments/create, where the instructor picks one of their courses first.
 */
export function AssignmentsRoute() {
  useDocumentTitle('Assignments');
  const { user } = useSession();
  const isInstructor = user?.role === 'instructor';
  const assignments = useAssignments();
  useErrorToast(assignments.error, ASSIGNMENT_MESSAGES.fetchListFailed);

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <PageHeader
        title="Assignments"
        actions={
          isInstructor ? (
            <Button component={RouterLink} to="/assignments/create" variant="contained" startIcon={<AddIcon />}>
              Create Assignment
            </Button>
          ) : null
        }
      />
      {assignments.isPending ? (
        <LoadingMessage text="Loading assignments…" />
      ) : assignments.isError ? (
        <ErrorMessage
          text={messageOf(assignments.error, ASSIGNMENT_MESSAGES.fetchListFailed)}
          action={
            <Button color="inherit" size="small" onClick={() => void assignments.refetch()}>
              Try again
            </Button>
          }
        />
      ) : assignments.data.length === 0 ? (
        <EmptyMessage text="No assignments yet" />
      ) : (
        <AssignmentList assignments={assignments.data} showCourse />
      )}
    </Container>
  );
}
