import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CourseAiSettings } from '@gradewise/shared/contracts/ai-cost';
import type { ModelCheck, ModelCheckEstimate } from '@gradewise/shared/contracts/ai-model-checks';
import { COURSE_ID, courseForStaff, signInAs } from '../../test/fixtures.ts';
import { deferredResponse, INSTRUCTOR, jsonResponse, stubNetwork, type Responder } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

/** The course page's "Check a model before switching" (issue 31, item 5; decision 0077), over the real client and router. */

const CHECKS = `/api/courses/${COURSE_ID}/ai-model-checks`;

const settings: CourseAiSettings = {
  currency: 'USD',
  providers: [
    {
      id: 'builtin',
      label: 'Built-in grader',
      kind: 'builtin',
      model: 'builtin',
      location: 'on-server',
      inputPricePerMillion: 0,
      outputPricePerMillion: 0,
    },
    {
      id: 'hosted',
      label: 'Hosted model',
      kind: 'openai-compatible',
      model: 'small',
      location: 'external',
      inputPricePerMillion: 0.15,
      outputPricePerMillion: 0.6,
    },
  ],
  providerId: 'builtin',
  providerChosen: false,
  serverOnly: false,
  monthlyBudget: null,
  confirmAbove: 1,
  spentThisMonth: 0,
  courseBudgetLeft: null,
  instructorBudgetLeft: null,
  canEdit: true,
};

const estimate: ModelCheckEstimate = {
  providerId: 'hosted',
  providerLabel: 'Hosted model',
  location: 'external',
  currency: 'USD',
  answers: 3,
  inputTokens: 1800,
  outputTokens: 300,
  cost: 0.0005,
  confirmAbove: 1,
  needsConfirmation: false,
  budgetLeft: null,
  fitsBudget: true,
  currentProviderId: 'builtin',
  currentProviderLabel: 'Built-in grader',
  candidateCost: 0.0005,
  currentCost: 0,
  savedGrades: 3,
};

const side = (providerId: string, providerLabel: string, within10: number) => ({
  providerId,
  providerLabel,
  model: 'm',
  location: 'on-server' as const,
  graded: 3,
  failed: 0,
  meanAbsoluteDifference: 3,
  meanAbsolutePercent: 30,
  meanSignedDifference: 3,
  withinTenPercent: within10,
  cost: 0,
});

const check = (overrides: Partial<ModelCheck> = {}): ModelCheck => ({
  id: 'check-1',
  candidateProviderId: 'hosted',
  candidateProviderLabel: 'Hosted model',
  currentProviderId: 'builtin',
  currentProviderLabel: 'Built-in grader',
  sampleSize: 3,
  status: 'running',
  done: 1,
  currency: 'USD',
  cost: 0.0002,
  error: null,
  result: null,
  requestedAt: '2026-11-29T04:00:00.000Z',
  finishedAt: null,
  ...overrides,
});

function courseRoutes(checks: Responder) {
  return {
    ...signInAs(INSTRUCTOR),
    [`GET /api/courses/${COURSE_ID}`]: () => jsonResponse(200, courseForStaff()),
    'GET /api/assignments': () => jsonResponse(200, []),
    [`GET /api/courses/${COURSE_ID}/ai-settings`]: () => jsonResponse(200, settings),
    [`GET ${CHECKS}`]: checks,
  };
}

