import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PendingStudent } from '@gradewise/shared/contracts/courses';
import { COURSE_ID, courseForStaff, courseForStudent, errorResponse, signInAs } from '../../test/fixtures.ts';
import { INSTRUCTOR, jsonResponse, STUDENT, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

const STUDENTS_PATH = `/courses/${COURSE_ID}/students`;

const courseRoutes = (course: object) => ({
  [`GET /api/courses/${COURSE_ID}`]: () => jsonResponse(200, course),
  'GET /api/assignments': () => jsonResponse(200, []),
});

describe('course students', () => {
  it('lists the roster to a student by Name only (no emails), with Back to Course, and no add forms', async () => {
    stubNetwork({ ...signInAs(STUDENT), ...courseRoutes(courseForStudent()) });
    renderApp(STUDENTS_PATH);

    const table = await screen.findByRole('table', { name: 'Students' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name']);
    expect(within(table).getByRole('rowheader', { name: 'Sam Student' })).toBeInTheDocument();
    expect(screen.queryByText('sam@example.edu')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Course' })).toHaveAttribute('href', `/courses/${COURSE_ID}`);
    expect(screen.queryByRole('heading', { name: 'Add Students by Email' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Upload Excel' })).not.toBeInTheDocument();
    expect(screen.queryByText('newcomer@example.edu')).not.toBeInTheDocument();
  });

  it("says 'No students yet' and shows the owner both add forms and the pending invitations", async () => {
    stubNetwork({ ...signInAs(INSTRUCTOR), ...courseRoutes(courseForStaff({ students: [] })) });
    renderApp(STUDENTS_PATH);

    expect(await screen.findByText('No students yet')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Add Students by Email' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Upload Excel' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Excel file/)).toHaveAttribute('accept', expect.stringContaining('.xlsx,.xls'));
    expect(screen.getByText('newcomer@example.edu')).toBeInTheDocument();
  });

  it('lists the roster to its owner by Name and Email', async () => {
    stubNetwork({ ...signInAs(INSTRUCTOR), ...courseRoutes(courseForStaff()) });
    renderApp(STUDENTS_PATH);

    const table = await screen.findByRole('table', { name: 'Students' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Email']);
    expect(within(table).getByRole('rowheader', { name: 'Sam Student' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: 'sam@example.edu' })).toBeInTheDocument();
  });

  it('requires at least one email: blanks and lone commas do not count', async () => {
    const sent = stubNetwork({ ...signInAs(INSTRUCTOR), ...courseRoutes(courseForStaff()) });
    renderApp(STUDENTS_PATH);
    const user = userEvent.setup({ delay: null });

    await user.type(await screen.findByRole('textbox', { name: /Student emails/ }), ' , ,, ');
    await user.click(screen.getByRole('button', { name: 'Add Students' }));
    expect(await screen.findByText('Please enter at least one email.')).toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it('requires an Excel file before uploading', async () => {
    const sent = stubNetwork({ ...signInAs(INSTRUCTOR), ...courseRoutes(courseForStaff()) });
    renderApp(STUDENTS_PATH);
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'Upload Excel' }));
    expect(await screen.findByText('Please select an Excel file first.')).toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it("sends the split emails, toasts the server's counts with the rejected entries, and returns to the course after 1 second", async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      ...courseRoutes(courseForStaff()),
      [`POST /api/courses/${COURSE_ID}/add-students`]: () =>
        jsonResponse(200, {
          message:
            'Students added successfully. 1 added, 1 invited (no account yet; once they register, you confirm them on the Students page), 1 rejected.',
          added: 1,
          alreadyEnrolled: 0,
          invited: 1,
          alreadyInvited: 0,
          rejected: [{ entry: 'not-an-email', reason: 'This is not a valid email address.' }],
        }),
    });
    const { router } = renderApp(STUDENTS_PATH);
    const user = userEvent.setup({ delay: null });

    await user.type(
      await screen.findByRole('textbox', { name: /Student emails/ }),
      ' sam@example.edu,  new@example.edu ,, not-an-email ',
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await userEvent
      .setup({ delay: null, advanceTimers: vi.advanceTimersByTime })
      .click(screen.getByRole('button', { name: 'Add Students' }));

    expect(await screen.findByText(/Students added successfully\. 1 added, 1 invited/)).toBeInTheDocument();
    expect(screen.getByText('not-an-email — This is not a valid email address.')).toBeInTheDocument();
    expect(sent.find((request) => request.method === 'POST')?.body).toEqual({
      emails: ['sam@example.edu', 'new@example.edu', 'not-an-email'],
    });

    await act(async () => vi.advanceTimersByTime(999));
    expect(router.state.location.pathname).toBe(STUDENTS_PATH);
    await act(async () => vi.advanceTimersByTime(1));
    vi.useRealTimers();
    expect(await screen.findByRole('heading', { level: 1, name: 'Linear Algebra' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/courses/${COURSE_ID}`);
  });

  it('uploads the Excel file as multipart and lists the rejections of a refused sheet', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      ...courseRoutes(courseForStaff()),
      [`POST /api/courses/${COURSE_ID}/add-students/excel`]: () =>
        jsonResponse(400, {
          code: 'VALIDATION_FAILED',
          message: 'No students were added: none of the 2 entries can be enrolled.',
          issues: [
            { path: 'ada@example.edu', message: 'This is your own email: you teach this course.' },
            { path: 'x@y', message: 'This is not a valid email address.' },
          ],
        }),
    });
    const { router } = renderApp(STUDENTS_PATH);
    const user = userEvent.setup({ delay: null });

    const sheet = new File(['PK'], 'roster.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    await user.upload(await screen.findByLabelText(/Excel file/), sheet);
    await user.click(screen.getByRole('button', { name: 'Upload Excel' }));

    expect(
      await screen.findByText('No students were added: none of the 2 entries can be enrolled.'),
    ).toBeInTheDocument();
    expect(screen.getByText('ada@example.edu — This is your own email: you teach this course.')).toBeInTheDocument();
    expect((sent.find((request) => request.method === 'POST')?.body as FormData).get('excelFile')).toBe(sheet);
    expect(router.state.location.pathname).toBe(STUDENTS_PATH);
  });

  it("falls back to 'Failed to add students.' when the server gives no message", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      ...courseRoutes(courseForStaff()),
      [`POST /api/courses/${COURSE_ID}/add-students`]: () => new Response('', { status: 503 }),
    });
    renderApp(STUDENTS_PATH);
    const user = userEvent.setup({ delay: null });

    await user.type(await screen.findByRole('textbox', { name: /Student emails/ }), 'a@b.edu');
    await user.click(screen.getByRole('button', { name: 'Add Students' }));
    expect(await screen.findByText('Failed to add students.')).toBeInTheDocument();
  });

  it('says when the course cannot be read', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({
      ...signInAs(STUDENT),
      [`GET /api/courses/${COURSE_ID}`]: errorResponse(404, 'NOT_FOUND', 'Course not found.'),
    });
    renderApp(STUDENTS_PATH);
    expect(await screen.findByText('Course not found or access denied.')).toBeInTheDocument();
  });
});

describe('invited, not enrolled yet (issue 15)', () => {
  const invitations: PendingStudent[] = [
    {
      email: 'kai@example.edu',
      invitedAt: '2030-01-02T10:00:00.000Z',
      registeredName: 'Kai Student',
      registeredAsInstructor: false,
    },
    {
      email: 'prof@example.edu',
      invitedAt: '2030-01-02T10:00:00.000Z',
      registeredName: null,
      registeredAsInstructor: true,
      instructorAccountClosable: false,
    },
    {
      email: 'later@example.edu',
      invitedAt: '2030-01-02T10:00:00.000Z',
      registeredName: null,
      registeredAsInstructor: false,
    },
  ];

  // Decision 0090: the server invites past an instructor account "Not my student" may close.
  const heldByUnprovedInstructor: PendingStudent = {
    email: 'wren@example.edu',
    invitedAt: '2030-01-02T10:00:00.000Z',
    registeredName: null,
    registeredAsInstructor: true,
    instructorAccountClosable: true,
  };

  it('offers Confirm for a registered student only, says why an instructor account waits, and confirms', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      ...courseRoutes(courseForStaff({ pendingStudents: invitations })),
      [`POST /api/courses/${COURSE_ID}/confirm-student`]: () =>
        jsonResponse(200, { message: 'Kai Student (kai@example.edu) is now enrolled in this course.' }),
    });
    const user = userEvent.setup();
    renderApp(STUDENTS_PATH);

    const list = await screen.findByRole('list', { name: 'Invited, not enrolled yet' });
    expect(within(list).getByText('Kai Student registered, awaiting your confirmation')).toBeInTheDocument();
    // An instructor account that proved or uses the email is not closed by the server: ask for another.
    expect(
      within(list).getByText(
        'This email belongs to an instructor account that has proved it or is in use, which cannot join as a student: ask the student for another email',
      ),
    ).toBeInTheDocument();
    expect(within(list).getByText(/not registered yet/)).toBeInTheDocument();
    expect(
      within(list)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Confirm Kai Student (kai@example.edu)', 'Not my student: Kai Student (kai@example.edu)']);

    await user.click(within(list).getByRole('button', { name: 'Confirm Kai Student (kai@example.edu)' }));
    expect(
      await screen.findByText('Kai Student (kai@example.edu) is now enrolled in this course.'),
    ).toBeInTheDocument();
    expect(sent.find((request) => request.method === 'POST')?.body).toEqual({ email: 'kai@example.edu' });
  });

  it('Not my student asks first, closes the registrant on the server, and shows why when it is refused', async () => {
    let answer = jsonResponse(409, {
      code: 'CONFLICT',
      message: 'The account registered with kai@example.edu is already in use (it belongs to a course).',
    });
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      ...courseRoutes(courseForStaff({ pendingStudents: invitations, invitationsConfirmedBy: 'instructor' })),
      [`POST /api/courses/${COURSE_ID}/decline-registrant`]: () => answer,
    });
    const user = userEvent.setup();
    renderApp(STUDENTS_PATH);

    const list = await screen.findByRole('list', { name: 'Invited, not enrolled yet' });
    const notMine = within(list).getByRole('button', { name: 'Not my student: Kai Student (kai@example.edu)' });
    await user.click(notMine);
    let dialog = await screen.findByRole('dialog', { name: 'Not your student?' });
    expect(dialog).toHaveAccessibleDescription(/Kai Student registered with kai@example\.edu/);
    // Cancel sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sent.filter((request) => request.method === 'POST')).toEqual([]);

    await user.click(notMine);
    dialog = await screen.findByRole('dialog', { name: 'Not your student?' });
    await user.click(within(dialog).getByRole('button', { name: 'Close the account' }));
    expect(await screen.findByText(/is already in use \(it belongs to a course\)/)).toBeInTheDocument();
    // Refused: the dialog stays open, to cancel or try again.
    expect(screen.getByRole('dialog', { name: 'Not your student?' })).toBeInTheDocument();

    answer = jsonResponse(200, { message: 'The account Kai Student registered with kai@example.edu is closed.' });
    await user.click(within(dialog).getByRole('button', { name: 'Close the account' }));
    expect(
      await screen.findByText('The account Kai Student registered with kai@example.edu is closed.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Not your student?' })).not.toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'POST').map((request) => request.body)).toEqual([
      { email: 'kai@example.edu' },
      { email: 'kai@example.edu' },
    ]);
  });

  it('shows an invitation an unproved instructor account holds as pending, and Not my student closes that account', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      ...courseRoutes(
        courseForStaff({
          pendingStudents: [heldByUnprovedInstructor, invitations[1]!],
          invitationsConfirmedBy: 'instructor',
        }),
      ),
      [`POST /api/courses/${COURSE_ID}/decline-registrant`]: () =>
        jsonResponse(200, { message: 'The account Ian Instructorish registered with wren@example.edu is closed.' }),
    });
    const user = userEvent.setup();
    renderApp(STUDENTS_PATH);

    const list = await screen.findByRole('list', { name: 'Invited, not enrolled yet' });
    const [held, refused] = within(list).getAllByRole('listitem');
    expect(held).toHaveTextContent(
      /wren@example\.edu.*An instructor account holds this email without having proved it, so your student cannot register with it\. If it is not your student's, choose Not my student/,
    );
    expect(held).not.toHaveTextContent(/another email/);
    expect(refused).toHaveTextContent(/prof@example\.edu.*ask the student for another email/);
    // Nobody registered as a student: nothing to confirm, and no "Confirm all".
    expect(screen.queryByRole('button', { name: /^Confirm/ })).not.toBeInTheDocument();
    expect(within(refused!).queryByRole('button')).not.toBeInTheDocument();

    await user.click(
      within(held!).getByRole('button', { name: 'Not my student: the instructor account (wren@example.edu)' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Not your student?' });
    expect(dialog).toHaveAccessibleDescription(/^An instructor account was registered with wren@example\.edu\./);
    await user.click(within(dialog).getByRole('button', { name: 'Close the account' }));
    expect(
      await screen.findByText('The account Ian Instructorish registered with wren@example.edu is closed.'),
    ).toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'POST').map((request) => request.body)).toEqual([
      { email: 'wren@example.edu' },
    ]);
  });

  it('offers Not my student only for a registrant the server would close: one that proved or uses the email is only confirmed (decision 0096)', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      ...courseRoutes(
        courseForStaff({
          pendingStudents: [
            {
              email: 'pat@example.edu',
              invitedAt: '2030-01-02T10:00:00.000Z',
              registeredName: 'Pat Proved',
              registeredAsInstructor: false,
              registrantClosable: false,
            },
            {
              email: 'sam@example.edu',
              invitedAt: '2030-01-02T10:00:00.000Z',
              registeredName: 'Sam Squatter',
              registeredAsInstructor: false,
              registrantClosable: true,
            },
          ],
          invitationsConfirmedBy: 'instructor',
        }),
      ),
      [`POST /api/courses/${COURSE_ID}/confirm-student`]: () =>
        jsonResponse(200, { message: 'Pat Proved (pat@example.edu) is now enrolled in this course.' }),
    });
    const user = userEvent.setup();
    renderApp(STUDENTS_PATH);

    const list = await screen.findByRole('list', { name: 'Invited, not enrolled yet' });
    const [proved, squatter] = within(list).getAllByRole('listitem');
    expect(proved).toHaveTextContent(
      'Pat Proved registered and has proved this email or already uses this account, awaiting your confirmation',
    );
    expect(squatter).toHaveTextContent('Sam Squatter registered, awaiting your confirmation');
    expect(
      within(list)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual([
      'Confirm Pat Proved (pat@example.edu)',
      'Confirm Sam Squatter (sam@example.edu)',
      'Not my student: Sam Squatter (sam@example.edu)',
    ]);
    // Both registered students count for Confirm all; the proved one is confirmed by its own button.
    expect(screen.getByRole('button', { name: 'Confirm all (2)' })).toBeInTheDocument();
    await user.click(within(proved!).getByRole('button', { name: 'Confirm Pat Proved (pat@example.edu)' }));
    expect(await screen.findByText('Pat Proved (pat@example.edu) is now enrolled in this course.')).toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'POST').map((request) => request.body)).toEqual([
      { email: 'pat@example.edu' },
    ]);
  });

  it('without email set up, says the instructor confirms, and Confirm all confirms every registered student', async () => {
    const registered: PendingStudent[] = ['kai', 'lea'].map((name) => ({
      email: `${name}@example.edu`,
      invitedAt: '2030-01-02T10:00:00.000Z',
      registeredName: `${name} Student`,
      registeredAsInstructor: false,
    }));
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      ...courseRoutes(
        courseForStaff({ pendingStudents: [...registered, invitations[2]!], invitationsConfirmedBy: 'instructor' }),
      ),
      [`POST /api/courses/${COURSE_ID}/confirm-student`]: () => jsonResponse(200, { message: 'Enrolled.' }),
    });
    const user = userEvent.setup();
    renderApp(STUDENTS_PATH);

    expect(
      await screen.findByText(/Email is not set up on this server, so nobody joins by themselves/),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Student emails/ })).toHaveAccessibleDescription(
      /once they register, you confirm them below/,
    );
    await user.click(screen.getByRole('button', { name: 'Confirm all (2)' }));
    expect(await screen.findByText('2 students are now enrolled.')).toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'POST').map((request) => request.body)).toEqual([
      { email: 'kai@example.edu' },
      { email: 'lea@example.edu' },
    ]);
  });
});
