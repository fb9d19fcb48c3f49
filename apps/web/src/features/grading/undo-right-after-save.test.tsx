import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { deferredResponse, jsonResponse, stubNetwork, type Responder, type SentRequest } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';
import {
  idOf,
  noGroup,
  QUESTION_API,
  QUESTION_PATH,
  reviewComment,
  reviewQueueRoutes,
  savedGradeOf,
  storedSuggestion,
} from '../../test/review-queue-fixtures.ts';

// Screens load their route module and data first; on a busy machine that can take over a second.
configure({ asyncUtilTimeout: 5000 });

// Decision 0105: U pressed right after S takes the save back, wherever the move to the next answer
// of the queue is when it is pressed (the save still out, or the next screen not yet there).

const SAVE_API = `${QUESTION_API}/save-grade/${idOf('Ann')}`;
const UNDO_API = `${SAVE_API}/undo`;
const KEPT = 'A remark written before the slip of the S key.';

/** The server's answer to Save Grade of Ann's answer, with the comment the instructor added. */
const savedAnn = () =>
  savedGradeOf('Ann', [reviewComment('c-new', KEPT, 0), reviewComment('c-Ann', 'Ann forgot the units.', 2)]);

/** The queue Ann, Ben, both with a suggestion to review; Ann's save and its undo answer as the server does. */
function routes(overrides: Record<string, Responder>) {
  return reviewQueueRoutes(
    { Ann: 'needs-review', Ben: 'needs-review' },
    { Ann: storedSuggestion('Ann'), Ben: storedSuggestion('Ben') },
    {
      [`POST ${SAVE_API}`]: savedAnn,
      [`POST ${UNDO_API}`]: () =>
        jsonResponse(200, {
          message: 'Grade undone: the answer is not graded again.',
          currentGradeId: null,
          grade: null,
        }),
      ...overrides,
    },
  );
}

const named = (sent: SentRequest[]) => sent.map((request) => `${request.method} ${request.path}`);

/** Ann's answer open in the queue, with a comment of the instructor's added (an unsaved edit). */
async function openAnnAndAddComment() {
  const app = renderApp(`${QUESTION_PATH}/grade/${idOf('Ann')}?queue=1`);
  const user = userEvent.setup({ delay: null });
  expect(await screen.findByText('Ann forgot the units.')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Add Comment' }));
  await user.click(await screen.findByRole('textbox', { name: 'New comment' }));
  await user.paste(KEPT);
  await user.click(screen.getByRole('button', { name: 'Done' }));
  // The keyboard focus on the new card, in the screen: S and U are the screen's keys from here.
  await waitFor(() => expect(screen.getByRole('listitem', { name: /^Comment 1 of/ })).toHaveFocus());
  return { ...app, user };
}

/** Back on Ann's answer after the undo: the added comment there again, unsaved; the undo asked for the save's grade. */
async function expectAnnBackUnsaved(app: ReturnType<typeof renderApp>, sent: SentRequest[]) {
  await waitFor(() => expect(named(sent)).toContain(`POST ${UNDO_API}`));
  expect(sent.find((request) => request.path === UNDO_API)?.body).toEqual({ gradeId: 'grade-ann-1' });
  await waitFor(() => expect(app.router.state.location.pathname).toBe(`${QUESTION_PATH}/grade/${idOf('Ann')}`));
  expect(await screen.findByText(KEPT)).toBeInTheDocument();
  expect(screen.getByText('Ann forgot the units.')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Save Grade' })).toBeEnabled();
}

describe('U right after S', () => {
  // The grading screen is a lazy route with a lazy dialog: their modules are loaded once here.
  beforeAll(async () => {
    await import('../../app/routes/grade-submission-route.tsx');
    await import('./components/grading-dialog.tsx');
  });

  // Two screens, a save, an undo and the first screen again: a longer budget, as the screen's other journeys.
  it(
    'pressed while the save is still out: the save is taken back once it has answered and the queue has moved on',
    { timeout: 60_000 },
    async () => {
      const save = deferredResponse();
      const sent = stubNetwork(routes({ [`POST ${SAVE_API}`]: save.responder }));
      const app = await openAnnAndAddComment();

      await app.user.keyboard('s');
      await waitFor(() => expect(named(sent)).toContain(`POST ${SAVE_API}`));
      await app.user.keyboard('u');
      // Nothing to take back yet: the save has not answered.
      expect(named(sent)).not.toContain(`POST ${UNDO_API}`);
      save.respond(savedAnn());
      await expectAnnBackUnsaved(app, sent);
      // The undo went out once the queue had moved on to Ben, and brought Ann back: taken back once.
      expect(app.visitedPaths.slice(-2)).toEqual([
        `${QUESTION_PATH}/grade/${idOf('Ben')}`,
        `${QUESTION_PATH}/grade/${idOf('Ann')}`,
      ]);
      const names = named(sent);
      expect(names.filter((name) => name === `POST ${UNDO_API}`)).toHaveLength(1);
    },
  );

  it(
    "pressed between the two answers' screens, before the next one has taken the keyboard focus",
    { timeout: 60_000 },
    async () => {
      // Ben's answer group does not answer yet: the route holds his screen back and shows its frame.
      const benGroup = deferredResponse();
      const sent = stubNetwork(routes({ [`GET ${QUESTION_API}/answer-groups/of/${idOf('Ben')}`]: benGroup.responder }));
      const app = await openAnnAndAddComment();

      await app.user.keyboard('s');
      await waitFor(() => expect(app.router.state.location.pathname).toBe(`${QUESTION_PATH}/grade/${idOf('Ben')}`));
      await waitFor(() => expect(screen.queryByText('Ann forgot the units.')).not.toBeInTheDocument());
      // No grading screen has the keyboard: Ann's is gone, Ben's has not been drawn.
      expect(screen.queryByRole('button', { name: 'Save Grade' })).toBeDisabled();
      expect(named(sent)).not.toContain(`POST ${UNDO_API}`);

      await app.user.keyboard('u');
      await expectAnnBackUnsaved(app, sent);
      benGroup.respond(noGroup());
    },
  );
});
