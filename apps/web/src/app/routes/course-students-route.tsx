import { useId } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Box, Button, Container, Grid, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { PageHeader } from '../../components/page-header.tsx';
import { ErrorMessage, LoadingMessage } from '../../components/screen-states.tsx';
import { COURSE_MESSAGES, useCourse } from '../../features/courses/api/courses-api.ts';
import { rosterSummary } from '../../features/courses/components/course-overview.tsx';
import { AddStudentsByEmailForm } from '../../features/rosters/components/add-students-by-email-form.tsx';
import { ExcelUploadForm } from '../../features/rosters/components/excel-upload-form.tsx';
import { PendingInvitations } from '../../features/rosters/components/pending-invitations.tsx';
import { StudentTable } from '../../features/rosters/components/student-table.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useErrorToast } from '../../lib/use-error-toast.ts';
import { useNavigateAfter } from '../../lib/use-navigate-after.ts';
import { coursePath } from '../../lib/paths.ts';

/** Spec section 9: after adding students, back to the course page after 1 second. */
export const RETURN_AFTER_ADDING_STUDENTS_MS = 1000;

/**
 * Course students (spec section 2): the roster (Name, Email, or 'No students yet'); the owning
 * instructor also adds students by email or from an Excel file, then returns to the course.
 */
export function CourseStudentsRoute() {
  const { id = '' } = useParams();
  const rosterHeadingId = useId();
  const course = useCourse(id);
  const coursePage = coursePath(id);
  const returnToCourse = useNavigateAfter(RETURN_AFTER_ADDING_STUDENTS_MS);
  useDocumentTitle(course.data ? `Students of ${course.data.title}` : 'Course Students');
  useErrorToast(course.error, COURSE_MESSAGES.fetchFailed);

  const backToCourse = (
    <Button component={RouterLink} to={coursePage} variant="outlined" startIcon={<ArrowBackIcon />}>
      Back to Course
    </Button>
  );

  if (course.isPending) {
    return (
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        <LoadingMessage text="Loading students…" />
      </Container>
    );
  }
  if (course.isError) {
    return (
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        <Typography variant="h4" component="h1" gutterBottom>
          Course Students
        </Typography>
        <ErrorMessage text={COURSE_MESSAGES.notFound} />
        {backToCourse}
      </Container>
    );
  }

  const detail = course.data;
  const onAdded = () => returnToCourse(coursePage);
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <PageHeader title="Students" subtitle={`${detail.title} · ${rosterSummary(detail)}`} actions={backToCourse} />
      {detail.viewer === 'staff' && detail.staffRole !== 'ta' ? (
        <Grid container spacing={3} sx={{ mb: 4 }}>
          <Grid size={{ xs: 12, md: 7 }}>
            <AddStudentsByEmailForm
              courseId={detail._id}
              onAdded={onAdded}
              confirmedBy={detail.invitationsConfirmedBy}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 5 }}>
            <ExcelUploadForm courseId={detail._id} onAdded={onAdded} />
          </Grid>
        </Grid>
      ) : null}
      <Box component="section" aria-labelledby={rosterHeadingId}>
        <Typography id={rosterHeadingId} variant="h6" component="h2" sx={{ mb: 1.5 }}>
          Enrolled students
        </Typography>
        <StudentTable students={detail.students} />
      </Box>
      {detail.viewer === 'staff' && detail.staffRole !== 'ta' ? (
        <PendingInvitations
          courseId={detail._id}
          invitations={detail.pendingStudents}
          confirmedBy={detail.invitationsConfirmedBy}
        />
      ) : null}
    </Container>
  );
}
