import { useId, useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import { REGRADE_REPLY_MAX_LENGTH, type RegradeRequestForStaff } from '@gradewise/shared/contracts/regrades';
import { parsePointsDeducted } from '@gradewise/shared/final-grade';
import { messageOf } from '../../../lib/api-client.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { REGRADE_MESSAGES, useResolveRegrade } from '../api/regrades-api.ts';

/**
 * Accept or reject a regrade request with a reply the student reads on their report. Accepting may
 * set a new grade for the answer: the server saves it like any grade (the disputed item's
 * deductions change), so the grading history stays whole. Left empty, the current grade stays.
 */
export function ResolveRegradeDialog({ request, onClose }: { request: RegradeRequestForStaff; onClose: () => void }) {
  const titleId = useId();
  const resolve = useResolveRegrade(request._id);
  const [decision, setDecision] = useState<'accept' | 'reject'>('accept');
  const [reply, setReply] = useState('');
  const [grade, setGrade] = useState('');
  const [touched, setTouched] = useState(false);
  const replyError = reply.trim() === '' ? 'Please write a reply to the student.' : null;
  const gradeValue = grade.trim() === '' ? null : parsePointsDeducted(grade);
  const gradeError =
    decision === 'accept' && gradeValue !== null && (gradeValue < 0 || gradeValue > request.question.points)
      ? `The grade must be between 0 and ${request.question.points}.`
      : null;

  const submit = () => {
    setTouched(true);
    if (replyError || gradeError) return;
    resolve.mutate(
      { decision, reply: reply.trim(), ...(decision === 'accept' && gradeValue !== null ? { grade: gradeValue } : {}) },
      {
        onSuccess: (result) => {
          showSuccess(result.message);
          onClose();
        },
        onError: (error) => showError(messageOf(error, REGRADE_MESSAGES.resolveFailed), error),
      },
    );
  };

  return (
    <Dialog open onClose={resolve.isPending ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Resolve regrade request</DialogTitle>
      <DialogContent>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {request.student.name} · current grade {request.currentGrade === null ? '—' : request.currentGrade} /{' '}
          {request.question.points}
        </Typography>
        <FormControl sx={{ mb: 2 }}>
          <FormLabel id={`${titleId}-decision`}>Decision</FormLabel>
          <RadioGroup
            row
            aria-labelledby={`${titleId}-decision`}
            value={decision}
            onChange={(event) => setDecision(event.target.value as 'accept' | 'reject')}
          >
            <FormControlLabel value="accept" control={<Radio />} label="Accept" />
            <FormControlLabel value="reject" control={<Radio />} label="Reject" />
          </RadioGroup>
        </FormControl>
        {decision === 'accept' ? (
          <TextField
            label={`New grade (out of ${request.question.points})`}
            value={grade}
            onChange={(event) => setGrade(event.target.value)}
            error={touched && Boolean(gradeError)}
            helperText={
              touched && gradeError
                ? gradeError
                : 'Leave empty to keep the current grade (e.g. you regraded it already).'
            }
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            fullWidth
            sx={{ mb: 2 }}
          />
        ) : null}
        <TextField
          label="Reply to the student"
          value={reply}
          onChange={(event) => setReply(event.target.value)}
          error={touched && Boolean(replyError)}
          helperText={touched && replyError ? replyError : 'The student reads this on their grading report.'}
          multiline
          minRows={3}
          fullWidth
          required
          slotProps={{ htmlInput: { maxLength: REGRADE_REPLY_MAX_LENGTH } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={resolve.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={submit} disabled={resolve.isPending}>
          {resolve.isPending ? 'Saving…' : decision === 'accept' ? 'Accept request' : 'Reject request'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
