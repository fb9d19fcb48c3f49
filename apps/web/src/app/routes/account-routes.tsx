import { useState, type FormEvent, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, Container, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import { AuthOutput } from '@gradewise/shared/contracts/auth';
import { MessageOutput } from '@gradewise/shared/errors';
import { AuthPageFrame } from '../../components/auth-page-frame.tsx';
import { apiClient, messageOf } from '../../lib/api-client.ts';
import { authApiPaths } from '../../lib/auth-api-paths.ts';
import { useSession } from '../../lib/session.tsx';
import { showSuccess } from '../../lib/toasts.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/**
 * The account screens of issue 15: the landing page of the emailed registration link, forgot and
 * reset password, and the account page (change password, sign out everywhere, delete account).
 */

type Outcome = { severity: 'success' | 'error'; text: string } | null;

/** A small form: one submit, its pending state and its outcome shown above the fields. */
function useSubmit(action: () => Promise<string>) {
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setPending(true);
    setOutcome(null);
    try {
      setOutcome({ severity: 'success', text: await action() });
    } catch (error) {
      setOutcome({ severity: 'error', text: messageOf(error, 'Something went wrong. Please try again.') });
    } finally {
      setPending(false);
    }
  };
  return { pending, outcome, submit };
}

function OutcomeAlert({ outcome }: { outcome: Outcome }) {
  return outcome ? (
    <Alert severity={outcome.severity} role={outcome.severity === 'error' ? 'alert' : 'status'}>
      {outcome.text}
    </Alert>
  ) : null;
}

const toLogin = (
  <>
    Back to{' '}
    <Link component={RouterLink} to="/login">
      Login
    </Link>
  </>
);

export function VerifyEmailRoute() {
  useDocumentTitle('Confirm your email');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { startSession } = useSession();
  const navigate = useNavigate();
  const { pending, outcome, submit } = useSubmit(async () => {
    const result = await apiClient.post(authApiPaths.verifyEmail, { token }, AuthOutput);
    startSession(result);
    // The page is left at once: the message goes with the user, as a toast on their course list.
    showSuccess(result.message);
    navigate('/courses');
    return result.message;
  });
  return (
    <AuthPageFrame title="Confirm your email" footer={toLogin}>
      <Stack spacing={2}>
        {token ? (
          <>
            <OutcomeAlert outcome={outcome} />
            {/* A button, not an automatic call: mail scanners that open links must not use the single-use link up. */}
            <Typography>Confirm that this email address is yours to finish registering.</Typography>
            <Button variant="contained" onClick={() => void submit()} disabled={pending}>
              {pending ? 'Confirming…' : 'Confirm my email'}
            </Button>
          </>
        ) : (
          <MissingTokenAlert>
            This page needs the link from the registration email. Open the link from the email, or{' '}
            <Link component={RouterLink} to="/register">
              register again
            </Link>{' '}
            to get a new one.
          </MissingTokenAlert>
        )}
      </Stack>
    </AuthPageFrame>
  );
}

/** A page opened without the token its emailed link carries (a link cut short, or typed by hand). */
function MissingTokenAlert({ children }: { children: ReactNode }) {
  return (
    <Alert severity="error" role="alert">
      {children}
    </Alert>
  );
}

export function ForgotPasswordRoute() {
  useDocumentTitle('Forgot password');
  const [email, setEmail] = useState('');
  const { pending, outcome, submit } = useSubmit(
    async () => (await apiClient.post(authApiPaths.forgotPassword, { email }, MessageOutput)).message,
  );
  return (
    <AuthPageFrame title="Forgot password" footer={toLogin}>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Forgot password">
        <OutcomeAlert outcome={outcome} />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Button type="submit" variant="contained" disabled={pending}>
          {pending ? 'Sending…' : 'Send reset link'}
        </Button>
      </Stack>
    </AuthPageFrame>
  );
}

