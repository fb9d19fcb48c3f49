import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, AlertTitle, Button, Container, Stack, TextField, Typography } from '@mui/material';
import type { HandoffOutput } from '@gradewise/shared/contracts/lti';
import { LoadingMessage } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { assignmentPath, coursePath } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { linkExistingAccount, redeemHandoff } from '../api/lti-api.ts';

export const LTI_LINK_PATH = '/lti/link';
export const LTI_DEEP_LINK_PATH = '/lti/deep-link';

/** Where a launch goes once signed in; the link and deep link screens read the landing from history state. */
function destinationOf(landing: HandoffOutput['landing']): { to: string; state?: HandoffOutput['landing'] } {
  switch (landing.kind) {
    case 'course':
      return { to: coursePath(landing.courseId) };
    case 'assignment':
      return { to: assignmentPath(landing.assignmentId) };
    case 'link':
      return { to: LTI_LINK_PATH, state: landing };
    case 'deep-link':
      return { to: LTI_DEEP_LINK_PATH, state: landing };
  }
}

/**
 * Where an LMS launch arrives (/lti/landing#code=…): the one-time code is traded for a session, and
 * the person goes on to their course, assignment, the "link this LMS course" choice or the deep
 * link picker. The code is in the fragment, so it never reaches a server log; it is read once.
 */
export function LtiLandingScreen() {
  const { startSession } = useSession();
  const navigate = useNavigate();
  // Read once, at the first render: the fragment is cleared as soon as the code is taken.
  const [code] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('code'));
  const [error, setError] = useState<string | null>(
    code ? null : 'This page opens when you launch Gradewise from your LMS. Please launch it again from your course.',
  );
  // An instructor's first launch: the choice of account comes before going on (decision 0076).
  const [choice, setChoice] = useState<{ code: string; landing: HandoffOutput['landing'] } | null>(null);
  const started = useRef(false);
  const goTo = (landing: HandoffOutput['landing']) => {
    const { to, state } = destinationOf(landing);
    navigate(to, { replace: true, state });
  };
  useEffect(() => {
    if (started.current || !code) return;
    started.current = true;
    window.history.replaceState(null, '', window.location.pathname);
    redeemHandoff(code)
      .then((result) => {
        startSession(result);
        if (result.accountLinkCode) setChoice({ code: result.accountLinkCode, landing: result.landing });
        else goTo(result.landing);
      })
      .catch((failure: unknown) =>
        setError(messageOf(failure, 'Could not sign you in from your LMS. Please launch Gradewise again.')),
      );
    // goTo only reads navigate: the launch is redeemed once, whatever renders follow.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [code, navigate, startSession]);
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, md: 5 } }}>
      {error ? (
        <Alert severity="error" role="alert">
          <AlertTitle>Gradewise could not open</AlertTitle>
          {error}
        </Alert>
      ) : choice ? (
        <AccountChoice
          code={choice.code}
          onNewAccount={() => goTo(choice.landing)}
          onLinked={(result) => {
            startSession(result);
            goTo(result.landing);
          }}
        />
      ) : (
        <LoadingMessage text="Signing you in from your LMS…" />
      )}
    </Container>
  );
}

/**
 * "Continue with a new account" or "Use my existing Gradewise account": the latter asks that
 * account's email and password (checked and throttled as sign-in is) before the LMS identity is
 * linked to it; never by email alone.
 */
function AccountChoice({
  code,
  onNewAccount,
  onLinked,
}: {
  code: string;
  onNewAccount: () => void;
  onLinked: (result: Awaited<ReturnType<typeof linkExistingAccount>>) => void;
}) {
  const [asking, setAsking] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (isSubmitting) return;
    if (!email.trim() || !password) {
      setError('Enter the email and password of your Gradewise account.');
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      onLinked(await linkExistingAccount({ code, email: email.trim(), password }));
    } catch (failure) {
      setError(messageOf(failure, 'Could not link your LMS account. Please try again.'));
      setSubmitting(false);
    }
  };

  return (
    <Stack spacing={2} component="section" aria-labelledby="lti-account-choice-title">
      <Typography variant="h5" component="h1" id="lti-account-choice-title">
        Welcome to Gradewise
      </Typography>
      <Typography>
        This is your first launch from your LMS. Gradewise made a new account for you. If you already have a Gradewise
        account, use it instead: your LMS courses can then be linked to the courses you already teach.
      </Typography>
      {!asking ? (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <Button variant="contained" onClick={() => setAsking(true)}>
            Use my existing Gradewise account
          </Button>
          <Button variant="outlined" onClick={onNewAccount}>
            Continue with a new account
          </Button>
        </Stack>
      ) : (
        <Stack
          component="form"
          spacing={2}
          onSubmit={onSubmit}
          noValidate
          aria-label="Sign in to your existing account"
        >
          <TextField
            label="Email of your Gradewise account"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            autoFocus
            required
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
          />
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <Button type="submit" variant="contained" disabled={isSubmitting}>
              {isSubmitting ? 'Linking…' : 'Sign in and link'}
            </Button>
            <Button variant="outlined" onClick={onNewAccount} disabled={isSubmitting}>
              Continue with a new account
            </Button>
          </Stack>
        </Stack>
      )}
    </Stack>
  );
}
