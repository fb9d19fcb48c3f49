import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, Chip, Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import type { RegradeRequestForStaff } from '@gradewise/shared/contracts/regrades';
import { EmptyMessage, LoadFailedMessage, LoadingMessage } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { gradePagePath } from '../../../lib/paths.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { REGRADE_MESSAGES, useAiRecheck, useRegradeQueue, type RegradeQueueStatus } from '../api/regrades-api.ts';
import { ResolveRegradeDialog } from './resolve-regrade-dialog.tsx';
import { formatPoints } from '@gradewise/shared/points';

/** The staff's regrade queue of one course: open requests first come first served, or the resolved ones. */
export function RegradeQueueList({ courseId }: { courseId: string }) {
  const [status, setStatus] = useState<RegradeQueueStatus>('open');
  const queue = useRegradeQueue(courseId, status);
  const tabsId = useId();
  return (
    <Box>
      <Tabs
        value={status}
        onChange={(_event, value: RegradeQueueStatus) => setStatus(value)}
        aria-label="Which regrade requests"
        sx={{ mb: 2 }}
      >
        <Tab
          value="open"
          id={`${tabsId}-open`}
          label={queue.data && status === 'open' ? `Open (${queue.data.openCount})` : 'Open'}
        />
        <Tab
          value="resolved"
          id={`${tabsId}-resolved`}
          label={queue.data && status === 'resolved' ? `Resolved (${queue.data.resolvedCount})` : 'Resolved'}
        />
      </Tabs>
      {queue.isPending ? <LoadingMessage text={REGRADE_MESSAGES.queueLoading} compact /> : null}
      {queue.isError ? (
        <LoadFailedMessage
          error={queue.error}
          notFoundText={messageOf(queue.error, REGRADE_MESSAGES.queueFailed)}
          failedText={REGRADE_MESSAGES.queueFailed}
          onRetry={() => void queue.refetch()}
        />
      ) : null}
      {queue.data && queue.data.requests.length === 0 ? (
        <EmptyMessage text={status === 'open' ? 'No open regrade requests.' : 'No resolved regrade requests yet.'} />
      ) : null}
      {queue.data ? (
        <Stack component="ul" spacing={2} aria-label="Regrade requests" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {queue.data.requests.map((request) => (
            <RegradeRequestCard key={request._id} request={request} />
          ))}
        </Stack>
      ) : null}
    </Box>
  );
}

function RegradeRequestCard({ request }: { request: RegradeRequestForStaff }) {
  const [isResolving, setResolving] = useState(false);
  const recheck = useAiRecheck(request._id);
  const headingId = useId();
  const gradePath = gradePagePath(request.assignment._id, request.question._id, request.submissionId, {
    regrade: true,
  });
  const disputed = request.rubricItemId
    ? request.comments.filter((comment) => comment.rubricItemId === request.rubricItemId)
    : request.comments;
  const target = request.rubricItemId
    ? `Rubric item: ${request.rubricItem?.criterion ?? 'an item no longer in the rubric'}`
    : 'The whole answer';
  return (
    <Paper component="li" variant="outlined" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between' }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography id={headingId} variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
            {request.student.name} · {request.question.title ?? 'Untitled Question'}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {request.assignment.title} · asked {formatDateTime(request.createdAt)}
          </Typography>
        </Box>
        <Box>
          <Chip
            label={request.status === 'open' ? 'Open' : request.status === 'accepted' ? 'Accepted' : 'Rejected'}
            color={request.status === 'open' ? 'warning' : request.status === 'accepted' ? 'success' : 'default'}
            size="small"
          />
        </Box>
      </Stack>
      <Typography sx={{ mt: 1.5, fontWeight: 500 }}>{target}</Typography>
      <Typography variant="body2" color="text.secondary">
        Grade disputed: {request.disputedGrade === null ? '—' : formatPoints(request.disputedGrade)} /{' '}
        {formatPoints(request.question.points)}
        {request.currentGrade !== null && request.currentGrade !== request.disputedGrade
          ? ` · now ${formatPoints(request.currentGrade)}`
          : ''}
      </Typography>
      <Box component="blockquote" sx={{ m: 0, mt: 1.5, pl: 1.5, borderLeft: 3, borderColor: 'warning.main' }}>
        <Typography variant="caption" color="text.secondary" component="p">
          Student&apos;s reason
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{request.reason}</Typography>
      </Box>
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
        Original comments {request.rubricItemId ? 'on this item' : ''}
      </Typography>
      {disputed.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No comment was saved on it.
        </Typography>
      ) : (
        <Stack component="ul" spacing={0.5} sx={{ pl: 2.5, m: 0 }}>
          {disputed.map((comment) => (
            <Typography component="li" variant="body2" key={comment._id} sx={{ overflowWrap: 'anywhere' }}>
              {comment.text || '(no text)'} — {formatPoints(comment.pointsDeducted)} point
              {comment.pointsDeducted === 1 ? '' : 's'}
              {comment.accepted ? '' : ' (declined)'}
            </Typography>
          ))}
        </Stack>
      )}
      {request.aiRecheck ? (
        <Alert severity="info" icon={false} sx={{ mt: 2 }}>
          <Typography variant="subtitle2" component="h3">
            AI re-check (a draft: nothing changes until you resolve)
          </Typography>
          <Typography variant="body2">
            {formatPoints(request.aiRecheck.score)} / {formatPoints(request.aiRecheck.points)} · confidence{' '}
            {request.aiRecheck.confidenceLevel}% · {request.aiRecheck.grader.model}
          </Typography>
          {request.aiRecheck.comments.map((comment, index) => (
            <Typography variant="body2" key={index} sx={{ overflowWrap: 'anywhere' }}>
              {comment.text} (−{formatPoints(comment.pointsDeducted)})
            </Typography>
          ))}
        </Alert>
      ) : null}
      {request.status !== 'open' ? (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2" component="h3">
            Reply{request.resolvedBy ? ` by ${request.resolvedBy.name}` : ''}
            {request.resolvedAt ? `, ${formatDateTime(request.resolvedAt)}` : ''}
          </Typography>
          <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{request.reply}</Typography>
          {request.resolvedGrade !== null ? (
            <Typography variant="body2" color="text.secondary">
              New grade saved: {formatPoints(request.resolvedGrade)} / {formatPoints(request.question.points)}
            </Typography>
          ) : null}
        </Box>
      ) : (
        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
          <Button variant="contained" onClick={() => setResolving(true)}>
            Resolve
          </Button>
          <Button
            variant="outlined"
            disabled={recheck.isPending}
            onClick={() =>
              recheck.mutate(undefined, {
                onSuccess: (result) => showSuccess(result.message),
                onError: (error) => showError(messageOf(error, REGRADE_MESSAGES.recheckFailed), error),
              })
            }
          >
            {recheck.isPending ? 'Checking…' : request.aiRecheck ? 'Re-check with AI again' : 'Re-check with AI'}
          </Button>
          <Button component={RouterLink} to={gradePath}>
            Open grading screen
          </Button>
        </Stack>
      )}
      {isResolving ? <ResolveRegradeDialog request={request} onClose={() => setResolving(false)} /> : null}
    </Paper>
  );
}