export function ResetPasswordRoute() {
  useDocumentTitle('Reset password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const { pending, outcome, submit } = useSubmit(async () => {
    const result = await apiClient.post(authApiPaths.resetPassword, { token, password }, MessageOutput);
    setPassword('');
    return result.message;
  });
  if (!token) {
    return (
      <AuthPageFrame title="Reset password" footer={toLogin}>
        <MissingTokenAlert>
          This page needs the link from the password reset email.{' '}
          <Link component={RouterLink} to="/forgot-password">
            Ask for a new link
          </Link>
          .
        </MissingTokenAlert>
      </AuthPageFrame>
    );
  }
  if (outcome?.severity === 'success') {
    return (
      <AuthPageFrame title="Reset password" footer={null}>
        <Stack spacing={2}>
          <OutcomeAlert outcome={outcome} />
          <Button component={RouterLink} to="/login" variant="contained">
            Log in
          </Button>
        </Stack>
      </AuthPageFrame>
    );
  }
  return (
    <AuthPageFrame title="Reset password" footer={toLogin}>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Reset password">
        <OutcomeAlert outcome={outcome} />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          helperText="At least 8 characters, not your email, not a common password."
        />
        <Button type="submit" variant="contained" disabled={pending}>
          {pending ? 'Saving…' : 'Set new password'}
        </Button>
      </Stack>
    </AuthPageFrame>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label={title}>
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

export function AccountRoute() {
  useDocumentTitle('Account');
  const { user, startSession, forget } = useSession();
  const navigate = useNavigate();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [deletePassword, setDeletePassword] = useState('');
  const change = useSubmit(async () => {
    const result = await apiClient.post(authApiPaths.changePassword, { currentPassword, newPassword }, AuthOutput);
    startSession(result);
    setCurrentPassword('');
    setNewPassword('');
    return result.message;
  });
  const everywhere = useSubmit(async () => {
    const result = await apiClient.post(authApiPaths.logoutEverywhere, {}, MessageOutput);
    // Home, as Logout goes (spec section 2); the private page's guard sends a signed-out visitor there too.
    forget();
    navigate('/');
    showSuccess(result.message);
    return result.message;
  });
  const remove = useSubmit(async () => {
    const result = await apiClient.post(authApiPaths.deleteAccount, { password: deletePassword }, MessageOutput);
    forget();
    navigate('/');
    showSuccess(result.message);
    return result.message;
  });
  return (
    <Container maxWidth="sm" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" sx={{ mb: 1 }}>
        Account
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3, overflowWrap: 'anywhere' }}>
        {user ? `${user.name} · ${user.email}` : ''}
      </Typography>
      <Stack spacing={3}>
        {user?.role === 'instructor' && (
          <Section title="Your LMS">
            <Typography>
              Add Gradewise to Canvas, Moodle or another LMS with LTI 1.3:{' '}
              <Link component={RouterLink} to="/lti">
                Connect your LMS
              </Link>
            </Typography>
          </Section>
        )}
        <Section title="Change password">
          <Stack component="form" spacing={2} onSubmit={change.submit} noValidate aria-label="Change password">
            <OutcomeAlert outcome={change.outcome} />
            <TextField
              label="Current password"
              type="password"
              autoComplete="current-password"
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.target.value)}
            />
            <TextField
              label="New password"
              type="password"
              autoComplete="new-password"
              value={newPassword}
              onChange={(e) => setNewPassword(e.target.value)}
              helperText="At least 8 characters, not your email, not a common password."
            />
            <Button type="submit" variant="contained" disabled={change.pending}>
              {change.pending ? 'Changing…' : 'Change password'}
            </Button>
          </Stack>
        </Section>
        <Section title="Sign out everywhere">
          <Stack spacing={2}>
            <OutcomeAlert outcome={everywhere.outcome} />
            <Typography variant="body2">Ends every session of this account, on every device, this one too.</Typography>
            <Button variant="outlined" onClick={() => void everywhere.submit()} disabled={everywhere.pending}>
              {everywhere.pending ? 'Signing out…' : 'Sign out everywhere'}
            </Button>
          </Stack>
        </Section>
        <Section title="Delete account">
          <Stack component="form" spacing={2} onSubmit={remove.submit} noValidate aria-label="Delete account">
            <OutcomeAlert outcome={remove.outcome} />
            <Typography variant="body2">
              Your name, email and password are removed. Submitted work and grades stay in their courses as "Deleted
              account". An instructor who owns courses cannot delete the account.
            </Typography>
            <TextField
              label="Your password"
              type="password"
              autoComplete="current-password"
              value={deletePassword}
              onChange={(e) => setDeletePassword(e.target.value)}
            />
            <Button type="submit" color="error" variant="contained" disabled={remove.pending}>
              {remove.pending ? 'Deleting…' : 'Delete my account'}
            </Button>
          </Stack>
        </Section>
      </Stack>
    </Container>
  );
}