describe('checking a model before switching', () => {
  it('loads, says there is none yet, shows the estimate first, refuses a bad sample on its field, and starts the check', async () => {
    const list = deferredResponse();
    let started = false;
    const sent = stubNetwork({
      ...courseRoutes((request) => (started ? jsonResponse(200, { checks: [check()] }) : list.responder(request))),
      [`GET ${CHECKS}/estimate`]: (request) =>
        request.search.includes('sampleSize=0')
          ? jsonResponse(400, {
              code: 'BAD_REQUEST',
              message: 'sampleSize: must be at least 1 answer',
              issues: [{ path: 'sampleSize', message: 'must be at least 1 answer' }],
            })
          : jsonResponse(200, estimate),
      [`POST ${CHECKS}`]: () => {
        started = true;
        return jsonResponse(200, check({ status: 'queued', done: 0 }));
      },
    });
    renderApp(`/courses/${COURSE_ID}`);
    const section = await screen.findByRole('region', { name: 'Check a model before switching' });
    expect(await within(section).findByRole('status', { name: 'Loading the model checks…' })).toBeInTheDocument();
    list.respond(jsonResponse(200, { checks: [] }));
    expect(await within(section).findByText(/No model checks yet/)).toBeInTheDocument();

    const user = userEvent.setup({ delay: null });
    const sample = within(section).getByLabelText('Saved grades to compare');
    await user.clear(sample);
    await user.type(sample, '0');
    await user.click(within(section).getByRole('button', { name: 'Estimate the check' }));
    expect(await within(section).findByText('must be at least 1 answer')).toBeInTheDocument();

    await user.clear(sample);
    await user.type(sample, '20');
    await user.click(within(section).getByRole('button', { name: 'Estimate the check' }));
    expect(await within(section).findByText(/3 of your 3 saved grades, graded by/)).toBeInTheDocument();
    expect(sent.some((request) => request.method === 'POST')).toBe(false);
    await user.click(within(section).getByRole('button', { name: 'Run the check (about $0.0005)' }));
    expect(await within(section).findByText('1 of 3 answers graded by both')).toBeInTheDocument();
    expect(within(section).getByRole('progressbar', { name: 'Model check progress' })).toBeInTheDocument();
    const posted = sent.filter((request) => request.method === 'POST' && request.path === CHECKS);
    expect(posted.map((request) => request.body)).toEqual([
      { providerId: 'hosted', sampleSize: 20, confirmCost: true },
    ]);
  });

  it('shows a finished check side by side, per rubric item, and the answers that differ most, linked by their place', async () => {
    stubNetwork(
      courseRoutes(() =>
        jsonResponse(200, {
          checks: [
            check({
              status: 'succeeded',
              done: 3,
              finishedAt: '2026-11-29T04:01:00.000Z',
              result: {
                candidate: side('hosted', 'Hosted model', 33.33),
                current: side('builtin', 'Built-in grader', 66.67),
                items: [
                  {
                    questionId: 'q1',
                    questionTitle: 'Homework 1 · Sum',
                    criterion: 'Gives the value',
                    points: 5,
                    answers: 3,
                    candidateMeanDifference: 1.67,
                    currentMeanDifference: 0.5,
                  },
                ],
                differences: [
                  {
                    label: 'Answer 2',
                    assignmentId: 'a1',
                    questionId: 'q1',
                    submissionId: 's2',
                    questionTitle: 'Homework 1 · Sum',
                    points: 10,
                    savedScore: 4,
                    candidateScore: 10,
                    currentScore: 5,
                  },
                ],
              },
            }),
          ],
        }),
      ),
    );
    renderApp(`/courses/${COURSE_ID}`);
    const section = await screen.findByRole('region', { name: 'Check a model before switching' });
    const table = await within(section).findByRole('table', { name: 'Agreement with your saved grades' });
    const within10 = within(table).getByRole('row', { name: /Within 10% of the points/ });
    expect(within10).toHaveTextContent('66.67%');
    expect(within10).toHaveTextContent('33.33%');
    expect(within(section).getByRole('table', { name: 'Mean difference per rubric item' })).toHaveTextContent(
      'Gives the value',
    );
    expect(within(section).getByRole('link', { name: 'Answer 2' })).toHaveAttribute(
      'href',
      '/assignments/a1/questions/q1/grade/s2',
    );
  });

  it('says when the history cannot be read, and reads it again on Retry', async () => {
    let calls = 0;
    stubNetwork(
      courseRoutes(() => {
        calls += 1;
        // The client tries a server error twice before it says so.
        return calls <= 2
          ? jsonResponse(500, { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' })
          : jsonResponse(200, { checks: [] });
      }),
    );
    renderApp(`/courses/${COURSE_ID}`);
    const section = await screen.findByRole('region', { name: 'Check a model before switching' });
    expect(await within(section).findByText('Something went wrong on our side. Please try again.')).toBeInTheDocument();
    await userEvent.click(within(section).getByRole('button', { name: 'Retry' }));
    expect(await within(section).findByText(/No model checks yet/)).toBeInTheDocument();
  });
});
