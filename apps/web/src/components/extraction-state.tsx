import { CircularProgress, Stack, Typography } from '@mui/material';
import type { ExtractionStatus } from '@gradewise/shared/contracts/submissions';

/** What each state of reading a submission's text is called on screen. */
export const EXTRACTION_STATE_LABELS: Record<ExtractionStatus, string> = {
  queued: 'Text: queued',
  reading: 'Text: reading…',
  done: 'Text: done',
  failed: 'Text: failed',
};

export interface ExtractionStateProps {
  /** Absent for files stored before text was read at submission: nothing is shown. */
  status?: ExtractionStatus;
  /** Why it failed (a sentence from the server). */
  error?: string | null;
}

/**
 * Where reading the text of a submitted PDF stands (queued / reading / done / failed), with the
 * reason when it failed: shown in the submissions table and on the grading screen, so nobody has
 * to grade a submission to learn that its PDF cannot be read.
 */
export function ExtractionState({ status, error }: ExtractionStateProps) {
  if (!status) return null;
  const isBusy = status === 'queued' || status === 'reading';
  return (
    <Stack spacing={0.25} sx={{ mt: 0.5 }}>
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
        {isBusy ? <CircularProgress size={10} aria-hidden /> : null}
        <Typography
          variant="caption"
          role="status"
          sx={{
            color: status === 'failed' ? 'error.light' : 'text.secondary',
            fontWeight: status === 'failed' ? 500 : 400,
          }}
        >
          {EXTRACTION_STATE_LABELS[status]}
        </Typography>
      </Stack>
      {status === 'failed' && error ? (
        <Typography variant="caption" sx={{ color: 'error.light', overflowWrap: 'anywhere' }}>
          {error}
        </Typography>
      ) : null}
    </Stack>
  );
}
