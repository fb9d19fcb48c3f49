import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { QuestionForStaff, QuestionSubmissionForStaff } from '@gradewise/shared/contracts/questions';
import { ASSIGNMENT_ID, QUESTION_ID, questionForStaff, signInAs, staffSubmission } from '../../test/fixtures.ts';
import { deferredResponse, INSTRUCTOR, jsonResponse, stubNetwork, type SentRequest } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

/**
 * The question page reads its table a page at a time (decision 0042): the server sends one page
 * and the counts of the whole list; the pager asks for the next page.
 */
const QUESTION_PATH = `/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}`;
const TOTAL = 60;
const nameOf = (index: number) => `Student ${String(index + 1).padStart(2, '0')}`;

/** The whole class, in the table's order; student 60 alone is graded, so the report column is another page's. */
const CLASS: QuestionSubmissionForStaff[] = Array.from({ length: TOTAL }, (_, index) =>
  staffSubmission({
    _id: `s${index + 1}`,
    student: { _id: `user-s${index + 1}`, name: nameOf(index), email: `s${index + 1}@example.edu` },
    uploadedBy: { _id: `user-s${index + 1}`, name: nameOf(index) },
    ...(index === TOTAL - 1
      ? { grade: 8, isAlreadyGraded: true, reviewStatus: 'graded' as const, gradingStatus: 'succeeded' as const }
      : {}),
  }),
);

/** Answers like the server: the page asked for, and the whole list's counts. */
function pageOf(request: SentRequest): QuestionForStaff {
  const query = new URLSearchParams(request.search);
  const offset = Number(query.get('offset'));
  const limit = Number(query.get('limit'));
  return questionForStaff({
    submissions: CLASS.slice(offset, offset + limit),
    submissionsPage: { offset, limit, total: TOTAL, anyGraded: true, leftForGradeAll: TOTAL - 1 },
  });
}

function stubQuestionPage(respond: (request: SentRequest) => Response | Promise<Response>) {
  return stubNetwork({
    ...signInAs(INSTRUCTOR),
    [`GET /api${QUESTION_PATH}`]: respond,
    [`GET /api${QUESTION_PATH}/grade-all/progress`]: () =>
      jsonResponse(200, { batchId: null, total: 0, done: 0, failed: 0, running: 0, remaining: 0, isFinished: true }),
    [`GET /api${QUESTION_PATH}/review-queue`]: () => jsonResponse(200, { questionPoints: 10, items: [], remaining: 0 }),
    // The grading screen's AI result: never answered here, only its asking is looked at.
    [`POST /api${QUESTION_PATH}/grade/s2`]: () => new Promise<Response>(() => undefined),
  });
}

const studentNames = (table: HTMLElement) =>
  within(table)
    .getAllByRole('rowheader')
    .map((cell) => within(cell).getAllByText(/^Student \d+$/)[0]!.textContent);
const questionReads = (sent: SentRequest[]) =>
  sent.filter((request) => request.path === `/api${QUESTION_PATH}`).map((request) => request.search);

