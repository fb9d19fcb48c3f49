import { useId, useState } from 'react';
import { Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import type { AssignmentDetail } from '@gradewise/shared/contracts/assignments';
import {
  DEFAULT_REGRADE_REQUEST_LIMIT,
  DEFAULT_REGRADE_WINDOW_DAYS,
  REGRADE_REQUEST_LIMIT_MAX,
  REGRADE_WINDOW_DAYS_MAX,
} from '@gradewise/shared/contracts/regrades';
import { messageOf } from '../../../lib/api-client.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { REGRADE_MESSAGES, useRegradeSettings } from '../api/regrades-api.ts';

/** A whole number within 0..max, or the sentence that says what is wrong. */
function checkWhole(raw: string, label: string, max: number): string | null {
  if (!/^\d+$/.test(raw.trim())) return `${label} must be a whole number.`;
  const value = Number(raw);
  return value > max ? `${label} must be at most ${max}.` : null;
}

/** The owner's regrade rules of one assignment: the window after release and the per-student limit. */
export function RegradeSettingsForm({ assignment }: { assignment: AssignmentDetail }) {
  const headingId = useId();
  const save = useRegradeSettings(assignment._id);
  const [days, setDays] = useState(String(assignment.regradeWindowDays ?? DEFAULT_REGRADE_WINDOW_DAYS));
  const [limit, setLimit] = useState(String(assignment.regradeRequestLimit ?? DEFAULT_REGRADE_REQUEST_LIMIT));
  const [touched, setTouched] = useState(false);
  const daysError = checkWhole(days, 'Days', REGRADE_WINDOW_DAYS_MAX);
  const limitError = checkWhole(limit, 'Requests', REGRADE_REQUEST_LIMIT_MAX);
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: 2, mb: 3 }}>
      <Typography id={headingId} variant="h6" component="h2">
        Regrade requests
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Students may ask for a second look at a released grade within this many days of its release. 0 turns requests
        off.
      </Typography>
      <Box
        component="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (daysError || limitError) return;
          save.mutate(
            { regradeWindowDays: Number(days), regradeRequestLimit: Number(limit) },
            {
              onSuccess: (result) => showSuccess(result.message),
              onError: (error) => showError(messageOf(error, REGRADE_MESSAGES.settingsFailed), error),
            },
          );
        }}
      >
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label="Days after release"
            value={days}
            onChange={(event) => setDays(event.target.value)}
            error={touched && Boolean(daysError)}
            helperText={touched && daysError ? daysError : `0 to ${REGRADE_WINDOW_DAYS_MAX}`}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            size="small"
          />
          <TextField
            label="Requests per student"
            value={limit}
            onChange={(event) => setLimit(event.target.value)}
            error={touched && Boolean(limitError)}
            helperText={touched && limitError ? limitError : 'For the whole assignment'}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            size="small"
          />
          <Button type="submit" variant="outlined" disabled={save.isPending} sx={{ mt: { sm: 0.5 } }}>
            {save.isPending ? 'Saving…' : 'Save regrade rules'}
          </Button>
        </Stack>
      </Box>
    </Paper>
  );
}
