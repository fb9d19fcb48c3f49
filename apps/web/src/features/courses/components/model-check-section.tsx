import { useId, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Chip,
  LinearProgress,
  Link,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { formatMoney, type AiProviderChoice } from '@gradewise/shared/contracts/ai-cost';
import {
  DEFAULT_MODEL_CHECK_SAMPLE,
  type ModelCheck,
  type ModelCheckResult,
  type ModelCheckSide,
} from '@gradewise/shared/contracts/ai-model-checks';
import { EmptyMessage, ErrorMessage, LoadingMessage } from '../../../components/screen-states.tsx';
import { ApiError, messageOf } from '../../../lib/api-client.ts';
import { gradePagePath } from '../../../lib/paths.ts';
import { showError, showInfo } from '../../../lib/toasts.tsx';
import { useModelCheckEstimate, useModelChecks, useStartModelCheck } from '../api/model-check-api.ts';

/**
 * A check before switching models (issue 31, item 5): the owner runs a candidate provider on a
 * sample of the course's saved grades, sees the estimate first and confirms it, and reads how
 * the candidate and the current provider agree with the grades, side by side. Course staff read
 * the history; answers are named by their place in the sample, never by student.
 */
export function ModelCheckSection({
  courseId,
  providers,
  currentProviderId,
  canEdit,
}: {
  courseId: string;
  providers: AiProviderChoice[];
  currentProviderId: string;
  canEdit: boolean;
}) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 4 }}>
      <Typography id={headingId} variant="h6" component="h3">
        Check a model before switching
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Grades a sample of your saved grades with another provider and with the one this course uses now, and shows how
        close each comes to your grades.
      </Typography>
      {canEdit ? (
        <StartCheckForm courseId={courseId} providers={providers} currentProviderId={currentProviderId} />
      ) : null}
      <CheckHistory courseId={courseId} />
    </Box>
  );
}

