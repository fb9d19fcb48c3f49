import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../test/render-app.tsx';
import {
  deferredResponse,
  INSTRUCTOR,
  jsonResponse,
  nowSeconds,
  STUDENT,
  stubNetwork,
  tokenExpiringAt,
} from '../test/network.ts';

describe('private route guard', () => {
  it('shows the loading icon while the stored token is being checked, then the screen', async () => {
    localStorage.setItem('token', tokenExpiringAt(nowSeconds() + 3600));
    const userCall = deferredResponse();
    stubNetwork({ 'GET /api/auth/user': userCall.responder });
    const { router } = renderApp('/assignments');

    expect(await screen.findByRole('status', { name: 'Checking your session' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Assignments' })).not.toBeInTheDocument();
    // The nav bar says it is checking, in words, and offers neither Login/Register nor Logout yet.
    expect(screen.getByRole('status', { name: 'Checking sign-in…' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Register' })).not.toBeInTheDocument();

    await act(async () => userCall.respond(jsonResponse(200, INSTRUCTOR)));
    expect(await screen.findByRole('heading', { level: 1, name: 'Assignments' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Checking your session' })).not.toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Checking sign-in…' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/assignments');
  });

  it('sends a signed-out visitor to / and replaces the history entry', async () => {
    stubNetwork({});
    const { router } = renderApp('/courses/42/students');

    expect(await screen.findByRole('heading', { level: 1, name: 'Gradewise' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.getByRole('link', { name: 'Login' })).toBeInTheDocument();
  });

  it("signed out, the nav's Assignments goes to login and, after it, to the assignments", async () => {
    stubNetwork({
      'POST /api/auth/login': () =>
        jsonResponse(200, {
          token: tokenExpiringAt(nowSeconds() + 3600),
          user: INSTRUCTOR,
          message: 'Login successful!',
        }),
      'GET /api/assignments': () => jsonResponse(200, []),
    });
    const { router } = renderApp('/about');
    const user = userEvent.setup({ delay: null });

    const assignments = await screen.findByRole('link', { name: 'Assignments' });
    expect(assignments).toHaveAttribute('href', '/login?next=%2Fassignments');
    await user.click(assignments);
    const email = await screen.findByLabelText(/Email/);
    // On the login page only Login is the current page: Assignments passes through it.
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Login' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Assignments' })).not.toHaveAttribute('aria-current');
    await user.type(email, INSTRUCTOR.email);
    await user.type(screen.getByLabelText(/Password/), 'a-long-password');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Assignments' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/assignments');
  });

  it('after login, follows only a return path inside the app', async () => {
    stubNetwork({
      'POST /api/auth/login': () =>
        jsonResponse(200, { token: tokenExpiringAt(nowSeconds() + 3600), user: STUDENT, message: 'Login successful!' }),
    });
    const { router } = renderApp('/login?next=%2F%2Fevil.example%2Fcourses');
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText(/Email/), STUDENT.email);
    await user.type(screen.getByLabelText(/Password/), 'a-long-password');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    // //evil.example is another site: ignored, so /courses follows (and the demo page, not seen yet).
    expect(
      await screen.findByRole('heading', { level: 1, name: 'How It Works' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/demo');
  });

  it('sends a visitor whose token the server refuses to /', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    localStorage.setItem('token', tokenExpiringAt(nowSeconds() + 3600));
    stubNetwork({
      'GET /api/auth/user': () => jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Your session is not valid.' }),
    });
    const { router } = renderApp('/assignments/7/questions/3/grade/9/report');

    expect(await screen.findByRole('heading', { level: 1, name: 'Gradewise' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('sends a signed-in person who has not seen the demo from /courses to /demo', async () => {
    localStorage.setItem('token', tokenExpiringAt(nowSeconds() + 3600));
    stubNetwork({ 'GET /api/auth/user': () => jsonResponse(200, STUDENT) });
    const { router } = renderApp('/courses');

    expect(await screen.findByRole('heading', { level: 1, name: 'How It Works' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/demo');
  });

  it('shows the courses screen, titled by role, once the demo was seen', async () => {
    localStorage.setItem('token', tokenExpiringAt(nowSeconds() + 3600));
    localStorage.setItem('seenDemo', 'true');
    stubNetwork({ 'GET /api/auth/user': () => jsonResponse(200, STUDENT) });
    renderApp('/courses');

    expect(await screen.findByRole('heading', { level: 1, name: 'Enrolled Courses' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Courses' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });
});
