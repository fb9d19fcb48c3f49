import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssignmentList } from '@gradewise/shared/contracts/assignments';
import type { CourseForStaff } from '@gradewise/shared/contracts/courses';
import { expectJson } from './support/expect-json.ts';
import { count } from 'drizzle-orm';
import { assignments } from '../src/db/schema.ts';
import { addStudents, createAssignment, createCourse, createQuestion } from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let owner: TestUser;
let student: TestUser;
let outsider: TestUser;
let otherInstructor: TestUser;
let course: CourseForStaff;
beforeAll(async () => {
  t = await createTestApp();
  owner = await registerUser(t.app, { role: 'instructor' });
  student = await registerUser(t.app);
  outsider = await registerUser(t.app);
  otherInstructor = await registerUser(t.app, { role: 'instructor' });
  course = await createCourse(t.app, owner, { title: 'Physics' });
  await addStudents(t.app, owner, course._id, [student.email]);
});
afterAll(async () => {
  await t?.close();
});

const post = (user: TestUser, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/assignments', headers: user.auth, payload: payload as object });
const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.auth });
const assignmentCount = async () => (await t.ctx.db.select({ n: count() }).from(assignments))[0]!.n;

describe('POST /api/assignments', () => {
  it('creates an assignment with a deadline for a course the instructor owns', async () => {
    const response = await post(owner, {
      title: ' Lab report ',
      courseId: course._id,
      deadline: '2031-05-01T12:00:00+02:00',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      message: 'Assignment created successfully!',
      assignment: {
        _id: expect.any(String),
        title: 'Lab report',
        points: 0,
        deadline: '2031-05-01T10:00:00.000Z',
        course: { _id: course._id, title: 'Physics' },
        questionCount: 0,
        createdAt: expect.any(String),
        allowsResubmission: false,
        viewer: 'staff',
        staffRole: 'owner',
        // Issue 12's per-assignment settings, at their defaults: named, released on save, regrade
        // requests for 7 days after release, 3 per student.
        isAnonymous: false,
        gradesHeld: false,
        gradesReleasedAt: null,
        regradeWindowDays: 7,
        regradeRequestLimit: 3,
      },
    });
  });

  it.each([null, '', undefined])('treats deadline %j as no deadline', async (deadline) => {
    const response = await post(owner, { title: 'No deadline', courseId: course._id, deadline });
    expect(response.statusCode).toBe(201);
    expect(response.json().assignment.deadline).toBeNull();
  });

  it.each([
    [{ courseId: 'x' }, 'Please provide a title.'],
    [{ title: '  ', courseId: 'x' }, 'Please provide a title.'],
    [{ title: 'T' }, 'No courseId found. Make sure you navigated from a course.'],
    [{ title: 'T', courseId: '' }, 'No courseId found. Make sure you navigated from a course.'],
    [
      { title: 'T', courseId: 'x', deadline: 'next friday' },
      'Please enter a valid deadline (a date and time with a time zone).',
    ],
    [
      { title: 'T', courseId: 'x', deadline: '2031-05-01T12:00' },
      'Please enter a valid deadline (a date and time with a time zone).',
    ],
    [{ title: 42, courseId: 'x' }, 'Please provide a title.'],
  ])('refuses %j with a 400', async (payload, message) => {
    const before = await assignmentCount();
    const response = await post(owner, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message, code: 'VALIDATION_FAILED' });
    expect(await assignmentCount()).toBe(before);
  });

  it('answers 404 for a course the instructor does not own, an unknown course, or a non-UUID id', async () => {
    const before = await assignmentCount();
    for (const [user, courseId] of [
      [otherInstructor, course._id],
      [owner, '00000000-0000-4000-8000-000000000000'],
      [owner, 'not-a-uuid'],
    ] as const) {
      const response = await post(user, { title: 'T', courseId });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Course not found.', code: 'NOT_FOUND' });
    }
    expect(await assignmentCount()).toBe(before);
  });

  it('refuses students with a 403, even in their own course', async () => {
    const response = await post(student, { title: 'T', courseId: course._id });
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /api/assignments and /api/assignments/:id', () => {
  it('lists what each caller may see, with points summed over questions', async () => {
    const ownCourse = await createCourse(t.app, owner, { title: 'Chemistry' });
    const hidden = await createCourse(t.app, otherInstructor, { title: 'Hidden' });
    const visible = await createAssignment(t.app, owner, ownCourse._id, { title: 'Titration' });
    await createAssignment(t.app, otherInstructor, hidden._id, { title: 'Secret' });
    await createQuestion(t.app, owner, visible._id, { points: '10' });
    await createQuestion(t.app, owner, visible._id, { points: '2.5' });
    await addStudents(t.app, owner, ownCourse._id, [student.email]);

    const mine = expectJson(await get(owner, '/api/assignments'), 200, AssignmentList);
    const titration = mine.find((a) => a._id === visible._id);
    expect(titration).toMatchObject({
      title: 'Titration',
      points: 12.5,
      questionCount: 2,
      course: { _id: ownCourse._id, title: 'Chemistry' },
    });
    expect(mine.some((a) => a.title === 'Secret')).toBe(false);

    const theirs = expectJson(await get(student, '/api/assignments'), 200, AssignmentList);
    expect(theirs.map((a) => a._id)).toContain(visible._id);
    expect(theirs.some((a) => a.title === 'Secret')).toBe(false);
    expect((await get(outsider, '/api/assignments')).json()).toEqual([]);

    const filtered = expectJson(await get(student, `/api/assignments?courseId=${ownCourse._id}`), 200, AssignmentList);
    expect(filtered.map((a) => a._id)).toEqual([visible._id]);
    expect((await get(student, `/api/assignments?courseId=${hidden._id}`)).statusCode).toBe(404);
  });

  it('shows the detail to the owner (staff) and enrolled students (student), 404 to everyone else', async () => {
    const assignment = await createAssignment(t.app, owner, course._id, {
      title: 'Detail',
      deadline: '2030-01-01T00:00:00Z',
    });
    const staff = (await get(owner, `/api/assignments/${assignment._id}`)).json();
    expect(staff).toMatchObject({
      _id: assignment._id,
      title: 'Detail',
      deadline: '2030-01-01T00:00:00.000Z',
      course: { title: 'Physics' },
      viewer: 'staff',
    });
    expect((await get(student, `/api/assignments/${assignment._id}`)).json().viewer).toBe('student');
    for (const user of [outsider, otherInstructor]) {
      const response = await get(user, `/api/assignments/${assignment._id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Assignment not found.', code: 'NOT_FOUND' });
    }
    expect((await get(owner, '/api/assignments/12345')).statusCode).toBe(404);
    expect((await get(owner, '/api/assignments/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});
