import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { INSTRUCTOR, jsonResponse, nowSeconds, stubNetwork, tokenExpiringAt } from '../../../test/network.ts';
import { REDIRECT_AFTER_AUTH_MS } from './use-redirect-after.ts';

const nameField = () => screen.getByRole('textbox', { name: /name/i });
const emailField = () => screen.getByRole('textbox', { name: /email/i });
const passwordField = () => screen.getByLabelText(/password/i);
const roleGroup = () => screen.getByRole('radiogroup', { name: /I am a/i });
const submitButton = () => screen.getByRole('button', { name: 'Register' });

async function fillRegistration(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByRole('textbox', { name: /name/i }), 'Ada Instructor');
  await user.type(emailField(), 'ada@example.edu');
  await user.type(passwordField(), 'correct horse battery');
  await user.click(within(roleGroup()).getByRole('radio', { name: 'Instructor' }));
}

describe('register form', () => {
  it('asks for name, email, password and role, with student chosen by default', async () => {
    stubNetwork({});
    renderApp('/register');
    expect(await screen.findByRole('heading', { level: 1, name: 'Register' })).toBeInTheDocument();
    expect(nameField()).toBeRequired();
    expect(emailField()).toHaveAttribute('type', 'email');
    expect(passwordField()).toHaveAttribute('type', 'password');
    expect(within(roleGroup()).getByRole('radio', { name: 'Student' })).toBeChecked();
    expect(within(roleGroup()).getByRole('radio', { name: 'Instructor' })).not.toBeChecked();
  });

  it('refuses to send an incomplete form and says what is missing', async () => {
    const sent = stubNetwork({});
    renderApp('/register');
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Name is required.')).toBeInTheDocument();
    expect(screen.getByText('Email is required.')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters.')).toBeInTheDocument();

    await user.type(nameField(), 'Ada');
    await user.type(emailField(), 'ada@example.edu');
    await user.type(passwordField(), 'short');
    await user.click(submitButton());
    expect(await screen.findByText('Password must be at least 8 characters.')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('on success: shows the message, resets the form (role back to student), and goes to /login after 2 seconds', async () => {
    const token = tokenExpiringAt(nowSeconds() + 3600);
    const sent = stubNetwork({
      'POST /api/auth/register': () =>
        jsonResponse(201, { token, user: INSTRUCTOR, message: 'Registration successful!' }),
    });
    const { router } = renderApp('/register');
    const user = userEvent.setup({ delay: null });
    await fillRegistration(user);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await userEvent.setup({ delay: null }).click(submitButton());

    expect(await screen.findByText('Registration successful! Redirecting to login…')).toBeInTheDocument();
    expect(sent[0]?.body).toEqual({
      name: 'Ada Instructor',
      email: 'ada@example.edu',
      password: 'correct horse battery',
      role: 'instructor',
    });
    expect(localStorage.getItem('token')).toBe(token);
    expect(nameField()).toHaveValue('');
    expect(emailField()).toHaveValue('');
    expect(passwordField()).toHaveValue('');
    expect(within(roleGroup()).getByRole('radio', { name: 'Student' })).toBeChecked();

    await act(async () => vi.advanceTimersByTime(1999));
    expect(router.state.location.pathname).toBe('/register');
    await act(async () => vi.advanceTimersByTime(1));
    vi.useRealTimers();

    expect(await screen.findByRole('heading', { level: 1, name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('a server without email answers "sign in next" with no token: the same message, nobody signed in, /login after 2 seconds', async () => {
    stubNetwork({
      'POST /api/auth/register': () =>
        jsonResponse(201, {
          message: 'Registration successful! Please log in with your email and password.',
          signInNext: true,
        }),
    });
    const { router } = renderApp('/register');
    const user = userEvent.setup({ delay: null });
    await fillRegistration(user);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await userEvent.setup({ delay: null }).click(submitButton());

    expect(await screen.findByText('Registration successful! Redirecting to login…')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    expect(nameField()).toHaveValue('');
    await act(async () => vi.advanceTimersByTime(REDIRECT_AFTER_AUTH_MS));
    vi.useRealTimers();

    expect(await screen.findByRole('heading', { level: 1, name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('choosing another role after success clears the success message', async () => {
    stubNetwork({
      'POST /api/auth/register': () =>
        jsonResponse(201, {
          token: tokenExpiringAt(nowSeconds() + 3600),
          user: INSTRUCTOR,
          message: 'Registration successful!',
        }),
    });
    renderApp('/register');
    const user = userEvent.setup({ delay: null });
    await fillRegistration(user);
    await user.click(submitButton());
    expect(await screen.findByText('Registration successful! Redirecting to login…')).toBeInTheDocument();

    await user.click(within(roleGroup()).getByRole('radio', { name: 'Instructor' }));
    expect(screen.queryByText('Registration successful! Redirecting to login…')).not.toBeInTheDocument();
  });

  it("shows the server's message in a toast when registration is refused", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({
      'POST /api/auth/register': () =>
        jsonResponse(409, {
          code: 'EMAIL_TAKEN',
          message: 'An account with this email already exists. Please log in instead.',
        }),
    });
    const { router } = renderApp('/register');
    const user = userEvent.setup({ delay: null });
    await fillRegistration(user);
    await user.click(submitButton());

    expect(
      await screen.findByText('An account with this email already exists. Please log in instead.'),
    ).toBeInTheDocument();
    expect(nameField()).toHaveValue('Ada Instructor');
    expect(router.state.location.pathname).toBe('/register');
  });

  it("falls back to 'Registration failed.' when the server cannot be reached", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({
      'POST /api/auth/register': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderApp('/register');
    const user = userEvent.setup({ delay: null });
    await fillRegistration(user);
    await user.click(submitButton());

    expect(await screen.findByText('Registration failed.')).toBeInTheDocument();
  });
});
