import { useId, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  Paper,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { GradingReportForStudent } from '@gradewise/shared/contracts/review';
import { REGRADE_REASON_MAX_LENGTH, type StudentRegradeState } from '@gradewise/shared/contracts/regrades';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { REPORT_MESSAGES, useRequestRegrade } from '../api/reports-api.ts';

const WHOLE_ANSWER = '';

const STATUS_LABEL = { open: 'Waiting for a reply', accepted: 'Accepted', rejected: 'Rejected' } as const;

/**
 * The student's side of regrade requests, on their report: the requests they sent with the staff's
 * replies, what is left (requests used of the limit, when the window closes), and "Request a
 * regrade" — on one rubric item (picked by its comment, as the student never sees the rubric) or
 * the whole answer, with a reason.
 */
export function RegradeRequestPanel({
  report,
  assignmentId,
}: {
  report: GradingReportForStudent & { regrade: StudentRegradeState };
  assignmentId: string;
}) {
  const headingId = useId();
  const [isAsking, setAsking] = useState(false);
  const { regrade } = report;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} variant="h6" component="h2" gutterBottom>
        Regrade requests
      </Typography>
      {regrade.requests.length > 0 ? (
        <Stack
          component="ul"
          spacing={1.5}
          aria-label="Your regrade requests"
          sx={{ listStyle: 'none', p: 0, m: 0, mb: 2 }}
        >
          {regrade.requests.map((request) => (
            <Paper component="li" key={request._id} variant="outlined" sx={{ p: 1.5 }}>
              <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
                <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                  {request.target}
                </Typography>
                <Chip
                  size="small"
                  label={STATUS_LABEL[request.status]}
                  color={request.status === 'accepted' ? 'success' : request.status === 'open' ? 'warning' : 'default'}
                />
              </Stack>
              <Typography
                variant="body2"
                color="text.secondary"
                sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              >
                You wrote ({formatDateTime(request.createdAt)}): {request.reason}
              </Typography>
              {request.reply ? (
                <Typography sx={{ mt: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  <strong>Reply:</strong> {request.reply}
                </Typography>
              ) : null}
            </Paper>
          ))}
        </Stack>
      ) : null}
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {regrade.limit > 0 && regrade.windowDays > 0
          ? `${regrade.used} of ${regrade.limit} requests used on this assignment` +
            (regrade.windowClosesAt ? ` · open until ${formatDateTime(regrade.windowClosesAt)}` : '')
          : 'This assignment takes no regrade requests.'}
      </Typography>
      {regrade.canRequest ? (
        <Button variant="outlined" onClick={() => setAsking(true)}>
          Request a regrade
        </Button>
      ) : regrade.blockedReason && report.isAlreadyGraded ? (
        <Alert severity="info">{regrade.blockedReason}</Alert>
      ) : null}
      {isAsking ? (
        <RequestRegradeDialog report={report} assignmentId={assignmentId} onClose={() => setAsking(false)} />
      ) : null}
    </Box>
  );
}

function RequestRegradeDialog({
  report,
  assignmentId,
  onClose,
}: {
  report: GradingReportForStudent;
  assignmentId: string;
  onClose: () => void;
}) {
  const titleId = useId();
  const send = useRequestRegrade(assignmentId, report.question._id, report.submission._id);
  // One choice per rubric item the student's comments judge (its first comment names it).
  const items = [
    ...new Map(
      report.comments
        .filter((comment) => comment.rubricItemId)
        .map((comment) => [comment.rubricItemId!, comment.text || 'A rubric item'] as const)
        .reverse(),
    ),
  ].reverse();
  const [target, setTarget] = useState(WHOLE_ANSWER);
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const reasonError = reason.trim() === '' ? 'Please say why the grade should be looked at again.' : null;
  const submit = () => {
    setTouched(true);
    if (reasonError) return;
    send.mutate(
      { rubricItemId: target === WHOLE_ANSWER ? null : target, reason: reason.trim() },
      {
        onSuccess: (result) => {
          showSuccess(result.message);
          onClose();
        },
        onError: (error) => showError(messageOf(error, REPORT_MESSAGES.regradeFailed), error),
      },
    );
  };
  return (
    <Dialog open onClose={send.isPending ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Request a regrade</DialogTitle>
      <DialogContent>
        <FormControl sx={{ mb: 2, width: '100%' }}>
          <FormLabel id={`${titleId}-target`}>What should be looked at again?</FormLabel>
          <RadioGroup
            aria-labelledby={`${titleId}-target`}
            value={target}
            onChange={(event) => setTarget(event.target.value)}
          >
            <FormControlLabel value={WHOLE_ANSWER} control={<Radio />} label="The whole answer" />
            {items.map(([id, text]) => (
              <FormControlLabel
                key={id}
                value={id}
                control={<Radio />}
                label={text}
                sx={{ alignItems: 'flex-start', '& .MuiFormControlLabel-label': { pt: 1, overflowWrap: 'anywhere' } }}
              />
            ))}
          </RadioGroup>
        </FormControl>
        <TextField
          label="Your reason"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          error={touched && Boolean(reasonError)}
          helperText={touched && reasonError ? reasonError : 'Say what you think was missed, and where in your answer.'}
          multiline
          minRows={3}
          fullWidth
          required
          slotProps={{ htmlInput: { maxLength: REGRADE_REASON_MAX_LENGTH } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={send.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={submit} disabled={send.isPending}>
          {send.isPending ? 'Sending…' : 'Send request'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
