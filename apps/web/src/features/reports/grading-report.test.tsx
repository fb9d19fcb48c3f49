import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ASSIGNMENT_ID, fileUrl, QUESTION_ID, signInAs } from '../../test/fixtures.ts';
import { deferredResponse, INSTRUCTOR, jsonResponse, STUDENT, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

// Screens load their route module and data first; on a busy machine that can take over a second.
configure({ asyncUtilTimeout: 5000 });

const REPORT_API = `/api/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}/grade/submission-1/report`;
const REPORT_PATH = `/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}/grade/submission-1/report`;

const comment = (id: string, text: string, pointsDeducted: number, accepted = true) => ({
  _id: id,
  id,
  text,
  pointsDeducted,
  accepted,
  rubricItemId: null,
  rubricItem: null,
});

function report(viewer: 'staff' | 'student', overrides: Record<string, unknown> = {}) {
  return {
    viewer,
    submission: {
      _id: 'submission-1',
      file: fileUrl('answer-1'),
      isLate: false,
      submittedAt: '2030-02-01T10:00:00.000Z',
      student: { _id: STUDENT._id, name: STUDENT.name },
    },
    question: { _id: QUESTION_ID, title: 'Eigenvalues', points: 10 },
    isAlreadyGraded: true,
    grade: 7.5,
    extractedText: 'The eigenvalues are 2 and 3.',
    comments: [comment('c1', 'Second eigenvalue is wrong.', 2.5), comment('c2', 'Clear steps.', 0)],
    ...(viewer === 'staff'
      ? { confidenceLevel: 64, grader: { kind: 'builtin', provider: 'builtin', model: 'builtin-v1' } }
      : {}),
    ...overrides,
  };
}

describe('grading report', () => {
  it("takes a student who opens the grading address of their answer to its report (not 'Submission not found.')", async () => {
    stubNetwork({ ...signInAs(STUDENT), [`GET ${REPORT_API}`]: () => jsonResponse(200, report('student')) });
    const { router } = renderApp(REPORT_PATH.replace(/\/report$/, ''));

    expect(await screen.findByRole('heading', { level: 1, name: 'Grading Report' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(REPORT_PATH);
    expect(await screen.findByRole('list', { name: 'Review comments' })).toBeInTheDocument();
    expect(screen.queryByText('Submission not found.')).not.toBeInTheDocument();
  });

  it("shows 'Loading Grading Report…', then each comment with its tinted 'Points Deducted:' and the final grade", async () => {
    const answer = deferredResponse();
    stubNetwork({ ...signInAs(STUDENT), [`GET ${REPORT_API}`]: answer.responder });
    renderApp(REPORT_PATH);
    const user = userEvent.setup({ delay: null });

    expect(await screen.findByRole('status', { name: 'Loading Grading Report…' })).toBeInTheDocument();
    answer.respond(jsonResponse(200, report('student')));

    expect(await screen.findByRole('heading', { level: 1, name: 'Grading Report' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Review comments' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByText('2.5')).toHaveStyle({ color: 'rgb(229, 115, 115)' });
    expect(within(second!).getByText('0')).toHaveStyle({ color: 'rgb(129, 199, 132)' });
    expect(screen.getAllByText(/Points Deducted:/)).toHaveLength(2);
    expect(screen.getByText('Final Grade: 7.5 / 10')).toBeInTheDocument();
    // Original PDF is the default view; Converted Text shows what the grader read.
    expect(screen.getByRole('button', { name: 'Original PDF' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Converted Text' }));
    expect(screen.getByText('The eigenvalues are 2 and 3.')).toBeInTheDocument();
    expect(screen.queryByText(/Confidence/)).not.toBeInTheDocument();
  });

  it('puts the grade and comments before the answer, so a phone shows them first', async () => {
    stubNetwork({ ...signInAs(STUDENT), [`GET ${REPORT_API}`]: () => jsonResponse(200, report('student')) });
    renderApp(REPORT_PATH);
    const finalGrade = await screen.findByText('Final Grade: 7.5 / 10');
    const answerViews = screen.getByRole('button', { name: 'Original PDF' });
    // One column on a phone, in document order: the grade comes before the PDF's controls.
    expect(finalGrade.compareDocumentPosition(answerViews) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says when the grade shown was saved on an earlier version, instead of a blank', async () => {
    stubNetwork({
      ...signInAs(STUDENT),
      [`GET ${REPORT_API}`]: () =>
        jsonResponse(200, report('student', { isGradeOnEarlierVersion: true, gradedVersion: 1 })),
    });
    renderApp(REPORT_PATH);
    expect(
      await screen.findByText(
        'Grade on an earlier version (version 1): the grade and comments below were saved before this version was submitted, and count until it is graded.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Final Grade: 7.5 / 10')).toBeInTheDocument();
    expect(screen.queryByText('This submission has not been graded yet.')).not.toBeInTheDocument();
  });

  it("says 'No comments yet.' when the saved grade has none", async () => {
    stubNetwork({
      ...signInAs(STUDENT),
      [`GET ${REPORT_API}`]: () => jsonResponse(200, report('student', { comments: [], grade: 10 })),
    });
    renderApp(REPORT_PATH);
    expect(await screen.findByText('No comments yet.')).toBeInTheDocument();
    expect(screen.getByText('Final Grade: 10 / 10')).toBeInTheDocument();
  });

  it('shows the instructor the declined comments apart, as not counted and not shown to the student', async () => {
    const comments = [
      comment('c1', 'Second eigenvalue is wrong.', 2.5),
      comment('c3', 'AI misread the handwriting.', 2, false),
    ];
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET ${REPORT_API}`]: () => jsonResponse(200, report('staff', { comments })),
    });
    renderApp(REPORT_PATH);
    const list = await screen.findByRole('list', { name: 'Review comments' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByText('Declined comments (1): not counted, not shown to the student')).toBeInTheDocument();
    expect(screen.getByText('Confidence: 64%')).toBeInTheDocument();
  });

  it("toasts 'Submission not found.' for a report the server does not show", async () => {
    stubNetwork({
      ...signInAs(STUDENT),
      [`GET ${REPORT_API}`]: () => jsonResponse(404, { code: 'NOT_FOUND', message: 'Submission not found.' }),
    });
    renderApp(REPORT_PATH);
    await waitFor(() => expect(screen.getAllByText('Submission not found.')).toHaveLength(2));
  });

  it("falls back to 'Failed to fetch grading report data.' when the server gives no message", async () => {
    stubNetwork({ ...signInAs(STUDENT), [`GET ${REPORT_API}`]: () => new Response('oops', { status: 500 }) });
    renderApp(REPORT_PATH);
    await waitFor(() => expect(screen.getAllByText('Failed to fetch grading report data.')).toHaveLength(2));
  });
});
