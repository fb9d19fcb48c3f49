import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  COURSE_ID,
  courseForStaff,
  courseForStudent,
  courseSummary,
  errorResponse,
  signInAs,
} from '../../test/fixtures.ts';
import {
  deferredResponse,
  INSTRUCTOR,
  jsonResponse,
  STUDENT,
  stubNetwork,
  type SentRequest,
} from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

describe('courses list', () => {
  it("shows an instructor 'My Courses' with each course card and Create New Course", async () => {
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      'GET /api/courses': () =>
        jsonResponse(200, [courseSummary(), courseSummary({ _id: 'course-2', title: 'Topology', image: null })]),
    });
    renderApp('/courses');

    expect(await screen.findByRole('heading', { level: 1, name: 'My Courses' })).toBeInTheDocument();
    const cards = await screen.findAllByRole('article');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByRole('heading', { name: 'Linear Algebra' })).toBeInTheDocument();
    // Decorative (alt=""): the title right below names the course.
    expect(cards[0]!.querySelector('img')).toHaveAttribute('src', courseSummary().image);
    expect(cards[0]!.querySelector('img')).toHaveAttribute('alt', '');
    expect(within(cards[0]!).getByRole('link', { name: /View Course/ })).toHaveAttribute('href', '/courses/course-1');
    expect(cards[1]!.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'Create New Course' })).toHaveAttribute('href', '/courses/create');
  });

  it("shows a student 'Enrolled Courses' without Create New Course, and says when there are none", async () => {
    stubNetwork({
      ...signInAs(STUDENT),
      'GET /api/courses': () => jsonResponse(200, []),
      'GET /api/invitations': () => jsonResponse(200, { invitations: [] }),
    });
    renderApp('/courses');

    expect(await screen.findByRole('heading', { level: 1, name: 'Enrolled Courses' })).toBeInTheDocument();
    expect(await screen.findByText(/You are not enrolled in any courses yet/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create New Course' })).not.toBeInTheDocument();
  });

  it('tells an invited, registered student they wait for their instructor to confirm, instead of an empty list', async () => {
    stubNetwork({
      ...signInAs(STUDENT),
      'GET /api/courses': () => jsonResponse(200, []),
      'GET /api/invitations': () =>
        jsonResponse(200, {
          invitations: [
            {
              courseTitle: 'Linear Algebra',
              instructorName: 'Ada Instructor',
              invitedAt: '2030-01-02T10:00:00.000Z',
              waitingFor: 'instructor',
            },
          ],
        }),
    });
    renderApp('/courses');

    expect(await screen.findByText('Waiting for your instructor to confirm')).toBeInTheDocument();
    expect(screen.getByText('Linear Algebra (Ada Instructor)')).toBeInTheDocument();
    expect(screen.queryByText(/You are not enrolled in any courses yet/)).not.toBeInTheDocument();
  });

  it("shows 'Failed to fetch courses.' when the server answers without a message", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({ ...signInAs(STUDENT), 'GET /api/courses': () => new Response('oops', { status: 404 }) });
    renderApp('/courses');

    await waitFor(() => expect(screen.getAllByText('Failed to fetch courses.')).toHaveLength(2)); // toast and in place
  });
});

