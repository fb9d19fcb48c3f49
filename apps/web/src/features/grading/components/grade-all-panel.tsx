import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Box, Button, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import AutoAwesomeIcon from '@mui/icons-material/AutoAwesome';
import RateReviewOutlinedIcon from '@mui/icons-material/RateReviewOutlined';
import type { GradingProgressOutput } from '@gradewise/shared/contracts/grading';
import { gradePagePath } from '../../../lib/paths.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { refreshAfterGrading, useGradeAllProgress, useReviewQueue } from '../api/grading-api.ts';
import { GradeAllEstimateDialog, GradeAllSpend } from './grade-all-cost.tsx';

export interface GradeAllPanelProps {
  assignmentId: string;
  questionId: string;
  /**
   * How many latest answers Grade All would ask the AI about (no saved grade of their own, no
   * suggestion, nothing in flight; see isLeftForGradeAll), and how many there are in all.
   */
  leftToGrade: number;
  submissionCount: number;
  /** More buttons for the row (the CSV downloads). */
  extraActions?: ReactNode;
}

/**
 * "A week of grading in minutes": Grade All queues AI grading of every ungraded latest submission
 * and shows a live progress bar (read from the server, so a reload finds a running batch again);
 * Review then opens the grading screen on the queue (answers to grade first, then the suggestions most likely to be far off).
 */
export function GradeAllPanel({
  assignmentId,
  questionId,
  leftToGrade,
  submissionCount,
  extraActions,
}: GradeAllPanelProps) {
  const headingId = useId();
  const whyDisabledId = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Grade All shows its estimate first (issue 31); the dialog starts the run.
  const [estimating, setEstimating] = useState(false);
  const progress = useGradeAllProgress(assignmentId, questionId);
  const queue = useReviewQueue(assignmentId, questionId);
  const isRunning = progress.data ? !progress.data.isFinished : false;

  // When a batch finishes, the table and the queue show the new suggestions. While it runs, each
  // answer settled shows on its row at once (the rows also re-read themselves while any is grading).
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !isRunning) void refreshAfterGrading(queryClient, assignmentId, questionId);
    wasRunning.current = isRunning;
  }, [isRunning, queryClient, assignmentId, questionId]);
  const settled = progress.data ? progress.data.done + progress.data.failed : 0;
  const lastSettled = useRef(settled);
  useEffect(() => {
    if (isRunning && settled !== lastSettled.current) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.questions.detail(assignmentId, questionId) });
    }
    lastSettled.current = settled;
  }, [settled, isRunning, queryClient, assignmentId, questionId]);

  const firstToReview = queue.data?.items.find((item) => item.status !== 'graded');
  const remaining = queue.data?.remaining ?? 0;

  // Grade All asks only about what is left: with nothing left it waits, and says why, rather than
  // looking clickable and doing nothing (the server would queue nothing either).
  const whyDisabled = isRunning
    ? null
    : submissionCount === 0
      ? 'Nothing to grade yet: no submissions.'
      : leftToGrade === 0
        ? 'Nothing left for Grade All: every answer has an AI suggestion or a saved grade. Review them, or use Regrade on one answer to ask the AI again.'
        : null;

  const onGradeAll = () => setEstimating(true);

  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 2.5 }, mb: 4 }}>
      <Typography id={headingId} variant="h6" component="h2">
        Grade with AI
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Grade All asks the AI to suggest a grade for every answer that has neither a suggestion nor a saved grade.
        Review walks them (the answers that teach the most first, then those most likely to be far off); nothing becomes
        a grade until you save it.
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button
          variant="contained"
          startIcon={<AutoAwesomeIcon />}
          onClick={onGradeAll}
          disabled={isRunning || whyDisabled !== null}
          aria-haspopup="dialog"
          aria-describedby={whyDisabled ? whyDisabledId : undefined}
        >
          {leftToGrade > 0 && !isRunning ? `Grade All (${leftToGrade} left)` : 'Grade All'}
        </Button>
        <Button
          variant="outlined"
          startIcon={<RateReviewOutlinedIcon />}
          disabled={!firstToReview}
          onClick={() =>
            firstToReview &&
            navigate(gradePagePath(assignmentId, questionId, firstToReview.submissionId, { queue: true }))
          }
        >
          {/* Split: the owner's Review walks their share; the whole question's count is under Your share. */}
          Review{queue.data ? ` (${remaining} left${queue.data.share?.isSplit ? ' in your share' : ''})` : ''}
        </Button>
        {extraActions}
      </Stack>
      {whyDisabled ? (
        <Typography id={whyDisabledId} variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
          {whyDisabled}
        </Typography>
      ) : null}
      {progress.data && progress.data.batchId ? <GradeAllProgress progress={progress.data} /> : null}
      {progress.data && progress.data.batchId ? (
        <GradeAllSpend
          assignmentId={assignmentId}
          questionId={questionId}
          batchId={progress.data.batchId}
          isRunning={isRunning}
        />
      ) : null}
      <GradeAllEstimateDialog
        assignmentId={assignmentId}
        questionId={questionId}
        open={estimating}
        onClose={() => setEstimating(false)}
      />
    </Paper>
  );
}

function GradeAllProgress({ progress }: { progress: GradingProgressOutput }) {
  const settled = progress.done + progress.failed;
  const percent = progress.total > 0 ? Math.round((settled / progress.total) * 100) : 100;
  const summary = `${progress.done} done · ${progress.failed} failed · ${progress.remaining} remaining (of ${progress.total})`;
  return (
    <Box sx={{ mt: 2 }}>
      <LinearProgress
        variant="determinate"
        value={percent}
        color={progress.failed > 0 ? 'warning' : 'primary'}
        aria-label="Grade All progress"
        aria-valuetext={summary}
        sx={{ height: 8, borderRadius: 1 }}
      />
      <Typography variant="body2" sx={{ mt: 1 }} role="status" aria-live="polite">
        {progress.isFinished ? `Grading finished: ${summary}.` : `Grading… ${summary}.`}
      </Typography>
    </Box>
  );
}
