import { Alert, Box, LinearProgress, Typography } from '@mui/material';
import type { GradingOutput } from '@gradewise/shared/contracts/grading';
import type { QuestionTableRowForStaff } from '@gradewise/shared/contracts/questions';
import { StaleSaveAlert } from '../../../components/stale-save-alert.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { GRADING_MESSAGES } from '../api/grading-api.ts';
import { formatPoints } from '../format.ts';

export interface GradingNoticesProps {
  result: GradingOutput;
  submission: QuestionTableRowForStaff;
  points: number;
  isRegrade: boolean;
  isRegrading: boolean;
  staleMessage: string | null;
  isReloading: boolean;
  onReload(): void;
}

/**
 * What the instructor should know before reviewing: a regrade running, the saved grade they are
 * changing, a grade a rubric change recomputed, a save refused because someone else saved first,
 * a grade on an earlier version.
 */
export function GradingNotices({
  result,
  submission,
  points,
  isRegrade,
  isRegrading,
  staleMessage,
  isReloading,
  onReload,
}: GradingNoticesProps) {
  return (
    <>
      {isRegrading ? (
        <Box sx={{ mb: 2 }} role="status">
          <Typography>{GRADING_MESSAGES.gradingInProgress}</Typography>
          <LinearProgress sx={{ mt: 1 }} aria-hidden />
        </Box>
      ) : null}
      {isRegrade && result.isAlreadyGraded ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          Saved grade: {formatPoints(result.gradingResult.totalScore)} / {formatPoints(points)}. Change it below, or ask
          for a fresh suggestion with Regrade With AI; nothing changes until you save.
        </Alert>
      ) : null}
      {result.isAlreadyGraded && result.rubricChange ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          Updated by rubric change on {formatDateTime(result.rubricChange.at)}
          {result.rubricChange.version !== null ? ` (version ${result.rubricChange.version})` : ''}, made by{' '}
          {result.rubricChange.by}. The grade before it is kept in History.
        </Alert>
      ) : null}
      {staleMessage ? <StaleSaveAlert message={staleMessage} onReload={onReload} isReloading={isReloading} /> : null}
      {submission.isGradeOnEarlierVersion && !result.isAlreadyGraded ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          Grade on an earlier version
          {submission.gradedVersion ? ` (version ${submission.gradedVersion})` : ''}:{' '}
          {formatPoints(submission.grade ?? 0)} / {formatPoints(points)}. It counts until you save a grade for this
          version {submission.version}.
        </Alert>
      ) : null}
    </>
  );
}