describe('the question page pager', () => {
  it('reads the first page only, and pages by keyboard with an accessible pager', async () => {
    const sent = stubQuestionPage((request) => jsonResponse(200, pageOf(request)));
    renderApp(QUESTION_PATH);

    const table = await screen.findByRole('table', { name: 'Submissions' });
    expect(questionReads(sent)).toEqual(['?includeSubmissions=1&offset=0&limit=25']);
    expect(studentNames(table)).toHaveLength(25);
    expect(studentNames(table)[0]).toBe('Student 01');
    // No row of this page is graded, but one of the class is: the column is the list's.
    expect(within(table).getByRole('columnheader', { name: 'Grading Report' })).toBeInTheDocument();
    // Grade All counts the whole class, not the page.
    expect(screen.getByRole('button', { name: `Grade All (${TOTAL - 1} left)` })).toBeInTheDocument();

    const pager = screen.getByRole('navigation', { name: 'Submission pages' });
    expect(within(pager).getByText('1–25 of 60')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Go to previous page' })).toBeDisabled();
    const next = within(pager).getByRole('button', { name: 'Go to next page' });
    next.focus();
    await userEvent.keyboard('{Enter}');

    expect(await within(pager).findByText('26–50 of 60')).toBeInTheDocument();
    expect(questionReads(sent)).toContain('?includeSubmissions=1&offset=25&limit=25');
    await screen.findByRole('rowheader', { name: /Student 26/ });
    expect(studentNames(screen.getByRole('table', { name: 'Submissions' }))[0]).toBe('Student 26');

    await userEvent.keyboard('{Enter}');
    expect(await within(pager).findByText('51–60 of 60')).toBeInTheDocument();
    await screen.findByRole('rowheader', { name: /Student 60/ });
    const lastPage = screen.getByRole('table', { name: 'Submissions' });
    expect(studentNames(lastPage)).toHaveLength(10);
    expect(within(lastPage).getByRole('link', { name: 'View Report of Student 60' })).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Go to next page' })).toBeDisabled();
  });

  it('brings the top of the list back into view after turning a page read from below the list', async () => {
    stubQuestionPage((request) => jsonResponse(200, pageOf(request)));
    renderApp(QUESTION_PATH);
    const pager = await screen.findByRole('navigation', { name: 'Submission pages' });
    const list = pager.parentElement!;
    const scrolled: unknown[] = [];
    // jsdom lays nothing out: the list's top is put above the viewport, as after scrolling to the pager.
    list.getBoundingClientRect = () => ({ top: -900 }) as DOMRect;
    list.scrollIntoView = (options) => scrolled.push(options);

    await userEvent.click(within(pager).getByRole('button', { name: 'Go to next page' }));
    await within(pager).findByText('26–50 of 60');
    expect(scrolled).toEqual([{ block: 'start' }]);

    // With the list's top in view, turning a page moves nothing.
    list.getBoundingClientRect = () => ({ top: 120 }) as DOMRect;
    await userEvent.click(within(pager).getByRole('button', { name: 'Go to previous page' }));
    await within(pager).findByText('1–25 of 60');
    expect(scrolled).toHaveLength(1);
  });

  it('changes how many rows a page holds, back to the first page', async () => {
    const sent = stubQuestionPage((request) => jsonResponse(200, pageOf(request)));
    renderApp(QUESTION_PATH);
    const pager = await screen.findByRole('navigation', { name: 'Submission pages' });
    await userEvent.click(within(pager).getByRole('button', { name: 'Go to next page' }));
    await within(pager).findByText('26–50 of 60');

    await userEvent.click(within(pager).getByRole('combobox', { name: /Submissions per page/ }));
    await userEvent.click(await screen.findByRole('option', { name: '50' }));
    expect(await within(pager).findByText('1–50 of 60')).toBeInTheDocument();
    expect(questionReads(sent).at(-1)).toBe('?includeSubmissions=1&offset=0&limit=50');
    await screen.findByRole('rowheader', { name: /Student 50/ });
    expect(studentNames(screen.getByRole('table', { name: 'Submissions' }))).toHaveLength(50);
  });

  it('keeps the page shown, marked busy, while the next one loads', async () => {
    const next = deferredResponse();
    stubQuestionPage((request) =>
      new URLSearchParams(request.search).get('offset') === '0'
        ? jsonResponse(200, pageOf(request))
        : next.responder(request),
    );
    renderApp(QUESTION_PATH);
    const pager = await screen.findByRole('navigation', { name: 'Submission pages' });
    await userEvent.click(within(pager).getByRole('button', { name: 'Go to next page' }));

    const table = screen.getByRole('table', { name: 'Submissions' });
    expect(studentNames(table)[0]).toBe('Student 01');
    expect(table.closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText('Loading question…')).not.toBeInTheDocument();

    next.respond(jsonResponse(200, pageOf({ search: '?offset=25&limit=25' } as SentRequest)));
    await screen.findByRole('rowheader', { name: /Student 26/ });
    expect(screen.getByRole('table', { name: 'Submissions' }).closest('[aria-busy]')).toHaveAttribute(
      'aria-busy',
      'false',
    );
  });

  it('shows no pager for a class that fits one page, and the empty text for none', async () => {
    stubQuestionPage(() =>
      jsonResponse(
        200,
        questionForStaff({
          submissions: CLASS.slice(0, 3),
          submissionsPage: { offset: 0, limit: 25, total: 3, anyGraded: false, leftForGradeAll: 3 },
        }),
      ),
    );
    const first = renderApp(QUESTION_PATH);
    const table = await screen.findByRole('table', { name: 'Submissions' });
    expect(studentNames(table)).toHaveLength(3);
    expect(screen.queryByRole('navigation', { name: 'Submission pages' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'Grading Report' })).not.toBeInTheDocument();
    first.unmount();

    stubQuestionPage(() =>
      jsonResponse(
        200,
        questionForStaff({
          submissions: [],
          submissionsPage: { offset: 0, limit: 25, total: 0, anyGraded: false, leftForGradeAll: 0 },
        }),
      ),
    );
    renderApp(QUESTION_PATH);
    expect(await screen.findByText('No submissions yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Submissions' })).not.toBeInTheDocument();
  });
  it('opens the grading screen from a page at once: the cached page stands in until its own read arrives', async () => {
    const ownRead = deferredResponse();
    const sent = stubQuestionPage((request) =>
      request.search.includes('limit=') ? jsonResponse(200, pageOf(request)) : ownRead.responder(request),
    );
    renderApp(QUESTION_PATH);
    const table = await screen.findByRole('table', { name: 'Submissions' });
    await userEvent.click(within(table).getByRole('link', { name: 'Grade Student 02' }));

    // The grading screen asks for the AI's result of this answer before its own read has come; that
    // read is of its one submission, not the whole class (decision 0046).
    await waitFor(() => expect(sent.some((request) => request.path.endsWith('/grade/s2'))).toBe(true));
    expect(questionReads(sent)).toContain('?includeSubmissions=1&submissionId=s2');
    expect(questionReads(sent)).not.toContain('?includeSubmissions=1');
    expect(screen.queryByText('Submission not found.')).not.toBeInTheDocument();
    ownRead.respond(jsonResponse(200, questionForStaff({ submissions: CLASS.filter((row) => row._id === 's2') })));
  });
});
