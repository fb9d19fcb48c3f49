import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { courseSummary, errorResponse, signInAs } from '../../test/fixtures.ts';
import {
  deferredResponse,
  jsonResponse,
  nowSeconds,
  STUDENT,
  stubNetwork,
  tokenExpiringAt,
} from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

/**
 * The account screens of issue 15 (decision 0014): the nav link to /account, the account page
 * (change password, sign out everywhere, delete account) and the pages the emailed links open
 * (/verify-email, /forgot-password, /reset-password), each with its pending, error and success state.
 */

const freshSession = (message: string) => ({
  token: tokenExpiringAt(nowSeconds() + 7200),
  user: STUDENT,
  message,
});

describe('the Account link', () => {
  it('is in the nav bar when signed in, between Courses and Logout, and opens /account from the keyboard', async () => {
    stubNetwork({ ...signInAs(STUDENT), 'GET /api/courses': () => jsonResponse(200, []) });
    const user = userEvent.setup();
    const { router } = renderApp('/courses');

    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const account = await within(nav).findByRole('link', { name: 'Account' });
    expect(account).toHaveAttribute('href', '/account');
    const labels = Array.from(nav.querySelectorAll('a, button'))
      .map((element) => element.textContent)
      .filter((label) => ['Courses', 'Account', 'Logout'].includes(label ?? ''));
    expect(labels).toEqual(['Courses', 'Account', 'Logout']);

    account.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account');
    expect(screen.getByText(`${STUDENT.name} · ${STUDENT.email}`)).toBeInTheDocument();
  });

  it('is in the phone menu too', async () => {
    stubNetwork({ ...signInAs(STUDENT), 'GET /api/courses': () => jsonResponse(200, []) });
    const user = userEvent.setup();
    const { router } = renderApp('/courses');

    await user.click(await screen.findByRole('button', { name: 'Open navigation menu' }));
    const menu = await screen.findByRole('menu');
    await user.click(within(menu).getByRole('menuitem', { name: 'Account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account');
  });

  it('is not offered when signed out, and /account sends a visitor away', async () => {
    stubNetwork({});
    const { router } = renderApp('/account');
    expect(await screen.findByRole('heading', { level: 1, name: 'Gradewise' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByRole('link', { name: 'Account' })).not.toBeInTheDocument();
  });
});

describe('the account page', () => {
  it('changes the password: pending, the server refusal, then success with the new session', async () => {
    const attempts = [
      errorResponse(
        400,
        'WEAK_PASSWORD',
        'This password is too common or too easy to guess. Please choose a longer, less predictable one (a few unrelated words work well).',
      ),
    ];
    const success = deferredResponse();
    const sent = stubNetwork({
      ...signInAs(STUDENT),
      'POST /api/auth/change-password': (request) => attempts.shift()?.() ?? success.responder(request),
    });
    const user = userEvent.setup();
    renderApp('/account');

    const form = await screen.findByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), 'old secret phrase');
    await user.type(within(form).getByLabelText('New password'), 'password');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('This password is too common');
    expect(sent.at(-1)?.body).toEqual({ currentPassword: 'old secret phrase', newPassword: 'password' });

    await user.clear(within(form).getByLabelText('New password'));
    await user.type(within(form).getByLabelText('New password'), 'a much better phrase');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByRole('button', { name: 'Changing…' })).toBeDisabled();
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();

    const session = freshSession('Your password is changed. You were signed out everywhere else.');
    await act(async () => success.respond(jsonResponse(200, session)));
    expect(await within(form).findByRole('status')).toHaveTextContent('You were signed out everywhere else.');
    expect(localStorage.getItem('token')).toBe(session.token);
    expect(within(form).getByLabelText('Current password')).toHaveValue('');
    expect(within(form).getByLabelText('New password')).toHaveValue('');
  });

  it('signs out everywhere: the session ends here too, and home says so', async () => {
    const call = deferredResponse();
    stubNetwork({ ...signInAs(STUDENT), 'POST /api/auth/logout-everywhere': call.responder });
    const user = userEvent.setup();
    const { router } = renderApp('/account');

    const section = await screen.findByRole('region', { name: 'Sign out everywhere' });
    await user.click(within(section).getByRole('button', { name: 'Sign out everywhere' }));
    expect(await within(section).findByRole('button', { name: 'Signing out…' })).toBeDisabled();
    await act(async () =>
      call.respond(jsonResponse(200, { message: 'You are signed out everywhere, on this device too.' })),
    );
    expect(await screen.findByText('You are signed out everywhere, on this device too.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByRole('link', { name: 'Login' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('shows why an account cannot be deleted, and keeps the session', async () => {
    stubNetwork({
      ...signInAs(STUDENT),
      'POST /api/auth/delete-account': errorResponse(
        409,
        'CONFLICT',
        'You still own courses; an instructor who owns courses cannot delete the account.',
      ),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/account');

    const form = await screen.findByRole('form', { name: 'Delete account' });
    await user.type(within(form).getByLabelText('Your password'), 'old secret phrase');
    await user.click(within(form).getByRole('button', { name: 'Delete my account' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('cannot delete the account');
    expect(router.state.location.pathname).toBe('/account');
    expect(localStorage.getItem('token')).not.toBeNull();
  });

  it('deletes the account with its password and goes home signed out', async () => {
    const sent = stubNetwork({
      ...signInAs(STUDENT),
      'POST /api/auth/delete-account': () => jsonResponse(200, { message: 'Your account is deleted.' }),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/account');

    const form = await screen.findByRole('form', { name: 'Delete account' });
    await user.type(within(form).getByLabelText('Your password'), 'old secret phrase');
    await user.click(within(form).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('Your account is deleted.')).toBeInTheDocument();
    expect(sent.at(-1)?.body).toEqual({ password: 'old secret phrase' });
    expect(router.state.location.pathname).toBe('/');
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole('link', { name: 'Login' })).toBeInTheDocument();
  });
});

describe('/verify-email', () => {
  it('confirms the emailed link on a click (pending, then the course list, signed in)', async () => {
    localStorage.setItem('seenDemo', 'true'); // a browser that has seen the demo: no detour by /demo
    const call = deferredResponse();
    const sent = stubNetwork({
      'POST /api/auth/verify-email': call.responder,
      'GET /api/courses': () => jsonResponse(200, [courseSummary()]),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/verify-email?token=link-secret');

    await user.click(await screen.findByRole('button', { name: 'Confirm my email' }));
    expect(await screen.findByRole('button', { name: 'Confirming…' })).toBeDisabled();
    expect(sent.at(-1)).toMatchObject({ path: '/api/auth/verify-email', body: { token: 'link-secret' } });
    const session = freshSession('Your email is confirmed and your account is ready. Welcome to Gradewise!');
    await act(async () => call.respond(jsonResponse(200, session)));

    expect(await screen.findByText('Linear Algebra')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/courses');
    expect(screen.getByText(/Your email is confirmed/)).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe(session.token);
  });

  it("shows the server's refusal of a used or expired link, and stays signed out", async () => {
    stubNetwork({
      'POST /api/auth/verify-email': errorResponse(
        400,
        'LINK_INVALID',
        'This registration link is not valid any more: it was already used, has expired or was replaced by a newer one.',
      ),
    });
    const user = userEvent.setup();
    renderApp('/verify-email?token=used');

    await user.click(await screen.findByRole('button', { name: 'Confirm my email' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This registration link is not valid any more');
    expect(screen.getByRole('button', { name: 'Confirm my email' })).toBeEnabled();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('says what to do when opened without a token, and sends nothing', async () => {
    const sent = stubNetwork({});
    renderApp('/verify-email');

    expect(await screen.findByRole('alert')).toHaveTextContent('This page needs the link from the registration email.');
    expect(screen.getByRole('link', { name: 'register again' })).toHaveAttribute('href', '/register');
    expect(screen.queryByRole('button', { name: 'Confirm my email' })).not.toBeInTheDocument();
    expect(sent).toEqual([]);
  });
});

describe('/forgot-password', () => {
  it('sends the email: pending, then the same answer whatever the address', async () => {
    const call = deferredResponse();
    const sent = stubNetwork({ 'POST /api/auth/forgot-password': call.responder });
    const user = userEvent.setup();
    renderApp('/forgot-password');

    const form = await screen.findByRole('form', { name: 'Forgot password' });
    await user.type(within(form).getByLabelText(/Email/), 'sam@example.edu');
    await user.click(within(form).getByRole('button', { name: 'Send reset link' }));
    expect(await within(form).findByRole('button', { name: 'Sending…' })).toBeDisabled();
    expect(sent.at(-1)?.body).toEqual({ email: 'sam@example.edu' });
    const message = 'If an account uses this email, we sent it a link to reset the password.';
    await act(async () => call.respond(jsonResponse(200, { message })));
    expect(await within(form).findByRole('status')).toHaveTextContent(message);
  });

  it('says so when the server has no email delivery', async () => {
    stubNetwork({
      'POST /api/auth/forgot-password': errorResponse(
        503,
        'EMAIL_NOT_CONFIGURED',
        'Password reset by email is not available: this Gradewise server has no email (SMTP) set up. Ask the person who runs it.',
      ),
    });
    const user = userEvent.setup();
    renderApp('/forgot-password');

    const form = await screen.findByRole('form', { name: 'Forgot password' });
    await user.type(within(form).getByLabelText(/Email/), 'sam@example.edu');
    await user.click(within(form).getByRole('button', { name: 'Send reset link' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Password reset by email is not available');
  });
});

describe('/reset-password', () => {
  it('sets the new password (pending, a refused password, then success with a way to log in)', async () => {
    const attempts = [errorResponse(400, 'WEAK_PASSWORD', 'This password is too common or too easy to guess.')];
    const success = deferredResponse();
    const sent = stubNetwork({
      'POST /api/auth/reset-password': (request) => attempts.shift()?.() ?? success.responder(request),
    });
    const user = userEvent.setup();
    renderApp('/reset-password?token=reset-secret');

    const form = await screen.findByRole('form', { name: 'Reset password' });
    await user.type(within(form).getByLabelText(/New password/), '12345678');
    await user.click(within(form).getByRole('button', { name: 'Set new password' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'This password is too common or too easy to guess.',
    );
    expect(sent.at(-1)?.body).toEqual({ token: 'reset-secret', password: '12345678' });

    await user.clear(within(form).getByLabelText(/New password/));
    await user.type(within(form).getByLabelText(/New password/), 'a much better phrase');
    await user.click(within(form).getByRole('button', { name: 'Set new password' }));
    expect(await within(form).findByRole('button', { name: 'Saving…' })).toBeDisabled();
    await act(async () =>
      success.respond(jsonResponse(200, { message: 'Your password is changed. Please log in with it.' })),
    );

    expect(await screen.findByRole('status')).toHaveTextContent('Your password is changed. Please log in with it.');
    expect(screen.queryByRole('form', { name: 'Reset password' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it('says what to do when opened without a token, and shows no form', async () => {
    const sent = stubNetwork({});
    renderApp('/reset-password');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This page needs the link from the password reset email.',
    );
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByRole('form', { name: 'Reset password' })).not.toBeInTheDocument();
    expect(sent).toEqual([]);
  });
});
