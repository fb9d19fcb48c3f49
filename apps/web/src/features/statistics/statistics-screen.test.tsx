import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { StatisticsOutput } from '@gradewise/shared/contracts/statistics';
import { shortItemLabel } from './components/statistics-view.tsx';
import { reliabilityDiagram, type ConfidenceDecision } from '@gradewise/shared/reliability';
import { ASSIGNMENT_ID, QUESTION_ID, signInAs } from '../../test/fixtures.ts';
import { deferredResponse, INSTRUCTOR, jsonResponse, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';
import { RELIABILITY_EMPTY_TEXT } from './components/reliability-diagram.tsx';

const ASSIGNMENT_API = `/api/assignments/${ASSIGNMENT_ID}/statistics`;
const QUESTION_API = `/api/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}/statistics`;

const decision = (confidence: number, suggestedScore: number, finalScore: number, points: number) =>
  ({ confidence, suggestedScore, finalScore, points }) satisfies ConfidenceDecision;
// The first question (10 points): said 90–100 three times, two kept; said 55 twice, both kept.
const FIRST = [
  decision(95, 8, 8, 10),
  decision(92, 8, 9, 10),
  decision(90, 8, 3, 10),
  decision(55, 6, 6, 10),
  decision(55, 6, 6.5, 10),
];
// The bonus question (5 points): said 30 and 35, one kept.
const BONUS = [decision(30, 5, 2, 5), decision(35, 4, 4.5, 5)];

/** An assignment's statistics as the server sends them, with nothing but the diagram of interest. */
function statistics(overrides: Partial<StatisticsOutput> = {}): StatisticsOutput {
  return {
    scope: 'assignment',
    title: 'Homework 1',
    points: 15,
    answered: 7,
    graded: 0,
    partlyGraded: 0,
    histogram: [],
    mean: null,
    median: null,
    lateShare: 0,
    rubricItems: [],
    aiAgreement: {
      compared: 7,
      meanAbsoluteDifference: 1,
      meanAbsoluteDifferencePercent: 10,
      withinTenPercentShare: 0.7143,
    },
    graders: [],
    reliability: reliabilityDiagram([...FIRST, ...BONUS]),
    questionReliability: [
      { questionId: QUESTION_ID, questionLabel: 'Addition', reliability: reliabilityDiagram(FIRST) },
      { questionId: 'question-2', questionLabel: 'Bonus', reliability: reliabilityDiagram(BONUS) },
    ],
    ...overrides,
  };
}

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

describe('statistics screen: the reliability diagram', () => {
  it('after loading: the diagram named and described with its numbers, the same numbers as a table, one question at a time', async () => {
    const answer = deferredResponse();
    stubNetwork({ ...signInAs(INSTRUCTOR), [`GET ${ASSIGNMENT_API}`]: answer.responder });
    renderApp(`/assignments/${ASSIGNMENT_ID}/statistics`);
    expect(await screen.findByRole('status', { name: 'Loading statistics…' }, { timeout: 15_000 })).toBeInTheDocument();
    answer.respond(jsonResponse(200, statistics()));

    const section = await screen.findByRole('region', { name: 'AI confidence against what was kept' });
    const diagram = within(section).getByRole('img', { name: 'Reliability diagram: All questions' });
    expect(diagram).toHaveAccessibleDescription(
      '7 decisions; calibration error 28.9 points. 30–39: said 32.5%, kept 50% (2 decisions); ' +
        '50–59: said 55%, kept 100% (2 decisions); 90–100: said 92.3%, kept 66.7% (3 decisions).',
    );
    // One point per band with decisions, labelled with its count.
    expect(diagram.querySelectorAll('circle')).toHaveLength(3);
    expect(within(section).getByText('Calibration error (ECE)').nextSibling).toHaveTextContent('28.9 points');
    expect(rowsOf(within(section).getByRole('table', { name: 'Reliability table' }))).toEqual([
      ['30–39', '2', '32.5%', '50%'],
      ['50–59', '2', '55%', '100%'],
      ['90–100', '3', '92.3%', '66.7%'],
    ]);

    const user = userEvent.setup({ delay: null });
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Questions' }), 'Bonus');
    expect(within(section).getByRole('img', { name: 'Reliability diagram: Bonus' })).toHaveAccessibleDescription(
      '2 decisions; calibration error 17.5 points. 30–39: said 32.5%, kept 50% (2 decisions).',
    );
    expect(rowsOf(within(section).getByRole('table', { name: 'Reliability table' }))).toEqual([
      ['30–39', '2', '32.5%', '50%'],
    ]);
  });

  it('before any decision: the empty state instead of the diagram, its table and the question select', async () => {
    const empty = reliabilityDiagram([]);
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET ${ASSIGNMENT_API}`]: () =>
        jsonResponse(
          200,
          statistics({
            reliability: empty,
            questionReliability: [
              { questionId: QUESTION_ID, questionLabel: 'Addition', reliability: empty },
              { questionId: 'question-2', questionLabel: 'Bonus', reliability: empty },
            ],
          }),
        ),
    });
    renderApp(`/assignments/${ASSIGNMENT_ID}/statistics`);

    const section = await screen.findByRole(
      'region',
      { name: 'AI confidence against what was kept' },
      { timeout: 15_000 },
    );
    expect(within(section).getByText(RELIABILITY_EMPTY_TEXT)).toBeVisible();
    expect(RELIABILITY_EMPTY_TEXT).toBe(
      'No AI suggestions have been reviewed yet: the diagram fills in as you save grades.',
    );
    expect(within(section).queryByRole('img')).not.toBeInTheDocument();
    expect(within(section).queryByRole('table')).not.toBeInTheDocument();
    expect(within(section).queryByRole('combobox')).not.toBeInTheDocument();
  });

  it('a question with decisions: its own diagram, named by its title, and no question select', async () => {
    const reliability = reliabilityDiagram(FIRST);
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET ${QUESTION_API}`]: () =>
        jsonResponse(
          200,
          statistics({
            scope: 'question',
            title: 'Addition',
            points: 10,
            reliability,
            questionReliability: [{ questionId: QUESTION_ID, questionLabel: 'Addition', reliability }],
          }),
        ),
    });
    renderApp(`/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}/statistics`);

    const diagram = await screen.findByRole('img', { name: 'Reliability diagram: Addition' }, { timeout: 15_000 });
    expect(diagram).toHaveAccessibleDescription(/^5 decisions; calibration error 33.4 points\./);
    expect(screen.queryByRole('combobox', { name: 'Questions' })).not.toBeInTheDocument();
  });
});

