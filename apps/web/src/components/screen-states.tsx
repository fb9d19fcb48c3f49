import type { ReactNode } from 'react';
import { Alert, AlertTitle, Box, Button, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { isNotFound, messageOf } from '../lib/api-client.ts';
import { LoadingIcon } from './loading-icon.tsx';

/** A screen (or part of one) that is waiting for data: the turning cap and the spec's loading text. */
export function LoadingMessage({ text, compact = false }: { text: string; compact?: boolean }) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: compact ? 'row' : 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: compact ? 1.5 : 2,
        py: compact ? 2 : 6,
      }}
    >
      <LoadingIcon size={compact ? 32 : 64} label={text} />
      {/* The status role above already announces the text; this copy is for sighted readers. */}
      <Typography color="text.secondary" aria-hidden>
        {text}
      </Typography>
    </Box>
  );
}

/** A failure to show in place of content (the toast says it too, but leaves after 5 seconds). */
export function ErrorMessage({ text, action }: { text: string; action?: ReactNode }) {
  return (
    <Alert severity="error" variant="outlined" action={action} sx={{ my: 2 }}>
      {text}
    </Alert>
  );
}

export const RETRY_LABEL = 'Try again';

/**
 * A read that failed, said for what it was: a 404 is "not found" (the spec's text) and final; any
 * other failure (a server error, a lost connection) names the failed load, gives the server's
 * reason when it sent one, and offers to try again, so a passing fault never looks like a
 * missing page.
 */
export function LoadFailedMessage({
  error,
  notFoundText,
  failedText,
  onRetry,
}: {
  error: unknown;
  notFoundText: string;
  failedText: string;
  onRetry: () => void;
}) {
  if (isNotFound(error)) return <ErrorMessage text={notFoundText} />;
  const reason = messageOf(error, '');
  return (
    <Alert
      severity="error"
      variant="outlined"
      sx={{ my: 2 }}
      action={
        <Button color="inherit" size="small" startIcon={<RefreshIcon />} onClick={onRetry}>
          {RETRY_LABEL}
        </Button>
      }
    >
      <AlertTitle>{failedText}</AlertTitle>
      {reason || 'Please check your connection and try again.'}
    </Alert>
  );
}

/** A list with nothing in it yet, said plainly. */
export function EmptyMessage({ text, children }: { text: string; children?: ReactNode }) {
  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderStyle: 'dashed', borderRadius: 1, p: { xs: 2, sm: 3 }, my: 2 }}>
      <Typography color="text.secondary">{text}</Typography>
      {children}
    </Box>
  );
}
