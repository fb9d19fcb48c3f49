import { useId } from 'react';
import {
  Button,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { formatMoney, type AiSpend } from '@gradewise/shared/contracts/ai-cost';
import { EmptyMessage, ErrorMessage, LoadingMessage } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useAssignmentAiSpend } from '../api/course-ai-spend-api.ts';

const tokensOf = (spend: AiSpend) => (spend.inputTokens + spend.outputTokens).toLocaleString('en-US');

/**
 * What AI grading cost (issue 31): this assignment and every assignment of its course, all time,
 * with the course's month against its budget. Every figure is a sum of the provider's reported
 * tokens at the provider's price.
 */
export function AiSpendPanel({ assignmentId }: { assignmentId: string }) {
  const headingId = useId();
  const spend = useAssignmentAiSpend(assignmentId);
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 2.5 }, mt: 4 }}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1 }}>
        AI spend
      </Typography>
      {spend.isPending ? (
        <LoadingMessage text="Loading what AI grading cost…" compact />
      ) : spend.isError ? (
        <ErrorMessage
          text={messageOf(spend.error, 'What AI grading cost could not be loaded.')}
          action={
            <Button color="inherit" size="small" onClick={() => void spend.refetch()}>
              Retry
            </Button>
          }
        />
      ) : spend.data.total.calls === 0 ? (
        <EmptyMessage text="No AI provider calls yet: nothing has been spent in this course." />
      ) : (
        <>
          <Typography variant="body2" sx={{ mb: 2 }}>
            This course: {formatMoney(spend.data.total.cost, spend.data.currency)} in all ·{' '}
            {formatMoney(spend.data.thisMonth.cost, spend.data.currency)} this month
            {spend.data.monthlyBudget !== null
              ? ` of a ${formatMoney(spend.data.monthlyBudget, spend.data.currency)} monthly budget`
              : ''}
            .
          </Typography>
          <TableContainer>
            <Table size="small" aria-labelledby={headingId}>
              <TableHead>
                <TableRow>
                  <TableCell component="th" scope="col">
                    Assignment
                  </TableCell>
                  <TableCell component="th" scope="col" align="right">
                    Calls
                  </TableCell>
                  <TableCell component="th" scope="col" align="right">
                    Tokens
                  </TableCell>
                  <TableCell component="th" scope="col" align="right">
                    Cost
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {spend.data.assignments.map((row) => (
                  <TableRow key={row.assignmentId} selected={row.assignmentId === assignmentId}>
                    <TableCell component="th" scope="row">
                      {row.title}
                      {row.assignmentId === assignmentId ? ' (this assignment)' : ''}
                    </TableCell>
                    <TableCell align="right">{row.total.calls}</TableCell>
                    <TableCell align="right">{tokensOf(row.total)}</TableCell>
                    <TableCell align="right">{formatMoney(row.total.cost, spend.data.currency)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
    </Paper>
  );
}
