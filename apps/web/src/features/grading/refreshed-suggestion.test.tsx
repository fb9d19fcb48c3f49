import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { QuestionSubmissionForStaff } from '@gradewise/shared/contracts/questions';
import { ASSIGNMENT_ID, QUESTION_ID, questionForStaff, signInAs, staffSubmission } from '../../test/fixtures.ts';
import { deferredResponse, INSTRUCTOR, jsonResponse, stubNetwork, type Responder } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

// Decision 0085: a background refresh of the suggestions that lands while the grading screen is
// open shows the refreshed suggestion, or, once the instructor has changed the comments, offers it.

// The screen's first opening loads its lazy modules; on a loaded two-core machine that took over 5 s.
const OPENING = { timeout: 45_000 };
const QUESTION_API = `/api/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}`;
const GRADE_PATH = `/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}/grade/submission-1`;

const submissionRow: QuestionSubmissionForStaff = {
  ...staffSubmission(),
  grade: null,
  isAlreadyGraded: false,
  confidenceLevel: 70,
  comments: [],
  extractedText: '',
  grader: null,
  gradingStatus: 'succeeded',
  reviewStatus: 'needs-review',
  suggestedScore: 8,
  hasHiddenText: false,
  hiddenText: [],
};

const suggestion = (runId: string, comment: string) => ({
  submissionText: 'The eigenvalues are 2 and 3.',
  gradingResult: {
    comments: [
      { _id: `c-${runId}`, id: `c-${runId}`, text: comment, pointsDeducted: 2, accepted: true, rubricItemId: null },
    ],
    totalScore: 8,
  },
  questionPoints: 10,
  confidenceLevel: 64,
  grader: { kind: 'builtin', provider: 'builtin', model: 'builtin-v1' },
  hiddenText: [],
  gradingRunId: runId,
  isAlreadyGraded: false,
});

const summary = (status: 'running' | 'succeeded') => ({
  questionPoints: 10,
  pending: 4,
  expectedChanges: 1,
  withoutSuggestion: 0,
  savedGrades: 5,
  upToDate: status === 'succeeded' ? 4 : 0,
  grader: { kind: 'builtin', provider: 'builtin', model: 'gradewise-builtin-1.0.0' },
  refreshesAutomatically: true,
  refresh: {
    status,
    examplesUsed: 5,
    resuggested: 4,
    finishedAt: status === 'succeeded' ? '2030-01-05T10:00:00.000Z' : null,
  },
  resuggestable: 4,
});

/**
 * The screen of an answer whose suggestion is refreshed while it is open: POST grade answers the
 * first suggestion, then the refreshed one; the summary says a refresh runs, then (when the test
 * lets the second read answer) that it is done.
 */
function refreshWhileOpen() {
  const landed = deferredResponse();
  let summaryReads = 0;
  let gradeReads = 0;
  const readSummary: Responder = (request) => {
    summaryReads += 1;
    return summaryReads === 1 ? jsonResponse(200, summary('running')) : landed.responder(request);
  };
  const sent = stubNetwork({
    ...signInAs(INSTRUCTOR),
    [`GET ${QUESTION_API}`]: () => jsonResponse(200, questionForStaff({ submissions: [submissionRow] })),
    [`POST ${QUESTION_API}/grade/submission-1`]: () => {
      gradeReads += 1;
      return jsonResponse(
        200,
        gradeReads === 1 ? suggestion('run-1', 'Explain why.') : suggestion('run-2', 'State both eigenvalues.'),
      );
    },
    [`GET ${QUESTION_API}/suggestion-summary`]: readSummary,
  });
  return { sent, land: () => landed.respond(jsonResponse(200, summary('succeeded'))) };
}

describe('grading screen: a refresh of the suggestions that lands while it is open', { timeout: 60_000 }, () => {
  it('shows the refreshed suggestion when the comments were not changed', async () => {
    const { land } = refreshWhileOpen();
    renderApp(GRADE_PATH);
    expect(await screen.findByText('Explain why.', {}, OPENING)).toBeInTheDocument();

    land();
    expect(await screen.findByText('State both eigenvalues.')).toBeInTheDocument();
    expect(screen.queryByText('Explain why.')).not.toBeInTheDocument();
    expect(screen.queryByText(/Updated suggestion available/)).not.toBeInTheDocument();
  });

  it('shows the refreshed suggestion when a change was taken back (declined, accepted again; an edit cancelled)', async () => {
    const { land } = refreshWhileOpen();
    renderApp(GRADE_PATH);
    expect(await screen.findByText('Explain why.', {}, OPENING)).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Decline comment 1' }));
    await user.click(await screen.findByRole('button', { name: 'Accept comment 1' }));
    await user.click(screen.getByRole('button', { name: 'Edit comment 1' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));

    land();
    expect(await screen.findByText('State both eigenvalues.')).toBeInTheDocument();
    expect(screen.queryByText('Explain why.')).not.toBeInTheDocument();
    expect(screen.queryByText(/Updated suggestion available/)).not.toBeInTheDocument();
  });

  it('keeps the changed comments and offers the refreshed suggestion, shown on Show', async () => {
    const { land } = refreshWhileOpen();
    renderApp(GRADE_PATH);
    expect(await screen.findByText('Explain why.', {}, OPENING)).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Decline comment 1' }));

    land();
    const offer = await screen.findByText(/Updated suggestion available/);
    expect(screen.getByText('Explain why.')).toBeInTheDocument();
    expect(screen.getByText('Declined')).toBeInTheDocument();
    expect(screen.queryByText('State both eigenvalues.')).not.toBeInTheDocument();

    await user.click(within(offer.closest('[role="status"]') as HTMLElement).getByRole('button', { name: 'Show' }));
    expect(await screen.findByText('State both eigenvalues.')).toBeInTheDocument();
    expect(screen.queryByText('Explain why.')).not.toBeInTheDocument();
    expect(screen.queryByText(/Updated suggestion available/)).not.toBeInTheDocument();
  });
});
