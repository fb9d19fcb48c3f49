import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { courseStaff } from '../src/db/schema.ts';
import { addTa, createCourse, createCourseWorld, submitAnswer, type CourseWorld } from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Course staff (decision 0021): the owner adds TAs by email, a TA sees the course like its
 * instructor and grades, but manages nothing; removing a TA ends their access at once.
 * (Who may call which route is in authorization-matrix.test.ts; this file is the behaviour.)
 */
let t: TestApp;
let world: CourseWorld;
beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true });
  world = await createCourseWorld(t.app);
});
afterAll(async () => {
  await t?.close();
});

const staffUrl = (courseId = world.course._id) => `/api/courses/${courseId}/staff`;
const addStaff = (user: TestUser, payload: unknown, courseId?: string) =>
  t.app.inject({ method: 'POST', url: staffUrl(courseId), headers: user.auth, payload: payload as object });
const seatCount = async (courseId: string) =>
  (await t.ctx.db.select().from(courseStaff).where(eq(courseStaff.courseId, courseId))).length;

describe('adding a teaching assistant', () => {
  it('adds an instructor account by email and lists it for the owner and the TA', async () => {
    const ta = await registerUser(t.app, { role: 'instructor', name: 'Tina Assistant' });
    const added = await addStaff(world.instructor, { email: `  ${ta.email.toUpperCase()} `, role: 'ta' });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      message: `Tina Assistant is now a teaching assistant of ${world.course.title}.`,
      member: { _id: ta.id, name: 'Tina Assistant', email: ta.email, role: 'ta' },
    });

    for (const caller of [world.instructor, ta]) {
      const list = await t.app.inject({ method: 'GET', url: staffUrl(), headers: caller.auth });
      expect(list.statusCode).toBe(200);
      expect(list.json().owner).toMatchObject({ _id: world.instructor.id, email: world.instructor.email });
      expect(list.json().staff.map((member: { _id: string }) => member._id)).toContain(ta.id);
    }
  });

  it('refuses with a clear message and writes nothing: unknown email, student accounts, own email, duplicates, bad input', async () => {
    const courseId = world.course._id;
    const before = await seatCount(courseId);
    const stranger = await addStaff(world.instructor, { email: 'nobody-here@example.edu', role: 'ta' });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().message).toContain('Nobody has registered with nobody-here@example.edu');

    const enrolled = await addStaff(world.instructor, { email: world.student.email, role: 'ta' });
    expect(enrolled.statusCode).toBe(400);
    expect(enrolled.json().message).toBe(
      `${world.student.email} is a student enrolled in this course; a student cannot grade their own course.`,
    );

    const otherStudent = await registerUser(t.app, { role: 'student' });
    const student = await addStaff(world.instructor, { email: otherStudent.email, role: 'ta' });
    expect(student.statusCode).toBe(400);
    expect(student.json().message).toContain('is a student account');

    const self = await addStaff(world.instructor, { email: world.instructor.email, role: 'ta' });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('This is your own email: you already teach this course.');

    const ta = await registerUser(t.app, { role: 'instructor', name: 'Twice Added' });
    expect((await addStaff(world.instructor, { email: ta.email, role: 'ta' })).statusCode).toBe(201);
    const again = await addStaff(world.instructor, { email: ta.email, role: 'ta' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`Twice Added (${ta.email}) is already a teaching assistant of this course.`);

    for (const payload of [
      {},
      { email: ta.email },
      { email: 'not an email', role: 'ta' },
      { email: ta.email, role: 'owner' },
    ]) {
      const bad = await addStaff(world.instructor, payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().message).toEqual(expect.any(String));
    }
    // Only the one good add above wrote a seat.
    expect(await seatCount(courseId)).toBe(before + 1);
  });
});

