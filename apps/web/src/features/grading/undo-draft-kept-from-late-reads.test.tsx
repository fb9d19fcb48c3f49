import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GradingOutput } from '@gradewise/shared/contracts/grading';
import { jsonResponse, stubNetwork, type Responder, type SentRequest } from '../../test/network.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { renderApp } from '../../test/render-app.tsx';
import {
  idOf,
  QUESTION_API,
  QUESTION_PATH,
  reviewComment,
  reviewQueueRoutes,
  savedGradeOf,
  storedSuggestion,
  suggestionOf,
} from '../../test/review-queue-fixtures.ts';

// Screens load their route module and data first; on a busy machine that can take over a second.
configure({ asyncUtilTimeout: 5000 });

/*
 * Issue 29: the grading-polish journey's "Undo after S" lost the comment the instructor had added,
 * twice, on a machine loaded to 9-10. The undo drops the answer's stored result (what the server
 * has changed), reads the queue and the question again, then opens the answer with the undone
 * save's comments as unsaved edits. When the answer's screen is still open as the undo answers
 * (the instructor went back to it, or, on a loaded machine, the move to the next answer had not
 * been drawn yet), that screen reads its result again, and the two can land in either order.
 * Each order is held here with responses the test releases; the edits must survive both.
 */

const SAVE_API = `${QUESTION_API}/save-grade/${idOf('Ann')}`;
const UNDO_API = `${SAVE_API}/undo`;
const GRADE_ANN = `${QUESTION_API}/grade/${idOf('Ann')}`;
const REVIEW_QUEUE = `${QUESTION_API}/review-queue`;
const KEPT = 'A remark written before the slip of the S key.';
const SUGGESTED = 'Ann forgot the units.';
const AFTER_UNDO = 'A second remark, written after the undo.';
const ON_THE_SAVED_GRADE = 'A remark added to the saved grade, then taken back with it.';

const savedComments = [reviewComment('c-new', KEPT, 0), reviewComment('c-Ann', SUGGESTED, 2)];

/** POST grade of Ann's answer once the save is stored: the saved grade, the added comment in it. */
const gradedAnn = (): GradingOutput => ({
  ...suggestionOf('Ann'),
  gradingResult: { comments: savedComments, totalScore: 8 },
  isAlreadyGraded: true,
  currentGradeId: 'grade-ann-1',
});

/**
 * POST grade of Ann's answer after the undo: a suggestion again, refreshed meanwhile from the saved
 * grade (the save's background refresh), as its chip says.
 */
const refreshedAnn = (): GradingOutput => ({ ...suggestionOf('Ann'), gradingRunId: 'run-Ann-2', examplesUsed: 1 });
const REFRESHED_CHIP = 'Updated from your 1 grade';

/**
 * The server of the queue Ann, Ben: Ann's POST grade answers what is stored now (her suggestion,
 * or the saved grade between the save and its undo). `hold(route)` makes the next request of a
 * route wait until the test releases it; it is then answered with what the server has at that time.
 */
function server() {
  let ann: 'suggested' | 'graded' | 'undone' = 'suggested';
  const annNow = { suggested: () => suggestionOf('Ann'), graded: gradedAnn, undone: refreshedAnn };
  const held = new Map<string, Promise<void>>();
  const holdable =
    (route: string, respond: Responder): Responder =>
    async (request) => {
      const gate = held.get(route);
      held.delete(route);
      if (gate) await gate;
      return respond(request);
    };
  const routes = reviewQueueRoutes(
    { Ann: 'needs-review', Ben: 'needs-review' },
    {
      Ann: holdable(`POST ${GRADE_ANN}`, () => jsonResponse(200, annNow[ann]())),
      Ben: storedSuggestion('Ben'),
    },
    {
      [`POST ${SAVE_API}`]: () => {
        ann = 'graded';
        return savedGradeOf('Ann', savedComments);
      },
      [`POST ${UNDO_API}`]: () => {
        ann = 'undone';
        return jsonResponse(200, {
          message: 'Grade undone: the answer is not graded again.',
          currentGradeId: null,
          grade: null,
        });
      },
    },
  );
  routes[`GET ${REVIEW_QUEUE}`] = holdable(`GET ${REVIEW_QUEUE}`, routes[`GET ${REVIEW_QUEUE}`]!);
  return {
    routes,
    /** The next request of `route` ('POST /api/...') waits for `release`. */
    hold(route: string): { release(): void } {
      let release = () => undefined as void;
      held.set(
        route,
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      );
      return { release: () => release() };
    },
  };
}

const count = (sent: SentRequest[], route: string) =>
  sent.filter((request) => `${request.method} ${request.path}` === route).length;

