import { useId } from 'react';
import { Button, List, ListItem, ListItemText, Paper, Typography } from '@mui/material';
import type { PendingStudent } from '@gradewise/shared/contracts/courses';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { useConfirmStudent } from '../api/rosters-api.ts';

/**
 * Emails added to the roster before their owner had an account (instructor only). An invitation
 * attaches only to a proved address: the owner follows the emailed link (with SMTP), or, when
 * someone has registered with the email, the instructor confirms them here.
 */
export function PendingInvitations({ courseId, invitations }: { courseId: string; invitations: PendingStudent[] }) {
  const headingId = useId();
  const confirm = useConfirmStudent(courseId);
  if (invitations.length === 0) return null;
  const onConfirm = (email: string) =>
    confirm.mutate(email, {
      onSuccess: (result) => showSuccess(result.message),
      onError: (error) => showError(messageOf(error, 'Failed to confirm the student.'), error),
    });
  return (
    <section aria-labelledby={headingId}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ mt: 4, mb: 0.5 }}>
        Invited, not enrolled yet
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        They join the course once their email is confirmed: by the link emailed at registration, or by you below when
        someone has registered with it.
      </Typography>
      <Paper variant="outlined">
        <List dense disablePadding aria-labelledby={headingId}>
          {invitations.map((invitation, index) => (
            <ListItem key={invitation.email} divider={index < invitations.length - 1} sx={{ flexWrap: 'wrap', gap: 1 }}>
              <ListItemText
                primary={invitation.email}
                secondary={
                  invitation.registeredName
                    ? `${invitation.registeredName} registered, awaiting your confirmation`
                    : invitation.registeredAsInstructor
                      ? 'This email has an instructor account, which cannot join as a student: ask the student for another email'
                      : `Invited ${formatDateTime(invitation.invitedAt)}, not registered yet`
                }
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
              />
              {invitation.registeredName ? (
                <Button
                  size="small"
                  variant="outlined"
                  disabled={confirm.isPending}
                  onClick={() => onConfirm(invitation.email)}
                  aria-label={`Confirm ${invitation.registeredName} (${invitation.email})`}
                >
                  Confirm
                </Button>
              ) : null}
            </ListItem>
          ))}
        </List>
      </Paper>
    </section>
  );
}
