import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { deferredResponse, jsonResponse, stubNetwork, type Responder } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';
import { ASSIGNMENT_ID, QUESTION_ID } from '../../test/fixtures.ts';
import { questionQueries } from '../../lib/queries/questions.ts';
import {
  idOf,
  noGroup,
  QUESTION_API,
  QUESTION_PATH,
  questionOfQueue,
  reviewQueueRoutes,
  storedSuggestion,
  suggestionOf,
} from '../../test/review-queue-fixtures.ts';

// Screens load their route module and data first; on a busy machine that can take over a second.
configure({ asyncUtilTimeout: 5000 });

// Issue 29 part 4, decision 0079: the next answer of the queue is read while the open one is.

/** The queue Ann, Ben, Cid (Cid has no suggestion yet). */
const statusOf = { Ann: 'needs-review', Ben: 'needs-review', Cid: 'not-graded' } as const;
type Name = keyof typeof statusOf;

/** The queue's network, each answer's grade call as given. */
const routes = (grade: Partial<Record<Name, Responder>>) => reviewQueueRoutes(statusOf, grade);

describe('the next answer at once', () => {
  // The grading screen is a lazy route with a lazy dialog: their modules are loaded once here, not
  // inside the first test's wait for its first answer (a loaded machine can take seconds).
  beforeAll(async () => {
    await import('../../app/routes/grade-submission-route.tsx');
    await import('./components/grading-dialog.tsx');
  });

  it("reads the queue's next answer (suggestion and PDF) while one is read, so Next draws it at once, without its lease", async () => {
    // Ben's grade call answers the first time only: were it made again when Next opens his
    // answer (today's way), his suggestion would never be drawn.
    let benCalls = 0;
    const never = deferredResponse();
    const sent = stubNetwork(
      routes({
        Ann: storedSuggestion('Ann'),
        Ben: (request) => {
          benCalls += 1;
          return benCalls === 1 ? jsonResponse(200, suggestionOf('Ben')) : never.responder(request);
        },
      }),
    );
    renderApp(`${QUESTION_PATH}/grade/${idOf('Ann')}?queue=1`);
    const user = userEvent.setup({ delay: null });

    expect(await screen.findByText('Ann forgot the units.')).toBeInTheDocument();
    const sentPaths = () => sent.map((request) => `${request.method} ${request.path}`);
    await waitFor(() => expect(sentPaths()).toContain('GET /api/files/answer-ben'));
    expect(sentPaths()).toContain(`POST ${QUESTION_API}/grade/${idOf('Ben')}`);
    // Read ahead, not opened: nobody is told Ben's answer is open.
    expect(sentPaths()).not.toContain(`POST ${QUESTION_API}/grade/${idOf('Ben')}/lease`);

    const queueBar = screen.getByRole('navigation', { name: 'Review queue' });
    await user.click(within(queueBar).getByRole('button', { name: 'Next' }));

    expect(await screen.findByText('Ben forgot the units.')).toBeInTheDocument();
    expect(benCalls).toBe(1);
    // Opened now: his lease is taken, as on any opening.
    await waitFor(() => expect(sentPaths()).toContain(`POST ${QUESTION_API}/grade/${idOf('Ben')}/lease`));
  });

  it('does not read ahead an answer whose grade call would start an AI run (no suggestion yet)', async () => {
    // From Ben, Next is Cid, who has no suggestion: his grade call is left to whoever opens him.
    const sent = stubNetwork(
      routes({
        Ben: storedSuggestion('Ben'),
        Cid: storedSuggestion('Cid'),
      }),
    );
    renderApp(`${QUESTION_PATH}/grade/${idOf('Ben')}?queue=1`);

    // Ben's suggestion and the queue are both on screen: the moment an answer would be read ahead.
    expect(await screen.findByText('Ben forgot the units.')).toBeInTheDocument();
    expect(await screen.findByText('Review queue: 2 of 3 · 3 left')).toBeInTheDocument();
    const sentPaths = () => sent.map((request) => `${request.method} ${request.path}`);
    await waitFor(() => expect(sentPaths()).toContain(`POST ${QUESTION_API}/grade/${idOf('Ben')}/lease`));
    expect(sentPaths()).not.toContain(`POST ${QUESTION_API}/grade/${idOf('Cid')}`);
    expect(sentPaths()).not.toContain('GET /api/files/answer-cid');
  });

  it("starts the screen's reads together as it opens, not the grade call after the submission's", async () => {
    const question = deferredResponse();
    const sent = stubNetwork({
      ...routes({ Ann: storedSuggestion('Ann') }),
      [`GET ${QUESTION_API}`]: question.responder,
    });
    renderApp(`${QUESTION_PATH}/grade/${idOf('Ann')}?queue=1`);

    // The question with Ann's submission has not answered, and the grade call is out already.
    await waitFor(() =>
      expect(sent.map((request) => `${request.method} ${request.path}`)).toContain(
        `POST ${QUESTION_API}/grade/${idOf('Ann')}`,
      ),
    );
    question.respond(jsonResponse(200, questionOfQueue(statusOf)));
    expect(await screen.findByText('Ann forgot the units.')).toBeInTheDocument();
  });

  it("asks for the open answer's PDF after the first view, not beside its reads (decision 0125)", async () => {
    const group = deferredResponse();
    const sent = stubNetwork({
      ...routes({ Ann: storedSuggestion('Ann') }),
      [`GET ${QUESTION_API}/answer-groups/of/${idOf('Ann')}`]: group.responder,
    });
    const { queryClient } = renderApp(`${QUESTION_PATH}/grade/${idOf('Ann')}?queue=1`);
    const sentPaths = () => sent.map((request) => `${request.method} ${request.path}`);

    // The submission, with its PDF's address, has been read; the answer's group is still out, so
    // the first view is not on screen: the PDF is not asked for yet (it was, beside the group).
    const submission = questionQueries.submission(ASSIGNMENT_ID, QUESTION_ID, idOf('Ann'));
    await waitFor(() => expect(queryClient.getQueryData(submission.queryKey)).toBeDefined());
    expect(sentPaths()).toContain(`GET ${QUESTION_API}/answer-groups/of/${idOf('Ann')}`);
    expect(sentPaths()).not.toContain('GET /api/files/answer-ann');

    group.respond(noGroup());
    await waitFor(() => expect(sentPaths()).toContain('GET /api/files/answer-ann'));
  });
});
