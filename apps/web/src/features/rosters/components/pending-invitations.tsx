import { useId } from 'react';
import { List, ListItem, ListItemText, Paper, Typography } from '@mui/material';
import type { PendingStudent } from '@gradewise/shared/contracts/courses';
import { formatDateTime } from '../../../lib/format-date.ts';

/**
 * Emails added to the roster that have no account yet (instructor only). Each becomes an
 * enrolment when that person registers with the email.
 */
export function PendingInvitations({ invitations }: { invitations: PendingStudent[] }) {
  const headingId = useId();
  if (invitations.length === 0) return null;
  return (
    <section aria-labelledby={headingId}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ mt: 4, mb: 0.5 }}>
        Invited, not registered yet
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        They join the course when they register with this email.
      </Typography>
      <Paper variant="outlined">
        <List dense disablePadding aria-labelledby={headingId}>
          {invitations.map((invitation, index) => (
            <ListItem key={invitation.email} divider={index < invitations.length - 1}>
              <ListItemText
                primary={invitation.email}
                secondary={`Invited ${formatDateTime(invitation.invitedAt)}`}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          ))}
        </List>
      </Paper>
    </section>
  );
}
