import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SaveRubricInput, type AutoRubric } from '@gradewise/shared/contracts/grading';
import type { QuestionSubmissionForStaff } from '@gradewise/shared/contracts/questions';
import { ASSIGNMENT_ID, QUESTION_ID, questionForStaff, signInAs, staffSubmission } from '../../test/fixtures.ts';
import { deferredResponse, INSTRUCTOR, jsonResponse, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

// Screens load their route module and data first; on a busy machine that can take over a second.
configure({ asyncUtilTimeout: 5000 });

const QUESTION_PATH = `/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}`;
const QUESTION_API = `/api${QUESTION_PATH}`;

const rubric = (overrides: Partial<AutoRubric[number]> = {}): AutoRubric[number] => ({
  questionText: 'Find the eigenvalues of $A$.',
  solutionText: 'They are $\\lambda = 2$ and $\\lambda = 3$.',
  items: [
    { id: 'item-1', criterion: 'Finds both eigenvalues', points: 6, guidance: '2 and 3' },
    { id: 'item-2', criterion: 'Shows the characteristic polynomial', points: 4, guidance: '' },
  ],
  source: 'builtin',
  updatedAt: '2030-02-01T10:00:00.000Z',
  ...overrides,
});

function gradingFields(): Partial<QuestionSubmissionForStaff> {
  return {
    grade: null,
    isAlreadyGraded: false,
    confidenceLevel: null,
    comments: [],
    extractedText: '',
    grader: null,
    gradingStatus: 'none',
    reviewStatus: 'not-graded',
    suggestedScore: null,
    hasHiddenText: false,
    hiddenText: [],
  };
}

const questionWith = (autoRubric: AutoRubric) => () =>
  jsonResponse(200, questionForStaff({ autoRubric, submissions: [{ ...staffSubmission(), ...gradingFields() }] }));

describe('Edit Rubric', () => {
  it('edits Question Text and Solution Text, previews them with KaTeX on Recompile Preview, and saves back to the question', async () => {
    const saving = deferredResponse();
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET ${QUESTION_API}`]: questionWith([rubric()]),
      [`PATCH ${QUESTION_API}/save-rubric`]: saving.responder,
    });
    const { router } = renderApp(`${QUESTION_PATH}/rubric`);
    const user = userEvent.setup({ delay: null });

    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Rubric' })).toBeInTheDocument();
    const questionText = await screen.findByRole('textbox', { name: 'Question Text' });
    expect(questionText).toHaveValue('Find the eigenvalues of $A$.');
    expect(screen.getByText('(No preview yet. Click Recompile Preview to see it here.)')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Recompile Preview' }));
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(preview.querySelectorAll('.katex').length).toBe(3);

    await user.clear(questionText);
    await user.paste('Find the **eigenvalues**.');
    await user.click(screen.getByRole('button', { name: 'Save Rubric' }));
    expect(screen.getByRole('button', { name: 'Saving…' })).toBeDisabled();
    saving.respond(jsonResponse(200, { message: 'Rubric saved successfully!', autoRubric: [rubric()] }));
    expect(await screen.findByText('Rubric saved successfully!')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe(QUESTION_PATH));
    expect(sent.find((request) => request.method === 'PATCH')!.body).toEqual({
      questionText: 'Find the **eigenvalues**.',
      solutionText: 'They are $\\lambda = 2$ and $\\lambda = 3$.',
      // The items go with the texts as they were loaded, ids kept (comments judging them stay linked).
      items: [
        { id: 'item-1', criterion: 'Finds both eigenvalues', points: 6, guidance: '2 and 3' },
        { id: 'item-2', criterion: 'Shows the characteristic polynomial', points: 4, guidance: '' },
      ],
    });
  });

  it(
    "shows the rubric's items and points; edits, adds, removes and reorders them, checking live that they add up",
    { timeout: 60_000 },
    async () => {
      const sent = stubNetwork({
        ...signInAs(INSTRUCTOR),
        [`GET ${QUESTION_API}`]: questionWith([rubric()]),
        [`PATCH ${QUESTION_API}/save-rubric`]: () =>
          jsonResponse(200, { message: 'Rubric saved successfully!', autoRubric: [rubric()] }),
      });
      renderApp(`${QUESTION_PATH}/rubric`);
      const user = userEvent.setup({ delay: null });

      const items = await screen.findByRole('list', { name: 'Rubric items' });
      expect(within(items).getAllByRole('listitem')).toHaveLength(2);
      expect(screen.getByRole('textbox', { name: 'Criterion of item 1' })).toHaveValue('Finds both eigenvalues');
      expect(screen.getByRole('textbox', { name: 'Points of item 2' })).toHaveValue('4');
      expect(screen.getByText('Total: 10 / 10 points')).toBeInTheDocument();

      // 6 + 5 is not the question's 10: said at once, and Save Rubric waits until it is right.
      const secondPoints = screen.getByRole('textbox', { name: 'Points of item 2' });
      await user.clear(secondPoints);
      await user.type(secondPoints, '5');
      expect(screen.getByText('Total: 11 / 10 points')).toBeInTheDocument();
      expect(
        screen.getByText('The items add up to 11 points, but the question is worth 10 points.'),
      ).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save Rubric' })).toBeDisabled();

      // A third item takes the missing point... after the second gives two back.
      await user.clear(secondPoints);
      await user.type(secondPoints, '3');
      await user.click(screen.getByRole('button', { name: 'Add Item' }));
      await user.click(screen.getByRole('textbox', { name: 'Criterion of item 3' }));
      await user.paste('States the method');
      expect(screen.getByRole('button', { name: 'Save Rubric' })).toBeDisabled();
      const thirdPoints = screen.getByRole('textbox', { name: 'Points of item 3' });
      await user.clear(thirdPoints);
      await user.type(thirdPoints, '1');
      expect(screen.getByText('Total: 10 / 10 points')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save Rubric' })).toBeEnabled();

      // The new item goes first; the polynomial one is removed and its point moves to the method.
      await user.click(screen.getByRole('button', { name: 'Move item 3 up' }));
      await user.click(screen.getByRole('button', { name: 'Move item 2 up' }));
      expect(screen.getByRole('textbox', { name: 'Criterion of item 1' })).toHaveValue('States the method');
      await user.click(screen.getByRole('button', { name: 'Remove item 3' }));
      const methodPoints = screen.getByRole('textbox', { name: 'Points of item 1' });
      await user.clear(methodPoints);
      await user.type(methodPoints, '4');
      await user.click(screen.getByRole('button', { name: 'Save Rubric' }));

      expect(await screen.findByText('Rubric saved successfully!')).toBeInTheDocument();
      expect(sent.find((request) => request.method === 'PATCH')?.body).toEqual(
        expect.objectContaining({
          items: [
            { criterion: 'States the method', points: 4, guidance: '' },
            { id: 'item-1', criterion: 'Finds both eigenvalues', points: 6, guidance: '2 and 3' },
          ],
        }),
      );
    },
  );

  it("shows the server's refusal of items that do not add up and keeps the editor open", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET ${QUESTION_API}`]: questionWith([rubric()]),
      [`PATCH ${QUESTION_API}/save-rubric`]: () =>
        jsonResponse(400, {
          code: 'BAD_REQUEST',
          message: 'The rubric items add up to 9 points, but the question is worth 10 points.',
        }),
    });
    const { router } = renderApp(`${QUESTION_PATH}/rubric`);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Save Rubric' }));
    expect(
      await screen.findByText('The rubric items add up to 9 points, but the question is worth 10 points.'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`${QUESTION_PATH}/rubric`);
  });

  it('a save refused as stale (409) says who saved the newer rubric and when; Reload shows it and the next save names its version', async () => {
    let current = rubric({ version: 3 });
    const conflictMessage =
      'Grace Colleague saved a newer version of this rubric (version 4) at 2030-02-02 10:00:00 UTC, after you opened it. Reload to see it before saving your changes.';
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET ${QUESTION_API}`]: () => questionWith([current])(),
      [`PATCH ${QUESTION_API}/save-rubric`]: (request) => {
        if (SaveRubricInput.parse(request.body).expectedVersion === 4) {
          return jsonResponse(200, { message: 'Rubric saved successfully!', autoRubric: [current] });
        }
        current = rubric({ version: 4, questionText: 'Their wording.', updatedAt: '2030-02-02T10:00:00.000Z' });
        return jsonResponse(409, {
          code: 'CONFLICT',
          message: conflictMessage,
          conflict: {
            kind: 'rubric',
            id: '4',
            version: 4,
            savedBy: { _id: 'user-9', name: 'Grace Colleague' },
            savedAt: '2030-02-02T10:00:00.000Z',
          },
        });
      },
    });
    const { router } = renderApp(`${QUESTION_PATH}/rubric`);
    const user = userEvent.setup({ delay: null });
    const questionText = await screen.findByRole('textbox', { name: 'Question Text' });
    await user.type(questionText, ' Mine.');
    await user.click(screen.getByRole('button', { name: 'Save Rubric' }));

    const alert = await screen.findByRole('alert', { name: 'Not saved: this changed since you opened it' });
    expect(within(alert).getByText(conflictMessage)).toBeInTheDocument();
    // Nothing is thrown away until Reload: still on the editor, with this person's text.
    expect(router.state.location.pathname).toBe(`${QUESTION_PATH}/rubric`);
    expect(screen.getByRole('textbox', { name: 'Question Text' })).toHaveValue('Find the eigenvalues of $A$. Mine.');

    await user.click(within(alert).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Question Text' })).toHaveValue('Their wording.'));
    expect(screen.queryByText(conflictMessage)).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save Rubric' }));
    expect(await screen.findByText('Rubric saved successfully!')).toBeInTheDocument();
    const patches = sent.filter((request) => request.method === 'PATCH');
    expect(patches.map((request) => SaveRubricInput.parse(request.body).expectedVersion)).toEqual([3, 4]);
  });

  it("falls back to plain text with 'Failed to compile rubric preview' when the math cannot be rendered", async () => {
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET ${QUESTION_API}`]: questionWith([rubric({ solutionText: 'Broken: $\\frac{1}{$ end' })]),
    });
    renderApp(`${QUESTION_PATH}/rubric`);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Recompile Preview' }));
    expect(await screen.findByText('Failed to compile rubric preview')).toBeInTheDocument();
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(within(preview).getByText('Broken: $\\frac{1}{$ end')).toBeInTheDocument();
    expect(preview.querySelector('.katex')).toBeNull();
  });

  it('has a fullscreen toggle on each pane; expanding one collapses the other', async () => {
    stubNetwork({ ...signInAs(INSTRUCTOR), [`GET ${QUESTION_API}`]: questionWith([rubric()]) });
    renderApp(`${QUESTION_PATH}/rubric`);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Full screen: Preview' }));
    expect(screen.queryByRole('textbox', { name: 'Question Text' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exit full screen: Preview' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Exit full screen: Preview' }));
    await user.click(screen.getByRole('button', { name: 'Full screen: Rubric' }));
    expect(screen.getByRole('textbox', { name: 'Question Text' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Recompile Preview' })).not.toBeInTheDocument();
  });

  it('tells the instructor when there is no AI rubric yet, and Cancel goes back to the question', async () => {
    stubNetwork({ ...signInAs(INSTRUCTOR), [`GET ${QUESTION_API}`]: questionWith([]) });
    const { router } = renderApp(`${QUESTION_PATH}/rubric`);
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('No AI rubric found. Generate one from the question page.')).toBeInTheDocument();
    // No items to edit either: saving the texts alone stays possible, as the spec's editor does.
    expect(screen.getByText(/No items yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Rubric' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    // The question page's code loads on first visit: wait for the navigation to land.
    await waitFor(() => expect(router.state.location.pathname).toBe(QUESTION_PATH));
  });
});

describe('Generate Rubric', () => {
  it("shows 'Generating Rubric…' and the blocking 3-minute dialog, then opens the wizard", async () => {
    const generating = deferredResponse();
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET ${QUESTION_API}`]: questionWith([]),
      [`POST ${QUESTION_API}/generate-rubric`]: generating.responder,
      [`GET ${QUESTION_API}/grade-all/progress`]: () =>
        jsonResponse(200, { batchId: null, total: 0, done: 0, failed: 0, running: 0, remaining: 0, isFinished: true }),
      [`GET ${QUESTION_API}/review-queue`]: () => jsonResponse(200, { questionPoints: 10, items: [], remaining: 0 }),
    });
    const { router } = renderApp(QUESTION_PATH);
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'Generate Rubric' }));
    // The page behind the blocking dialog is hidden from assistive technology while it is open.
    expect(screen.getByRole('button', { name: 'Generating Rubric…', hidden: true })).toBeDisabled();
    expect(screen.getByText('Generating Rubric... This may take up to 3 minutes')).toBeInTheDocument();
    generating.respond(
      jsonResponse(200, {
        message: 'Rubric generated successfully!',
        autoRubric: [rubric()],
        grader: { kind: 'builtin', provider: 'builtin', model: 'builtin-v1' },
      }),
    );
    expect(await screen.findByText('Rubric generated successfully!')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe(`${QUESTION_PATH}/rubric-wizard`));
  });

  it('closes the dialog and shows the error when generation fails', async () => {
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET ${QUESTION_API}`]: questionWith([]),
      [`POST ${QUESTION_API}/generate-rubric`]: () => new Response('', { status: 500 }),
      [`GET ${QUESTION_API}/grade-all/progress`]: () =>
        jsonResponse(200, { batchId: null, total: 0, done: 0, failed: 0, running: 0, remaining: 0, isFinished: true }),
      [`GET ${QUESTION_API}/review-queue`]: () => jsonResponse(200, { questionPoints: 10, items: [], remaining: 0 }),
    });
    renderApp(QUESTION_PATH);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Generate Rubric' }));
    expect(await screen.findByText('Failed to generate rubric.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByText('Generating Rubric... This may take up to 3 minutes')).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('button', { name: 'Generate Rubric' })).toBeEnabled();
  });
});

describe('rubric wizard', () => {
  it(
    'shapes the items with a running total, tries the rubric on a sample answer, and saves the items',
    { timeout: 60_000 },
    async () => {
      const sent = stubNetwork({
        ...signInAs(INSTRUCTOR),
        [`GET ${QUESTION_API}`]: questionWith([rubric()]),
        [`POST ${QUESTION_API}/rubric-trial`]: () =>
          jsonResponse(200, {
            grader: { kind: 'builtin', provider: 'builtin', model: 'builtin-v1' },
            questionPoints: 10,
            results: [
              {
                label: 'Sample answer',
                submissionId: null,
                comments: [
                  {
                    text: 'Only one eigenvalue found.',
                    pointsDeducted: 3,
                    rubricItemId: 'item-1',
                    criterion: 'Finds both eigenvalues',
                  },
                ],
                totalScore: 7,
                confidenceLevel: 61,
              },
            ],
          }),
        [`PATCH ${QUESTION_API}/save-rubric`]: () =>
          jsonResponse(200, { message: 'Rubric saved successfully!', autoRubric: [rubric()] }),
      });
      const { router } = renderApp(`${QUESTION_PATH}/rubric-wizard`);
      const user = userEvent.setup({ delay: null });

      expect(await screen.findByRole('textbox', { name: 'Question Text' })).toHaveValue('Find the eigenvalues of $A$.');
      await user.click(screen.getByRole('button', { name: 'Next' }));
      expect(screen.getByText('Total: 10 / 10 points')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Add Item' }));
      await user.type(screen.getByRole('textbox', { name: 'Criterion of item 3' }), 'Checks the answer');
      const points = screen.getByRole('textbox', { name: 'Points of item 3' });
      await user.clear(points);
      await user.type(points, '2');
      expect(screen.getByText('Total: 12 / 10 points')).toBeInTheDocument();
      expect(
        screen.getByText('The items add up to 12 points, but the question is worth 10 points.'),
      ).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

      const first = screen.getByRole('textbox', { name: 'Points of item 1' });
      await user.clear(first);
      await user.type(first, '4');
      await user.click(screen.getByRole('button', { name: 'Move item 3 up' }));
      expect(screen.getByRole('textbox', { name: 'Criterion of item 2' })).toHaveValue('Checks the answer');
      expect(screen.getByText('Total: 10 / 10 points')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Next' }));
      await user.type(screen.getByRole('textbox', { name: 'Sample answer' }), 'Only 2.');
      await user.click(screen.getByRole('button', { name: 'Try Rubric' }));
      const trial = await screen.findByRole('region', { name: 'Trial: Sample answer' });
      expect(within(trial).getByText('Score: 7 / 10')).toBeInTheDocument();
      expect(within(trial).getByText('Only one eigenvalue found.')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Next' }));
      await user.click(screen.getByRole('button', { name: 'Save Rubric' }));
      expect(await screen.findByText('Rubric saved successfully!')).toBeInTheDocument();
      await waitFor(() => expect(router.state.location.pathname).toBe(QUESTION_PATH));

      const items = [
        { id: 'item-1', criterion: 'Finds both eigenvalues', points: 4, guidance: '2 and 3' },
        { criterion: 'Checks the answer', points: 2, guidance: '' },
        { id: 'item-2', criterion: 'Shows the characteristic polynomial', points: 4, guidance: '' },
      ];
      expect(sent.find((request) => request.path.endsWith('/rubric-trial'))!.body).toMatchObject({
        items,
        sampleAnswer: 'Only 2.',
      });
      expect(sent.find((request) => request.method === 'PATCH')!.body).toEqual({
        questionText: 'Find the eigenvalues of $A$.',
        solutionText: 'They are $\\lambda = 2$ and $\\lambda = 3$.',
        items,
      });
    },
  );
});
