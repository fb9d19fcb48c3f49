import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { Alert, Button, Container, MenuItem, Paper, TextField } from '@mui/material';
import { PageHeader } from '../../components/page-header.tsx';
import { ErrorMessage, LoadFailedMessage, LoadingMessage } from '../../components/screen-states.tsx';
import { ASSIGNMENT_MESSAGES } from '../../features/assignments/api/assignments-api.ts';
import { assignmentPath, coursePath } from '../../lib/paths.ts';
import {
  CreateAssignmentForm,
  readCreateAssignmentState,
  type CreateAssignmentState,
} from '../../features/assignments/components/create-assignment-form.tsx';
import { COURSE_MESSAGES, useCourses } from '../../features/courses/api/courses-api.ts';
import { useSession } from '../../lib/session.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useErrorToast } from '../../lib/use-error-toast.ts';

export const ONLY_INSTRUCTORS_CREATE_ASSIGNMENTS = 'Only instructors can create assignments.';

/**
 * Create assignment (spec section 2): the course comes through the navigation state from a course
 * page. Opened without one (Create Assignment on /assignments, a bookmark), the instructor picks
 * one of their courses here, which puts it in the navigation state as a course page would. The
 * spec's "No courseId found…" is shown either way: above the picker, or alone (with Create a
 * Course) for an instructor who has no course to pick.
 */
export function AssignmentCreateRoute() {
  useDocumentTitle('Create Assignment');
  const { user } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const target = readCreateAssignmentState(location.state);
  const back = target
    ? { to: coursePath(target.courseId), label: target.courseTitle ?? 'Course' }
    : { to: '/courses', label: 'Courses' };

  let content;
  if (user?.role !== 'instructor') {
    content = <ErrorMessage text={ONLY_INSTRUCTORS_CREATE_ASSIGNMENTS} />;
  } else if (!target) {
    content = <ChooseCourse onChosen={(state) => navigate(location.pathname, { state, replace: true })} />;
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

/** The instructor's own courses to attach the assignment to; choosing one shows the form. */
function ChooseCourse({ onChosen }: { onChosen: (state: CreateAssignmentState) => void }) {
  const courses = useCourses();
  useErrorToast(courses.error, COURSE_MESSAGES.fetchListFailed);
  if (courses.isPending) return <LoadingMessage text="Loading your courses…" compact />;
  if (courses.isError) {
    return (
      <LoadFailedMessage
        error={courses.error}
        notFoundText={COURSE_MESSAGES.fetchListFailed}
        failedText={COURSE_MESSAGES.fetchListFailed}
        onRetry={() => void courses.refetch()}
      />
    );
  }
  if (courses.data.length === 0) {
    return (
      <ErrorMessage
        text={ASSIGNMENT_MESSAGES.noCourseId}
        action={
          <Button component={RouterLink} to="/courses/create" color="inherit" size="small">
            Create a Course
          </Button>
        }
      />
    );
  }
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      {/* The spec's message, then the way out of it: the course picker right below. */}
      <Alert severity="info" variant="outlined" sx={{ mb: 2 }}>
        {ASSIGNMENT_MESSAGES.noCourseId}
      </Alert>
      <TextField
        select
        fullWidth
        label="Course"
        value=""
        helperText="Or choose here which of your courses this assignment is for."
        onChange={(event) => {
          const course = courses.data.find((row) => row._id === event.target.value);
          if (course) onChosen({ courseId: course._id, courseTitle: course.title });
        }}
      >
        {courses.data.map((course) => (
          <MenuItem key={course._id} value={course._id}>
            {course.title}
          </MenuItem>
        ))}
      </TextField>
    </Paper>
  );
}
