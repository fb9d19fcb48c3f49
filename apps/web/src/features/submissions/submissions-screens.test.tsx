import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { QuestionSubmissionForStaff } from '@gradewise/shared/contracts/questions';
import {
  ASSIGNMENT_ID,
  errorResponse,
  QUESTION_ID,
  questionForStaff,
  questionForStudent,
  signInAs,
  staffSubmission,
} from '../../test/fixtures.ts';
import { INSTRUCTOR, jsonResponse, STUDENT, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

const QUESTION_PATH = `/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}`;
const pdf = (name: string) => new File(['%PDF-1.7 test'], name, { type: 'application/pdf' });

/** The grading fields the server adds to each staff row. */
const gradingFields = (grade: number | null): Partial<QuestionSubmissionForStaff> => ({
  grade,
  isAlreadyGraded: grade !== null,
  confidenceLevel: grade === null ? null : 80,
  comments: [],
  extractedText: '',
  grader: null,
  gradingStatus: grade === null ? 'none' : 'succeeded',
  reviewStatus: grade === null ? 'not-graded' : 'graded',
  suggestedScore: grade,
  hasHiddenText: false,
  hiddenText: [],
});

const columnHeaders = () => screen.getAllByRole('columnheader').map((header) => header.textContent);

describe('submissions table', () => {
  it('after Grade All, each row says where its answer stands, and Grade All counts only what is left', async () => {
    const row = (
      id: string,
      name: string,
      fields: Partial<QuestionSubmissionForStaff>,
    ): QuestionSubmissionForStaff => ({
      ...staffSubmission({
        _id: id,
        student: { _id: `user-${id}`, name, email: `${id}@example.edu` },
        uploadedBy: { _id: `user-${id}`, name },
      }),
      ...gradingFields(null),
      ...fields,
    });
    let rows = [
      row('s1', 'Ann Ready', {
        reviewStatus: 'needs-review',
        suggestedScore: 7,
        confidenceLevel: 82,
        gradingStatus: 'succeeded',
      }),
      row('s2', 'Ben Busy', { reviewStatus: 'grading', gradingStatus: 'running' }),
      row('s3', 'Cy Failed', { reviewStatus: 'failed', gradingStatus: 'failed' }),
      row('s4', 'Di Done', { ...gradingFields(9), reviewStatus: 'graded' }),
    ];
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api${QUESTION_PATH}`]: () => jsonResponse(200, questionForStaff({ autoRubric: [], submissions: rows })),
      [`GET /api${QUESTION_PATH}/grade-all/progress`]: () =>
        jsonResponse(200, { batchId: null, total: 0, done: 0, failed: 0, running: 0, remaining: 0, isFinished: true }),
      [`GET /api${QUESTION_PATH}/review-queue`]: () =>
        jsonResponse(200, { questionPoints: 10, items: [], remaining: 0 }),
    });
    const { queryClient } = renderApp(QUESTION_PATH);

    const table = await screen.findByRole('table', { name: 'Submissions' });
    const rowOf = (name: string) =>
      within(table)
        .getByRole('rowheader', { name: new RegExp(name) })
        .closest('tr')!;
    expect(within(rowOf('Ann Ready')).getByText('Suggestion ready')).toBeInTheDocument();
    expect(within(rowOf('Ann Ready')).getByText('7 / 10 · 82% confidence')).toBeInTheDocument();
    expect(within(rowOf('Ann Ready')).getByText('Not Graded')).toBeInTheDocument();
    expect(within(rowOf('Ben Busy')).getByText('Grading…')).toBeInTheDocument();
    expect(within(rowOf('Cy Failed')).getByText('Failed')).toBeInTheDocument();
    expect(within(rowOf('Di Done')).getByText('Graded')).toBeInTheDocument();
    expect(within(rowOf('Di Done')).getByText('9 / 10')).toBeInTheDocument();
    // Only the failed answer is left for Grade All.
    expect(screen.getByRole('button', { name: 'Grade All (1 left)' })).toBeEnabled();

    // Nothing left: Grade All waits and says why.
    rows = rows.map((each) =>
      each._id === 's3' ? { ...each, reviewStatus: 'needs-review', suggestedScore: 4, confidenceLevel: 40 } : each,
    );
    await queryClient.invalidateQueries();
    const gradeAll = await screen.findByRole('button', { name: 'Grade All' });
    expect(gradeAll).toBeDisabled();
    expect(gradeAll).toHaveAccessibleDescription(/Nothing left for Grade All/);
  });

  it('shows the instructor Student, File, Late?, Grade and Actions; Grade for ungraded, Regrade with the current grade and a report for graded', async () => {
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api${QUESTION_PATH}`]: () =>
        jsonResponse(
          200,
          questionForStaff({
            autoRubric: [],
            submissions: [
              { ...staffSubmission(), ...gradingFields(null) },
              {
                ...staffSubmission({
                  _id: 'submission-2',
                  isLate: true,
                  version: 2,
                  versions: 2,
                  student: { _id: 'user-3', name: 'Lee Late', email: 'lee@example.edu' },
                  uploadedBy: { _id: INSTRUCTOR._id, name: INSTRUCTOR.name },
                }),
                ...gradingFields(7.5),
              },
            ],
          }),
        ),
    });
    renderApp(QUESTION_PATH);

    const table = await screen.findByRole('table', { name: 'Submissions' });
    expect(columnHeaders()).toEqual(['Student', 'File', 'Late?', 'Grade', 'Actions', 'Grading Report']);
    const [, samRow, leeRow] = within(table).getAllByRole('row');

    expect(within(samRow!).getByRole('rowheader')).toHaveTextContent('Sam Student');
    expect(within(samRow!).getByRole('button', { name: 'View PDF of Sam Student' })).toBeInTheDocument();
    expect(within(samRow!).getByText('No')).toBeInTheDocument();
    expect(within(samRow!).getByText('Not Graded')).toBeInTheDocument();
    expect(within(samRow!).getByRole('link', { name: 'Grade Sam Student' })).toHaveAttribute(
      'href',
      `${QUESTION_PATH}/grade/submission-1`,
    );
    expect(within(samRow!).queryByRole('link', { name: /View Report/ })).not.toBeInTheDocument();

    expect(within(leeRow!).getByText('Yes')).toBeInTheDocument();
    expect(within(leeRow!).getByText('7.5 / 10')).toBeInTheDocument();
    expect(within(leeRow!).getByText('Current: 7.5 / 10')).toBeInTheDocument();
    expect(within(leeRow!).getByRole('link', { name: 'Regrade Lee Late' })).toHaveAttribute(
      'href',
      `${QUESTION_PATH}/grade/submission-2?regrade=true`,
    );
    expect(within(leeRow!).getByRole('link', { name: 'View Report of Lee Late' })).toHaveAttribute(
      'href',
      `${QUESTION_PATH}/grade/submission-2/report`,
    );
    expect(within(leeRow!).getByText(/uploaded by Ada Instructor/)).toBeInTheDocument();
    expect(within(leeRow!).getByRole('button', { name: /All 2 versions/ })).toBeInTheDocument();
  });

  it('colours the grade green when graded and Not Graded red', async () => {
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api${QUESTION_PATH}`]: () =>
        jsonResponse(
          200,
          questionForStaff({
            autoRubric: [],
            submissions: [
              { ...staffSubmission(), ...gradingFields(null) },
              {
                ...staffSubmission({ _id: 'submission-2', student: { _id: 'u3', name: 'Lee', email: 'l@e.edu' } }),
                ...gradingFields(9),
              },
            ],
          }),
        ),
    });
    renderApp(QUESTION_PATH);

    const notGraded = await screen.findByText('Not Graded');
    const graded = screen.getByText('9 / 10');
    const colourOf = (element: HTMLElement) => getComputedStyle(element).color;
    expect(colourOf(notGraded)).not.toBe(colourOf(graded));
    // MUI's dark palette: error.light is red, success.light is green.
    expect(colourOf(notGraded)).toBe('rgb(229, 115, 115)');
    expect(colourOf(graded)).toBe('rgb(129, 199, 132)');
  });

  it('shows a student their own row without Actions, and no Grading Report column while nothing is graded', async () => {
    stubNetwork({
      ...signInAs(STUDENT),
      [`GET /api${QUESTION_PATH}`]: () =>
        jsonResponse(
          200,
          questionForStudent({
            submissions: [
              {
                _id: 'submission-1',
                file: '/api/files/answer-1?exp=1&sig=s',
                isLate: false,
                version: 1,
                submittedAt: '2030-02-01T10:00:00.000Z',
                student: { _id: STUDENT._id, name: STUDENT.name },
                grade: null,
                isAlreadyGraded: false,
              },
            ],
          }),
        ),
    });
    renderApp(QUESTION_PATH);

    await screen.findByRole('table', { name: 'Submissions' });
    expect(columnHeaders()).toEqual(['Student', 'File', 'Late?', 'Grade']);
    expect(screen.getByText('Not Graded')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^(Grade|Regrade) / })).not.toBeInTheDocument();
    expect(screen.getByText(/You have already submitted an answer/)).toBeInTheDocument();
  });
});

describe('grade lifecycle in the table', () => {
  it("shows a grade saved on an earlier version as such (never 'Not Graded'), and lets the instructor reopen a graded answer", async () => {
    let reopened = false;
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api${QUESTION_PATH}`]: () =>
        jsonResponse(
          200,
          questionForStaff({
            autoRubric: [],
            submissions: [
              {
                ...staffSubmission({ version: 2, versions: 2 }),
                ...gradingFields(8),
                isGradeOnEarlierVersion: true,
                gradedVersion: 1,
                isReopened: true,
              },
              {
                ...staffSubmission({ _id: 'submission-2', student: { _id: 'u3', name: 'Lee', email: 'l@e.edu' } }),
                ...gradingFields(9),
                isGradeOnEarlierVersion: false,
                gradedVersion: 1,
                isReopened: reopened,
              },
            ],
          }),
        ),
      [`POST /api${QUESTION_PATH}/submissions/submission-2/reopen`]: () => {
        reopened = true;
        return jsonResponse(200, {
          message: 'Reopened for Lee: they may submit a new version until a grade is saved again.',
          student: { _id: 'u3', name: 'Lee' },
          reopenedAt: '2030-02-02T10:00:00.000Z',
        });
      },
    });
    renderApp(QUESTION_PATH);
    const user = userEvent.setup({ delay: null });

    const table = await screen.findByRole('table', { name: 'Submissions' });
    const [, samRow, leeRow] = within(table).getAllByRole('row');
    expect(within(samRow!).getByText('8 / 10')).toBeInTheDocument();
    expect(within(samRow!).getByText('grade on an earlier version (version 1)')).toBeInTheDocument();
    expect(within(samRow!).queryByText('Not Graded')).not.toBeInTheDocument();
    expect(within(samRow!).getByText('Reopened for resubmission')).toBeInTheDocument();
    expect(within(samRow!).getByRole('link', { name: 'View Report of Sam Student' })).toBeInTheDocument();

    expect(within(leeRow!).queryByText(/earlier version/)).not.toBeInTheDocument();
    await user.click(within(leeRow!).getByRole('button', { name: 'Reopen for Lee to resubmit' }));
    expect(
      await screen.findByText('Reopened for Lee: they may submit a new version until a grade is saved again.'),
    ).toBeInTheDocument();
    expect(sent.some((request) => request.path.endsWith('/submissions/submission-2/reopen'))).toBe(true);
    expect(await within(leeRow!).findByText('Reopened for resubmission')).toBeInTheDocument();
  });
});