function StartCheckForm({
  courseId,
  providers,
  currentProviderId,
}: {
  courseId: string;
  providers: AiProviderChoice[];
  currentProviderId: string;
}) {
  const [providerId, setProviderId] = useState(
    () => providers.find((provider) => provider.id !== currentProviderId)?.id ?? currentProviderId,
  );
  const [sampleText, setSampleText] = useState(String(DEFAULT_MODEL_CHECK_SAMPLE));
  const [asked, setAsked] = useState<{ providerId: string; sampleSize: number } | null>(null);
  const estimate = useModelCheckEstimate(courseId, asked);
  const start = useStartModelCheck(courseId);
  const data = estimate.data;
  const sampleError =
    estimate.error instanceof ApiError
      ? estimate.error.issues.find((issue) => issue.path === 'sampleSize')?.message
      : undefined;

  const onEstimate = (event: FormEvent) => {
    event.preventDefault();
    // Sent as typed: the server says what is wrong with the number, naming the field.
    setAsked({ providerId, sampleSize: Number(sampleText) });
  };
  const onStart = () => {
    if (!asked) return;
    start.mutate(
      { ...asked, confirmCost: true },
      {
        onSuccess: () => {
          showInfo('The model check started. Its progress shows below.');
          setAsked(null);
        },
        onError: (error) => showError(messageOf(error, 'The model check could not start.'), error),
      },
    );
  };

  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <Box component="form" onSubmit={onEstimate} noValidate>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
          <TextField
            select
            label="Provider to check"
            value={providerId}
            onChange={(event) => {
              setProviderId(event.target.value);
              setAsked(null);
            }}
            sx={{ minWidth: 240 }}
          >
            {providers.map((provider) => (
              <MenuItem key={provider.id} value={provider.id}>
                {provider.label}
                {provider.id === currentProviderId ? ' (now)' : ''}
                {provider.location === 'external' ? ' · external service' : ' · on this server'}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Saved grades to compare"
            value={sampleText}
            onChange={(event) => {
              setSampleText(event.target.value);
              setAsked(null);
            }}
            inputMode="numeric"
            error={Boolean(sampleError)}
            helperText={sampleError ?? 'At most 100. Each answer is graded by both providers.'}
            sx={{ maxWidth: 240 }}
          />
          <Box sx={{ pt: { sm: 1 } }}>
            <Button type="submit" variant="outlined" disabled={estimate.isFetching} aria-busy={estimate.isFetching}>
              Estimate the check
            </Button>
          </Box>
        </Stack>
      </Box>
      {asked === null ? null : estimate.isPending ? (
        <LoadingMessage text="Reading the sampled answers to estimate the cost…" compact />
      ) : estimate.isError ? (
        sampleError ? null : (
          <Alert severity="error" sx={{ mt: 2 }}>
            {messageOf(estimate.error, 'The check could not be estimated.')}
          </Alert>
        )
      ) : data && data.answers === 0 ? (
        <Alert severity="info" sx={{ mt: 2 }}>
          No saved grades to compare with yet. Save some grades on a question with a rubric, then check again.
        </Alert>
      ) : data ? (
        <Stack spacing={1.5} sx={{ mt: 2 }} role="status" aria-live="polite">
          <Typography>
            {data.answers} of your {data.savedGrades} saved grade{data.savedGrades === 1 ? '' : 's'}, graded by{' '}
            <strong>{data.providerLabel}</strong> and by <strong>{data.currentProviderLabel}</strong> (now). Estimated
            cost <strong>{formatMoney(data.cost, data.currency)}</strong> (
            {formatMoney(data.candidateCost, data.currency)} + {formatMoney(data.currentCost, data.currency)}),{' '}
            {(data.inputTokens + data.outputTokens).toLocaleString('en-US')} tokens.
          </Typography>
          {!data.fitsBudget ? (
            <Alert severity="error">
              This does not fit what is left of the monthly budget
              {data.budgetLeft === null ? '' : ` (${formatMoney(data.budgetLeft, data.currency)})`}. Nothing will be
              sent.
            </Alert>
          ) : data.needsConfirmation ? (
            <Alert severity="warning">
              This is more than the {formatMoney(data.confirmAbove, data.currency)} this course spends without asking.
            </Alert>
          ) : null}
          <Stack direction="row" spacing={1}>
            <Button
              variant="contained"
              onClick={onStart}
              disabled={!data.fitsBudget || start.isPending}
              aria-busy={start.isPending}
            >
              {start.isPending ? 'Starting…' : `Run the check (about ${formatMoney(data.cost, data.currency)})`}
            </Button>
            <Button onClick={() => setAsked(null)}>Cancel</Button>
          </Stack>
        </Stack>
      ) : null}
    </Paper>
  );
}

function CheckHistory({ courseId }: { courseId: string }) {
  const checks = useModelChecks(courseId);
  if (checks.isPending) return <LoadingMessage text="Loading the model checks…" compact />;
  if (checks.isError) {
    return (
      <ErrorMessage
        text={messageOf(checks.error, 'The model checks could not be loaded.')}
        action={
          <Button color="inherit" size="small" onClick={() => void checks.refetch()}>
            Retry
          </Button>
        }
      />
    );
  }
  if (checks.data.checks.length === 0) {
    return <EmptyMessage text="No model checks yet. A check's result stays here, for everyone on the course staff." />;
  }
  return (
    <Stack spacing={2} component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Model checks, newest first">
      {checks.data.checks.map((check) => (
        <Box component="li" key={check.id}>
          <CheckCard check={check} />
        </Box>
      ))}
    </Stack>
  );
}

const STATUS_LABEL: Record<ModelCheck['status'], string> = {
  queued: 'Waiting to start',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
};

function CheckCard({ check }: { check: ModelCheck }) {
  const running = check.status === 'queued' || check.status === 'running';
  const percent = check.sampleSize > 0 ? Math.round((check.done / check.sampleSize) * 100) : 0;
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }}>
        <Typography component="h4" sx={{ fontWeight: 600, flexGrow: 1 }}>
          {check.candidateProviderLabel} against {check.currentProviderLabel}, on {check.sampleSize} saved grade
          {check.sampleSize === 1 ? '' : 's'}
        </Typography>
        <Chip
          size="small"
          label={STATUS_LABEL[check.status]}
          color={check.status === 'succeeded' ? 'success' : check.status === 'failed' ? 'error' : 'default'}
          sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
        />
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {new Date(check.requestedAt).toLocaleString()} · {running ? 'spent so far' : 'spent'}{' '}
        {formatMoney(check.cost, check.currency)}
      </Typography>
      {running ? (
        <Box sx={{ mt: 1.5 }}>
          <LinearProgress
            variant="determinate"
            value={percent}
            aria-label="Model check progress"
            aria-valuetext={`${check.done} of ${check.sampleSize} answers`}
          />
          <Typography variant="body2" sx={{ mt: 0.5 }} aria-live="polite">
            {check.done} of {check.sampleSize} answers graded by both
          </Typography>
        </Box>
      ) : null}
      {check.status === 'failed' ? (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {check.error ?? 'The check failed.'}
        </Alert>
      ) : null}
      {check.result ? <CheckResult result={check.result} currency={check.currency} /> : null}
    </Paper>
  );
}

