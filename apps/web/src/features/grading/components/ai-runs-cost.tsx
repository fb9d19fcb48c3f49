import { useId } from 'react';
import {
  Box,
  Button,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { formatMoney } from '@gradewise/shared/contracts/ai-cost';
import { EmptyMessage, ErrorMessage, LoadingMessage } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useSubmissionAiRuns } from '../api/ai-cost-api.ts';

const STATUS_LABELS = { queued: 'Queued', running: 'Running', succeeded: 'Suggested', failed: 'Failed' } as const;

/** The grade history's AI runs (issue 31): each run of this answer with its provider, tokens and cost. */
export function AiRunsCost({
  assignmentId,
  questionId,
  submissionId,
}: {
  assignmentId: string;
  questionId: string;
  submissionId: string;
}) {
  const headingId = useId();
  const runs = useSubmissionAiRuns(assignmentId, questionId, submissionId);
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        AI runs and their cost
      </Typography>
      {runs.isPending ? (
        <LoadingMessage text="Loading the AI runs…" compact />
      ) : runs.isError ? (
        <ErrorMessage
          text={messageOf(runs.error, 'The AI runs of this answer could not be loaded.')}
          action={
            <Button color="inherit" size="small" onClick={() => void runs.refetch()}>
              Retry
            </Button>
          }
        />
      ) : runs.data.runs.length === 0 ? (
        <EmptyMessage text="The AI has not graded this answer." />
      ) : (
        <>
          <TableContainer>
            <Table size="small" aria-labelledby={headingId}>
              <TableHead>
                <TableRow>
                  <TableCell component="th" scope="col">
                    When
                  </TableCell>
                  <TableCell component="th" scope="col">
                    Grader
                  </TableCell>
                  <TableCell component="th" scope="col">
                    Result
                  </TableCell>
                  <TableCell component="th" scope="col" align="right">
                    Tokens in / out
                  </TableCell>
                  <TableCell component="th" scope="col" align="right">
                    Cost
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {runs.data.runs.map((run) => (
                  <TableRow key={run.runId}>
                    <TableCell>{new Date(run.createdAt).toLocaleString()}</TableCell>
                    <TableCell>
                      {run.provider === 'builtin'
                        ? 'Built-in grader'
                        : `${run.model} (${run.providerId ?? run.provider})`}
                    </TableCell>
                    <TableCell>{STATUS_LABELS[run.status]}</TableCell>
                    <TableCell align="right">
                      {run.inputTokens === null ? '—' : `${run.inputTokens} / ${run.outputTokens ?? 0}`}
                    </TableCell>
                    <TableCell align="right">
                      {run.cost === null ? 'Free' : formatMoney(run.cost, runs.data.currency)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            In all: {formatMoney(runs.data.total.cost, runs.data.currency)} for {runs.data.total.calls} provider call
            {runs.data.total.calls === 1 ? '' : 's'}.
          </Typography>
        </>
      )}
    </Box>
  );
}
