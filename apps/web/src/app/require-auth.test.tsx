import { act, screen } from '@testing-library/react';
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

    await act(async () => userCall.respond(jsonResponse(200, INSTRUCTOR)));
    expect(await screen.findByRole('heading', { level: 1, name: 'Assignments' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Checking your session' })).not.toBeInTheDocument();
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
