import { useId } from 'react';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { REGRADE_MESSAGES, useGradeRelease } from '../api/regrades-api.ts';

export interface GradeReleaseControlProps {
  assignmentId: string;
  /** Absent: the control is the assignment's (it holds every question's grades). */
  questionId?: string;
  /** This assignment or question holds its grades itself. */
  isHeld: boolean;
  releasedAt: string | null;
  /** For a question: its assignment holds every grade anyway. */
  isHeldByAssignment?: boolean;
}

/**
 * Hold or release grades (decision 0023). By default a grade is released when it is saved; holding
 * keeps every grade, saved before or after, from the students until the instructor releases them.
 */
export function GradeReleaseControl({
  assignmentId,
  questionId,
  isHeld,
  releasedAt,
  isHeldByAssignment = false,
}: GradeReleaseControlProps) {
  const headingId = useId();
  const release = useGradeRelease({ assignmentId, questionId });
  const scope = questionId ? 'this question' : 'this assignment';
  const change = (released: boolean) =>
    release.mutate(released, {
      onSuccess: (result) => showSuccess(result.message),
      onError: (error) => showError(messageOf(error, REGRADE_MESSAGES.releaseFailed), error),
    });
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: 2, mb: 3 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography id={headingId} variant="h6" component="h2">
            Release of grades
          </Typography>
          <Typography color="text.secondary">
            {isHeld
              ? `Grades of ${scope} are held: students see no score or comments until you release them.`
              : `Students see the grades of ${scope} as soon as they are saved.`}
            {!isHeld && releasedAt ? ` Released ${formatDateTime(releasedAt)}.` : ''}
          </Typography>
        </Box>
        <Button
          variant={isHeld ? 'contained' : 'outlined'}
          startIcon={isHeld ? <LockOpenIcon /> : <LockIcon />}
          disabled={release.isPending}
          onClick={() => change(isHeld)}
          sx={{ flexShrink: 0 }}
        >
          {isHeld ? 'Release grades' : 'Hold grades'}
        </Button>
      </Stack>
      {isHeldByAssignment ? (
        <Alert severity="info" sx={{ mt: 2 }}>
          The assignment holds all of its grades; release them from the assignment page.
        </Alert>
      ) : null}
    </Paper>
  );
}
