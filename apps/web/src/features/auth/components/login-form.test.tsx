import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { INSTRUCTOR, jsonResponse, nowSeconds, stubNetwork, tokenExpiringAt } from '../../../test/network.ts';

const emailField = () => screen.getByRole('textbox', { name: /email/i });
const passwordField = () => screen.getByLabelText(/password/i);
const submitButton = () => screen.getByRole('button', { name: 'Login' });

describe('login form', () => {
  it('has an email field of type email and a password field, both required', async () => {
    stubNetwork({});
    renderApp('/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'Login' })).toBeInTheDocument();
    expect(emailField()).toHaveAttribute('type', 'email');
    expect(emailField()).toBeRequired();
    expect(passwordField()).toHaveAttribute('type', 'password');
    expect(passwordField()).toBeRequired();
  });

  it('refuses to send an empty or malformed form and says why', async () => {
    const sent = stubNetwork({});
    renderApp('/login');
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Email is required.')).toBeInTheDocument();
    expect(screen.getByText('Password is required.')).toBeInTheDocument();
    expect(emailField()).toHaveAttribute('aria-invalid', 'true');

    await user.type(emailField(), 'not-an-email');
    await user.type(passwordField(), 'secret-password');
    await user.click(submitButton());
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('on success: clears seenDemo, shows the message, empties the form, and goes to /courses after 2 seconds', async () => {
    const token = tokenExpiringAt(nowSeconds() + 3600);
    localStorage.setItem('seenDemo', 'true');
    const sent = stubNetwork({
      'POST /api/auth/login': () => jsonResponse(200, { token, user: INSTRUCTOR, message: 'Login successful!' }),
    });
    const { router, visitedPaths } = renderApp('/login');
    const user = userEvent.setup({ delay: null });

    await user.type(await screen.findByRole('textbox', { name: /email/i }), '  Ada@Example.edu ');
    await user.type(passwordField(), 'correct horse battery');
    // Only timeouts are faked, so the 2-second redirect is stepped through without waiting for it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await userEvent.setup({ delay: null }).click(submitButton());

    expect(await screen.findByText('Login successful! Redirecting…')).toBeInTheDocument();
    expect(sent[0]?.body).toEqual({ email: 'ada@example.edu', password: 'correct horse battery' });
    expect(localStorage.getItem('token')).toBe(token);
    expect(localStorage.getItem('seenDemo')).toBeNull();
    expect(emailField()).toHaveValue('');
    expect(passwordField()).toHaveValue('');

    await act(async () => vi.advanceTimersByTime(1999));
    expect(router.state.location.pathname).toBe('/login');
    await act(async () => vi.advanceTimersByTime(1));
    vi.useRealTimers();

    // /courses, then /demo: the demo flag was just cleared (spec section 2, Courses list).
    expect(await screen.findByRole('heading', { level: 1, name: 'How It Works' })).toBeInTheDocument();
    expect(visitedPaths).toEqual(['/login', '/courses', '/demo']);
  });

  it('editing a field after success clears the success message', async () => {
    stubNetwork({
      'POST /api/auth/login': () =>
        jsonResponse(200, {
          token: tokenExpiringAt(nowSeconds() + 3600),
          user: INSTRUCTOR,
          message: 'Login successful!',
        }),
    });
    renderApp('/login');
    const user = userEvent.setup({ delay: null });

    await user.type(await screen.findByRole('textbox', { name: /email/i }), 'ada@example.edu');
    await user.type(passwordField(), 'correct horse battery');
    await user.click(submitButton());
    expect(await screen.findByText('Login successful! Redirecting…')).toBeInTheDocument();

    await user.type(emailField(), 'a');
    expect(screen.queryByText('Login successful! Redirecting…')).not.toBeInTheDocument();
  });

  it("shows the server's message in a toast when login is refused, and keeps the form", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({
      'POST /api/auth/login': () =>
        jsonResponse(401, { code: 'INVALID_CREDENTIALS', message: 'Invalid email or password.' }),
    });
    const { router } = renderApp('/login');
    const user = userEvent.setup({ delay: null });

    await user.type(await screen.findByRole('textbox', { name: /email/i }), 'ada@example.edu');
    await user.type(passwordField(), 'wrong password');
    await user.click(submitButton());

    expect(await screen.findByText('Invalid email or password.')).toBeInTheDocument();
    expect(emailField()).toHaveValue('ada@example.edu');
    expect(localStorage.getItem('token')).toBeNull();
    expect(router.state.location.pathname).toBe('/login');
  });

  it("falls back to 'Login failed.' when the server sends no message", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({ 'POST /api/auth/login': () => new Response('Bad gateway', { status: 502 }) });
    renderApp('/login');
    const user = userEvent.setup({ delay: null });

    await user.type(await screen.findByRole('textbox', { name: /email/i }), 'ada@example.edu');
    await user.type(passwordField(), 'correct horse battery');
    await user.click(submitButton());

    expect(await screen.findByText('Login failed.')).toBeInTheDocument();
  });
});
