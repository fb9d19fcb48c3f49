import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { UpdateAssignmentSettingsInput } from '@gradewise/shared/contracts/assignments';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { render } from '@testing-library/react';
import { AppProviders } from '../../app/providers.tsx';
import { createRoutes } from '../../app/router.tsx';
import { createQueryClient } from '../../lib/query-client.ts';
import {
  ASSIGNMENT_ID,
  assignmentDetail,
  assignmentSummary,
  COURSE_ID,
  courseSummary,
  errorResponse,
  signInAs,
} from '../../test/fixtures.ts';
import { deferredResponse, INSTRUCTOR, jsonResponse, STUDENT, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

/** /assignments/create as reached from a course page: the course travels in the navigation state. */
function renderCreateAssignmentFromCourse() {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(createRoutes(queryClient), {
    initialEntries: [
      { pathname: '/assignments/create', state: { courseId: COURSE_ID, courseTitle: 'Linear Algebra' } },
    ],
  });
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('assignments list', () => {
  it('lists title and total points linking to each assignment; instructors get Create Assignment', async () => {
    stubNetwork({ ...signInAs(INSTRUCTOR), 'GET /api/assignments': () => jsonResponse(200, [assignmentSummary()]) });
    renderApp('/assignments');

    expect(await screen.findByRole('link', { name: 'Homework 1' })).toHaveAttribute(
      'href',
      `/assignments/${ASSIGNMENT_ID}`,
    );
    expect(screen.getByText(/Total points: 25/)).toBeInTheDocument();
    expect(screen.getByText(/Course: Linear Algebra/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Assignment' })).toHaveAttribute('href', '/assignments/create');
  });

  it('shows students no Create Assignment', async () => {
    stubNetwork({ ...signInAs(STUDENT), 'GET /api/assignments': () => jsonResponse(200, [assignmentSummary()]) });
    renderApp('/assignments');

    expect(await screen.findByRole('link', { name: 'Homework 1' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create Assignment' })).not.toBeInTheDocument();
  });
});

describe('create assignment', () => {
  it("says the spec's 'No courseId found…' when no course came through navigation and the instructor has none", async () => {
    const sent = stubNetwork({ ...signInAs(INSTRUCTOR), 'GET /api/courses': () => jsonResponse(200, []) });
    renderApp('/assignments/create');

    expect(await screen.findByText('No courseId found. Make sure you navigated from a course.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a Course' })).toHaveAttribute('href', '/courses/create');
    expect(screen.queryByRole('textbox', { name: /Title/ })).not.toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it('opened from /assignments, lets the instructor pick one of their courses, then creates the assignment there', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      'GET /api/assignments': () => jsonResponse(200, []),
      'GET /api/courses': () =>
        jsonResponse(200, [courseSummary(), courseSummary({ _id: 'course-2', title: 'Number Theory' })]),
      'POST /api/assignments': () =>
        jsonResponse(201, { message: 'Assignment created successfully!', assignment: assignmentDetail('staff') }),
      [`GET /api/assignments/${ASSIGNMENT_ID}`]: () => jsonResponse(200, assignmentDetail('staff')),
    });
    renderApp('/assignments');
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('link', { name: 'Create Assignment' }));
    // The spec's message, with the picker that resolves it.
    const picker = await screen.findByRole('combobox', { name: 'Course' });
    expect(screen.getByText('No courseId found. Make sure you navigated from a course.')).toBeInTheDocument();
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'Number Theory' }));

    expect(await screen.findByText('Course: Number Theory')).toBeInTheDocument();
    expect(screen.queryByText('No courseId found. Make sure you navigated from a course.')).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Title/ }), 'Homework 2');
    await user.click(screen.getByRole('button', { name: 'Create Assignment' }));
    await screen.findByRole('link', { name: 'View Questions' });
    expect(sent.find((request) => request.method === 'POST')?.body).toMatchObject({
      title: 'Homework 2',
      courseId: 'course-2',
    });
  });

  it('requires a title', async () => {
    const sent = stubNetwork(signInAs(INSTRUCTOR));
    renderCreateAssignmentFromCourse();
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'Create Assignment' }));
    expect(await screen.findByText('Please provide a title.')).toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it('sends the title, course id and the deadline as an instant, then opens the new assignment', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      'POST /api/assignments': () =>
        jsonResponse(201, { message: 'Assignment created successfully!', assignment: assignmentDetail('staff') }),
      [`GET /api/assignments/${ASSIGNMENT_ID}`]: () => jsonResponse(200, assignmentDetail('staff')),
    });
    const router = renderCreateAssignmentFromCourse();
    const user = userEvent.setup({ delay: null });

    await user.type(await screen.findByRole('textbox', { name: /Title/ }), 'Homework 1');
    await user.type(screen.getByLabelText(/Deadline/), '2030-03-01T17:00');
    expect(screen.queryByText(/This deadline has already passed/)).not.toBeInTheDocument();
    const resubmission = screen.getByRole('checkbox', { name: 'Allow resubmission after grading' });
    expect(resubmission).not.toBeChecked();
    expect(resubmission).toHaveAccessibleDescription(/a graded answer is final unless you reopen it/);
    await user.click(resubmission);
    await user.click(screen.getByRole('button', { name: 'Create Assignment' }));

    expect(await screen.findByText('Assignment created successfully!')).toBeInTheDocument();
    expect(sent.find((request) => request.method === 'POST')?.body).toEqual({
      title: 'Homework 1',
      courseId: COURSE_ID,
      deadline: new Date('2030-03-01T17:00').toISOString(),
      allowsResubmission: true,
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Homework 1' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/assignments/${ASSIGNMENT_ID}`);
  });

  it('warns about a deadline already gone, and still creates the assignment with it', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      'POST /api/assignments': () =>
        jsonResponse(201, { message: 'Assignment created successfully!', assignment: assignmentDetail('staff') }),
      [`GET /api/assignments/${ASSIGNMENT_ID}`]: () => jsonResponse(200, assignmentDetail('staff')),
    });
    renderCreateAssignmentFromCourse();
    const user = userEvent.setup({ delay: null });

    await user.type(await screen.findByRole('textbox', { name: /Title/ }), 'Old quiz');
    await user.type(screen.getByLabelText(/Deadline/), '2020-03-01T17:00');
    expect(
      screen.getByText(/This deadline has already passed: every answer submitted will be marked late/),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Assignment' }));
    expect(await screen.findByText('Assignment created successfully!')).toBeInTheDocument();
    expect(sent.find((request) => request.method === 'POST')?.body).toEqual(
      expect.objectContaining({ deadline: new Date('2020-03-01T17:00').toISOString() }),
    );
  });

  it('sends a null deadline when none is given, and toasts the fallback when the server gives no message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      'POST /api/assignments': () => new Response('', { status: 502 }),
    });
    renderCreateAssignmentFromCourse();
    const user = userEvent.setup({ delay: null });

    await user.type(await screen.findByRole('textbox', { name: /Title/ }), 'Quiz');
    await user.click(screen.getByRole('button', { name: 'Create Assignment' }));

    expect(await screen.findByText('Failed to create assignment.')).toBeInTheDocument();
    expect(sent.find((request) => request.method === 'POST')?.body).toEqual({
      title: 'Quiz',
      courseId: COURSE_ID,
      deadline: null,
      allowsResubmission: false,
    });
  });
});

