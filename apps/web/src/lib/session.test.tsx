import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { UserOutput } from '@gradewise/shared/contracts/auth';
import { AppProviders } from '../app/providers.tsx';
import { apiClient } from './api-client.ts';
import { createQueryClient } from './query-client.ts';
import { startSessionCheckEarly, useSession } from './session.tsx';
import {
  deferredResponse,
  INSTRUCTOR,
  jsonResponse,
  nowSeconds,
  stubNetwork,
  tokenExpiringAt,
} from '../test/network.ts';

function SessionProbe() {
  const session = useSession();
  const state = session.loading ? 'loading' : session.isAuthenticated ? 'authenticated' : 'unauthenticated';
  return (
    <div>
      <p>state: {state}</p>
      <p>user: {session.user?.name ?? 'none'}</p>
      <button onClick={() => void session.login({ email: 'ada@example.edu', password: 'correct horse' })}>
        log in
      </button>
      <button onClick={session.logout}>log out</button>
      <button onClick={() => void apiClient.get('/auth/user', UserOutput).catch(() => undefined)}>ask server</button>
    </div>
  );
}

function renderSession() {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <SessionProbe />
    </AppProviders>,
  );
}

describe('session', () => {
  it('without a stored token it is unauthenticated at once and asks the server nothing', () => {
    const sent = stubNetwork({});
    renderSession();
    expect(screen.getByText('state: unauthenticated')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('discards an expired stored token with "Token expired" logged, without asking the server', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    localStorage.setItem('token', tokenExpiringAt(nowSeconds() - 60));
    const sent = stubNetwork({});
    renderSession();
    expect(screen.getByText('state: unauthenticated')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    expect(logged).toHaveBeenCalledWith('Token expired');
    expect(sent).toHaveLength(0);
  });

  it('discards a stored token that is not a token at all', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    localStorage.setItem('token', 'not-a-token');
    const sent = stubNetwork({});
    renderSession();
    expect(screen.getByText('state: unauthenticated')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    expect(sent).toHaveLength(0);
  });

  it('checks a live stored token with GET /api/auth/user: loading until the answer, then authenticated', async () => {
    const token = tokenExpiringAt(nowSeconds() + 3600);
    localStorage.setItem('token', token);
    const userCall = deferredResponse();
    const sent = stubNetwork({ 'GET /api/auth/user': userCall.responder });
    renderSession();

    expect(screen.getByText('state: loading')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers.get('Authorization')).toBe(`Bearer ${token}`);

    await act(async () => userCall.respond(jsonResponse(200, INSTRUCTOR)));
    expect(await screen.findByText('state: authenticated')).toBeInTheDocument();
    expect(screen.getByText('user: Ada Instructor')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe(token);
  });

  it('waits for the check started before the first render instead of asking the server again', async () => {
    const token = tokenExpiringAt(nowSeconds() + 3600);
    localStorage.setItem('token', token);
    const userCall = deferredResponse();
    const sent = stubNetwork({ 'GET /api/auth/user': userCall.responder });
    startSessionCheckEarly();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers.get('Authorization')).toBe(`Bearer ${token}`);

    renderSession();
    expect(screen.getByText('state: loading')).toBeInTheDocument();
    await act(async () => userCall.respond(jsonResponse(200, INSTRUCTOR)));
    expect(await screen.findByText('state: authenticated')).toBeInTheDocument();
    expect(screen.getByText('user: Ada Instructor')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
  });

  it('signs out when the early check is refused, and starts none without a stored token', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const sent = stubNetwork({
      'GET /api/auth/user': () =>
        jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Your session is not valid. Please log in again.' }),
    });
    startSessionCheckEarly();
    expect(sent).toHaveLength(0);

    localStorage.setItem('token', tokenExpiringAt(nowSeconds() + 3600));
    startSessionCheckEarly();
    renderSession();
    expect(await screen.findByText('state: unauthenticated')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    expect(sent).toHaveLength(1);
  });

  it('removes the stored token and signs out when the server refuses it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    localStorage.setItem('token', tokenExpiringAt(nowSeconds() + 3600));
    stubNetwork({
      'GET /api/auth/user': () =>
        jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Your session is not valid. Please log in again.' }),
    });
    renderSession();
    expect(await screen.findByText('state: unauthenticated')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    expect(logged).toHaveBeenCalled();
  });

  it('login stores the token, authenticates, and later requests carry it; logout forgets it', async () => {
    const token = tokenExpiringAt(nowSeconds() + 3600);
    const sent = stubNetwork({
      'POST /api/auth/login': () => jsonResponse(200, { token, user: INSTRUCTOR, message: 'Login successful!' }),
      'GET /api/auth/user': () => jsonResponse(200, INSTRUCTOR),
      'POST /api/auth/logout': () => jsonResponse(200, { message: 'You are logged out.' }),
    });
    renderSession();
    const user = userEvent.setup({ delay: null });

    await user.click(screen.getByRole('button', { name: 'log in' }));
    expect(await screen.findByText('state: authenticated')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe(token);
    expect(sent[0]?.body).toEqual({ email: 'ada@example.edu', password: 'correct horse' });
    expect(sent[0]?.headers.get('Authorization')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'ask server' }));
    expect(sent[1]?.headers.get('Authorization')).toBe(`Bearer ${token}`);

    await user.click(screen.getByRole('button', { name: 'log out' }));
    expect(screen.getByText('state: unauthenticated')).toBeInTheDocument();
    expect(screen.getByText('user: none')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    // Issue 15: logout also ends this token on the server, sent with the token it ends.
    expect(sent[2]?.path).toBe('/api/auth/logout');
    expect(sent[2]?.headers.get('Authorization')).toBe(`Bearer ${token}`);

    await user.click(screen.getByRole('button', { name: 'ask server' }));
    expect(sent[3]?.headers.get('Authorization')).toBeNull();
  });

  it('ends the session when a later call is refused because the token expired', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    localStorage.setItem('token', tokenExpiringAt(nowSeconds() + 3600));
    let isTokenAccepted = true;
    stubNetwork({
      'GET /api/auth/user': () =>
        isTokenAccepted
          ? jsonResponse(200, INSTRUCTOR)
          : jsonResponse(401, { code: 'TOKEN_EXPIRED', message: 'Your session has expired. Please log in again.' }),
    });
    renderSession();
    expect(await screen.findByText('state: authenticated')).toBeInTheDocument();

    isTokenAccepted = false;
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'ask server' }));
    expect(await screen.findByText('state: unauthenticated')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });
});