/**
 * Ann's answer saved with an added comment (the queue moves on to Ben), then opened again from the
 * queue: her saved grade on screen, the toast still offering Undo.
 */
async function saveAnnThenGoBackToHer(sent: SentRequest[]) {
  const app = renderApp(`${QUESTION_PATH}/grade/${idOf('Ann')}?queue=1`);
  const user = userEvent.setup({ delay: null });
  // The first opening of the file loads the screen's lazy modules: on a loaded machine over 5 s.
  expect(await screen.findByText(SUGGESTED, {}, { timeout: 45_000 })).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Add Comment' }));
  await user.click(await screen.findByRole('textbox', { name: 'New comment' }));
  await user.paste(KEPT);
  await user.click(screen.getByRole('button', { name: 'Done' }));
  await user.click(screen.getByRole('button', { name: 'Save Grade' }));
  expect(await screen.findByText('Ben forgot the units.')).toBeInTheDocument();
  expect(app.router.state.location.pathname).toBe(`${QUESTION_PATH}/grade/${idOf('Ben')}`);

  await user.click(
    within(screen.getByRole('navigation', { name: 'Review queue' })).getByRole('button', { name: /Previous/ }),
  );
  // Her saved grade: read from the server again, the added comment in it.
  expect(await screen.findByText(KEPT)).toBeInTheDocument();
  expect(app.router.state.location.pathname).toBe(`${QUESTION_PATH}/grade/${idOf('Ann')}`);
  expect(count(sent, `POST ${GRADE_ANN}`)).toBe(2);
  // Navigations that carry an undone save's comments (the toast's Undo opening the answer).
  let restores = 0;
  app.router.subscribe((state) => {
    if ((state.location.state as { restoredDraft?: unknown } | null)?.restoredDraft) restores += 1;
  });
  return { ...app, user, restoresSeen: () => restores };
}

/** The toast's Undo, with Ann's result read again and the queue read held until the test answers them. */
async function undoWithReadsHeld(
  app: Awaited<ReturnType<typeof saveAnnThenGoBackToHer>>,
  sent: SentRequest[],
  network: ReturnType<typeof server>,
) {
  const annRead = network.hold(`POST ${GRADE_ANN}`);
  const queueRead = network.hold(`GET ${REVIEW_QUEUE}`);
  const queueReadsBefore = count(sent, `GET ${REVIEW_QUEUE}`);
  const toast = (await screen.findByText('Grade saved successfully!')).closest('.Toastify__toast') as HTMLElement;
  await app.user.click(within(toast).getByRole('button', { name: 'Undo' }));
  // The undo has answered: Ann's screen, still open, reads her result again; the queue is read again.
  await waitFor(() => expect(count(sent, `POST ${GRADE_ANN}`)).toBe(3));
  await waitFor(() => expect(count(sent, `GET ${REVIEW_QUEUE}`)).toBe(queueReadsBefore + 1));
  return { annRead, queueRead };
}

/** Ann saved, her answer open again, and the toast's Undo pressed with both reads held. */
async function savedThenUndoneWithReadsHeld() {
  const network = server();
  const sent = stubNetwork(network.routes);
  const app = await saveAnnThenGoBackToHer(sent);
  const { annRead, queueRead } = await undoWithReadsHeld(app, sent, network);
  return { app, sent, annRead, queueRead };
}

/** Ann's answer open, with the undone save's comments as unsaved edits on what the server has now. */
async function expectEditsBackOnTheSuggestion(
  app: Awaited<ReturnType<typeof saveAnnThenGoBackToHer>>,
  sent: SentRequest[],
  added: string[] = [],
) {
  // The Undo has opened the answer with its comments, and the screen has put them back (and so
  // dropped them from the navigation's state).
  await waitFor(() => expect(app.restoresSeen()).toBeGreaterThan(0));
  await waitFor(() => expect(app.router.state.location.state).not.toHaveProperty('restoredDraft'));
  expect(await screen.findByText(KEPT)).toBeInTheDocument();
  expect(screen.getByText(REFRESHED_CHIP)).toBeInTheDocument();
  expect(screen.getByText(SUGGESTED)).toBeInTheDocument();
  expect(app.router.state.location.pathname).toBe(`${QUESTION_PATH}/grade/${idOf('Ann')}`);
  // Saved again: the edits, on top of the answer as it stands after the undo (no grade expected).
  const savesBefore = count(sent, `POST ${SAVE_API}`);
  await app.user.click(screen.getByRole('button', { name: 'Save Grade' }));
  await waitFor(() => expect(count(sent, `POST ${SAVE_API}`)).toBe(savesBefore + 1));
  const body = sent.filter((request) => request.path === SAVE_API).at(-1)?.body as {
    comments: { text: string }[];
    expectedGradeId?: string | null;
    basedOnRunId: string | null;
  };
  expect(body.comments.map((comment) => comment.text)).toEqual([...added, KEPT, SUGGESTED]);
  expect(body.expectedGradeId).toBeNull();
  expect(body.basedOnRunId).toBe('run-Ann-2');
}

