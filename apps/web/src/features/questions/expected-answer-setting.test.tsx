import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ASSIGNMENT_ID, QUESTION_ID, questionForStaff, questionForStudent, signInAs } from '../../test/fixtures.ts';
import { deferredResponse, INSTRUCTOR, jsonResponse, STUDENT, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

/**
 * The question page's "Show the expected answer in feedback" (decision 0088): the owner's switch,
 * saved by PATCH .../feedback-settings; a TA reads it; a student never sees it.
 */
const QUESTION_PATH = `/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}`;
const SETTINGS = `PATCH /api${QUESTION_PATH}/feedback-settings`;
const OFF_HELP = 'Off: comments say what is missing without giving the answer away.';
const ON_MESSAGE =
  'Comments on this question may now state the expected answer. Pending suggestions are being written again with this setting.';

// The first screen of a test file loads its lazy route modules: a loaded machine can take seconds.
const switchOf = () =>
  screen.findByRole('switch', { name: 'Show the expected answer in feedback' }, { timeout: 15_000 });

describe('show the expected answer in feedback', () => {
  // The page is a lazy route: its modules are loaded once here, not inside the first test's wait.
  beforeAll(async () => {
    await import('../../app/routes/question-detail-route.tsx');
  });

  it('the owner turns it on from the keyboard: the request, the saving state, then the saved state and its message', async () => {
    let stored = false;
    const saving = deferredResponse();
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api${QUESTION_PATH}`]: () => jsonResponse(200, questionForStaff({ showExpectedAnswer: stored })),
      [SETTINGS]: saving.responder,
    });
    renderApp(QUESTION_PATH);
    const user = userEvent.setup({ delay: null });

    const toggle = await switchOf();
    expect(toggle).not.toBeChecked();
    expect(toggle).toBeEnabled();
    expect(toggle).toHaveAccessibleDescription(OFF_HELP);

    toggle.focus();
    await user.keyboard(' ');
    const settingsRequests = () => sent.filter((r) => `${r.method} ${r.path}` === SETTINGS);
    expect(settingsRequests().map((r) => r.body)).toEqual([{ showExpectedAnswer: true }]);
    // While it is saved: the state asked for, and a second press changes nothing.
    expect(toggle).toBeChecked();
    expect(screen.getByText(/Saving…/)).toBeInTheDocument();
    await user.keyboard(' ');
    expect(settingsRequests()).toHaveLength(1);
    expect(toggle).toBeChecked();

    stored = true;
    saving.respond(jsonResponse(200, { message: ON_MESSAGE, showExpectedAnswer: true, refreshQueued: true }));
    expect(await screen.findByText(ON_MESSAGE)).toBeInTheDocument();
    await waitFor(() => expect(toggle).toHaveAccessibleDescription(/^On: where an answer falls short/));
    expect(toggle).toBeChecked();
    // The keyboard user is where they were, and can turn it off again at once.
    expect(toggle).toHaveFocus();
  });

  it('a refused change says why and shows the stored state again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api${QUESTION_PATH}`]: () => jsonResponse(200, questionForStaff({ showExpectedAnswer: false })),
      [SETTINGS]: () =>
        jsonResponse(403, {
          code: 'FORBIDDEN',
          message: 'Only the instructor of this course can change what its comments show.',
        }),
    });
    renderApp(QUESTION_PATH);
    const user = userEvent.setup({ delay: null });

    await user.click(await switchOf());
    expect(
      await screen.findByText('Only the instructor of this course can change what its comments show.'),
    ).toBeInTheDocument();
    const toggle = await switchOf();
    await waitFor(() => expect(screen.queryByText(/Saving…/)).not.toBeInTheDocument());
    expect(toggle).not.toBeChecked();
  });

  it('a TA sees the setting but cannot change it', async () => {
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api${QUESTION_PATH}`]: () =>
        jsonResponse(200, questionForStaff({ staffRole: 'ta', showExpectedAnswer: true })),
    });
    renderApp(QUESTION_PATH);

    const toggle = await switchOf();
    expect(toggle).toBeChecked();
    expect(toggle).toBeDisabled();
    expect(toggle).toHaveAccessibleDescription(/Only the course’s instructor can change this\.$/);
  });

  it('a student never sees it', async () => {
    stubNetwork({
      ...signInAs(STUDENT),
      [`GET /api${QUESTION_PATH}`]: () => jsonResponse(200, questionForStudent()),
    });
    renderApp(QUESTION_PATH);

    expect(await screen.findByRole('heading', { name: 'Submit Your Answer' })).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Show the expected answer in feedback' })).not.toBeInTheDocument();
    expect(screen.queryByText(OFF_HELP)).not.toBeInTheDocument();
  });
});
