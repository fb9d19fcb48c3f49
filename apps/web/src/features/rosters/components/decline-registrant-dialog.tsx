import { useId } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { messageOf } from '../../../lib/api-client.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { useDeclineRegistrant } from '../api/rosters-api.ts';

/**
 * "Not my student": someone registered with an invited email and is not the student invited
 * (without email, nothing proves who reads an address). Closing that account frees the email for
 * the real student; the server refuses, saying why, when the account proved the address or is in use.
 */
export function DeclineRegistrantDialog({
  courseId,
  email,
  registrant,
  onClose,
}: {
  courseId: string;
  email: string;
  /** The registrant's name, or null for an instructor account (its name is not shown on the roster). */
  registrant: string | null;
  onClose: () => void;
}) {
  const titleId = useId();
  const descriptionId = useId();
  const decline = useDeclineRegistrant(courseId);
  const who = registrant ? `${registrant} registered` : 'An instructor account was registered';
  const onDecline = () =>
    decline.mutate(email, {
      onSuccess: (result) => {
        showSuccess(result.message);
        onClose();
      },
      onError: (error) => showError(messageOf(error, `Failed to close the account registered with ${email}.`), error),
    });
  return (
    <Dialog
      open
      onClose={decline.isPending ? undefined : onClose}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      maxWidth="sm"
    >
      <DialogTitle id={titleId}>Not your student?</DialogTitle>
      <DialogContent>
        <DialogContentText id={descriptionId} sx={{ overflowWrap: 'anywhere' }}>
          {who} with {email}. If this is not the student you invited, close that account: the email is then free, your
          student registers with it, and you confirm them here. The invitation keeps waiting. An account that has proved
          this email, or is already used in a course, is not closed.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={decline.isPending}>
          Cancel
        </Button>
        <Button color="error" variant="contained" onClick={onDecline} disabled={decline.isPending}>
          {decline.isPending ? 'Closing…' : 'Close the account'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
