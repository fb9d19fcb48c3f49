import { useId } from 'react';
import { Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import RefreshIcon from '@mui/icons-material/Refresh';
import type { GradePassbackRow } from '@gradewise/shared/contracts/lti';
import { EmptyMessage, ErrorMessage, LoadingMessage, RETRY_LABEL } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { LTI_MESSAGES, useGradePassback, useSendGradesToLms } from '../api/lti-api.ts';

const STATE_LABEL: Record<
  GradePassbackRow['state'],
  { label: string; color: 'success' | 'info' | 'error' | 'default' }
> = {
  sent: { label: 'Sent', color: 'success' },
  pending: { label: 'Sending', color: 'info' },
  failed: { label: 'Failed', color: 'error' },
  'nothing-released': { label: 'Nothing released', color: 'default' },
};

const PROGRESS_LABEL: Record<string, string> = {
  FullyGraded: 'final',
  Pending: 'not every answer graded and released yet',
  PendingManual: 'under a regrade request',
};

/**
 * Grades in the LMS (decision 0076): for the course's staff, where each student's released score
 * stands with every LMS course linked to this course (sent, sending, failed with the LMS's words);
 * the owner can send them all again. Nothing shows for a course without an LMS that takes grades.
 */
export function LmsGradePassback({ assignmentId, isOwner }: { assignmentId: string; isOwner: boolean }) {
  const headingId = useId();
  const passback = useGradePassback(assignmentId);
  const send = useSendGradesToLms(assignmentId);
  if (passback.isSuccess && passback.data.lmsCourses.length === 0) return null;

  const sendAgain = () =>
    send.mutate(undefined, {
      onSuccess: (result) => showSuccess(result.message),
      onError: (error) => showError(messageOf(error, LTI_MESSAGES.sendGradesFailed), error),
    });
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: 2, mb: 3 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography id={headingId} variant="h6" component="h2">
            Grades in the LMS
          </Typography>
          <Typography color="text.secondary">
            {passback.isSuccess
              ? `Released grades go to ${passback.data.lmsCourses.join(', ')} by themselves; held grades never do.`
              : 'Released grades go to the LMS by themselves; held grades never do.'}
          </Typography>
        </Box>
        {isOwner && passback.isSuccess ? (
          <Button
            variant="outlined"
            startIcon={<SendIcon />}
            disabled={send.isPending}
            onClick={sendAgain}
            sx={{ flexShrink: 0 }}
          >
            Send grades to the LMS
          </Button>
        ) : null}
      </Stack>
      {passback.isPending ? <LoadingMessage compact text="Loading what was sent to the LMS…" /> : null}
      {passback.isError ? (
        <ErrorMessage
          text={messageOf(passback.error, LTI_MESSAGES.passbackFailed)}
          action={
            <Button color="inherit" size="small" startIcon={<RefreshIcon />} onClick={() => void passback.refetch()}>
              {RETRY_LABEL}
            </Button>
          }
        />
      ) : null}
      {passback.isSuccess && passback.data.rows.length === 0 ? (
        <EmptyMessage text="No grade has been sent yet: scores go to the LMS when a grade of a student who came from it is released." />
      ) : null}
      {passback.isSuccess && passback.data.rows.length > 0 ? (
        <Box component="ul" aria-label="Grades sent to the LMS" sx={{ listStyle: 'none', p: 0, m: 0, mt: 2 }}>
          {passback.data.rows.map((row) => (
            <PassbackItem
              key={`${row.student._id}-${row.lmsCourse}`}
              row={row}
              showCourse={passback.data.lmsCourses.length > 1}
            />
          ))}
        </Box>
      ) : null}
    </Paper>
  );
}

function PassbackItem({ row, showCourse }: { row: GradePassbackRow; showCourse: boolean }) {
  const state = STATE_LABEL[row.state];
  const score =
    row.scoreGiven !== null && row.scoreMaximum !== null
      ? `${row.scoreGiven} / ${row.scoreMaximum}${row.gradingProgress ? ` (${PROGRESS_LABEL[row.gradingProgress] ?? row.gradingProgress})` : ''}`
      : null;
  return (
    <Box
      component="li"
      sx={{
        display: 'flex',
        flexDirection: { xs: 'column', sm: 'row' },
        gap: { xs: 0.5, sm: 2 },
        py: 1,
        borderTop: 1,
        borderColor: 'divider',
        alignItems: { sm: 'baseline' },
      }}
    >
      <Typography sx={{ fontWeight: 500, minWidth: { sm: 180 }, overflowWrap: 'anywhere' }}>
        {row.student.name}
        {showCourse ? (
          <Typography component="span" color="text.secondary">
            {` · ${row.lmsCourse}`}
          </Typography>
        ) : null}
      </Typography>
      <Box sx={{ minWidth: { sm: 140 } }}>
        <Chip size="small" label={state.label} color={state.color} variant="outlined" />
      </Box>
      <Typography
        color={row.state === 'failed' ? 'error' : 'text.secondary'}
        sx={{ flex: 1, overflowWrap: 'anywhere' }}
      >
        {row.message ?? score ?? 'Nothing released to send yet.'}
        {` · ${formatDateTime(row.at)}`}
      </Typography>
    </Box>
  );
}
