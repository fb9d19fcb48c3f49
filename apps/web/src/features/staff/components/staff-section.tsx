import { useId, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  Box,
  Button,
  Chip,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import CallSplitIcon from '@mui/icons-material/CallSplit';
import { Email } from '@gradewise/shared/contracts/auth';
import { EmptyMessage, LoadFailedMessage, LoadingMessage } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { courseWorkSplitPath } from '../../../lib/paths.ts';
import { showSuccess } from '../../../lib/toasts.tsx';
import { STAFF_MESSAGES, useAddTa, useRemoveTa, useStaff } from '../api/staff-api.ts';

/**
 * The course's staff (decision 0021): the instructor and the teaching assistants. The owner adds a
 * TA by the email of their instructor account and removes one; a TA sees the list only.
 */
export function StaffSection({ courseId, canManage }: { courseId: string; canManage: boolean }) {
  const headingId = useId();
  const staff = useStaff(courseId);
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 3 }, mt: 4 }}>
      <Typography id={headingId} variant="h5" component="h2" gutterBottom>
        Staff
      </Typography>
      {staff.isPending ? (
        <LoadingMessage text="Loading staff…" compact />
      ) : staff.isError ? (
        <LoadFailedMessage
          error={staff.error}
          notFoundText={STAFF_MESSAGES.fetchFailed}
          failedText={STAFF_MESSAGES.fetchFailed}
          onRetry={() => void staff.refetch()}
        />
      ) : (
        <>
          <List dense disablePadding aria-label="Course staff">
            <ListItem disableGutters>
              <ListItemText
                primary={staff.data.owner.name}
                secondary={staff.data.owner.email}
                slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
              />
              <Chip label="Instructor" size="small" color="primary" variant="outlined" />
            </ListItem>
            {staff.data.staff.map((member) => (
              <ListItem
                key={member._id}
                disableGutters
                secondaryAction={
                  canManage ? <RemoveTaButton courseId={courseId} userId={member._id} name={member.name} /> : undefined
                }
                sx={{ pr: canManage ? 6 : 0 }}
              >
                <ListItemText
                  primary={member.name}
                  secondary={member.email}
                  slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
                />
                <Chip label="TA" size="small" variant="outlined" />
              </ListItem>
            ))}
          </List>
          {staff.data.staff.length === 0 ? (
            <EmptyMessage
              text={
                canManage
                  ? 'No teaching assistants yet. Add one by the email of their instructor account.'
                  : 'No teaching assistants yet.'
              }
            />
          ) : null}
          {canManage ? <AddTaForm courseId={courseId} /> : null}
          <Button
            component={RouterLink}
            to={courseWorkSplitPath(courseId)}
            variant="outlined"
            startIcon={<CallSplitIcon />}
            sx={{ mt: 2 }}
          >
            {canManage ? 'Split the Grading Work' : 'Work Split'}
          </Button>
        </>
      )}
    </Paper>
  );
}

function AddTaForm({ courseId }: { courseId: string }) {
  const addTa = useAddTa(courseId);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = Email.safeParse(email);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address.');
      return;
    }
    setError(null);
    try {
      const result = await addTa.mutateAsync(parsed.data);
      showSuccess(result.message);
      setEmail('');
    } catch (failure) {
      // Said next to the field (not a toast): the instructor fixes the email right there.
      setError(messageOf(failure, STAFF_MESSAGES.addFailed));
    }
  };

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label="Add a teaching assistant" sx={{ mt: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          label="TA email"
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={error !== null}
          helperText={error ?? 'They need an instructor account with this email.'}
          size="small"
          fullWidth
          required
        />
        <Button type="submit" variant="contained" disabled={addTa.isPending} sx={{ flexShrink: 0 }}>
          {addTa.isPending ? 'Adding…' : 'Add TA'}
        </Button>
      </Stack>
    </Box>
  );
}

function RemoveTaButton({ courseId, userId, name }: { courseId: string; userId: string; name: string }) {
  const removeTa = useRemoveTa(courseId);
  const [error, setError] = useState<string | null>(null);
  const label = `Remove ${name} from the staff`;
  return (
    <Tooltip title={error ?? label}>
      <span>
        <IconButton
          edge="end"
          aria-label={label}
          color={error ? 'error' : 'default'}
          disabled={removeTa.isPending}
          onClick={async () => {
            try {
              const result = await removeTa.mutateAsync(userId);
              showSuccess(result.message);
            } catch (failure) {
              setError(messageOf(failure, STAFF_MESSAGES.removeFailed));
            }
          }}
        >
          <PersonRemoveIcon />
        </IconButton>
      </span>
    </Tooltip>
  );
}