const points = (value: number | null) => (value === null ? '—' : `${value.toLocaleString('en-US')} pts`);
const percent = (value: number | null) => (value === null ? '—' : `${value.toLocaleString('en-US')}%`);
const leaning = (value: number | null) =>
  value === null ? '—' : value === 0 ? 'even' : `${value > 0 ? '+' : ''}${value.toLocaleString('en-US')} pts`;

function CheckResult({ result, currency }: { result: ModelCheckResult; currency: string }) {
  const { candidate, current } = result;
  const rows: { label: string; of: (side: ModelCheckSide) => string }[] = [
    { label: 'Within 10% of the points', of: (side) => percent(side.withinTenPercent) },
    { label: 'Mean difference', of: (side) => points(side.meanAbsoluteDifference) },
    { label: 'Mean difference, share of the points', of: (side) => percent(side.meanAbsolutePercent) },
    { label: 'Gives more (+) or less (−) than you', of: (side) => leaning(side.meanSignedDifference) },
    { label: 'Answers graded / failed', of: (side) => `${side.graded} / ${side.failed}` },
    { label: 'Cost', of: (side) => formatMoney(side.cost, currency) },
  ];
  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Agreement with your saved grades">
          <TableHead>
            <TableRow>
              <TableCell>Agreement with your grades</TableCell>
              <TableCell>{current.providerLabel} (now)</TableCell>
              <TableCell>{candidate.providerLabel}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.label}>
                <TableCell component="th" scope="row">
                  {row.label}
                </TableCell>
                <TableCell>{row.of(current)}</TableCell>
                <TableCell>{row.of(candidate)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      {result.items.length > 0 ? (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Mean difference per rubric item">
            <TableHead>
              <TableRow>
                <TableCell>Rubric item</TableCell>
                <TableCell>{current.providerLabel}</TableCell>
                <TableCell>{candidate.providerLabel}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {result.items.map((item) => (
                <TableRow key={`${item.questionId}-${item.criterion}`}>
                  <TableCell component="th" scope="row">
                    {item.criterion}
                    <Typography variant="body2" color="text.secondary">
                      {item.questionTitle} · {item.points} pts · {item.answers} answer{item.answers === 1 ? '' : 's'}
                    </Typography>
                  </TableCell>
                  <TableCell>{points(item.currentMeanDifference)}</TableCell>
                  <TableCell>{points(item.candidateMeanDifference)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      ) : null}
      {result.differences.length > 0 ? (
        <Box>
          <Typography component="h5" sx={{ fontWeight: 600, mb: 0.5 }}>
            Where {candidate.providerLabel} differs most from your grades
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {result.differences.map((difference) => (
              <li key={difference.submissionId}>
                <Link
                  component={RouterLink}
                  to={gradePagePath(difference.assignmentId, difference.questionId, difference.submissionId)}
                >
                  {difference.label}
                </Link>{' '}
                ({difference.questionTitle}): you gave {difference.savedScore} / {difference.points},{' '}
                {candidate.providerLabel} {difference.candidateScore ?? '—'}, {current.providerLabel}{' '}
                {difference.currentScore ?? '—'}
              </li>
            ))}
          </Box>
        </Box>
      ) : null}
    </Stack>
  );
}