describe('assignment detail', () => {
  it("shows 'Loading assignment details…', then title, deadline, course and the instructor's buttons", async () => {
    const detail = deferredResponse();
    stubNetwork({ ...signInAs(INSTRUCTOR), [`GET /api/assignments/${ASSIGNMENT_ID}`]: detail.responder });
    renderApp(`/assignments/${ASSIGNMENT_ID}`);

    expect(await screen.findByRole('status', { name: 'Loading assignment details…' })).toBeInTheDocument();
    detail.respond(jsonResponse(200, assignmentDetail('staff')));
    expect(await screen.findByRole('heading', { level: 1, name: 'Homework 1' })).toBeInTheDocument();
    expect(screen.getByText(/^Deadline:/)).toBeInTheDocument();
    expect(screen.getByText('Course: Linear Algebra')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Questions' })).toHaveAttribute(
      'href',
      `/assignments/${ASSIGNMENT_ID}/questions`,
    );
    expect(screen.getByRole('link', { name: 'Create a Question' })).toHaveAttribute(
      'href',
      `/assignments/${ASSIGNMENT_ID}/questions/create`,
    );
  });

  it('lets the instructor switch resubmission after grading on and off, saying what each means', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api/assignments/${ASSIGNMENT_ID}`]: () =>
        jsonResponse(200, assignmentDetail('staff', { allowsResubmission: false })),
      [`PATCH /api/assignments/${ASSIGNMENT_ID}/settings`]: (request) =>
        jsonResponse(200, {
          message: 'Students may now resubmit after grading.',
          assignment: assignmentDetail('staff', {
            allowsResubmission: UpdateAssignmentSettingsInput.parse(request.body).allowsResubmission,
          }),
        }),
    });
    renderApp(`/assignments/${ASSIGNMENT_ID}`);
    const user = userEvent.setup({ delay: null });

    const toggle = await screen.findByRole('switch', { name: 'Allow resubmission after grading' });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(
      'A graded answer is final unless you reopen it for that student from the question page.',
    );
    await user.click(toggle);
    expect(await screen.findByText('Students may now resubmit after grading.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Allow resubmission after grading' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Allow resubmission after grading' })).toHaveAccessibleDescription(
      /their earlier grade counts until you grade the new one/,
    );
    expect(sent.find((request) => request.method === 'PATCH')?.body).toEqual({ allowsResubmission: true });
  });

  it('shows a student View Questions only, and no deadline line when there is none', async () => {
    stubNetwork({
      ...signInAs(STUDENT),
      [`GET /api/assignments/${ASSIGNMENT_ID}`]: () =>
        jsonResponse(200, assignmentDetail('student', { deadline: null })),
    });
    renderApp(`/assignments/${ASSIGNMENT_ID}`);

    expect(await screen.findByRole('link', { name: 'View Questions' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create a Question' })).not.toBeInTheDocument();
    expect(screen.queryByText(/^Deadline:/)).not.toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });

  it("says 'Assignment not found.' when it cannot be read", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({
      ...signInAs(STUDENT),
      'GET /api/assignments/nope': errorResponse(404, 'NOT_FOUND', 'Assignment not found.'),
    });
    renderApp('/assignments/nope');

    // Once in place, once in the toast (the server's message happens to be the same words).
    await waitFor(() => expect(screen.getAllByText('Assignment not found.')).toHaveLength(2));
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('says a server error is a failure to load (not "Assignment not found."), with Try again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let isServerDown = true;
    stubNetwork({
      ...signInAs(STUDENT),
      'GET /api/assignments/a-1': () =>
        isServerDown
          ? jsonResponse(503, { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' })
          : jsonResponse(200, assignmentDetail('student')),
    });
    renderApp('/assignments/a-1');
    const user = userEvent.setup({ delay: null });

    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 5000 });
    expect(screen.getAllByText('Failed to fetch assignment.').length).toBeGreaterThan(0);
    expect(screen.queryByText('Assignment not found.')).not.toBeInTheDocument();
    isServerDown = false;
    await user.click(retry);
    expect(await screen.findByRole('link', { name: 'View Questions' })).toBeInTheDocument();
  });
});
