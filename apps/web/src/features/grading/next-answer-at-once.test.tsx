import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ASSIGNMENT_ID,
  fileUrl,
  QUESTION_ID,
  questionForStaff,
  signInAs,
  staffSubmission,
} from '../../test/fixtures.ts';
import { deferredResponse, INSTRUCTOR, jsonResponse, stubNetwork, type Responder } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

// Screens load their route module and data first; on a busy machine that can take over a second.
configure({ asyncUtilTimeout: 5000 });

// Issue 29 part 4, decision 0079: the next answer of the queue is read while the open one is.

const QUESTION_PATH = `/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}`;
const QUESTION_API = `/api${QUESTION_PATH}`;
const idOf = (name: string) => `submission-${name.toLowerCase()}`;
const person = (name: string) => ({
  _id: `user-${name.toLowerCase()}`,
  name,
  email: `${name.toLowerCase()}@example.edu`,
});
const statusOf = { Ann: 'needs-review', Ben: 'needs-review', Cid: 'not-graded' } as const;
type Name = keyof typeof statusOf;

const row = (name: Name) =>
  staffSubmission({
    _id: idOf(name),
    file: fileUrl(`answer-${name.toLowerCase()}`),
    student: person(name),
    uploadedBy: { _id: person(name)._id, name },
    gradingStatus: statusOf[name] === 'not-graded' ? 'none' : 'succeeded',
    reviewStatus: statusOf[name],
    suggestedScore: statusOf[name] === 'not-graded' ? null : 8,
  });

const queueItem = (name: Name) => ({
  submissionId: idOf(name),
  student: person(name),
  isLate: false,
  status: statusOf[name],
  confidenceLevel: statusOf[name] === 'not-graded' ? null : 40,
  grade: null,
  isGradeFirst: false,
  represents: null,
  groupSize: null,
});

/** The suggestion POST grade answers for an answer with one (no AI call: it is stored). */
const suggestionOf = (name: Name) => ({
  submissionText: `${name}'s answer.`,
  gradingResult: {
    comments: [
      {
        _id: `c-${name}`,
        id: `c-${name}`,
        text: `${name} forgot the units.`,
        pointsDeducted: 2,
        accepted: true,
        rubricItemId: null,
        rubricItem: null,
      },
    ],
    totalScore: 8,
  },
  questionPoints: 10,
  confidenceLevel: 40,
  grader: { kind: 'builtin', provider: 'builtin', model: 'builtin-v1' },
  hiddenText: [],
  gradingRunId: `run-${name}`,
  isAlreadyGraded: false,
  currentGradeId: null,
});

/** The queue Ann, Ben, Cid (Cid has no suggestion yet); each answer's grade call as given. */
function routes(grade: Partial<Record<Name, Responder>>) {
  const names: Name[] = ['Ann', 'Ben', 'Cid'];
  return {
    ...signInAs(INSTRUCTOR),
    [`GET ${QUESTION_API}`]: () => jsonResponse(200, questionForStaff({ submissions: names.map(row) })),
    [`GET ${QUESTION_API}/review-queue`]: () =>
      jsonResponse(200, { questionPoints: 10, items: names.map(queueItem), remaining: 3 }),
    // No answer is in a group (the grading screen reads the open answer's group only, decision 0095).
    ...Object.fromEntries(
      names.map((name) => [
        `GET ${QUESTION_API}/answer-groups/of/${idOf(name)}`,
        () => jsonResponse(200, { questionPoints: 10, group: null }),
      ]),
    ),
    ...Object.fromEntries(names.map((name) => [`POST ${QUESTION_API}/grade/${idOf(name)}/lease`, leaseTaken])),
    ...Object.fromEntries(names.map((name) => [`DELETE ${QUESTION_API}/grade/${idOf(name)}/lease`, leaseGiven])),
    ...Object.fromEntries(
      names.map((name) => [`GET /api/files/answer-${name.toLowerCase()}`, () => new Response('%PDF-1.4 not read')]),
    ),
    ...Object.fromEntries(
      Object.entries(grade).map(([name, responder]) => [`POST ${QUESTION_API}/grade/${idOf(name)}`, responder]),
    ),
  };
}
const leaseTaken = () =>
  jsonResponse(200, {
    isMine: true,
    holder: { _id: INSTRUCTOR._id, name: INSTRUCTOR.name, since: '2030-01-01T00:00:00.000Z' },
    expiresAt: '2030-01-01T00:00:00.000Z',
  });
const leaseGiven = () => jsonResponse(200, { message: 'Lease released.' });

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
        Ann: () => jsonResponse(200, suggestionOf('Ann')),
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
        Ben: () => jsonResponse(200, suggestionOf('Ben')),
        Cid: () => jsonResponse(200, suggestionOf('Cid')),
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
      ...routes({ Ann: () => jsonResponse(200, suggestionOf('Ann')) }),
      [`GET ${QUESTION_API}`]: question.responder,
    });
    renderApp(`${QUESTION_PATH}/grade/${idOf('Ann')}?queue=1`);

    // The question with Ann's submission has not answered, and the grade call is out already.
    await waitFor(() =>
      expect(sent.map((request) => `${request.method} ${request.path}`)).toContain(
        `POST ${QUESTION_API}/grade/${idOf('Ann')}`,
      ),
    );
    question.respond(jsonResponse(200, questionForStaff({ submissions: (['Ann', 'Ben', 'Cid'] as const).map(row) })));
    expect(await screen.findByText('Ann forgot the units.')).toBeInTheDocument();
  });
});
