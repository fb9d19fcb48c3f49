import { Link as RouterLink, useParams } from 'react-router-dom';
import { Box, Button, Chip, Container, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ListAltIcon from '@mui/icons-material/ListAlt';
import BarChartIcon from '@mui/icons-material/BarChart';
import { PageHeader } from '../../components/page-header.tsx';
import { LoadFailedMessage, LoadingMessage } from '../../components/screen-states.tsx';
import { ASSIGNMENT_MESSAGES, useAssignment } from '../../features/assignments/api/assignments-api.ts';
import { AnonymousGradingSetting } from '../../features/assignments/components/anonymous-grading-setting.tsx';
import { ResubmissionSetting } from '../../features/assignments/components/resubmission-setting.tsx';
import { LmsGradePassback } from '../../features/lti/components/lms-grade-passback.tsx';
import { GradeReleaseControl } from '../../features/regrades/components/grade-release-control.tsx';
import { RegradeSettingsForm } from '../../features/regrades/components/regrade-settings-form.tsx';
import { formatDateTime, isPast } from '../../lib/format-date.ts';
import { useSession } from '../../lib/session.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useErrorToast } from '../../lib/use-error-toast.ts';
import { coursePath, questionCreatePath, questionListPath, statisticsPath } from '../../lib/paths.ts';

/**
 * Assignment detail (spec section 2): title, deadline if set, course title; View Questions for
 * everyone, Create a Question for instructors.
 */
export function AssignmentDetailRoute() {
  const { id = '' } = useParams();
  const { user } = useSession();
  const assignment = useAssignment(id);
  useDocumentTitle(assignment.data?.title ?? 'Assignment');
  useErrorToast(assignment.error, ASSIGNMENT_MESSAGES.fetchFailed);

  if (assignment.isPending) {
    return (
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        <LoadingMessage text="Loading assignment details…" />
      </Container>
    );
  }
  if (assignment.isError) {
    return (
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        <Typography variant="h4" component="h1" gutterBottom>
          Assignment
        </Typography>
        <LoadFailedMessage
          error={assignment.error}
          notFoundText={ASSIGNMENT_MESSAGES.notFound}
          failedText={ASSIGNMENT_MESSAGES.fetchFailed}
          onRetry={() => void assignment.refetch()}
        />
        <Button component={RouterLink} to="/assignments">
          Back to Assignments
        </Button>
      </Container>
    );
  }

  const detail = assignment.data;
  // The owner manages the assignment; a TA (staffRole 'ta') only grades it (decision 0021).
  const isInstructor = user?.role === 'instructor' && detail.staffRole !== 'ta';
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <PageHeader
        back={{ to: coursePath(detail.course._id), label: detail.course.title }}
        title={detail.title}
        subtitle={
          <Stack spacing={0.5}>
            {detail.deadline ? (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <span>Deadline: {formatDateTime(detail.deadline)}</span>
                {isPast(detail.deadline) ? (
                  <Chip size="small" label="Past deadline" color="warning" variant="outlined" />
                ) : null}
              </Stack>
            ) : null}
            {detail.course.title ? <span>Course: {detail.course.title}</span> : null}
            <span>
              Total points: {detail.points} · {detail.questionCount}{' '}
              {detail.questionCount === 1 ? 'question' : 'questions'}
            </span>
          </Stack>
        }
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <Button component={RouterLink} to={questionListPath(id)} variant="contained" startIcon={<ListAltIcon />}>
          View Questions
        </Button>
        {isInstructor ? (
          <Button component={RouterLink} to={questionCreatePath(id)} variant="outlined" startIcon={<AddIcon />}>
            Create a Question
          </Button>
        ) : null}
        {detail.viewer === 'staff' ? (
          <Button component={RouterLink} to={statisticsPath(id)} variant="outlined" startIcon={<BarChartIcon />}>
            Statistics
          </Button>
        ) : null}
      </Stack>
      {detail.viewer === 'staff' && isInstructor ? <ResubmissionSetting assignment={detail} /> : null}
      {detail.viewer === 'staff' && detail.staffRole !== 'ta' ? (
        <Box sx={{ mt: 3 }}>
          <AnonymousGradingSetting assignment={detail} />
          <GradeReleaseControl
            assignmentId={detail._id}
            isHeld={detail.gradesHeld ?? false}
            releasedAt={detail.gradesReleasedAt ?? null}
          />
          <RegradeSettingsForm key={`${detail.regradeWindowDays}-${detail.regradeRequestLimit}`} assignment={detail} />
        </Box>
      ) : null}
      {/* The course's staff see what reached the LMS (decision 0076); students never. */}
      {detail.viewer === 'staff' ? (
        <Box sx={{ mt: detail.staffRole === 'ta' ? 3 : 0 }}>
          <LmsGradePassback assignmentId={detail._id} isOwner={detail.staffRole !== 'ta'} />
        </Box>
      ) : null}
    </Container>
  );
}