describe('text extraction state in the submissions table', () => {
  const rowOf = (id: string, name: string, state: Partial<QuestionSubmissionForStaff>): QuestionSubmissionForStaff => ({
    ...staffSubmission({ _id: id, student: { _id: `user-${id}`, name, email: `${id}@example.edu` } }),
    ...gradingFields(null),
    ...state,
  });

  it('shows queued, reading, done and failed (with the reason) per row, and nothing for files without a state', async () => {
    const reason = 'Reading this PDF took longer than 120 seconds. Please upload a smaller or simpler file.';
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api${QUESTION_PATH}`]: () =>
        jsonResponse(
          200,
          questionForStaff({
            autoRubric: [],
            submissions: [
              rowOf('s1', 'Ann Queued', { extractionStatus: 'queued', extractionError: null }),
              rowOf('s2', 'Ben Reading', { extractionStatus: 'reading', extractionError: null }),
              rowOf('s3', 'Cat Done', { extractionStatus: 'done', extractionError: null }),
              rowOf('s4', 'Dan Failed', { extractionStatus: 'failed', extractionError: reason }),
              rowOf('s5', 'Eve Earlier', {}),
            ],
          }),
        ),
    });
    renderApp(QUESTION_PATH);

    const table = await screen.findByRole('table', { name: 'Submissions' });
    const [, ann, ben, cat, dan, eve] = within(table).getAllByRole('row');
    expect(within(ann!).getByRole('status')).toHaveTextContent('Text: queued');
    expect(within(ben!).getByRole('status')).toHaveTextContent('Text: reading…');
    expect(within(cat!).getByRole('status')).toHaveTextContent('Text: done');
    expect(within(dan!).getByRole('status')).toHaveTextContent('Text: failed');
    expect(within(dan!).getByText(reason)).toBeInTheDocument();
    expect(within(cat!).queryByText(reason)).not.toBeInTheDocument();
    expect(within(eve!).queryByRole('status')).not.toBeInTheDocument();
  });

  it('looks again while a text is being read, until it is done', async () => {
    let calls = 0;
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api${QUESTION_PATH}`]: () => {
        calls += 1;
        const state: Partial<QuestionSubmissionForStaff> =
          calls === 1
            ? { extractionStatus: 'reading', extractionError: null }
            : { extractionStatus: 'done', extractionError: null };
        return jsonResponse(200, questionForStaff({ autoRubric: [], submissions: [rowOf('s1', 'Ann Answer', state)] }));
      },
    });
    renderApp(QUESTION_PATH);

    expect(await screen.findByText('Text: reading…')).toBeInTheDocument();
    // The table asks again every few seconds while a text is queued or being read.
    expect(await screen.findByText('Text: done', undefined, { timeout: 8_000 })).toBeInTheDocument();
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});

