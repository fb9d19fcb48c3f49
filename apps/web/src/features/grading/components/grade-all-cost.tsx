import { useId, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import StopCircleOutlinedIcon from '@mui/icons-material/StopCircleOutlined';
import type { UseQueryResult } from '@tanstack/react-query';
import { formatMoney, type AiCostEstimate } from '@gradewise/shared/contracts/ai-cost';
import { messageOf } from '../../../lib/api-client.ts';
import { showError, showInfo } from '../../../lib/toasts.tsx';
import { useBatchSpend, useConfirmedGradeAll, useGradeAllEstimate, useStopGradeAll } from '../api/ai-cost-api.ts';

const tokens = (count: number) => `${count.toLocaleString('en-US')} token${count === 1 ? '' : 's'}`;

/**
 * Cost before (issue 31): Grade All opens this first. It shows what the run will cost — answers,
 * tokens and money on the course's provider — and what is left of the budgets; Start queues it
 * (the server checks the budget and the confirmation again). Above the course's confirmation
 * amount the button says so.
 */
export function GradeAllEstimateDialog({
  assignmentId,
  questionId,
  open,
  onClose,
}: {
  assignmentId: string;
  questionId: string;
  open: boolean;
  onClose: () => void;
}) {
  const titleId = useId();
  const estimate = useGradeAllEstimate(assignmentId, questionId, open);
  const start = useConfirmedGradeAll(assignmentId, questionId);
  const data = estimate.data;
  const onStart = () =>
    start.mutate(undefined, {
      onSuccess: (output) => {
        showInfo(output.message);
        onClose();
      },
      onError: (error) => showError(messageOf(error, 'Grade All could not start.'), error),
    });

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Grade All: what it will cost</DialogTitle>
      <DialogContent>
        <CostEstimateBody
          estimate={estimate}
          empty="Nothing to grade: every answer has a suggestion, a saved grade or a run in flight."
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={onStart}
          disabled={!data || data.answers === 0 || !data.fitsBudget || start.isPending}
          aria-busy={start.isPending}
        >
          {start.isPending
            ? 'Starting…'
            : data && data.answers > 0
              ? `Start (about ${formatMoney(data.cost, data.currency)})`
              : 'Start'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * What queued AI work will cost, before it starts (issue 31): answers, tokens and money on the
 * course's provider, the budget left, and a warning above the course's confirmation amount. One
 * home for Grade All's dialog and re-suggest's (both read an AiCostEstimate from the server).
 */
export function CostEstimateBody({ estimate, empty }: { estimate: UseQueryResult<AiCostEstimate>; empty: string }) {
  const data = estimate.data;
  return (
    <>
      {estimate.isPending ? (
        <Stack direction="row" spacing={1.5} alignItems="center" role="status">
          <CircularProgress size={20} aria-hidden />
          <Typography>Reading the answers to estimate the cost…</Typography>
        </Stack>
      ) : estimate.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void estimate.refetch()}>
              Retry
            </Button>
          }
        >
          {messageOf(estimate.error, 'The estimate could not be made.')}
        </Alert>
      ) : data && data.answers === 0 ? (
        <DialogContentText>{empty}</DialogContentText>
      ) : data ? (
        <Stack spacing={1.5}>
          <DialogContentText>
            {data.answers} answer{data.answers === 1 ? '' : 's'} on <strong>{data.providerLabel}</strong> (
            {data.location === 'on-server' ? 'on this server' : 'an external service'}).
          </DialogContentText>
          <Box
            component="dl"
            sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
          >
            <Typography component="dt" color="text.secondary">
              Estimated cost
            </Typography>
            <Typography component="dd" sx={{ m: 0, fontWeight: 600 }}>
              {formatMoney(data.cost, data.currency)}
            </Typography>
            <Typography component="dt" color="text.secondary">
              Tokens
            </Typography>
            <Typography component="dd" sx={{ m: 0 }}>
              {tokens(data.inputTokens)} in, about {tokens(data.outputTokens)} out
            </Typography>
            <Typography component="dt" color="text.secondary">
              Budget left this month
            </Typography>
            <Typography component="dd" sx={{ m: 0 }}>
              {data.budgetLeft === null ? 'No budget set' : formatMoney(data.budgetLeft, data.currency)}
            </Typography>
          </Box>
          {!data.fitsBudget ? (
            <Alert severity="error">
              This does not fit what is left of the monthly budget. Nothing will be queued; the course owner can raise
              the budget in the course&apos;s AI settings.
            </Alert>
          ) : data.needsConfirmation ? (
            <Alert severity="warning">
              This is more than the {formatMoney(data.confirmAbove, data.currency)} this course starts without asking.
              Start only if you mean to spend it.
            </Alert>
          ) : null}
          <Typography variant="body2" color="text.secondary">
            The estimate counts each answer&apos;s text, the rubric and the instructions sent with it. You can stop the
            run at any time; what was spent is shown as it runs.
          </Typography>
        </Stack>
      ) : null}
    </>
  );
}

/**
 * Cost during and after: the spend of the batch so far (read again while it runs) and Stop, which
 * cancels what is queued, lets the calls in flight finish, and says what was spent.
 */
export function GradeAllSpend({
  assignmentId,
  questionId,
  batchId,
  isRunning,
}: {
  assignmentId: string;
  questionId: string;
  batchId: string;
  isRunning: boolean;
}) {
  const spend = useBatchSpend(assignmentId, questionId, batchId, isRunning);
  const stop = useStopGradeAll(assignmentId, questionId);
  const [confirming, setConfirming] = useState(false);
  const titleId = useId();
  const data = spend.data;
  const stopped = Boolean(data?.stoppedAt);

  const onStop = () =>
    stop.mutate(batchId, {
      onSuccess: (output) => {
        setConfirming(false);
        showInfo(output.message);
      },
      onError: (error) => showError(messageOf(error, 'Grading could not be stopped.'), error),
    });

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }} sx={{ mt: 1 }}>
      <Typography variant="body2" aria-live="polite" sx={{ flexGrow: 1 }}>
        {spend.isPending
          ? 'Reading what this run spent…'
          : spend.isError
            ? messageOf(spend.error, 'What this run spent could not be read.')
            : data
              ? `${isRunning ? 'Spent so far' : stopped ? 'Stopped. Spent' : 'Spent'}: ${formatMoney(data.spend.cost, data.currency)} (${tokens(data.spend.inputTokens + data.spend.outputTokens)}, ${data.spend.calls} call${data.spend.calls === 1 ? '' : 's'})${data.cancelled > 0 ? ` · ${data.cancelled} not sent` : ''}.`
              : null}
      </Typography>
      {isRunning && !stopped ? (
        <Button
          color="error"
          variant="outlined"
          size="small"
          startIcon={<StopCircleOutlinedIcon />}
          onClick={() => setConfirming(true)}
          disabled={stop.isPending}
        >
          Stop
        </Button>
      ) : null}
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby={titleId}>
        <DialogTitle id={titleId}>Stop grading?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Answers not yet sent will not be graded. Answers being graded now finish, and are paid for. Suggestions
            already made stay.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>Keep grading</Button>
          <Button
            color="error"
            variant="contained"
            onClick={onStop}
            disabled={stop.isPending}
            aria-busy={stop.isPending}
          >
            {stop.isPending ? 'Stopping…' : 'Stop'}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
