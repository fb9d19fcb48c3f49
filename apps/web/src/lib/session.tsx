import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  AuthOutput,
  RegisterPendingOutput,
  RegisterSignInOutput,
  UserOutput,
  type LoginInput,
  type RegisterInput,
} from '@gradewise/shared/contracts/auth';
import { z } from 'zod';
import { apiClient, type ApiClient } from './api-client.ts';
import { authApiPaths } from './auth-api-paths.ts';
import { readStoredToken, removeStoredToken, storeToken } from './browser-storage.ts';
import { findTokenProblem } from './token-expiry.ts';

/** Session of spec sections 3 and 4. `loading` is true until the check of a stored token ends. */
export interface Session {
  isAuthenticated: boolean;
  loading: boolean;
  user: UserOutput | null;
  token: string | null;
  /** Stores the token and authenticates. Throws the ApiError of a refused attempt. */
  login(input: LoginInput): Promise<AuthOutput>;
  /**
   * Registers. Nobody is signed in by it: the server answers "sign in next" (no email delivery;
   * the same answer whether or not the address had an account) or "check your email" (email
   * delivery on). A server that still answers a token is signed in, as login does. Throws the
   * ApiError of a refused attempt.
   */
  register(input: RegisterInput): Promise<AuthOutput | RegisterPendingOutput | RegisterSignInOutput>;
  /** Signs in with a token the server handed out another way (the emailed registration link). */
  startSession(result: AuthOutput): AuthOutput;
  /**
   * Logs this token out on the server (best effort: the local session ends whatever happens), then
   * forgets it; the caller decides where to go (the nav bar goes to /).
   */
  logout(): void;
  /** Forgets the session without telling the server (after "sign out everywhere" or deletion). */
  forget(): void;
}

type SessionState =
  | { status: 'loading' | 'unauthenticated'; user: null; token: null }
  | { status: 'authenticated'; user: UserOutput; token: string };

const LOADING: SessionState = { status: 'loading', user: null, token: null };
const SIGNED_OUT: SessionState = { status: 'unauthenticated', user: null, token: null };

type StartupPlan = { kind: 'none' } | { kind: 'discard'; problem: string } | { kind: 'verify'; token: string };

/** No token: signed out. A token that is certainly dead: discard it. Otherwise ask the server. */
function planStartup(): StartupPlan {
  const token = readStoredToken();
  if (!token) return { kind: 'none' };
  const problem = findTokenProblem(token);
  return problem ? { kind: 'discard', problem } : { kind: 'verify', token };
}

/**
 * A stored token that is not certainly dead: requests sent now go out with it (the early check set
 * it on the API client, as login does), and the session is or will be signed in unless the server
 * refuses it. Route loaders ask this before starting a signed-in screen's request.
 */
export function hasSessionToken(): boolean {
  return planStartup().kind === 'verify';
}

/** A check of the stored token started before React's first render (see startSessionCheckEarly). */
let earlyCheck: { client: ApiClient; token: string; user: Promise<UserOutput> } | null = null;

/**
 * Starts the check of a stored token as the app's script runs, before React renders: the check no
 * longer waits for the first render (on a slow phone about a third of a second, decision 0051),
 * and every signed-in screen waits for the check. The provider takes this request instead of
 * sending its own; it does the rest (a dead token is discarded there, unchecked).
 */
export function startSessionCheckEarly(client: ApiClient = apiClient): void {
  const startup = planStartup();
  if (startup.kind !== 'verify') return;
  client.setToken(startup.token);
  const user = client.get(authApiPaths.user, UserOutput);
  // Whoever takes it handles the failure; one nobody takes is not an unhandled rejection.
  user.catch(() => undefined);
  earlyCheck = { client, token: startup.token, user };
}

/** The early check of this token with this client, once: a later check asks the server again. */
function takeEarlyCheck(client: ApiClient, token: string): Promise<UserOutput> | null {
  const check = earlyCheck;
  earlyCheck = null;
  return check && check.client === client && check.token === token ? check.user : null;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children, client = apiClient }: { children: ReactNode; client?: ApiClient }) {
  // What to do with the stored token is decided once, from what is in storage at start-up; the
  // session state starts from that decision and the effect below carries it out.
  const [startup] = useState(planStartup);
  const [state, setState] = useState<SessionState>(startup.kind === 'verify' ? LOADING : SIGNED_OUT);
  const queryClient = useQueryClient();
  // Bumped on every login, register and logout, so a slow check of the stored token can never
  // overwrite a session the person has started or ended in the meantime.
  const generation = useRef(0);

  const endSession = useCallback(
    (reason?: unknown) => {
      if (reason !== undefined) console.error('Session ended:', reason);
      generation.current += 1;
      removeStoredToken();
      client.setToken(null);
      // Cached server data belongs to the person who just left.
      queryClient.clear();
      setState(SIGNED_OUT);
    },
    [client, queryClient],
  );

  useEffect(() => {
    if (startup.kind === 'none') {
      client.setToken(null);
      return;
    }
    if (startup.kind === 'discard') {
      console.error(startup.problem);
      removeStoredToken();
      client.setToken(null);
      return;
    }
    const checkGeneration = generation.current;
    const controller = new AbortController();
    const { token } = startup;
    client.setToken(token);
    (takeEarlyCheck(client, token) ?? client.get(authApiPaths.user, UserOutput, { signal: controller.signal })).then(
      (user) => {
        // A transition: the signed-in screen this lets through renders in slices, not one long task.
        if (generation.current === checkGeneration)
          startTransition(() => setState({ status: 'authenticated', user, token }));
      },
      (error: unknown) => {
        if (controller.signal.aborted || generation.current !== checkGeneration) return;
        endSession(error);
      },
    );
    return () => controller.abort();
  }, [startup, client, endSession]);

  // A later call refused with UNAUTHENTICATED or TOKEN_EXPIRED means the token was revoked or ran out.
  useEffect(() => client.onUnauthenticated((error) => endSession(error)), [client, endSession]);

  const startSession = useCallback(
    (result: AuthOutput) => {
      generation.current += 1;
      storeToken(result.token);
      client.setToken(result.token);
      queryClient.clear();
      setState({ status: 'authenticated', user: result.user, token: result.token });
      return result;
    },
    [client, queryClient],
  );

  const login = useCallback(
    async (input: LoginInput) => startSession(await client.post(authApiPaths.login, input, AuthOutput)),
    [client, startSession],
  );
  const register = useCallback(
    async (input: RegisterInput) => {
      const result = await client.post(
        authApiPaths.register,
        input,
        z.union([AuthOutput, RegisterPendingOutput, RegisterSignInOutput]),
      );
      return 'token' in result ? startSession(result) : result;
    },
    [client, startSession],
  );
  const logout = useCallback(() => {
    if (state.status === 'authenticated') {
      // Sent with the token still set; the local session ends at once either way.
      client
        .post(authApiPaths.logout, {}, z.unknown())
        .catch((error: unknown) => console.error('Logout failed:', error));
    }
    endSession();
  }, [client, endSession, state.status]);
  const forget = useCallback(() => endSession(), [endSession]);

  const session = useMemo<Session>(
    () => ({
      isAuthenticated: state.status === 'authenticated',
      loading: state.status === 'loading',
      user: state.user,
      token: state.token,
      login,
      register,
      startSession,
      logout,
      forget,
    }),
    [state, login, register, startSession, logout, forget],
  );

  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>.');
  return session;
}