describe('the course list of an instructor who also assists', () => {
  it('lists the courses they own, newest first, then those they assist, newest first, and no other', async () => {
    const teacher = await registerUser(t.app, { role: 'instructor', name: 'Both Roles' });
    const colleague = await registerUser(t.app, { role: 'instructor', name: 'Colleague' });
    const ownedOld = await createCourse(t.app, teacher, { title: 'Owned, older' });
    const assistedOld = await createCourse(t.app, colleague, { title: 'Assisted, older' });
    const ownedNew = await createCourse(t.app, teacher, { title: 'Owned, newer' });
    const assistedNew = await createCourse(t.app, colleague, { title: 'Assisted, newer' });
    await createCourse(t.app, colleague, { title: 'Not theirs' });
    await addTa(t.app, colleague, assistedOld._id, teacher);
    await addTa(t.app, colleague, assistedNew._id, teacher);

    const list = await t.app.inject({ method: 'GET', url: '/api/courses', headers: teacher.auth });
    expect(list.statusCode).toBe(200);
    const courses = list.json() as { _id: string; instructor: { _id: string; name: string } }[];
    expect(courses.map((course) => course._id)).toEqual([ownedNew._id, ownedOld._id, assistedNew._id, assistedOld._id]);
    // Each course names its own instructor, not the caller.
    expect(courses.map((course) => course.instructor.name)).toEqual([
      'Both Roles',
      'Both Roles',
      'Colleague',
      'Colleague',
    ]);
  });
});

describe('what a TA may do', () => {
  let ta: TestUser;
  let submission: { _id: string };
  beforeAll(async () => {
    const course = await createCourse(t.app, world.instructor, { title: 'Team-graded course' });
    ta = await registerUser(t.app, { role: 'instructor', name: 'Theo Grader' });
    await addTa(t.app, world.instructor, course._id, ta);
    // The TA's course is the world's course for the rest of this block.
    await addTa(t.app, world.instructor, world.course._id, ta);
    submission = await submitAnswer(t.app, world.student, world.assignment._id, world.question._id);
  });
  const questionPath = () => `/api/assignments/${world.assignment._id}/questions/${world.question._id}`;

  it('sees the course in their list and every screen of it as staff, marked as a TA', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/courses', headers: ta.auth });
    expect(list.json().map((course: { _id: string }) => course._id)).toContain(world.course._id);

    const course = await t.app.inject({ method: 'GET', url: `/api/courses/${world.course._id}`, headers: ta.auth });
    expect(course.json()).toMatchObject({
      viewer: 'staff',
      staffRole: 'ta',
      students: [{ email: world.student.email }],
    });
    const owned = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${world.course._id}`,
      headers: world.instructor.auth,
    });
    expect(owned.json()).toMatchObject({ viewer: 'staff', staffRole: 'owner' });

    const assignments = await t.app.inject({ method: 'GET', url: '/api/assignments', headers: ta.auth });
    expect(assignments.json().map((row: { _id: string }) => row._id)).toContain(world.assignment._id);
    const assignment = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${world.assignment._id}`,
      headers: ta.auth,
    });
    expect(assignment.json()).toMatchObject({ viewer: 'staff', staffRole: 'ta' });

    const question = await t.app.inject({
      method: 'GET',
      url: `${questionPath()}?includeSubmissions=1`,
      headers: ta.auth,
    });
    expect(question.json()).toMatchObject({ viewer: 'staff', staffRole: 'ta' });
    expect(question.json().solutionFile).toEqual(expect.any(String));
    expect(question.json().submissions.map((row: { _id: string }) => row._id)).toContain(submission._id);

    const queue = await t.app.inject({ method: 'GET', url: `${questionPath()}/review-queue`, headers: ta.auth });
    expect(queue.statusCode).toBe(200);
    expect(queue.json().items.map((item: { submissionId: string }) => item.submissionId)).toContain(submission._id);
  });

  it('grades and saves a grade, recorded as saved by the TA', async () => {
    const graded = await t.app.inject({
      method: 'POST',
      url: `${questionPath()}/grade/${submission._id}`,
      headers: ta.auth,
    });
    expect(graded.statusCode).toBe(200);
    const saved = await t.app.inject({
      method: 'POST',
      url: `${questionPath()}/save-grade/${submission._id}`,
      headers: ta.auth,
      payload: {
        grade: 10,
        feedback: 'Checked by the TA.',
        comments: [],
        expectedGradeId: graded.json().currentGradeId,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().grade.savedBy).toEqual({ _id: ta.id, name: 'Theo Grader' });
    const report = await t.app.inject({
      method: 'GET',
      url: `${questionPath()}/grade/${submission._id}/report`,
      headers: world.student.auth,
    });
    expect(report.json()).toMatchObject({ viewer: 'student', grade: 10 });
  });

  it('is refused every manage action with a 403 that says why, and nothing changes', async () => {
    const candidate = await registerUser(t.app, { role: 'instructor' });
    const refusals = [
      await addStaff(ta, { email: candidate.email, role: 'ta' }),
      await t.app.inject({ method: 'DELETE', url: `${staffUrl()}/${ta.id}`, headers: ta.auth }),
      await t.app.inject({
        method: 'POST',
        url: `/api/courses/${world.course._id}/add-students`,
        headers: ta.auth,
        payload: { emails: ['someone-new@example.edu'] },
      }),
      await t.app.inject({
        method: 'PATCH',
        url: `${questionPath()}/save-rubric`,
        headers: ta.auth,
        payload: { questionText: 'Changed by a TA', solutionText: 'x' },
      }),
      await t.app.inject({
        method: 'POST',
        url: '/api/assignments',
        headers: ta.auth,
        payload: { title: 'TA homework', courseId: world.course._id },
      }),
      await t.app.inject({
        method: 'PATCH',
        url: `/api/assignments/${world.assignment._id}/settings`,
        headers: ta.auth,
        payload: { allowsResubmission: true },
      }),
    ];
    for (const refusal of refusals) {
      expect(refusal.statusCode).toBe(403);
      expect(refusal.json().message).toMatch(/^Only the instructor of this course can /);
    }
    const list = await t.app.inject({ method: 'GET', url: staffUrl(), headers: world.instructor.auth });
    const ids = list.json().staff.map((member: { _id: string }) => member._id);
    expect(ids).toContain(ta.id);
    expect(ids).not.toContain(candidate.id);
    const course = await t.app.inject({ method: 'GET', url: `/api/courses/${world.course._id}`, headers: ta.auth });
    expect(course.json().pendingStudents).toEqual([]);
  });
});

