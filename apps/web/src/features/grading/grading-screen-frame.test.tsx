import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ASSIGNMENT_ID, QUESTION_ID, questionForStaff, signInAs, staffSubmission } from '../../test/fixtures.ts';
import { INSTRUCTOR, jsonResponse, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

// The grading dialog's code arrives when a test says so: until then the screen shows its frame
// (decision 0053). Once arrived it stays loaded for the rest of this file, so the tests that need
// it absent come first.
const dialogCode = vi.hoisted(() => {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  return { arrived, arrive };
});
vi.mock('./components/grading-dialog.tsx', async (importOriginal) => {
  await dialogCode.arrived;
  return importOriginal();
});

// pdf.js cannot load in jsdom (no DOMMatrix): the viewer's lazy import fails, and when the failure
// lands after a test has closed the screen it is thrown outside any test (CI, session 27). This
// file is about the frame, not the PDF: the viewer draws nothing here.
vi.mock('../../components/pdf-viewer.tsx', () => ({ PdfViewer: () => null }));

const QUESTION_PAGE = `/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}`;
const GRADE_PATH = `${QUESTION_PAGE}/grade/submission-1`;

function network() {
  stubNetwork({
    ...signInAs(INSTRUCTOR),
    [`GET /api${QUESTION_PAGE}`]: () =>
      jsonResponse(200, questionForStaff({ autoRubric: [], submissions: [staffSubmission()] })),
    [`POST /api${QUESTION_PAGE}/grade/submission-1`]: () =>
      jsonResponse(200, {
        submissionText: 'The eigenvalues are 2 and 3.',
        gradingResult: { comments: [], totalScore: 10 },
        questionPoints: 10,
        confidenceLevel: 90,
        grader: { kind: 'builtin', provider: 'builtin', model: 'builtin-v1' },
        hiddenText: [],
        gradingRunId: 'run-1',
        isAlreadyGraded: false,
        currentGradeId: null,
      }),
  });
}

describe('grading screen before its dialog has loaded', () => {
  it('shows its frame: the title, Close, the loading state and the two buttons, not yet usable', async () => {
    network();
    renderApp(GRADE_PATH);

    const frame = await screen.findByRole('dialog', { name: 'Grade Question Submission' });
    expect(frame).toHaveAttribute('aria-busy', 'true');
    expect(within(frame).getByRole('heading', { level: 1, name: 'Grade Question Submission' })).toBeInTheDocument();
    expect(within(frame).getByRole('status', { name: 'Loading grading data…' })).toBeInTheDocument();
    expect(within(frame).getByRole('button', { name: 'Save Grade' })).toBeDisabled();
    expect(within(frame).getByRole('button', { name: 'Regrade With AI' })).toBeDisabled();
  });

  it('takes the focus, as the dialog does, and keeps Tab on its one working control, Close', async () => {
    network();
    renderApp(GRADE_PATH);
    const user = userEvent.setup({ delay: null });

    const frame = await screen.findByRole('dialog', { name: 'Grade Question Submission' });
    await waitFor(() => expect(frame).toHaveFocus());
    await user.tab();
    expect(within(frame).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab();
    expect(within(frame).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(within(frame).getByRole('button', { name: 'Close' })).toHaveFocus();
  });

  it('leaves from the frame with Close, back to the question page when there is no page before', async () => {
    network();
    const { router } = renderApp(GRADE_PATH);
    const user = userEvent.setup({ delay: null });

    const frame = await screen.findByRole('dialog', { name: 'Grade Question Submission' });
    await user.click(within(frame).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(QUESTION_PAGE));
  });

  it('replaces the frame with the dialog once its code is there', async () => {
    network();
    renderApp(GRADE_PATH);
    await screen.findByRole('dialog', { name: 'Grade Question Submission' });

    dialogCode.arrive();
    expect(await screen.findByRole('heading', { name: 'Review Comments' })).toBeInTheDocument();
    const dialog = screen.getByRole('dialog', { name: 'Grade Question Submission' });
    expect(dialog).not.toHaveAttribute('aria-busy');
    expect(within(dialog).getByRole('button', { name: 'Save Grade' })).toBeEnabled();
    expect(screen.getAllByRole('heading', { level: 1, name: 'Grade Question Submission' })).toHaveLength(1);
  });

  it('is drawn in the page with the page behind it inert and hidden, and keeps Tab inside (decision 0095)', async () => {
    network();
    const { container } = renderApp(GRADE_PATH);
    const user = userEvent.setup({ delay: null });
    dialogCode.arrive();
    await screen.findByRole('heading', { name: 'Review Comments' });
    const dialog = screen.getByRole('dialog', { name: 'Grade Question Submission' });

    // No portal: the dialog is inside the app's root, and nothing above it is hidden.
    expect(container).toContainElement(dialog);
    expect(dialog.closest('[aria-hidden="true"]')).toBeNull();
    expect(dialog.closest('[inert]')).toBeNull();
    // What it covers, the navigation bar and the skip link, can be neither reached nor heard.
    const navigation = document.querySelector('header');
    expect(navigation).toHaveAttribute('inert');
    expect(navigation).toHaveAttribute('aria-hidden', 'true');
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Skip to main content' })).not.toBeInTheDocument();

    // The dialog's focus trap keeps Tab among its own controls.
    for (let step = 0; step < 12; step += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });
});
