import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { courseForStaff, courseSummary, signInAs } from '../../test/fixtures.ts';
import { deferredResponse, INSTRUCTOR, jsonResponse, STUDENT, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

const DEMO_COURSE_ID = 'demo-course';
const demoSummary = courseSummary({
  _id: DEMO_COURSE_ID,
  title: 'PHYS 101: Physics Around Us (demo)',
  image: null,
  isDemo: true,
});

/** Signed in, but the demo not seen yet: where login leaves a person. */
function signInWithoutSeenDemo(user: typeof INSTRUCTOR | typeof STUDENT) {
  const routes = signInAs(user);
  localStorage.removeItem('seenDemo');
  return routes;
}

describe('/demo (How It Works)', () => {
  it('signed out, offers the tour and sign-in, and no button that would bounce off the courses guard', async () => {
    stubNetwork({});
    const { router } = renderApp('/demo');
    const user = userEvent.setup({ delay: null });

    expect(await screen.findByRole('heading', { level: 1, name: 'How It Works' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Demo' })).toHaveAttribute('href', '/tour.html');
    expect(screen.queryByRole('button', { name: 'Skip Demo' })).not.toBeInTheDocument();
    const main = screen.getByRole('main');
    await user.click(within(main).getByRole('link', { name: 'Login' }));
    // The login screen loads on first visit (decision 0020): the navigation ends once it has.
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('offers the demo instructor a button into the running demo course, which counts as seeing the demo', async () => {
    stubNetwork({
      ...signInWithoutSeenDemo(INSTRUCTOR),
      'GET /api/courses': () => jsonResponse(200, [courseSummary(), demoSummary]),
      [`GET /api/courses/${DEMO_COURSE_ID}`]: () =>
        jsonResponse(200, courseForStaff({ _id: DEMO_COURSE_ID, title: demoSummary.title, isDemo: true })),
      'GET /api/assignments': () => jsonResponse(200, []),
    });
    const { router } = renderApp('/demo');
    const user = userEvent.setup({ delay: null });

    const card = await screen.findByRole('region', { name: 'Your demo course is ready' });
    expect(within(card).getByText(/PHYS 101: Physics Around Us \(demo\) has a homework/)).toBeInTheDocument();
    expect(within(card).getByText(/Generate Rubric, check the items in the wizard/)).toBeInTheDocument();
    const open = within(card).getByRole('link', { name: 'Open the demo course' });
    expect(open).toHaveAttribute('href', `/courses/${DEMO_COURSE_ID}`);
    // The spec's two buttons stay as they are.
    expect(screen.getByRole('link', { name: /View Demo/ })).toHaveAttribute('href', '/tour.html');
    expect(screen.getByRole('link', { name: /View Demo/ })).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('button', { name: 'Skip Demo' })).toBeInTheDocument();

    await user.click(open);
    expect(await screen.findByRole('heading', { level: 1, name: demoSummary.title })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/courses/${DEMO_COURSE_ID}`);
    expect(localStorage.getItem('seenDemo')).not.toBeNull();
  });

  it('shows no demo course button to an instructor whose courses hold no demo', async () => {
    const courses = deferredResponse();
    const sent = stubNetwork({ ...signInWithoutSeenDemo(INSTRUCTOR), 'GET /api/courses': courses.responder });
    renderApp('/demo');

    expect(await screen.findByRole('heading', { level: 1, name: 'How It Works' })).toBeInTheDocument();
    await waitFor(() => expect(sent.some((request) => request.path === '/api/courses')).toBe(true));
    await act(async () => courses.respond(jsonResponse(200, [courseSummary()])));

    expect(screen.queryByRole('region', { name: 'Your demo course is ready' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Open the demo course' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Skip Demo' })).toBeInTheDocument();
  });

  it('does not look for a demo course for a student, and View Demo still sets seenDemo and goes to the courses', async () => {
    const sent = stubNetwork({
      ...signInWithoutSeenDemo(STUDENT),
      'GET /api/courses': () => jsonResponse(200, [demoSummary]),
    });
    const { router } = renderApp('/demo');
    const user = userEvent.setup({ delay: null });

    // Signed in (the nav shows Logout), and the page asked nothing about courses.
    expect(await screen.findByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(sent.filter((request) => request.path === '/api/courses')).toHaveLength(0);
    expect(screen.queryByRole('link', { name: 'Open the demo course' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: /View Demo/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Enrolled Courses' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/courses');
    expect(localStorage.getItem('seenDemo')).not.toBeNull();
  });
});
