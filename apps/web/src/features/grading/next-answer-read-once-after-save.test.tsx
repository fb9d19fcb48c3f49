import { act, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GradingOutput } from '@gradewise/shared/contracts/grading';
import { deferredResponse, jsonResponse, stubNetwork, type Responder, type SentRequest } from '../../test/network.ts';
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

// Issue 29, decision 0121: Save Grade in the queue moves on to the next answer, whose result is read
// once after the save has answered, and never taken from a read made before it.

const SAVE_API = `${QUESTION_API}/save-grade/${idOf('Ann')}`;
const GRADE_ANN = `${QUESTION_API}/grade/${idOf('Ann')}`;
const GRADE_BEN = `${QUESTION_API}/grade/${idOf('Ben')}`;
const SUMMARY_API = `${QUESTION_API}/suggestion-summary`;
const QUEUE_API = `${QUESTION_API}/review-queue`;
const BEFORE_SAVE = 'Ben forgot the units.';
const AFTER_SAVE = 'Ben forgot the units, as Ann did.';

/** Ben's suggestion once the background refresh Ann's save starts has re-made it, from her grade. */
const refreshedBen = (): GradingOutput => ({
  ...suggestionOf('Ben'),
  gradingResult: { comments: [reviewComment('c-Ben-2', AFTER_SAVE, 2)], totalScore: 8 },
  gradingRunId: 'run-Ben-2',
  examplesUsed: 1,
});

const savedAnn = () => savedGradeOf('Ann', [reviewComment('c-Ann', 'Ann forgot the units.', 2)]);

/**
 * The suggestion summary with the question's latest background refresh finished at `finishedAt`,
 * made from the `savedGrades` the question has (none before Ann's save, hers after it).
 */
const summaryFinishedAt = (finishedAt: string, savedGrades: number) =>
  jsonResponse(200, {
    questionPoints: 10,
    pending: 2 - savedGrades,
    expectedChanges: 0,
    withoutSuggestion: 0,
    savedGrades,
    upToDate: 2 - savedGrades,
    grader: { kind: 'builtin', provider: 'builtin', model: 'gradewise-builtin-1.0.0' },
    refreshesAutomatically: true,
    refresh: { status: 'succeeded', examplesUsed: savedGrades, resuggested: 2 - savedGrades, finishedAt },
    resuggestable: 2 - savedGrades,
  });

const gradeCallsOfBen = (sent: readonly SentRequest[]) =>
  sent.filter((request) => request.method === 'POST' && request.path === GRADE_BEN);

/**
 * The server of the queue Ann, Ben, both with a suggestion to review. Ben's POST grade answers what
 * it has when asked: his suggestion until `server.isRefreshed`, then the refreshed one. After Ann's
 * save (`server.isSaved`) the queue has one answer left, and the summary answers as `afterSave` says.
 */
function queueServer(afterSave: { summary: Responder }) {
  const server = { isSaved: false, isRefreshed: false };
  const routes = reviewQueueRoutes(
    { Ann: 'needs-review', Ben: 'needs-review' },
    {
      Ann: storedSuggestion('Ann'),
      Ben: () => jsonResponse(200, server.isRefreshed ? refreshedBen() : suggestionOf('Ben')),
    },
  );
  const save = deferredResponse();
  const sent = stubNetwork({
    ...routes,
    [`POST ${SAVE_API}`]: save.responder,
    [`GET ${QUEUE_API}`]: async (request) => {
      const queue = (await (await routes[`GET ${QUEUE_API}`]!(request)).json()) as { remaining: number };
      return jsonResponse(200, server.isSaved ? { ...queue, remaining: queue.remaining - 1 } : queue);
    },
    [`GET ${SUMMARY_API}`]: (request) =>
      server.isSaved ? afterSave.summary(request) : summaryFinishedAt('2030-01-01T09:00:00.000Z', 0),
  });
  return { server, sent, save };
}

