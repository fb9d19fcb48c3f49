import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { INSTRUCTOR, jsonResponse, nowSeconds, stubNetwork, tokenExpiringAt } from '../../../test/network.ts';

async function openWelcome() {
  const user = userEvent.setup({ delay: null });
  await user.click(await screen.findByRole('button', { name: 'try Gradewise' }));
  // The dialog's code loads the first time it opens (decision 0020): wait for it to be there.
  await screen.findByRole('dialog');
  return user;
}

describe('landing page and welcome dialog', () => {
  it('walks an instructor through the four steps to Get Started, which opens /register', async () => {
    stubNetwork({});
    const { router } = renderApp('/');
    const user = await openWelcome();

    let dialog = screen.getByRole('dialog', { name: 'Welcome to Gradewise' });
    expect(within(dialog).getByText('Are you an instructor or a student?')).toBeInTheDocument();
    expect(within(dialog).getByText('Step 1 of 4')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Instructor' }));

    dialog = screen.getByRole('dialog', { name: 'Spend less time grading' });
    expect(within(dialog).getByText('Step 2 of 4')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));

    dialog = screen.getByRole('dialog', { name: 'Rubrics drafted for you' });
    expect(within(dialog).getByText('Step 3 of 4')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));

    dialog = screen.getByRole('dialog', { name: 'You Remain in Control' });
    expect(within(dialog).getByText('Step 4 of 4')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Get Started' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Register' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/register');
  });

  it('sends a student straight to /register from the first step', async () => {
    stubNetwork({});
    const { router } = renderApp('/');
    const user = await openWelcome();

    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Student' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Register' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/register');
  });

  it('starts again at the first step after being closed', async () => {
    stubNetwork({});
    renderApp('/');
    const user = await openWelcome();
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Instructor' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));

    // The page is inert until the dialog's closing transition ends.
    await user.click(await screen.findByRole('button', { name: 'try Gradewise' }));
    expect(await screen.findByRole('dialog', { name: 'Welcome to Gradewise' })).toBeInTheDocument();
  });

  it("offers 'view courses' instead to a signed-in person", async () => {
    localStorage.setItem('token', tokenExpiringAt(nowSeconds() + 3600));
    stubNetwork({ 'GET /api/auth/user': () => jsonResponse(200, INSTRUCTOR) });
    renderApp('/');

    const viewCourses = await screen.findByRole('link', { name: 'view courses' });
    expect(viewCourses).toHaveAttribute('href', '/courses');
    expect(screen.queryByRole('button', { name: 'try Gradewise' })).not.toBeInTheDocument();
  });
});
