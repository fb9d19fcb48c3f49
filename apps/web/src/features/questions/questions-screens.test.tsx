import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  ASSIGNMENT_ID,
  assignmentDetail,
  errorResponse,
  QUESTION_ID,
  questionForStaff,
  questionForStudent,
  signInAs,
} from '../../test/fixtures.ts';
import { INSTRUCTOR, jsonResponse, STUDENT, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

const QUESTIONS_PATH = `/assignments/${ASSIGNMENT_ID}/questions`;
const pdf = (name: string) => new File(['%PDF-1.7 test'], name, { type: 'application/pdf' });

describe('questions list', () => {
  it("is headed 'Questions for {assignment title}' and lists titles (or 'Untitled Question') with their points", async () => {
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api/assignments/${ASSIGNMENT_ID}`]: () => jsonResponse(200, assignmentDetail('staff')),
      [`GET /api${QUESTIONS_PATH}`]: () =>
        jsonResponse(200, [
          { _id: 'q1', title: 'Eigenvalues', points: 10, createdAt: '2030-01-04T10:00:00.000Z' },
          { _id: 'q2', title: null, points: 15, createdAt: '2030-01-05T10:00:00.000Z' },
        ]),
    });
    renderApp(QUESTIONS_PATH);

    expect(await screen.findByRole('heading', { level: 1, name: 'Questions for Homework 1' })).toBeInTheDocument();
    const first = screen.getByRole('link', { name: /Eigenvalues/ });
    expect(first).toHaveAttribute('href', `${QUESTIONS_PATH}/q1`);
    expect(within(first).getByText('Points: 10')).toBeInTheDocument();
    const second = screen.getByRole('link', { name: /Untitled Question/ });
    expect(within(second).getByText('Points: 15')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Question' })).toHaveAttribute('href', `${QUESTIONS_PATH}/create`);
  });

  it('shows students no Create Question', async () => {
    stubNetwork({
      ...signInAs(STUDENT),
      [`GET /api/assignments/${ASSIGNMENT_ID}`]: () => jsonResponse(200, assignmentDetail('student')),
      [`GET /api${QUESTIONS_PATH}`]: () => jsonResponse(200, []),
    });
    renderApp(QUESTIONS_PATH);

    expect(await screen.findByText('No questions yet.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create Question' })).not.toBeInTheDocument();
  });
});

describe('create question', () => {
  const routes = () => ({
    ...signInAs(INSTRUCTOR),
    [`GET /api/assignments/${ASSIGNMENT_ID}`]: () => jsonResponse(200, assignmentDetail('staff')),
  });

  it('tells a student that only instructors can create questions', async () => {
    stubNetwork(signInAs(STUDENT));
    renderApp(`${QUESTIONS_PATH}/create`);
    expect(await screen.findByText('Only instructors can create questions.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Question' })).not.toBeInTheDocument();
  });

  it('starts at 10 points, shows the two-page hint, and requires the question PDF and the points', async () => {
    const sent = stubNetwork(routes());
    renderApp(`${QUESTIONS_PATH}/create`);
    const user = userEvent.setup({ delay: null });

    const points = await screen.findByRole('spinbutton', { name: /Points/ });
    expect(points).toHaveValue(10);
    expect(
      screen.getByText('For best results, PDFs should be no longer than two pages and reasonably organized.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/Question PDF/)).toHaveAttribute('accept', 'application/pdf,.pdf');
    expect(screen.getByLabelText(/Question PDF/)).toBeRequired();
    expect(screen.getByLabelText(/Solution PDF/)).not.toBeRequired();

    await user.clear(points);
    await user.click(screen.getByRole('button', { name: 'Create Question' }));
    expect(await screen.findByText('Please select a Question PDF.')).toBeInTheDocument();
    expect(screen.getByText('Please enter the points.')).toBeInTheDocument();

    await user.type(points, '0');
    await user.click(screen.getByRole('button', { name: 'Create Question' }));
    expect(await screen.findByText('Points must be greater than 0.')).toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it('sends title, points and both PDFs as multipart, toasts, and opens the new question', async () => {
    const sent = stubNetwork({
      ...routes(),
      [`POST /api${QUESTIONS_PATH}`]: () =>
        jsonResponse(201, {
          message: 'Question created successfully!',
          question: questionForStaff({ autoRubric: [] }),
        }),
      [`GET /api${QUESTIONS_PATH}/${QUESTION_ID}`]: () => jsonResponse(200, questionForStaff()),
    });
    const { router } = renderApp(`${QUESTIONS_PATH}/create`);
    const user = userEvent.setup({ delay: null });

    await user.type(await screen.findByRole('textbox', { name: /Title/ }), 'Eigenvalues');
    await user.clear(screen.getByRole('spinbutton', { name: /Points/ }));
    await user.type(screen.getByRole('spinbutton', { name: /Points/ }), '12.5');
    const questionFile = pdf('question.pdf');
    const solutionFile = pdf('solution.pdf');
    await user.upload(screen.getByLabelText(/Question PDF/), questionFile);
    await user.upload(screen.getByLabelText(/Solution PDF/), solutionFile);
    await user.click(screen.getByRole('button', { name: 'Create Question' }));

    expect(await screen.findByText('Question created successfully!')).toBeInTheDocument();
    const form = sent.find((request) => request.method === 'POST')?.body as FormData;
    expect(form.get('title')).toBe('Eigenvalues');
    expect(form.get('points')).toBe('12.5');
    expect(form.get('questionFile')).toBe(questionFile);
    expect(form.get('solutionFile')).toBe(solutionFile);
    expect(await screen.findByRole('heading', { level: 1, name: 'Eigenvalues' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`${QUESTIONS_PATH}/${QUESTION_ID}`);
  });

  it("shows the server's refusal in a toast", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({
      ...routes(),
      [`POST /api${QUESTIONS_PATH}`]: errorResponse(400, 'UNSUPPORTED_FILE', 'The question file is not a PDF.'),
    });
    renderApp(`${QUESTIONS_PATH}/create`);
    const user = userEvent.setup({ delay: null });

    await user.upload(await screen.findByLabelText(/Question PDF/), pdf('question.pdf'));
    await user.click(screen.getByRole('button', { name: 'Create Question' }));
    expect(await screen.findByText('The question file is not a PDF.')).toBeInTheDocument();
  });
});

describe('question detail', () => {
  it("shows the instructor the PDFs, the rubric wizard link when an AI rubric exists, and 'No submissions yet.'", async () => {
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api${QUESTIONS_PATH}/${QUESTION_ID}`]: () =>
        jsonResponse(
          200,
          questionForStaff({
            autoRubric: [
              {
                questionText: 'Q',
                solutionText: 'S',
                items: [],
                source: 'builtin',
                updatedAt: '2030-01-04T10:00:00.000Z',
              },
            ],
          }),
        ),
    });
    renderApp(`${QUESTIONS_PATH}/${QUESTION_ID}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Eigenvalues' })).toBeInTheDocument();
    expect(screen.getByText(/Points: 10/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'View Question PDF' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'View Solution PDF' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Rubric Wizard' })).toHaveAttribute(
      'href',
      `${QUESTIONS_PATH}/${QUESTION_ID}/rubric-wizard`,
    );
    expect(screen.getByRole('heading', { name: 'Upload on Behalf of a Student' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Submit Your Answer' })).not.toBeInTheDocument();
    expect(screen.getByText('No submissions yet.')).toBeInTheDocument();
  });

  it("falls back to 'Question Details', hides the wizard link without a rubric, and shows a student only what is theirs", async () => {
    stubNetwork({
      ...signInAs(STUDENT),
      [`GET /api${QUESTIONS_PATH}/${QUESTION_ID}`]: () => jsonResponse(200, questionForStudent({ title: null })),
    });
    renderApp(`${QUESTIONS_PATH}/${QUESTION_ID}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Question Details' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'View Question PDF' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'View Solution PDF' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View Rubric Wizard' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Upload on Behalf of a Student' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Submit Your Answer' })).toBeInTheDocument();
  });

  it("says 'Question not found.' when the question cannot be read", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({
      ...signInAs(STUDENT),
      [`GET /api${QUESTIONS_PATH}/nope`]: errorResponse(404, 'NOT_FOUND', 'Question not found.'),
    });
    renderApp(`${QUESTIONS_PATH}/nope`);
    await waitFor(() => expect(screen.getAllByText('Question not found.')).toHaveLength(2));
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('says a server error is a failure to load (not "Question not found."), and Try again loads the question', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let isServerDown = true;
    stubNetwork({
      ...signInAs(STUDENT),
      [`GET /api${QUESTIONS_PATH}/${QUESTION_ID}`]: () =>
        isServerDown
          ? jsonResponse(500, { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' })
          : jsonResponse(200, questionForStudent()),
    });
    renderApp(`${QUESTIONS_PATH}/${QUESTION_ID}`);
    const user = userEvent.setup({ delay: null });

    // The query client retries a 5xx once before the screen gives up.
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 5000 });
    expect(screen.getAllByText('Failed to fetch question.').length).toBeGreaterThan(0);
    expect(screen.queryByText('Question not found.')).not.toBeInTheDocument();
    isServerDown = false;
    await user.click(retry);
    expect(await screen.findByRole('heading', { name: 'Submit Your Answer' })).toBeInTheDocument();
  });
});