describe('left to grade, when the work is split', () => {
  it("the owner's counts: their share, and the whole question beside it, each named", async () => {
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api${QUESTION_PATH}`]: () => jsonResponse(200, questionForStaff({ autoRubric: [], submissions: [] })),
      [`GET /api${QUESTION_PATH}/grade-all/progress`]: () =>
        jsonResponse(200, { batchId: null, total: 0, done: 0, failed: 0, running: 0, remaining: 0, isFinished: true }),
      // Every answer of the owner's share is graded; the TA's two are not.
      [`GET /api${QUESTION_PATH}/review-queue`]: () =>
        jsonResponse(200, {
          questionPoints: 10,
          items: [],
          remaining: 0,
          share: { scope: 'mine', isSplit: true, mine: 1, total: 3, remainingInQuestion: 2 },
        }),
    });
    renderApp(QUESTION_PATH);
    const share = await screen.findByRole('region', { name: 'Your share' });
    expect(await within(share).findByText('Left to grade in the whole question:')).toBeInTheDocument();
    expect(within(share).getByText('Left to grade in the whole question:').nextSibling).toHaveTextContent('2');
    expect(within(share).getByText('Left to grade in your share:').nextSibling).toHaveTextContent('0');
    expect(screen.getByRole('button', { name: 'Review (0 left in your share)' })).toBeDisabled();
  });
});

describe('submit your answer (student)', () => {
  it('says beforehand that a graded answer cannot be replaced, and disables Submit with that reason', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const refusal =
      'Your answer to this question has been graded, so a new version cannot be submitted. If you need to resubmit, ask your instructor to reopen the question for you.';
    stubNetwork({
      ...signInAs(STUDENT),
      [`GET /api${QUESTION_PATH}`]: () =>
        jsonResponse(
          200,
          questionForStudent({
            submissions: [
              {
                _id: 'submission-1',
                file: '/api/files/answer-1?exp=1&sig=s',
                isLate: false,
                version: 1,
                submittedAt: '2030-02-01T10:00:00.000Z',
                student: { _id: STUDENT._id, name: STUDENT.name },
                grade: 9,
                isAlreadyGraded: true,
                isGradeOnEarlierVersion: false,
                gradedVersion: 1,
                canResubmit: false,
              },
            ],
          }),
        ),
    });
    renderApp(QUESTION_PATH);

    const form = await screen.findByRole('region', { name: 'Submit Your Answer' });
    expect(within(form).getByText(refusal)).toBeInTheDocument();
    expect(within(form).queryByText(/Submitting again replaces it/)).not.toBeInTheDocument();
    expect(screen.getByText('9 / 10')).toBeInTheDocument();
    // Nothing to press that the server would refuse; the button names the reason.
    const submit = within(form).getByRole('button', { name: 'Submit' });
    expect(submit).toBeDisabled();
    expect(submit).toHaveAccessibleDescription(refusal);
  });

  it('keeps the refusal the server gives on the form when the page did not know yet', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const refusal =
      'Your answer to this question has been graded, so a new version cannot be submitted. If you need to resubmit, ask your instructor to reopen the question for you.';
    stubNetwork({
      ...signInAs(STUDENT),
      [`GET /api${QUESTION_PATH}`]: () =>
        jsonResponse(
          200,
          questionForStudent({
            submissions: [
              {
                _id: 'submission-1',
                file: '/api/files/answer-1?exp=1&sig=s',
                isLate: false,
                version: 1,
                submittedAt: '2030-02-01T10:00:00.000Z',
                student: { _id: STUDENT._id, name: STUDENT.name },
                grade: null,
                isAlreadyGraded: false,
                canResubmit: true,
              },
            ],
          }),
        ),
      [`POST /api${QUESTION_PATH}/submit`]: errorResponse(409, 'CONFLICT', refusal),
    });
    renderApp(QUESTION_PATH);
    const user = userEvent.setup({ delay: null });

    const form = await screen.findByRole('region', { name: 'Submit Your Answer' });
    await user.upload(screen.getByLabelText(/Answer PDF/), pdf('again.pdf'));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    // Kept on the form (an alert), beside the toast that goes away.
    expect(await within(form).findByRole('alert')).toHaveTextContent(refusal);
  });

  it("asks for a PDF, then sends it, toasts 'Submission successful!' and shows the new row", async () => {
    let submitted = false;
    const sent = stubNetwork({
      ...signInAs(STUDENT),
      [`GET /api${QUESTION_PATH}`]: () =>
        jsonResponse(
          200,
          questionForStudent({
            submissions: submitted
              ? [
                  {
                    _id: 'submission-1',
                    file: '/api/files/answer-1?exp=1&sig=s',
                    isLate: false,
                    version: 1,
                    submittedAt: '2030-02-01T10:00:00.000Z',
                    student: { _id: STUDENT._id, name: STUDENT.name },
                    grade: null,
                    isAlreadyGraded: false,
                  },
                ]
              : [],
          }),
        ),
      [`POST /api${QUESTION_PATH}/submit`]: () => {
        submitted = true;
        return jsonResponse(201, {
          message: 'Submission successful!',
          submission: {
            _id: 'submission-1',
            file: '/api/files/answer-1?exp=1&sig=s',
            isLate: false,
            version: 1,
            submittedAt: '2030-02-01T10:00:00.000Z',
            student: { _id: STUDENT._id, name: STUDENT.name },
          },
        });
      },
    });
    renderApp(QUESTION_PATH);
    const user = userEvent.setup({ delay: null });

    expect(await screen.findByText('No submissions yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Please select a PDF to submit.')).toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'POST')).toHaveLength(0);

    const answer = pdf('answer.pdf');
    await user.upload(screen.getByLabelText(/Answer PDF/), answer);
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByText('Submission successful!')).toBeInTheDocument();
    expect((sent.find((request) => request.method === 'POST')?.body as FormData).get('file')).toBe(answer);
    expect(await screen.findByRole('table', { name: 'Submissions' })).toBeInTheDocument();
    expect(screen.getByText('No file chosen')).toBeInTheDocument();
  });

  it("falls back to 'Failed to submit answer.' when the server gives no message", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({
      ...signInAs(STUDENT),
      [`GET /api${QUESTION_PATH}`]: () => jsonResponse(200, questionForStudent({ submissions: [] })),
      [`POST /api${QUESTION_PATH}/submit`]: () => new Response('', { status: 500 }),
    });
    renderApp(QUESTION_PATH);
    const user = userEvent.setup({ delay: null });

    await user.upload(await screen.findByLabelText(/Answer PDF/), pdf('answer.pdf'));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Failed to submit answer.')).toBeInTheDocument();
  });
});

describe('upload on behalf of a student (instructor)', () => {
  const routes = () => ({
    ...signInAs(INSTRUCTOR),
    [`GET /api${QUESTION_PATH}`]: () => jsonResponse(200, questionForStaff({ autoRubric: [], submissions: [] })),
  });

  it("requires the student's email and a PDF", async () => {
    const sent = stubNetwork(routes());
    renderApp(QUESTION_PATH);
    const user = userEvent.setup({ delay: null });

    // Folded under the table until opened.
    const opener = await screen.findByRole('button', { name: 'Upload on Behalf of a Student' });
    expect(opener).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('textbox', { name: /Student Email/ })).not.toBeInTheDocument();
    await user.click(opener);
    expect(opener).toHaveAttribute('aria-expanded', 'true');
    await user.click(await screen.findByRole('button', { name: 'Upload' }));
    expect(await screen.findByText("Please enter the student's email.")).toBeInTheDocument();
    expect(screen.getByText('Please select a PDF to upload.')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: /Student Email/ }), 'not an email');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it("sends the email and the PDF, and shows the server's refusal for a student who is not enrolled", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const sent = stubNetwork({
      ...routes(),
      [`POST /api${QUESTION_PATH}/upload-submission`]: errorResponse(
        400,
        'BAD_REQUEST',
        'No student with the email kim@example.edu is enrolled in this course.',
      ),
    });
    renderApp(QUESTION_PATH);
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'Upload on Behalf of a Student' }));
    await user.type(await screen.findByRole('textbox', { name: /Student Email/ }), ' Kim@Example.edu ');
    const answer = pdf('scan.pdf');
    await user.upload(screen.getByLabelText(/Student's PDF/), answer);
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    expect(
      await screen.findByText('No student with the email kim@example.edu is enrolled in this course.'),
    ).toBeInTheDocument();
    const form = sent.find((request) => request.method === 'POST')?.body as FormData;
    expect(form.get('studentEmail')).toBe('kim@example.edu');
    expect(form.get('file')).toBe(answer);
    // The form keeps what was typed, so the instructor can correct it.
    expect(screen.getByRole('textbox', { name: /Student Email/ })).toHaveValue('Kim@Example.edu');
  });
});
