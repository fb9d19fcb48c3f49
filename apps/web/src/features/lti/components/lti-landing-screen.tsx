import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, AlertTitle, Container } from '@mui/material';
import type { HandoffOutput } from '@gradewise/shared/contracts/lti';
import { LoadingMessage } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { assignmentPath, coursePath } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { redeemHandoff } from '../api/lti-api.ts';

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
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !code) return;
    started.current = true;
    window.history.replaceState(null, '', window.location.pathname);
    redeemHandoff(code)
      .then((result) => {
        startSession(result);
        const { to, state } = destinationOf(result.landing);
        navigate(to, { replace: true, state });
      })
      .catch((failure: unknown) =>
        setError(messageOf(failure, 'Could not sign you in from your LMS. Please launch Gradewise again.')),
      );
  }, [code, navigate, startSession]);
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, md: 5 } }}>
      {error ? (
        <Alert severity="error" role="alert">
          <AlertTitle>Gradewise could not open</AlertTitle>
          {error}
        </Alert>
      ) : (
        <LoadingMessage text="Signing you in from your LMS…" />
      )}
    </Container>
  );
}
