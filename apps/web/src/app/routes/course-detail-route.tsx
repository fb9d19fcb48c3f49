import { useId } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { Box, Button, Container, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import GroupIcon from '@mui/icons-material/Group';
import RateReviewIcon from '@mui/icons-material/RateReview';
import { PdfDialogButton } from '../../components/pdf-dialog-button.tsx';
import { EmptyMessage, ErrorMessage, LoadingMessage } from '../../components/screen-states.tsx';
import { ASSIGNMENT_MESSAGES, useAssignments } from '../../features/assignments/api/assignments-api.ts';
import { AssignmentList } from '../../features/assignments/components/assignment-list.tsx';
import type { CreateAssignmentState } from '../../features/assignments/components/create-assignment-form.tsx';
import { COURSE_MESSAGES, useCourse } from '../../features/courses/api/courses-api.ts';
import { CourseOverview } from '../../features/courses/components/course-overview.tsx';
import {
  CourseAiReaderNotice,
  CourseAiSettingsSection,
} from '../../features/courses/components/course-ai-settings.tsx';
import { PendingInvitations } from '../../features/rosters/components/pending-invitations.tsx';
import { CourseLmsSection } from '../../features/lti/components/course-lms-section.tsx';
import { StaffSection } from '../../features/staff/components/staff-section.tsx';
import { messageOf } from '../../lib/api-client.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useErrorToast } from '../../lib/use-error-toast.ts';
import { courseRegradeRequestsPath, courseStudentsPath } from '../../lib/paths.ts';

/**
 * Course detail (spec section 2): title, image, View Syllabus, View Students, the course's
 * assignments (View Assignment each, or 'No assignments yet'), and Create Assignment for the
 * instructor who owns the course (the server says so with `viewer: 'staff'`).
 */
export function CourseDetailRoute() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const assignmentsHeadingId = useId();
  const course = useCourse(id);
  const assignments = useAssignments(id, { enabled: course.isSuccess });
  useDocumentTitle(course.data?.title ?? 'Course');
  useErrorToast(course.error, COURSE_MESSAGES.fetchFailed);
  useErrorToast(assignments.error, ASSIGNMENT_MESSAGES.fetchListFailed);

  if (course.isPending) {
    return (
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        <LoadingMessage text="Loading course…" />
      </Container>
    );
  }
  if (course.isError) {
    return (
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        <Typography variant="h4" component="h1" gutterBottom>
          Course
        </Typography>
        <ErrorMessage text={COURSE_MESSAGES.notFound} />
        <Button component={RouterLink} to="/courses">
          Back to Courses
        </Button>
      </Container>
    );
  }

  const detail = course.data;
  const isStaff = detail.viewer === 'staff';
  // A TA (staffRole 'ta') sees the course as staff but manages nothing (decision 0021).
  const isOwner = isStaff && detail.staffRole !== 'ta';
  const state: CreateAssignmentState = { courseId: detail._id, courseTitle: detail.title };

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <CourseOverview
        course={detail}
        actions={
          <>
            {detail.syllabus ? (
              <PdfDialogButton url={detail.syllabus} title={`Syllabus of ${detail.title}`}>
                View Syllabus
              </PdfDialogButton>
            ) : null}
            <Button
              component={RouterLink}
              to={courseStudentsPath(detail._id)}
              variant="outlined"
              startIcon={<GroupIcon />}
            >
              View Students
            </Button>
            {detail.viewer === 'staff' ? (
              <Button
                component={RouterLink}
                to={courseRegradeRequestsPath(detail._id)}
                variant="outlined"
                startIcon={<RateReviewIcon />}
              >
                Regrade Requests
              </Button>
            ) : null}
            {isOwner ? (
              <Button
                variant="contained"
                startIcon={<AddIcon />}
                onClick={() => navigate('/assignments/create', { state })}
              >
                Create Assignment
              </Button>
            ) : null}
          </>
        }
      />
      {/* Students who registered with an invited email wait for the owner: shown here too, with
          Confirm all, not only on the Students page (issue 29). */}
      {isOwner && detail.viewer === 'staff' && detail.pendingStudents.some((pending) => pending.registeredName) ? (
        <Box sx={{ mb: 4 }}>
          <PendingInvitations
            courseId={detail._id}
            invitations={detail.pendingStudents.filter((pending) => pending.registeredName)}
            confirmedBy={detail.invitationsConfirmedBy}
          />
        </Box>
      ) : null}
      <Box component="section" aria-labelledby={assignmentsHeadingId}>
        <Typography id={assignmentsHeadingId} variant="h5" component="h2" sx={{ mb: 2 }}>
          Assignments
        </Typography>
        {assignments.isPending ? (
          <LoadingMessage text="Loading assignments…" compact />
        ) : assignments.isError ? (
          <ErrorMessage text={messageOf(assignments.error, ASSIGNMENT_MESSAGES.fetchListFailed)} />
        ) : assignments.data.length === 0 ? (
          <EmptyMessage text="No assignments yet" />
        ) : (
          <AssignmentList assignments={assignments.data} linkStyle="view-button" headingLevel="h3" />
        )}
      </Box>
      {isStaff ? <StaffSection courseId={detail._id} canManage={isOwner} /> : null}
      {isStaff ? <CourseLmsSection courseId={detail._id} isOwner={isOwner} /> : null}
      {isStaff ? <CourseAiSettingsSection courseId={detail._id} /> : <CourseAiReaderNotice courseId={detail._id} />}
    </Container>
  );
}
