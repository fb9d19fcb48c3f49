import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { SEEN_DEMO_STORAGE_KEY } from '../lib/browser-storage.ts';
import { RequireSeenDemo } from './require-seen-demo.tsx';

/**
 * The courses list's guard (spec section 2): without `seenDemo` the person goes to /demo. The demo's
 * screen is a lazy route, so between the guard and the demo there is a wait; here the demo's module
 * never arrives, so the page in between is what the test sees.
 */
function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: 'demo', lazy: () => new Promise<never>(() => {}) },
      {
        element: <RequireSeenDemo />,
        children: [{ path: 'courses', element: <h1>My Courses</h1> }],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => localStorage.clear());

describe('the demo first, before the courses list', () => {
  it('says the demo is opening while its screen loads, not an empty page', async () => {
    const router = renderAt('/courses');
    expect(await screen.findByRole('status', { name: 'Opening How it works' })).toBeInTheDocument();
    expect(screen.getByText('Opening How it works…')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'My Courses' })).not.toBeInTheDocument();
    expect(router.state.navigation.location?.pathname).toBe('/demo');
  });

  it('shows the courses list once the demo was seen', async () => {
    localStorage.setItem(SEEN_DEMO_STORAGE_KEY, 'true');
    renderAt('/courses');
    expect(await screen.findByRole('heading', { name: 'My Courses' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
