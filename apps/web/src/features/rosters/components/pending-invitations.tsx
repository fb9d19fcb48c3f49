import { useId, useState } from 'react';
import { Button, List, ListItem, ListItemText, Paper, Typography } from '@mui/material';
import type { InvitationConfirmer, PendingStudent } from '@gradewise/shared/contracts/courses';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { useConfirmStudent } from '../api/rosters-api.ts';
import { DeclineRegistrantDialog } from './decline-registrant-dialog.tsx';

/**
 * Emails added to the roster before their owner had an account (instructor only). An invitation
 * attaches only to a proved address: the owner follows the emailed link (with SMTP), or, when
 * someone has registered with the email, the instructor confirms them here.
 */
export function PendingInvitations({
  courseId,
  invitations,
  confirmedBy,
}: {
  courseId: string;
  invitations: PendingStudent[];
  /** How invited students come in on this server: the words above the list follow it. */
  confirmedBy?: InvitationConfirmer;
}) {
  const headingId = useId();
  const confirm = useConfirmStudent(courseId);
  const [isConfirmingAll, setConfirmingAll] = useState(false);
  const [declining, setDeclining] = useState<PendingStudent | null>(null);
  if (invitations.length === 0) return null;
  const registered = invitations.filter((invitation) => invitation.registeredName);
  const onConfirm = (email: string) =>
    confirm.mutate(email, {
      onSuccess: (result) => showSuccess(result.message),
      onError: (error) => showError(messageOf(error, 'Failed to confirm the student.'), error),
    });
  // One press for everyone who registered: each confirmation is its own (atomic) call, one after
  // the other; one refused (say, an account deleted meanwhile) does not stop the others.
  const onConfirmAll = async () => {
    setConfirmingAll(true);
    let confirmed = 0;
    for (const invitation of registered) {
      try {
        await confirm.mutateAsync(invitation.email);
        confirmed += 1;
      } catch (error) {
        showError(messageOf(error, `Failed to confirm ${invitation.email}.`), error);
      }
    }
    setConfirmingAll(false);
    if (confirmed > 0) showSuccess(`${confirmed} ${confirmed === 1 ? 'student is' : 'students are'} now enrolled.`);
  };
  return (
    <section aria-labelledby={headingId}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ mt: 4, mb: 0.5 }}>
        Invited, not enrolled yet
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {confirmedBy === 'email'
          ? 'They join the course once they register and confirm their email by the link sent to them. Someone who registered before email was set up, you confirm below.'
          : 'Email is not set up on this server, so nobody joins by themselves: once an invited student has registered, confirm them below.'}
      </Typography>
      {registered.length > 0 ? (
        <Button
          variant="contained"
          size="small"
          sx={{ mb: 1.5 }}
          disabled={isConfirmingAll || confirm.isPending}
          onClick={() => void onConfirmAll()}
        >
          {isConfirmingAll ? 'Confirming…' : `Confirm all (${registered.length})`}
        </Button>
      ) : null}
      <Paper variant="outlined">
        <List dense disablePadding aria-labelledby={headingId}>
          {invitations.map((invitation, index) => (
            <ListItem key={invitation.email} divider={index < invitations.length - 1} sx={{ flexWrap: 'wrap', gap: 1 }}>
              <ListItemText
                primary={invitation.email}
                secondary={describeInvitation(invitation)}
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
              {/* Whoever registered the address first may not be the student invited (issue 28). */}
              {mayDecline(invitation) ? (
                <Button
                  size="small"
                  color="error"
                  onClick={() => setDeclining(invitation)}
                  aria-label={`Not my student: ${invitation.registeredName ?? 'the instructor account'} (${invitation.email})`}
                >
                  Not my student
                </Button>
              ) : null}
            </ListItem>
          ))}
        </List>
      </Paper>
      {declining ? (
        <DeclineRegistrantDialog
          courseId={courseId}
          email={declining.email}
          registrant={declining.registeredName}
          onClose={() => setDeclining(null)}
        />
      ) : null}
    </section>
  );
}

/**
 * An account the server says nobody relies on (never proved the email, holds nothing) is closed by
 * "Not my student", a squatting student's or instructor's (decision 0090); one that proved or uses
 * the email is refused there (409), so the page does not offer it (decision 0096): a student
 * registrant is confirmed, and for an instructor account the owner asks for another address.
 */
function mayDecline(invitation: PendingStudent): boolean {
  // A server that does not say (before decision 0096) leaves the choice to the owner, as it did.
  if (invitation.registeredName) return invitation.registrantClosable !== false;
  return invitation.registeredAsInstructor && invitation.instructorAccountClosable === true;
}

function describeInvitation(invitation: PendingStudent): string {
  if (invitation.registeredName) {
    return invitation.registrantClosable === false
      ? `${invitation.registeredName} registered and has proved this email or already uses this account, awaiting your confirmation`
      : `${invitation.registeredName} registered, awaiting your confirmation`;
  }
  if (invitation.registeredAsInstructor) {
    return invitation.instructorAccountClosable
      ? "An instructor account holds this email without having proved it, so your student cannot register with it. If it is not your student's, choose Not my student to close it; the invitation keeps waiting"
      : 'This email belongs to an instructor account that has proved it or is in use, which cannot join as a student: ask the student for another email';
  }
  return `Invited ${formatDateTime(invitation.invitedAt)}, not registered yet`;
}
