import { Box, Typography } from '@mui/material';
import type { AddStudentsOutput } from '@gradewise/shared/contracts/courses';
import { ApiError, messageOf } from '../../../lib/api-client.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';

/** Long lists stay readable in a toast; the count of the rest is given. */
const MAX_LISTED = 8;

function EntryList({ entries }: { entries: { entry: string; reason: string }[] }) {
  const listed = entries.slice(0, MAX_LISTED);
  return (
    <>
      <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
        {listed.map(({ entry, reason }, index) => (
          <Typography component="li" variant="body2" key={`${index}-${entry}`} sx={{ overflowWrap: 'anywhere' }}>
            {entry ? `${entry} — ${reason}` : reason}
          </Typography>
        ))}
      </Box>
      {entries.length > listed.length ? (
        <Typography variant="body2">and {entries.length - listed.length} more.</Typography>
      ) : null}
    </>
  );
}

/**
 * The server's message counts what happened (added, already enrolled, invited, rejected); the
 * rejected entries are listed with their reason, so the instructor can fix them.
 */
export function showRosterOutcome(result: AddStudentsOutput, fallback: string): void {
  showSuccess(
    <Box>
      <Typography variant="body2">{result.message || fallback}</Typography>
      {result.rejected.length > 0 ? (
        <>
          <Typography variant="body2" sx={{ mt: 1, fontWeight: 500 }}>
            Not added:
          </Typography>
          <EntryList entries={result.rejected} />
        </>
      ) : null}
    </Box>,
  );
}

/** A refused roster change; when no entry could be added, the server lists each one with its reason. */
export function showRosterError(error: unknown, fallback: string): void {
  console.error(fallback, error);
  const issues = error instanceof ApiError ? error.issues : [];
  showError(
    <Box>
      <Typography variant="body2">{messageOf(error, fallback)}</Typography>
      {issues.length > 1 ? (
        <EntryList entries={issues.map((issue) => ({ entry: issue.path, reason: issue.message }))} />
      ) : null}
    </Box>,
  );
}