describe('statistics screen: figures that cannot mislead', () => {
  it('an assignment: the mean and median are over fully graded students, the partly graded counted apart', async () => {
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET ${ASSIGNMENT_API}`]: () =>
        jsonResponse(200, statistics({ answered: 7, graded: 4, partlyGraded: 3, mean: 12, median: 12.5 })),
    });
    renderApp(`/assignments/${ASSIGNMENT_ID}/statistics`);
    expect(await screen.findByText('Fully graded students', undefined, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByText('4 of 7')).toBeInTheDocument();
    expect(screen.getByText('Partly graded (not in the figures)').nextSibling).toHaveTextContent('3');
    expect(screen.getByText('Mean of fully graded').nextSibling).toHaveTextContent('12 / 15');
    expect(screen.getByText('Median of fully graded').nextSibling).toHaveTextContent('12.5 / 15');
  });

  it('rubric items that start alike get told apart: numbered on the axis, the full label for screen readers', async () => {
    const criterion = (end: string) => `Uses the equations of uniform acceleration ${end}`;
    const items = ['for the time', 'for the speed', 'with units'].map((end, index) => ({
      questionId: QUESTION_ID,
      questionLabel: 'Uniform acceleration',
      itemId: `item-${index}`,
      criterion: criterion(end),
      points: 2,
      deductedCount: index,
      answerShare: index / 4,
      pointsShare: index / 3,
    }));
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET ${ASSIGNMENT_API}`]: () =>
        jsonResponse(200, statistics({ graded: 4, mean: 10, median: 10, rubricItems: items })),
    });
    renderApp(`/assignments/${ASSIGNMENT_ID}/statistics`);
    const chart = await screen.findByRole(
      'img',
      { name: /^Share of graded answers that lost points on each rubric item/ },
      { timeout: 15_000 },
    );
    for (const end of ['for the time', 'for the speed', 'with units']) {
      expect(chart).toHaveAccessibleName(expect.stringContaining(`Uniform acceleration: ${criterion(end)}`));
    }
    // The table under the chart names each bar's number with the whole label.
    const table = screen.getByRole('table', { name: 'Deductions per rubric item table' });
    expect(rowsOf(table).map((cells) => cells[0])).toEqual([
      `1. Uniform acceleration: ${criterion('for the time')} (2 pts)`,
      `2. Uniform acceleration: ${criterion('for the speed')} (2 pts)`,
      `3. Uniform acceleration: ${criterion('with units')} (2 pts)`,
    ]);
    expect(
      new Set(items.map((item, index) => shortItemLabel(index, `${item.questionLabel}: ${item.criterion}`))).size,
    ).toBe(3);
  });
});