describe('Undo with the answer still open: its edits survive the reads the undo brings', () => {
  beforeAll(async () => {
    await import('../../app/routes/grade-submission-route.tsx');
    await import('./components/grading-dialog.tsx');
  });

  it("the answer's read lands first, the undo's edits after it", { timeout: 60_000 }, async () => {
    const { app, sent, annRead, queueRead } = await savedThenUndoneWithReadsHeld();

    // What the server has after the undo: her suggestion, nothing unsaved on screen yet to keep.
    annRead.release();
    expect(await screen.findByText(REFRESHED_CHIP)).toBeInTheDocument();
    expect(screen.queryByText(KEPT)).not.toBeInTheDocument();
    expect(screen.getByText(SUGGESTED)).toBeInTheDocument();
    // The queue read answers: the undo opens the answer with the undone comments as edits.
    queueRead.release();
    await expectEditsBackOnTheSuggestion(app, sent);
  });

  it("the undo's edits land first, the answer's read after them", { timeout: 60_000 }, async () => {
    const { app, sent, annRead, queueRead } = await savedThenUndoneWithReadsHeld();

    queueRead.release();
    // The undo has opened the answer with its edits (the navigation carried them) before the read.
    await waitFor(() => expect(app.restoresSeen()).toBeGreaterThan(0));
    expect(screen.queryByText(REFRESHED_CHIP)).not.toBeInTheDocument();
    // Then the read the undo started: what the server has now, under the edits, not over them.
    annRead.release();
    expect(await screen.findByText(REFRESHED_CHIP)).toBeInTheDocument();
    await expectEditsBackOnTheSuggestion(app, sent);
  });

  it("edits made after the undo's comments were put back, then the answer's read", { timeout: 60_000 }, async () => {
    const { app, sent, annRead, queueRead } = await savedThenUndoneWithReadsHeld();

    queueRead.release();
    // The screen has put the undone comments back (and so dropped them from the navigation's state).
    await waitFor(() => expect(app.restoresSeen()).toBeGreaterThan(0));
    await waitFor(() => expect(app.router.state.location.state).not.toHaveProperty('restoredDraft'));
    // The instructor goes on editing while the answer's read is still out.
    await app.user.click(screen.getByRole('button', { name: 'Add Comment' }));
    await app.user.click(await screen.findByRole('textbox', { name: 'New comment' }));
    await app.user.paste(AFTER_UNDO);
    await app.user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.getByText(AFTER_UNDO)).toBeInTheDocument();

    annRead.release();
    expect(await screen.findByText(REFRESHED_CHIP)).toBeInTheDocument();
    expect(screen.getByText(AFTER_UNDO)).toBeInTheDocument();
    await expectEditsBackOnTheSuggestion(app, sent, [AFTER_UNDO]);
  });

  it(
    'edits made on the saved grade before the Undo: the read the undo brings is under its comments',
    { timeout: 60_000 },
    async () => {
      const network = server();
      const sent = stubNetwork(network.routes);
      const app = await saveAnnThenGoBackToHer(sent);
      // A comment added to the saved grade on screen, not saved.
      await app.user.click(screen.getByRole('button', { name: 'Add Comment' }));
      await app.user.click(await screen.findByRole('textbox', { name: 'New comment' }));
      await app.user.paste(ON_THE_SAVED_GRADE);
      await app.user.click(screen.getByRole('button', { name: 'Done' }));
      const { annRead, queueRead } = await undoWithReadsHeld(app, sent, network);

      // The answer's read lands first: the edits on screen stay, the read is not shown over them.
      annRead.release();
      await waitFor(() =>
        expect(app.queryClient.getQueryData<GradingOutput>(queryKeys.grading.result(idOf('Ann')))).toEqual(
          refreshedAnn(),
        ),
      );
      expect(screen.getByText(ON_THE_SAVED_GRADE)).toBeInTheDocument();
      expect(screen.queryByText(REFRESHED_CHIP)).not.toBeInTheDocument();
      // Then the Undo's comments: as they were saved, on what the server has now (the read above).
      queueRead.release();
      await expectEditsBackOnTheSuggestion(app, sent);
      expect(screen.queryByText(ON_THE_SAVED_GRADE)).not.toBeInTheDocument();
    },
  );
});
