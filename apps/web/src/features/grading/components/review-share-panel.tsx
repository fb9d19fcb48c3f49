import { useId } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import BarChartIcon from '@mui/icons-material/BarChart';
import RateReviewOutlinedIcon from '@mui/icons-material/RateReviewOutlined';
import { gradePagePath, statisticsPath } from '../../../lib/paths.ts';
import { useReviewQueue } from '../api/grading-api.ts';

/**
 * "Your share" on the question page (decision 0031): how much of the question is the viewer's when
 * the work is split, and, for a TA (who has no Grade with AI panel), the Review button that walks
 * their own share of the review queue, and the question's statistics (the owner has both in Grade
 * with AI). Nothing for the owner while nothing is split.
 */
export function ReviewSharePanel({
  assignmentId,
  questionId,
  showReview,
}: {
  assignmentId: string;
  questionId: string;
  showReview: boolean;
}) {
  const headingId = useId();
  const navigate = useNavigate();
  const queue = useReviewQueue(assignmentId, questionId);
  const share = queue.data?.share;
  if (!showReview && !share?.isSplit) return null;
  const firstToReview = queue.data?.items.find((item) => item.status !== 'graded');
  const summary = queue.isError
    ? 'Could not load your share of the answers.'
    : !queue.data
      ? 'Loading your share…'
      : share?.isSplit
        ? `The grading of this question is split: your share is ${share.mine} of ${share.total} answers.`
        : `Every answer is yours to grade: ${queue.data.remaining} of ${queue.data.items.length} left.`;
  // Two counts, each named for what it counts: the caller's share, and (split) the whole question,
  // which is what the owner has left whoever's answers they are.
  const counts =
    queue.data && share?.isSplit
      ? [
          { label: 'Left to grade in your share', value: queue.data.remaining },
          ...(share.remainingInQuestion === undefined
            ? []
            : [{ label: 'Left to grade in the whole question', value: share.remainingInQuestion }]),
        ]
      : [];
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 2.5 }, mb: 4 }}>
      <Typography id={headingId} variant="h6" component="h2">
        Your share
      </Typography>
      <Typography variant="body2" color={queue.isError ? 'error' : 'text.secondary'} sx={{ mb: 1 }}>
        {summary}
      </Typography>
      {counts.length > 0 ? (
        <Box component="dl" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 0.5, m: 0, mb: 1 }}>
          {counts.map((count) => (
            <Box key={count.label} sx={{ display: 'flex', gap: 0.75 }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {count.label}:
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 500 }}>
                {count.value}
              </Typography>
            </Box>
          ))}
        </Box>
      ) : null}
      {showReview ? <Box sx={{ mb: 1 }} /> : null}
      {showReview ? (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button
            variant="contained"
            startIcon={<RateReviewOutlinedIcon />}
            disabled={!firstToReview}
            onClick={() =>
              firstToReview &&
              navigate(gradePagePath(assignmentId, questionId, firstToReview.submissionId, { queue: true }))
            }
          >
            Review{queue.data ? ` (${queue.data.remaining} left in your share)` : ''}
          </Button>
          <Button
            component={RouterLink}
            to={statisticsPath(assignmentId, questionId)}
            variant="outlined"
            startIcon={<BarChartIcon />}
          >
            Statistics
          </Button>
        </Stack>
      ) : null}
    </Paper>
  );
}
