import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { QuestionSubmissionForStaff } from '@gradewise/shared/contracts/questions';
import { ASSIGNMENT_ID, QUESTION_ID, questionForStaff, signInAs, staffSubmission } from '../../test/fixtures.ts';
import { INSTRUCTOR, jsonResponse, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

// Screens load their route module and data first; on a busy machine that can take over a second.
configure({ asyncUtilTimeout: 5000 });

const QUESTION_PATH = `/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}`;
const QUESTION_API = `/api${QUESTION_PATH}`;
const GRADE_PATH = `${QUESTION_PATH}/grade/submission-1`;
const DEFINITION = 'Confidence is the chance that you keep the suggested score within 10% of the points.';

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

function gradingOutput(overrides: Record<string, unknown> = {}) {
  return {
    submissionText: 'The eigenvalues are 2 and 3.',
    gradingResult: {
      comments: [{ _id: 'c1', id: 'c1', text: 'Explain why.', pointsDeducted: 2, accepted: true, rubricItemId: null }],
      totalScore: 8,
    },
    questionPoints: 10,
    confidenceLevel: 64,
    grader: { kind: 'builtin', provider: 'builtin', model: 'builtin-v1' },
    hiddenText: [],
    gradingRunId: 'run-1',
    isAlreadyGraded: false,
    ...overrides,
  };
}

function gradingRoutes(output: Record<string, unknown>) {
  return {
    ...signInAs(INSTRUCTOR),
    [`GET ${QUESTION_API}`]: () => jsonResponse(200, questionForStaff({ submissions: [submissionRow] })),
    [`POST ${QUESTION_API}/grade/submission-1`]: () => jsonResponse(200, output),
  };
}

function summary(overrides: Record<string, unknown> = {}) {
  return {
    questionPoints: 10,
    pending: 4,
    expectedChanges: 1,
    withoutSuggestion: 0,
    savedGrades: 5,
    upToDate: 4,
    grader: { kind: 'builtin', provider: 'builtin', model: 'gradewise-builtin-1.0.0' },
    refreshesAutomatically: true,
    refresh: { status: 'succeeded', examplesUsed: 5, resuggested: 4, finishedAt: '2030-01-05T10:00:00.000Z' },
    resuggestable: 4,
    ...overrides,
  };
}

function questionRoutes(summaryResponder: () => Response, extra: Record<string, () => Response> = {}) {
  return {
    ...signInAs(INSTRUCTOR),
    [`GET ${QUESTION_API}`]: () => jsonResponse(200, questionForStaff({ submissions: [submissionRow] })),
    [`GET ${QUESTION_API}/grade-all/progress`]: () =>
      jsonResponse(200, { batchId: null, total: 0, done: 0, failed: 0, running: 0, remaining: 0, isFinished: true }),
    [`GET ${QUESTION_API}/review-queue`]: () => jsonResponse(200, { questionPoints: 10, items: [], remaining: 0 }),
    [`GET ${QUESTION_API}/suggestion-summary`]: summaryResponder,
    ...extra,
  };
}

const panel = async () => within(await screen.findByRole('region', { name: 'AI suggestions' }));

describe('grading screen: suggestions that learned from saved grades', () => {
  it('marks a suggestion fitted to the saved grades, and defines confidence', async () => {
    stubNetwork(gradingRoutes(gradingOutput({ examplesUsed: 5 })));
    renderApp(GRADE_PATH);
    expect(await screen.findByText('Updated from your 5 grades')).toBeInTheDocument();
    // The grade bar of the page's first grading view comes a task after its paint (decision 0104).
    const confidence = await screen.findByText('Confidence: 64%');
    expect(confidence).toHaveAccessibleDescription(DEFINITION);

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'What confidence means' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(DEFINITION);
  });

  it('shows no marker on a cold-start suggestion or on a saved grade', async () => {
    stubNetwork(gradingRoutes(gradingOutput({ examplesUsed: 0 })));
    const first = renderApp(GRADE_PATH);
    expect(await screen.findByText('Confidence: 64%')).toBeInTheDocument();
    expect(screen.queryByText(/Updated from your/)).not.toBeInTheDocument();
    first.unmount();

    stubNetwork(gradingRoutes(gradingOutput({ examplesUsed: 3, isAlreadyGraded: true })));
    renderApp(GRADE_PATH);
    expect(await screen.findByText('Confidence: 64%')).toBeInTheDocument();
    expect(screen.queryByText(/Updated from your/)).not.toBeInTheDocument();
  });
});

describe('question page: pending suggestions', () => {
  it('counts the pending suggestions and the changes they are expected to need, and says they were refreshed', async () => {
    stubNetwork(questionRoutes(() => jsonResponse(200, summary({ pending: 4, expectedChanges: 1 }))));
    renderApp(QUESTION_PATH);
    const region = await panel();
    expect(await region.findByText(/of them expected to need a change/)).toHaveTextContent(
      '4 suggestions pending (no saved grade) · about 1 of them expected to need a change',
    );
    expect(region.getByRole('status')).toHaveTextContent('Updated from your 5 grades: 4 suggestions refreshed.');
    expect(region.getByRole('button', { name: 'How the expected changes are counted' })).toBeInTheDocument();
    // The built-in grader refreshes by itself: no paid action is offered.
    expect(region.queryByRole('button', { name: /Re-suggest/ })).not.toBeInTheDocument();
  });

  it('says when a refresh is under way, and when nothing is pending', async () => {
    stubNetwork(
      questionRoutes(() =>
        jsonResponse(
          200,
          summary({
            pending: 0,
            expectedChanges: 0,
            withoutSuggestion: 2,
            refresh: { status: 'running', examplesUsed: 5, resuggested: null, finishedAt: null },
          }),
        ),
      ),
    );
    renderApp(QUESTION_PATH);
    const region = await panel();
    expect(
      await region.findByText('No suggestions waiting for review. 2 answers have no suggestion yet: use Grade All.'),
    ).toBeInTheDocument();
    expect(region.getByRole('status')).toHaveTextContent('Updating the pending suggestions from your saved grades…');
  });

  it('says a refresh with no saved grade is for the answers read since, not for saved grades', async () => {
    stubNetwork(
      questionRoutes(() =>
        jsonResponse(
          200,
          summary({
            savedGrades: 0,
            refresh: { status: 'queued', examplesUsed: 0, resuggested: null, finishedAt: null },
          }),
        ),
      ),
    );
    renderApp(QUESTION_PATH);
    const region = await panel();
    expect(
      await region.findByText('Updating the pending suggestions now that more answers have been read…'),
    ).toBeInTheDocument();
    expect(region.queryByText(/from your saved grades/)).not.toBeInTheDocument();
  });

  it('shows an error with Retry when the summary cannot be loaded', async () => {
    let calls = 0; // a 5xx is retried once before the error shows
    stubNetwork(
      questionRoutes(() => {
        calls += 1;
        return calls <= 2
          ? jsonResponse(500, { code: 'INTERNAL', message: 'Something went wrong.' })
          : jsonResponse(200, summary());
      }),
    );
    renderApp(QUESTION_PATH);
    const region = await panel();
    const user = userEvent.setup({ delay: null });
    await user.click(await region.findByRole('button', { name: 'Retry' }));
    expect(await region.findByText(/4 suggestions pending/)).toBeInTheDocument();
  });

  it('with an LLM, offers the re-suggest only after a confirmation that states the number of calls and the estimated cost', async () => {
    const llmSummary = summary({
      grader: { kind: 'llm', provider: 'openai', model: 'gpt-4o-mini' },
      refreshesAutomatically: false,
      refresh: null,
      resuggestable: 4,
      savedGrades: 3,
    });
    const sent = stubNetwork(
      questionRoutes(() => jsonResponse(200, llmSummary), {
        [`POST ${QUESTION_API}/resuggest`]: () =>
          jsonResponse(200, { message: 'Re-suggesting 4 answers in the background.', batchId: 'batch-1', queued: 4 }),
        // Issue 31: the cost before it starts, as Grade All shows it.
        [`GET ${QUESTION_API}/resuggest/estimate`]: () =>
          jsonResponse(200, {
            providerId: 'hosted',
            providerLabel: 'Hosted model',
            location: 'external',
            currency: 'USD',
            answers: 4,
            inputTokens: 12_000,
            outputTokens: 600,
            cost: 0.0123,
            confirmAbove: 1,
            needsConfirmation: false,
            budgetLeft: 4.5,
            fitsBudget: true,
          }),
      }),
    );
    renderApp(QUESTION_PATH);
    const region = await panel();
    const user = userEvent.setup({ delay: null });
    await user.click(await region.findByRole('button', { name: 'Re-suggest 4 answers with openai/gpt-4o-mini' }));

    const dialog = await screen.findByRole('dialog', { name: 'Re-suggest 4 answers?' });
    expect(dialog).toHaveTextContent('This makes 4 calls to openai/gpt-4o-mini');
    expect(dialog).toHaveTextContent('with your 3 saved grades as examples');
    expect(await within(dialog).findByText('$0.0123')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('12,000 tokens in, about 600 tokens out');
    expect(dialog).toHaveTextContent('$4.50');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent.some((request) => request.path.endsWith('/resuggest'))).toBe(false);

    await user.click(region.getByRole('button', { name: 'Re-suggest 4 answers with openai/gpt-4o-mini' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Re-suggest 4 answers?' })).getByRole('button', {
        name: 'Make 4 calls (about $0.0123)',
      }),
    );
    expect(await screen.findByText('Re-suggesting 4 answers in the background.')).toBeInTheDocument();
    const posted = sent.filter((request) => request.path.endsWith('/resuggest'));
    expect(posted).toHaveLength(1);
    // The estimate was shown: the request confirms it.
    expect(posted[0]!.body).toEqual({ answers: 4, confirmCost: true });
  });
});
