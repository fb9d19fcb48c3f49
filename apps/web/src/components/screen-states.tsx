import type { ReactNode } from 'react';
import { Alert, Box, Typography } from '@mui/material';
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

/** A list with nothing in it yet, said plainly. */
export function EmptyMessage({ text, children }: { text: string; children?: ReactNode }) {
  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderStyle: 'dashed', borderRadius: 1, p: { xs: 2, sm: 3 }, my: 2 }}>
      <Typography color="text.secondary">{text}</Typography>
      {children}
    </Box>
  );
}