/** Ann's answer open in the queue, Ben read ahead (decision 0079), then Save Grade, the save still out. */
async function openAnnReadBenAheadAndSave(sent: readonly SentRequest[]) {
  const app = renderApp(`${QUESTION_PATH}/grade/${idOf('Ann')}?queue=1`);
  const user = userEvent.setup({ delay: null });
  expect(await screen.findByText('Ann forgot the units.')).toBeInTheDocument();
  await waitFor(() => expect(gradeCallsOfBen(sent)).toHaveLength(1));
  await user.click(screen.getByRole('button', { name: 'Save Grade' }));
  await waitFor(() => expect(sent.some((request) => request.path === SAVE_API)).toBe(true));
  return app;
}

/** Ben's answer open, showing his refreshed suggestion, read once since the save answered. */
async function expectBenReadOnceSince(app: ReturnType<typeof renderApp>, sent: readonly SentRequest[], since: number) {
  await waitFor(() => expect(app.router.state.location.pathname).toBe(`${QUESTION_PATH}/grade/${idOf('Ben')}`));
  expect(await screen.findByText(AFTER_SAVE)).toBeInTheDocument();
  expect(screen.queryByText(BEFORE_SAVE)).not.toBeInTheDocument();
  // Opened: his lease is taken once his screen is drawn, after the reads its opening makes.
  await waitFor(() =>
    expect(sent.some((request) => request.method === 'POST' && request.path === `${GRADE_BEN}/lease`)).toBe(true),
  );
  expect(gradeCallsOfBen(sent.slice(since))).toHaveLength(1);
  // Nor Ann's again: the summary read after her save counts a grade her suggestion was not made
  // with, but it is her own grade (decision 0122).
  expect(sent.slice(since).filter((request) => request.method === 'POST' && request.path === GRADE_ANN)).toHaveLength(
    0,
  );
  // The queue too: the save's own read of it again is the one the move chooses the next answer by.
  expect(sent.slice(since).filter((request) => request.method === 'GET' && request.path === QUEUE_API)).toHaveLength(1);
}

describe('Save Grade moving on in the queue', () => {
  // The grading screen is a lazy route with a lazy dialog: their modules are loaded once here.
  beforeAll(async () => {
    await import('../../app/routes/grade-submission-route.tsx');
    await import('./components/grading-dialog.tsx');
  });

  it(
    "reads the next answer's result once after the save has answered, and shows that read, not one made before",
    { timeout: 60_000 },
    async () => {
      // The save's refresh has re-made Ben's suggestion by the time the save answers.
      const { server, sent, save } = queueServer({ summary: () => summaryFinishedAt('2030-01-01T10:00:00.000Z', 1) });
      const app = await openAnnReadBenAheadAndSave(sent);

      const answeredAt = sent.length;
      server.isSaved = true;
      server.isRefreshed = true;
      save.respond(savedAnn());
      await expectBenReadOnceSince(app, sent, answeredAt);
    },
  );

  it(
    'does not read the next answer ahead before what shows grades is read after the save (a refresh that lands then)',
    { timeout: 60_000 },
    async () => {
      // The summary read after the save answers when the test says; the save's refresh lands just
      // before it does, after the queue read after the save has answered.
      const summary = deferredResponse();
      const { server, sent, save } = queueServer({ summary: summary.responder });
      const app = await openAnnReadBenAheadAndSave(sent);

      const answeredAt = sent.length;
      server.isSaved = true;
      save.respond(savedAnn());
      // The queue read after the save is drawn, and what that render started has run.
      expect(await screen.findByText('Review queue: 1 of 2 · 1 left')).toBeInTheDocument();
      await act(async () => undefined);
      server.isRefreshed = true;
      summary.respond(summaryFinishedAt('2030-01-01T10:00:00.000Z', 1));
      await expectBenReadOnceSince(app, sent, answeredAt);
    },
  );
});