describe('removing a teaching assistant', () => {
  it('ends their access to the course at once; removing again or an unknown id is 404', async () => {
    const course = await createCourse(t.app, world.instructor, { title: 'Short-lived staff' });
    const ta = await registerUser(t.app, { role: 'instructor', name: 'Gone Soon' });
    await addTa(t.app, world.instructor, course._id, ta);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: ta.auth })).statusCode,
    ).toBe(200);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `${staffUrl(course._id)}/${ta.id}`,
      headers: world.instructor.auth,
    });
    expect(removed.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: ta.auth })).statusCode,
    ).toBe(404);
    const list = await t.app.inject({ method: 'GET', url: '/api/courses', headers: ta.auth });
    expect(list.json().map((row: { _id: string }) => row._id)).not.toContain(course._id);

    for (const userId of [ta.id, 'not-a-uuid', world.student.id]) {
      const again = await t.app.inject({
        method: 'DELETE',
        url: `${staffUrl(course._id)}/${userId}`,
        headers: world.instructor.auth,
      });
      expect(again.statusCode).toBe(404);
      expect(again.json().message).toBe('This person is not a teaching assistant of this course.');
    }
    const owner = await t.app.inject({
      method: 'DELETE',
      url: `${staffUrl(course._id)}/${world.instructor.id}`,
      headers: world.instructor.auth,
    });
    expect(owner.statusCode).toBe(400);
  });

  it('a TA who deletes their account leaves every staff list', async () => {
    const course = await createCourse(t.app, world.instructor, { title: 'Leaving staff' });
    const ta = await registerUser(t.app, { role: 'instructor' });
    await addTa(t.app, world.instructor, course._id, ta);
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/auth/delete-account',
      headers: ta.auth,
      payload: { password: ta.password },
    });
    expect(deleted.statusCode).toBe(200);
    const rows = await t.ctx.db
      .select()
      .from(courseStaff)
      .where(and(eq(courseStaff.courseId, course._id), eq(courseStaff.userId, ta.id)));
    expect(rows).toEqual([]);
  });
});

describe('a roster and a staff never share a person', () => {
  it('a TA (an instructor account) cannot be enrolled as a student of the course', async () => {
    const ta = await registerUser(t.app, { role: 'instructor' });
    await addTa(t.app, world.instructor, world.course._id, ta);
    const enrolled = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${world.course._id}/add-students`,
      headers: world.instructor.auth,
      payload: { emails: [ta.email] },
    });
    expect(enrolled.statusCode).toBe(400);
    expect(enrolled.json().message).toContain('only student accounts can be enrolled');
  });
});