describe('courses list request (decision 0059)', () => {
  const coursesRequests = (sent: SentRequest[]) =>
    sent.filter((request) => request.method === 'GET' && request.path === '/api/courses');

  it('starts beside the session check, not after it, and the screen reads it without asking again', async () => {
    const sessionCheck = deferredResponse();
    const list = deferredResponse();
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      'GET /api/auth/user': sessionCheck.responder,
      'GET /api/courses': list.responder,
    });
    const token = localStorage.getItem('token');
    renderApp('/courses');

    // The session is still being checked and the screen is not drawn, yet the list is already asked for.
    expect(await screen.findByRole('status', { name: 'Checking your session' })).toBeInTheDocument();
    await waitFor(() => expect(coursesRequests(sent)).toHaveLength(1));
    expect(coursesRequests(sent)[0]!.headers.get('Authorization')).toBe(`Bearer ${token}`);
    expect(screen.queryByRole('heading', { level: 1, name: 'My Courses' })).not.toBeInTheDocument();

    // The list answers first: the screen, once the session is confirmed, shows it and asks nothing more.
    await act(async () => list.respond(jsonResponse(200, [courseSummary()])));
    await act(async () => sessionCheck.respond(jsonResponse(200, INSTRUCTOR)));
    expect(await screen.findByRole('heading', { name: 'Linear Algebra' })).toBeInTheDocument();
    expect(coursesRequests(sent)).toHaveLength(1);
  });

  it('asks once when the screen is drawn before the list answers', async () => {
    const list = deferredResponse();
    const sent = stubNetwork({ ...signInAs(STUDENT), 'GET /api/courses': list.responder });
    renderApp('/courses');

    expect(await screen.findByRole('heading', { level: 1, name: 'Enrolled Courses' })).toBeInTheDocument();
    expect(screen.getByText('Loading courses…')).toBeInTheDocument();
    await act(async () => list.respond(jsonResponse(200, [courseSummary()])));
    expect(await screen.findByRole('heading', { name: 'Linear Algebra' })).toBeInTheDocument();
    expect(coursesRequests(sent)).toHaveLength(1);
  });

  it('asks again on each later visit, once', async () => {
    const sent = stubNetwork({ ...signInAs(STUDENT), 'GET /api/courses': () => jsonResponse(200, [courseSummary()]) });
    const { router } = renderApp('/courses');
    expect(await screen.findByRole('heading', { name: 'Linear Algebra' })).toBeInTheDocument();

    await act(() => router.navigate('/about'));
    await act(() => router.navigate('/courses'));
    expect(await screen.findByRole('heading', { name: 'Linear Algebra' })).toBeInTheDocument();
    await waitFor(() => expect(coursesRequests(sent)).toHaveLength(2));
    // The nav's own link to the page on show does not ask again.
    await act(() => router.navigate('/courses'));
    expect(await screen.findByRole('heading', { name: 'Linear Algebra' })).toBeInTheDocument();
    expect(coursesRequests(sent)).toHaveLength(2);
  });

  it('asks nothing without a stored token, and sends the visitor to /', async () => {
    const sent = stubNetwork({});
    const { router } = renderApp('/courses');

    expect(await screen.findByRole('heading', { level: 1, name: 'Gradewise' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(sent).toHaveLength(0);
  });

  it('signs out when the server refuses the token, whichever request it refuses first', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const refused = errorResponse(401, 'UNAUTHENTICATED', 'Your session is not valid.');
    stubNetwork({ ...signInAs(INSTRUCTOR), 'GET /api/auth/user': refused, 'GET /api/courses': refused });
    const { router } = renderApp('/courses');

    expect(await screen.findByRole('heading', { level: 1, name: 'Gradewise' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('signs out when the list is refused after the session was confirmed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const list = deferredResponse();
    stubNetwork({ ...signInAs(INSTRUCTOR), 'GET /api/courses': list.responder });
    const { router } = renderApp('/courses');

    expect(await screen.findByRole('heading', { level: 1, name: 'My Courses' })).toBeInTheDocument();
    await act(async () => list.respond(jsonResponse(401, { code: 'TOKEN_EXPIRED', message: 'Your session expired.' })));
    expect(await screen.findByRole('heading', { level: 1, name: 'Gradewise' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('create course', () => {
  it('tells a student that only instructors can create courses', async () => {
    stubNetwork(signInAs(STUDENT));
    renderApp('/courses/create');
    expect(await screen.findByText('Only instructors can create courses.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /Course Title/ })).not.toBeInTheDocument();
  });

  it("names the course title's maximum length beside the field, and holds the field to it", async () => {
    stubNetwork(signInAs(INSTRUCTOR));
    renderApp('/courses/create');
    const title = await screen.findByRole('textbox', { name: /Course Title/ });
    expect(title).toHaveAccessibleDescription('At most 200 characters.');
    expect(title).toHaveAttribute('maxLength', '200');
  });

  it('requires a course title and sends nothing without one', async () => {
    const sent = stubNetwork(signInAs(INSTRUCTOR));
    renderApp('/courses/create');
    const user = userEvent.setup({ delay: null });

    await user.type(await screen.findByRole('textbox', { name: /Course Title/ }), '   ');
    await user.click(screen.getByRole('button', { name: 'Create Course' }));

    expect(await screen.findByText('Please provide a course title.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Course Title/ })).toHaveAttribute('aria-invalid', 'true');
    expect(sent.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it('accepts only images and PDFs in its pickers, sends the multipart form, toasts and opens the course', async () => {
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      'POST /api/courses': () =>
        jsonResponse(201, { message: 'Course created successfully.', course: courseForStaff() }),
      'GET /api/courses/course-1': () => jsonResponse(200, courseForStaff()),
      'GET /api/assignments': () => jsonResponse(200, []),
    });
    const { router } = renderApp('/courses/create');
    const user = userEvent.setup({ delay: null });

    await user.type(await screen.findByRole('textbox', { name: /Course Title/ }), '  Linear Algebra ');
    const imageInput = screen.getByLabelText(/Course Image/);
    const syllabusInput = screen.getByLabelText(/Syllabus PDF/);
    expect(imageInput).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp,image/gif');
    expect(syllabusInput).toHaveAttribute('accept', 'application/pdf,.pdf');
    const image = new File(['png'], 'cover.png', { type: 'image/png' });
    const syllabus = new File(['%PDF-1.7'], 'syllabus.pdf', { type: 'application/pdf' });
    await user.upload(imageInput, image);
    await user.upload(syllabusInput, syllabus);
    expect(screen.getByText('cover.png')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Course' }));

    expect(await screen.findByText('Course created successfully.')).toBeInTheDocument();
    const post = sent.find((request) => request.method === 'POST');
    expect(post?.body).toBeInstanceOf(FormData);
    const form = post?.body as FormData;
    expect(form.get('title')).toBe('Linear Algebra');
    expect(form.get('courseImage')).toBe(image);
    expect(form.get('syllabusFile')).toBe(syllabus);
    expect(await screen.findByRole('heading', { level: 1, name: 'Linear Algebra' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/courses/${COURSE_ID}`);
  });

  it("refuses a syllabus that is not a PDF, and shows the server's message when creation fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      'POST /api/courses': errorResponse(
        400,
        'UNSUPPORTED_FILE',
        'The course image must be a PNG, JPEG, WebP or GIF image.',
      ),
    });
    renderApp('/courses/create');
    const user = userEvent.setup({ delay: null, applyAccept: false });

    await user.type(await screen.findByRole('textbox', { name: /Course Title/ }), 'Topology');
    await user.upload(
      screen.getByLabelText(/Syllabus PDF/),
      new File(['x'], 'notes.docx', { type: 'application/msword' }),
    );
    await user.click(screen.getByRole('button', { name: 'Create Course' }));
    expect(await screen.findByText('Please choose a PDF file.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove Syllabus PDF' }));
    await user.upload(screen.getByLabelText(/Course Image/), new File(['x'], 'cover.png', { type: 'image/png' }));
    await user.click(screen.getByRole('button', { name: 'Create Course' }));
    expect(await screen.findByText('The course image must be a PNG, JPEG, WebP or GIF image.')).toBeInTheDocument();
  });
});

describe('course detail', () => {
  it('shows the owner the course, syllabus, students link, assignments and Create Assignment with the course in navigation state', async () => {
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      'GET /api/courses/course-1': () => jsonResponse(200, courseForStaff()),
      'GET /api/assignments': () =>
        jsonResponse(200, [
          {
            _id: 'assignment-1',
            title: 'Homework 1',
            points: 25,
            deadline: null,
            course: { _id: COURSE_ID, title: 'Linear Algebra' },
            questionCount: 2,
            createdAt: '2030-01-03T10:00:00.000Z',
          },
        ]),
    });
    const { router } = renderApp(`/courses/${COURSE_ID}`);
    const user = userEvent.setup({ delay: null });

    expect(await screen.findByRole('status', { name: 'Loading course…' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Linear Algebra' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'View Syllabus' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Students' })).toHaveAttribute('href', '/courses/course-1/students');
    expect(await screen.findByRole('link', { name: /View Assignment/ })).toHaveAttribute(
      'href',
      '/assignments/assignment-1',
    );

    await user.click(screen.getByRole('button', { name: 'Create Assignment' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Create Assignment' })).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ courseId: COURSE_ID, courseTitle: 'Linear Algebra' });
    expect(screen.getByText('Course: Linear Algebra')).toBeInTheDocument();
  });

  it("shows an enrolled student no Create Assignment, and 'No assignments yet' for an empty course", async () => {
    stubNetwork({
      ...signInAs(STUDENT),
      'GET /api/courses/course-1': () => jsonResponse(200, courseForStudent({ syllabus: null })),
      'GET /api/assignments': () => jsonResponse(200, []),
    });
    renderApp(`/courses/${COURSE_ID}`);

    expect(await screen.findByText('No assignments yet')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Linear Algebra' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Assignment' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'View Syllabus' })).not.toBeInTheDocument();
  });

  it("says 'Course not found or access denied.' and toasts the server's message when the course cannot be read", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetwork({
      ...signInAs(STUDENT),
      'GET /api/courses/course-9': errorResponse(404, 'NOT_FOUND', 'Course not found.'),
    });
    renderApp('/courses/course-9');

    expect(await screen.findByText('Course not found or access denied.')).toBeInTheDocument();
    expect(await screen.findByText('Course not found.')).toBeInTheDocument();
  });
});
