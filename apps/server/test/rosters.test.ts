import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJson } from './support/expect-json.ts';
import { eq } from 'drizzle-orm';
import { CourseForStaff, CourseList, MAX_ROSTER_ENTRIES } from '@gradewise/shared/contracts/courses';
import { forgetUser } from '../src/auth/user-cache.ts';
import { enrollments, pendingEnrollments, users } from '../src/db/schema.ts';
import { addStudents, createCourse } from './support/course-fixtures.ts';
import { makeWorkbook, makeZip, sheetXml, xlsxParts } from './support/files.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { once } from 'node:events';
import {
  readEmailsFromSpreadsheetOffThread,
  SPREADSHEET_THREAD_LIMITS,
  spreadsheetThreadEvents,
} from '../src/spreadsheets/read-spreadsheet-off-thread.ts';
import { multipart, type FilePart } from './support/multipart.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await registerUser(t.app, { role: 'instructor', name: 'Prof Owner' });
});
afterAll(async () => {
  await t?.close();
});

const addByJson = (user: TestUser, courseId: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/api/courses/${courseId}/add-students`,
    headers: user.auth,
    payload: payload as object,
  });

async function addByExcel(user: TestUser, courseId: string, file: FilePart | undefined) {
  const form = await multipart({ excelFile: file });
  return t.app.inject({
    method: 'POST',
    url: `/api/courses/${courseId}/add-students/excel`,
    headers: { ...user.auth, ...form.headers },
    payload: form.payload,
  });
}

const xlsx = (content: Buffer, filename = 'roster.xlsx'): FilePart => ({
  content,
  filename,
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
});

async function rosterOf(courseId: string) {
  const detail = expectJson(
    await t.app.inject({ method: 'GET', url: `/api/courses/${courseId}`, headers: owner.auth }),
    200,
    CourseForStaff,
  );
  return {
    students: detail.students.map((s) => s.email).sort(),
    pending: detail.pendingStudents.map((p) => p.email).sort(),
  };
}

describe('POST /api/courses/:id/add-students (emails)', () => {
  it('enrols accounts, invites unknown emails, and reports every entry it could not add', async () => {
    const course = await createCourse(t.app, owner);
    const student = await registerUser(t.app, { email: 'kim@example.edu' });
    const enrolledBefore = await registerUser(t.app, { email: 'lee@example.edu' });
    await addStudents(t.app, owner, course._id, [enrolledBefore.email]);
    const otherInstructor = await registerUser(t.app, { role: 'instructor', email: 'prof.x@example.edu' });
    // An instructor account in use (it teaches a course) is refused; see below for one nobody uses.
    await createCourse(t.app, otherInstructor);

    const response = await addByJson(owner, course._id, {
      emails: [
        ' KIM@example.edu ',
        'kim@example.edu',
        enrolledBefore.email,
        'new.person@example.edu, other.new@example.edu',
        'not-an-email',
        owner.email,
        otherInstructor.email,
        '',
      ],
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      message:
        'Students added successfully. 1 added, 1 already enrolled, 2 invited (no account yet; once they register, you confirm them on the Students page), 3 rejected.',
      added: 1,
      alreadyEnrolled: 1,
      invited: 2,
      alreadyInvited: 0,
      rejected: expect.arrayContaining([
        { entry: 'not-an-email', reason: 'This is not a valid email address.' },
        { entry: owner.email, reason: 'This is your own email: you teach this course.' },
        {
          entry: otherInstructor.email,
          reason: 'This is an instructor account; only student accounts can be enrolled.',
        },
      ]),
    });
    expect(body.rejected).toHaveLength(3);
    expect(await rosterOf(course._id)).toEqual({
      students: [student.email, enrolledBefore.email].sort(),
      pending: ['new.person@example.edu', 'other.new@example.edu'],
    });

    const again = (
      await addByJson(owner, course._id, { emails: ['new.person@example.edu', 'kim@example.edu'] })
    ).json();
    expect(again).toMatchObject({ added: 0, alreadyEnrolled: 1, invited: 0, alreadyInvited: 1, rejected: [] });
  });

  it.each([[{ emails: [] }], [{ emails: ['   ', ''] }], [{ emails: [' , ;'] }], [{}], [{ emails: 'a@example.edu' }]])(
    'answers %j with "Please enter at least one email."',
    async (payload) => {
      const course = await createCourse(t.app, owner);
      const response = await addByJson(owner, course._id, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: 'Please enter at least one email.', code: 'VALIDATION_FAILED' });
    },
  );

  it('answers 400 with the reasons when nothing at all can be added, and changes nothing', async () => {
    const course = await createCourse(t.app, owner);
    const response = await addByJson(owner, course._id, { emails: ['nope', owner.email] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'No students were added: none of the 2 entries can be enrolled.',
      code: 'VALIDATION_FAILED',
      issues: [
        { path: 'nope', message: 'This is not a valid email address.' },
        { path: owner.email, message: 'This is your own email: you teach this course.' },
      ],
    });
    expect(await rosterOf(course._id)).toEqual({ students: [], pending: [] });
  });

  it(`refuses more than ${MAX_ROSTER_ENTRIES} entries at once`, async () => {
    const course = await createCourse(t.app, owner);
    const emails = Array.from({ length: MAX_ROSTER_ENTRIES + 1 }, (_, i) => `s${i}@example.edu`);
    const response = await addByJson(owner, course._id, { emails });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(`Please add at most ${MAX_ROSTER_ENTRIES} students at a time.`);
  });

  it('lets only the owning instructor add students: student 403, other instructor 404', async () => {
    const course = await createCourse(t.app, owner);
    const student = await registerUser(t.app);
    await addStudents(t.app, owner, course._id, [student.email]);
    const otherInstructor = await registerUser(t.app, { role: 'instructor' });
    const asStudent = await addByJson(student, course._id, { emails: ['x@example.edu'] });
    expect(asStudent.statusCode).toBe(403);
    const asOther = await addByJson(otherInstructor, course._id, { emails: ['x@example.edu'] });
    expect(asOther.statusCode).toBe(404);
    expect(await rosterOf(course._id)).toEqual({ students: [student.email], pending: [] });
  });
});

describe('pending enrolments', () => {
  // Issue 15: registering an invited email no longer enrols it (anyone could register the address
  // first). Without SMTP the instructor confirms the registrant; with SMTP the emailed link does
  // (test/email-ownership.test.ts).
  it('keeps an invitation pending at registration (without SMTP) until the instructor confirms the registrant', async () => {
    const course = await createCourse(t.app, owner, { title: 'Invited course' });
    await addStudents(t.app, owner, course._id, ['Future.Student@example.edu']);
    expect(await rosterOf(course._id)).toEqual({ students: [], pending: ['future.student@example.edu'] });

    const student = await registerUser(t.app, { email: 'future.student@example.edu', name: 'Future' });
    const before = (await t.app.inject({ method: 'GET', url: '/api/courses', headers: student.auth })).json();
    expect(before).toEqual([]);
    // Not an empty list to the student: what waits for them, and for whom.
    const waiting = await t.app.inject({ method: 'GET', url: '/api/invitations', headers: student.auth });
    expect(waiting.statusCode).toBe(200);
    expect(waiting.json()).toEqual({
      invitations: [
        {
          courseTitle: 'Invited course',
          instructorName: owner.name,
          invitedAt: expect.any(String),
          waitingFor: 'instructor',
        },
      ],
    });
    const hidden = await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: student.auth });
    expect(hidden.statusCode).toBe(404);
    const staff = (
      await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: owner.auth })
    ).json();
    expect(staff.invitationsConfirmedBy).toBe('instructor');
    expect(staff.pendingStudents).toEqual([
      {
        email: 'future.student@example.edu',
        invitedAt: expect.any(String),
        registeredName: 'Future',
        registeredAsInstructor: false,
        // Unproved and holding nothing: "Not my student" would close it (decision 0096).
        registrantClosable: true,
      },
    ]);

    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course._id}/confirm-student`,
      headers: owner.auth,
      payload: { email: 'future.student@example.edu' },
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().message).toBe('Future (future.student@example.edu) is now enrolled in this course.');
    const list = expectJson(
      await t.app.inject({ method: 'GET', url: '/api/courses', headers: student.auth }),
      200,
      CourseList,
    );
    expect(list.map((c) => c.title)).toEqual(['Invited course']);
    const after = await t.app.inject({ method: 'GET', url: '/api/invitations', headers: student.auth });
    expect(after.json()).toEqual({ invitations: [] });
    expect(await rosterOf(course._id)).toEqual({ students: ['future.student@example.edu'], pending: [] });
  });

  it('refuses to confirm an email nobody registered, or one registered as an instructor, with a clear 4xx', async () => {
    const course = await createCourse(t.app, owner);
    await addStudents(t.app, owner, course._id, ['nobody.yet@example.edu']);
    // An instructor account that predates its invitation (registration no longer makes one on an
    // invited address without proof, see below): the state the owner may still meet.
    await registerUser(t.app, { email: 'prof.now@example.edu', role: 'instructor' });
    await t.ctx.db
      .insert(pendingEnrollments)
      .values({ courseId: course._id, email: 'prof.now@example.edu', invitedById: owner.id });
    const confirm = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/courses/${course._id}/confirm-student`,
        headers: owner.auth,
        payload: { email },
      });
    const nobody = await confirm('nobody.yet@example.edu');
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().message).toBe(
      'Nobody has registered with nobody.yet@example.edu yet, so there is no one to confirm.',
    );
    const prof = await confirm('prof.now@example.edu');
    expect(prof.statusCode).toBe(400);
    expect(prof.json().message).toContain('registered as an instructor account');
    const notInvited = await confirm('never.invited@example.edu');
    expect(notInvited.statusCode).toBe(404);
    expect(await rosterOf(course._id)).toEqual({
      students: [],
      pending: ['nobody.yet@example.edu', 'prof.now@example.edu'],
    });
  });

  it('an invited address cannot be taken as an instructor account without proof; the real student still joins', async () => {
    const course = await createCourse(t.app, owner);
    await addStudents(t.app, owner, course._id, ['invited.student@example.edu']);
    const register = (name: string, role: 'student' | 'instructor', password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { name, email: 'invited.student@example.edu', password, role },
      });
    // The squatter is answered as anyone registering is, and nothing is made.
    const squat = await register('Squatter', 'instructor', 'squatters-password');
    expect(squat.statusCode).toBe(201);
    expect(squat.json()).toEqual({
      message: 'Registration successful! Please log in with your email and password.',
      signInNext: true,
    });
    expect(await t.ctx.db.select().from(users).where(eq(users.email, 'invited.student@example.edu'))).toEqual([]);
    const squatterLogin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'invited.student@example.edu', password: 'squatters-password' },
    });
    expect(squatterLogin.statusCode).toBe(401);

    // The invited student registers, the owner sees them by name and confirms them.
    expect((await register('Ivy Invited', 'student', 'ivys-own-passphrase')).statusCode).toBe(201);
    const staff = (
      await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: owner.auth })
    ).json();
    expect(staff.pendingStudents).toEqual([
      {
        email: 'invited.student@example.edu',
        invitedAt: expect.any(String),
        registeredName: 'Ivy Invited',
        registeredAsInstructor: false,
        // Never proved her address, holds nothing: "Not my student" would close it (decision 0096).
        registrantClosable: true,
      },
    ]);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course._id}/confirm-student`,
      headers: owner.auth,
      payload: { email: 'invited.student@example.edu' },
    });
    expect(confirmed.statusCode).toBe(200);
    expect(await rosterOf(course._id)).toEqual({ students: ['invited.student@example.edu'], pending: [] });
  });

  // Issue 28: without SMTP an address holds one account, and anyone can register any address first.
  it('someone who registers an invited address first, as a student, neither joins nor keeps the real student out', async () => {
    const course = await createCourse(t.app, owner, { title: 'Sought course' });
    const email = 'sought.student@example.edu';
    await addStudents(t.app, owner, course._id, [email]);
    const register = (name: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { name, email, password, role: 'student' } });
    const login = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

    expect((await register('Sam Squatter', 'squatters-passphrase')).statusCode).toBe(201);
    const squatter = await login('squatters-passphrase');
    expect(squatter.statusCode).toBe(200);
    const squatterAuth = { authorization: `Bearer ${squatter.json().token}` };
    // The invitation is not claimed by registering: the squatter sees no course.
    expect((await t.app.inject({ method: 'GET', url: '/api/courses', headers: squatterAuth })).json()).toEqual([]);
    // The real student is answered as anyone is, but the address is taken: she cannot sign in.
    expect((await register('Sol Sought', 'sols-own-passphrase')).statusCode).toBe(201);
    expect((await login('sols-own-passphrase')).statusCode).toBe(401);

    // The owner sees a name that is not their student's, and says so.
    const before = expectJson(
      await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: owner.auth }),
      200,
      CourseForStaff,
    );
    expect(before.pendingStudents.map((p) => p.registeredName)).toEqual(['Sam Squatter']);
    const declined = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course._id}/decline-registrant`,
      headers: owner.auth,
      payload: { email },
    });
    expect(declined.statusCode).toBe(200);
    expect(declined.json().message).toBe(
      `The account Sam Squatter registered with ${email} is closed. The invitation still waits: your student can now register with this email, and you confirm them here.`,
    );
    // The squatter's account is closed: its session ends and its password opens nothing.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: squatterAuth })).statusCode).toBe(401);
    expect((await login('squatters-passphrase')).statusCode).toBe(401);
    // The invitation still waits, for nobody yet.
    const waiting = expectJson(
      await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: owner.auth }),
      200,
      CourseForStaff,
    );
    expect(waiting.pendingStudents).toEqual([
      { email, invitedAt: expect.any(String), registeredName: null, registeredAsInstructor: false },
    ]);

    // The real student registers, signs in, and the owner confirms her.
    expect((await register('Sol Sought', 'sols-own-passphrase')).statusCode).toBe(201);
    const sol = await login('sols-own-passphrase');
    expect(sol.statusCode).toBe(200);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course._id}/confirm-student`,
      headers: owner.auth,
      payload: { email },
    });
    expect(confirmed.json().message).toBe(`Sol Sought (${email}) is now enrolled in this course.`);
    const list = expectJson(
      await t.app.inject({
        method: 'GET',
        url: '/api/courses',
        headers: { authorization: `Bearer ${sol.json().token}` },
      }),
      200,
      CourseList,
    );
    expect(list.map((c) => c.title)).toEqual(['Sought course']);
    const seats = await t.ctx.db.select().from(enrollments).where(eq(enrollments.courseId, course._id));
    expect(seats.map((seat) => seat.userId)).toEqual([sol.json().user._id]);
  });

  // Issue 28, deliver 3: an invitation is claimed only by the person who proves the email, and never blocks them.
  it('invites an address an unproved instructor account holds; "Not my student" closes it and the real student joins', async () => {
    const course = await createCourse(t.app, owner, { title: 'Squatted course' });
    const email = 'wanted.student@example.edu';
    const register = (name: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { name, email, password, role: 'student' } });
    const login = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    // Someone registers the student's address as an instructor before the owner adds it.
    const squatter = await registerUser(t.app, { role: 'instructor', email, name: 'Ian Instructorish' });

    const added = await addByJson(owner, course._id, { emails: [email] });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({
      message:
        'Students added successfully. 0 added, 1 invited whose email an instructor account holds without having proved it (if it is not your student\'s, choose "Not my student" on the Students page).',
      added: 0,
      alreadyEnrolled: 0,
      invited: 1,
      alreadyInvited: 0,
      rejected: [],
    });
    const waiting = expectJson(
      await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: owner.auth }),
      200,
      CourseForStaff,
    );
    // The Students page is told "Not my student" will close this account (not "ask for another email").
    expect(waiting.pendingStudents).toEqual([
      {
        email,
        invitedAt: expect.any(String),
        registeredName: null,
        registeredAsInstructor: true,
        instructorAccountClosable: true,
      },
    ]);
    // The invitation is not the instructor account's: it sees no course, and cannot be confirmed into it.
    expect((await t.app.inject({ method: 'GET', url: '/api/courses', headers: squatter.auth })).json()).toEqual([]);
    const confirm = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/courses/${course._id}/confirm-student`,
        headers: owner.auth,
        payload: { email },
      });
    expect((await confirm()).statusCode).toBe(400);
    // Adding it again changes nothing.
    expect((await addByJson(owner, course._id, { emails: [email] })).json()).toMatchObject({
      invited: 0,
      alreadyInvited: 1,
      rejected: [],
    });

    const declined = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course._id}/decline-registrant`,
      headers: owner.auth,
      payload: { email },
    });
    expect(declined.statusCode).toBe(200);
    expect(declined.json().message).toBe(
      `The account Ian Instructorish registered with ${email} is closed. The invitation still waits: your student can now register with this email, and you confirm them here.`,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: squatter.auth })).statusCode).toBe(401);
    expect((await login(squatter.password)).statusCode).toBe(401);

    // The real student registers with her address, and the owner confirms her by name.
    expect((await register('Wren Wanted', 'wrens-own-passphrase')).statusCode).toBe(201);
    const wren = await login('wrens-own-passphrase');
    expect(wren.statusCode).toBe(200);
    expect((await confirm()).json().message).toBe(`Wren Wanted (${email}) is now enrolled in this course.`);
    const list = expectJson(
      await t.app.inject({
        method: 'GET',
        url: '/api/courses',
        headers: { authorization: `Bearer ${wren.json().token}` },
      }),
      200,
      CourseList,
    );
    expect(list.map((c) => c.title)).toEqual(['Squatted course']);
    expect(await rosterOf(course._id)).toEqual({ students: [email], pending: [] });
  });

  it('still refuses to invite an address an instructor account proved or uses, and changes nothing', async () => {
    const course = await createCourse(t.app, owner);
    const proved = await registerUser(t.app, { role: 'instructor', name: 'Pia Proved' });
    await t.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, proved.id));
    forgetUser(t.ctx, proved.id);
    const teaching = await registerUser(t.app, { role: 'instructor', name: 'Tom Teaching' });
    await createCourse(t.app, teaching);

    const response = await addByJson(owner, course._id, { emails: [proved.email, teaching.email] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'No students were added: none of the 2 entries can be enrolled.',
      code: 'VALIDATION_FAILED',
      issues: expect.arrayContaining(
        [proved.email, teaching.email].map((path) => ({
          path,
          message: 'This is an instructor account; only student accounts can be enrolled.',
        })),
      ),
    });
    expect(await rosterOf(course._id)).toEqual({ students: [], pending: [] });
  });

  it('tells the Students page when an instructor account an invitation waits for can no longer be closed', async () => {
    const course = await createCourse(t.app, owner);
    const holder = await registerUser(t.app, { role: 'instructor', name: 'Hal Holder' });
    expect((await addByJson(owner, course._id, { emails: [holder.email] })).json()).toMatchObject({ invited: 1 });
    const closable = async () =>
      expectJson(
        await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: owner.auth }),
        200,
        CourseForStaff,
      ).pendingStudents.map((p) => [p.email, p.registeredAsInstructor, p.instructorAccountClosable]);
    expect(await closable()).toEqual([[holder.email, true, true]]);

    // Once the account teaches a course it is someone's: the owner is told to ask for another email.
    await createCourse(t.app, holder);
    expect(await closable()).toEqual([[holder.email, true, false]]);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course._id}/decline-registrant`,
      headers: owner.auth,
      payload: { email: holder.email },
    });
    expect(refused.statusCode).toBe(409);
  });

  it('closes only an account nobody relies on, and says why it will not otherwise', async () => {
    const course = await createCourse(t.app, owner);
    const other = await createCourse(t.app, owner, { title: 'Another course' });
    const proved = await registerUser(t.app, { name: 'Pat Proved' });
    await t.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, proved.id));
    forgetUser(t.ctx, proved.id);
    const seated = await registerUser(t.app, { name: 'Sid Seated' });
    await addStudents(t.app, owner, other._id, [seated.email]);
    await addStudents(t.app, owner, course._id, ['not.yet@example.edu']);
    // Accounts that predate their invitation (adding an account's email enrols it at once).
    await t.ctx.db.insert(pendingEnrollments).values([
      { courseId: course._id, email: proved.email, invitedById: owner.id },
      { courseId: course._id, email: seated.email, invitedById: owner.id },
    ]);
    const decline = (email: string, user: TestUser = owner) =>
      t.app.inject({
        method: 'POST',
        url: `/api/courses/${course._id}/decline-registrant`,
        headers: user.auth,
        payload: { email },
      });

    const nobody = await decline('not.yet@example.edu');
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().message).toBe(
      'Nobody has registered with not.yet@example.edu yet, so there is no account to close.',
    );
    expect((await decline('never.invited@example.edu')).statusCode).toBe(404);
    const provedAnswer = await decline(proved.email);
    expect(provedAnswer.statusCode).toBe(409);
    expect(provedAnswer.json().message).toContain('has proved this email address');
    const seatedAnswer = await decline(seated.email);
    expect(seatedAnswer.statusCode).toBe(409);
    expect(seatedAnswer.json().message).toContain('is already in use');
    // A student cannot close anyone's account through a course they do not own.
    expect((await decline(seated.email, seated)).statusCode).toBe(403);
    expect((await decline('bad address')).statusCode).toBe(400);

    // Nothing changed: both accounts still sign in, every invitation still waits.
    for (const person of [proved, seated]) {
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: person.email, password: person.password },
      });
      expect(again.statusCode).toBe(200);
    }
    expect((await rosterOf(course._id)).pending).toEqual([proved.email, seated.email, 'not.yet@example.edu'].sort());
  });

  it('tells the Students page which student registrants Not my student can close, by the rule it closes by (decision 0096)', async () => {
    const course = await createCourse(t.app, owner);
    const other = await createCourse(t.app, owner, { title: 'Another course' });
    const squatter = await registerUser(t.app, { name: 'Sam Squatter' });
    const proved = await registerUser(t.app, { name: 'Pat Proved' });
    await t.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, proved.id));
    forgetUser(t.ctx, proved.id);
    const seated = await registerUser(t.app, { name: 'Sid Seated' });
    await addStudents(t.app, owner, other._id, [seated.email]);
    // Accounts that predate their invitation (adding an account's email enrols it at once).
    await t.ctx.db.insert(pendingEnrollments).values(
      [squatter, proved, seated].map((person) => ({
        courseId: course._id,
        email: person.email,
        invitedById: owner.id,
      })),
    );
    const pending = expectJson(
      await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: owner.auth }),
      200,
      CourseForStaff,
    ).pendingStudents;
    const closable = Object.fromEntries(pending.map((p) => [p.email, [p.registeredName, p.registrantClosable]]));
    expect(closable).toEqual({
      [squatter.email]: ['Sam Squatter', true],
      [proved.email]: ['Pat Proved', false],
      [seated.email]: ['Sid Seated', false],
    });
    // What the page offers is what the server does: each refused one answers 409, the offered one closes.
    for (const person of [proved, seated, squatter]) {
      const answer = await t.app.inject({
        method: 'POST',
        url: `/api/courses/${course._id}/decline-registrant`,
        headers: owner.auth,
        payload: { email: person.email },
      });
      expect(answer.statusCode).toBe(closable[person.email]![1] ? 200 : 409);
    }
  });

  it('claims an invitation that raced with registration when a student with a proved email lists their courses', async () => {
    const course = await createCourse(t.app, owner);
    const student = await registerUser(t.app);
    // The state a lost race leaves: a pending row for an email that already has an account.
    await t.ctx.db
      .insert(pendingEnrollments)
      .values({ courseId: course._id, email: student.email, invitedById: owner.id });
    // Not proved (no SMTP link followed): nothing is claimed.
    const unproved = (await t.app.inject({ method: 'GET', url: '/api/courses', headers: student.auth })).json();
    expect(unproved).toEqual([]);
    await t.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, student.id));
    forgetUser(t.ctx, student.id); // the row changed behind the app's back: drop its cached copy
    const list = expectJson(
      await t.app.inject({ method: 'GET', url: '/api/courses', headers: student.auth }),
      200,
      CourseList,
    );
    expect(list.map((c) => c._id)).toEqual([course._id]);
    expect(await t.ctx.db.select().from(pendingEnrollments).where(eq(pendingEnrollments.email, student.email))).toEqual(
      [],
    );
  });
});

describe('POST /api/courses/:id/add-students/excel', () => {
  it('reads every email cell of every sheet, with or without a header row', async () => {
    const course = await createCourse(t.app, owner);
    const ann = await registerUser(t.app, { email: 'ann@example.edu' });
    const workbook = makeWorkbook({
      Roster: [
        ['Name', 'Email', 'Notes'],
        ['Ann', 'ANN@example.edu', 42],
        ['Bob', 'bob@example.edu', 'also: carl@example.edu; dee@example.edu'],
        ['Eve', 'eve@@broken', ''],
      ],
      'Late adds': [['fay@example.edu'], [''], ['Gus <gus@example.edu>']],
    });
    const response = await addByExcel(owner, course._id, xlsx(workbook));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message:
        'Students added via Excel successfully! 1 added, 5 invited (no account yet; once they register, you confirm them on the Students page), 1 rejected.',
      added: 1,
      alreadyEnrolled: 0,
      invited: 5,
      alreadyInvited: 0,
      rejected: [{ entry: 'eve@@broken', reason: 'This is not a valid email address.' }],
    });
    expect(await rosterOf(course._id)).toEqual({
      students: [ann.email],
      pending: ['bob@example.edu', 'carl@example.edu', 'dee@example.edu', 'fay@example.edu', 'gus@example.edu'],
    });
  });

  it('reads legacy .xls files too', async () => {
    const course = await createCourse(t.app, owner);
    const workbook = makeWorkbook({ Sheet1: [['old.format@example.edu'], ['second@example.edu']] }, 'xls');
    expect(workbook.subarray(0, 4).toString('hex')).toBe('d0cf11e0');
    const response = await addByExcel(owner, course._id, {
      content: workbook,
      filename: 'roster.xls',
      contentType: 'application/vnd.ms-excel',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ invited: 2, rejected: [] });
  });

  it('asks for a file when none is chosen (missing part or an empty file input)', async () => {
    const course = await createCourse(t.app, owner);
    for (const file of [undefined, { content: Buffer.alloc(0), filename: '' }]) {
      const response = await addByExcel(owner, course._id, file);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'Please select an Excel file first.', code: 'BAD_REQUEST' });
    }
  });

  it('refuses a file that is not a spreadsheet, whatever its name', async () => {
    const course = await createCourse(t.app, owner);
    const response = await addByExcel(
      owner,
      course._id,
      xlsx(Buffer.from('name,email\nann,ann@example.edu\n'), 'roster.xlsx'),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'This file is not an Excel spreadsheet. Please upload an .xlsx or .xls file.',
      code: 'UNSUPPORTED_FILE',
    });
    expect(await rosterOf(course._id)).toEqual({ students: [], pending: [] });
  });

  it.each([
    ['a zip header followed by garbage', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)])],
    [
      'a real workbook cut in half',
      (() => {
        const book = makeWorkbook({ S: [['a@example.edu']] });
        return book.subarray(0, Math.floor(book.length / 2));
      })(),
    ],
    [
      'an OLE header followed by garbage',
      Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(600, 3)]),
    ],
    [
      'a zip whose directory lies about a size',
      makeZip(
        xlsxParts(sheetXml([['a@example.edu']])).map((entry, i) => (i === 4 ? { ...entry, declaredSize: 10 } : entry)),
      ),
    ],
  ])('answers a malformed spreadsheet (%s) with a clear 400', async (_label, content) => {
    const course = await createCourse(t.app, owner);
    const response = await addByExcel(owner, course._id, xlsx(content));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'The spreadsheet could not be read. It may be damaged: please save it again as .xlsx or .xls and retry.',
      code: 'UNSUPPORTED_FILE',
    });
  });

  it('reads a hand-built workbook (the builder used by the hostile cases is a faithful zip writer)', async () => {
    const course = await createCourse(t.app, owner);
    const content = makeZip(xlsxParts(sheetXml([['Email'], ['hand.built@example.edu']])));
    const response = await addByExcel(owner, course._id, xlsx(content));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ invited: 1 });
  });

  it('refuses a zip bomb by its declared unpacked size, before inflating anything', async () => {
    const course = await createCourse(t.app, owner);
    // 64 MB of spaces deflates to ~64 KB; the central directory honestly declares 64 MB.
    const padding = Buffer.alloc(64 * 1024 * 1024, 0x20);
    const parts = xlsxParts(sheetXml([['bomb@example.edu']]));
    const bomb = makeZip([...parts, { name: 'xl/media/padding.bin', content: padding }]);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const response = await addByExcel(owner, course._id, xlsx(bomb));
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('PAYLOAD_TOO_LARGE');
    expect(response.json().message).toMatch(
      /^The spreadsheet is too large once unpacked \(at most 20 MB\): it declares \d+ bytes once unpacked\.$/,
    );
  });

  it('refuses a zip bomb that declares a tiny size: inflation stops at the limit', async () => {
    const course = await createCourse(t.app, owner);
    const padding = Buffer.alloc(64 * 1024 * 1024, 0x20);
    const parts = xlsxParts(sheetXml([['bomb@example.edu']]));
    const bomb = makeZip([...parts, { name: 'xl/media/padding.bin', content: padding, declaredSize: 1000 }]);
    const response = await addByExcel(owner, course._id, xlsx(bomb));
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toContain('xl/media/padding.bin unpacks beyond the limit');
  });

  it('refuses a sheet with more rows than allowed, counted before parsing', async () => {
    const course = await createCourse(t.app, owner);
    const rows = Array.from({ length: 10_001 }, (_, i) => [`r${i}`]);
    const response = await addByExcel(owner, course._id, xlsx(makeZip(xlsxParts(sheetXml(rows)))));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      message: 'The spreadsheet has too many rows (at most 10000).',
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('refuses an upload larger than the spreadsheet cap (5 MB) while streaming', async () => {
    const course = await createCourse(t.app, owner);
    const big = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(5 * 1024 * 1024, 1)]);
    const response = await addByExcel(owner, course._id, xlsx(big));
    expect(response.statusCode).toBe(413);
  });

  it('answers 400 when the spreadsheet holds no email at all', async () => {
    const course = await createCourse(t.app, owner);
    const response = await addByExcel(owner, course._id, xlsx(makeWorkbook({ S: [['Name'], ['Ann'], [3]] })));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('No email addresses were found in this spreadsheet.');
  });

  it('lets only the owning instructor upload a roster: student 403, other instructor 404', async () => {
    const course = await createCourse(t.app, owner);
    const student = await registerUser(t.app);
    await addStudents(t.app, owner, course._id, [student.email]);
    const otherInstructor = await registerUser(t.app, { role: 'instructor' });
    const book = xlsx(makeWorkbook({ S: [['intruder@example.edu']] }));
    expect((await addByExcel(student, course._id, book)).statusCode).toBe(403);
    expect((await addByExcel(otherInstructor, course._id, book)).statusCode).toBe(404);
    const enrolled = await t.ctx.db.select().from(enrollments).where(eq(enrollments.courseId, course._id));
    expect(enrolled).toHaveLength(1);
  });
});

/** Worksheet XML of `rows` rows, each with one inline-string cell at `column` (e.g. 'XFD'). */
function sheetWithOneCellPerRowAt(column: string, rows: number): string {
  const body = Array.from(
    { length: rows },
    (_, i) => `<row r="${i + 1}"><c r="${column}${i + 1}" t="inlineStr"><is><t>s${i}@example.edu</t></is></c></row>`,
  ).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`;
}

describe('hostile spreadsheets do not hold the server', () => {
  it('refuses 10,000 rows with one cell at column XFD (52 KB) with a clear 413, before parsing', async () => {
    const course = await createCourse(t.app, owner);
    const content = makeZip(xlsxParts(sheetWithOneCellPerRowAt('XFD', 10_000)));
    expect(content.length).toBeLessThan(100 * 1024);
    const response = await addByExcel(owner, course._id, xlsx(content));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      message:
        'The spreadsheet uses too many columns (at most 256, up to column IV). Please keep only the columns with email addresses.',
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(await rosterOf(course._id)).toEqual({ students: [], pending: [] });
  });

  it('refuses a sheet whose declared dimension is huge, and one with too many cells', async () => {
    const course = await createCourse(t.app, owner);
    const declared = sheetXml([['one@example.edu']]).replace(
      '<sheetData>',
      '<dimension ref="A1:XFD1048576"/><sheetData>',
    );
    const wide = await addByExcel(owner, course._id, xlsx(makeZip(xlsxParts(declared))));
    expect(wide.statusCode).toBe(413);
    expect(wide.json().message).toMatch(/^The spreadsheet has too many rows|^The spreadsheet uses too many columns/);

    // 10,000 rows x 21 columns: within the row and column caps, over the 200,000-cell cap.
    const rows = Array.from({ length: 10_000 }, (_, r) => Array.from({ length: 21 }, (__, c) => `${r}.${c}`));
    const crowded = await addByExcel(owner, course._id, xlsx(makeZip(xlsxParts(sheetXml(rows)))));
    expect(crowded.statusCode).toBe(413);
    expect(crowded.json().message).toBe(
      'The spreadsheet has too many filled cells (at most 200,000). Please keep only the columns with email addresses.',
    );
  });

  it('reads a spreadsheet on its own thread: a request sent while it is being read answers first', async () => {
    const course = await createCourse(t.app, owner);
    // Within every cap, and a real read (10,000 rows x 10 cells, each a possible email).
    const rows = Array.from({ length: 10_000 }, (_, r) =>
      Array.from({ length: 10 }, (__, c) => `student${r}.${c}@example.edu`),
    );
    const heavy = xlsx(makeZip(xlsxParts(sheetXml(rows))));
    const order: string[] = [];
    const reading = once(spreadsheetThreadEvents, 'reading');
    const upload = addByExcel(owner, course._id, heavy).then((response) => {
      order.push('spreadsheet');
      return response;
    });
    await reading; // a thread holds the file now
    const light = t.app.inject({ method: 'GET', url: '/api/courses', headers: owner.auth }).then((response) => {
      order.push('light');
      return response;
    });
    const [uploaded, answered] = await Promise.all([upload, light]);
    expect(answered.statusCode).toBe(200);
    expect(order).toEqual(['light', 'spreadsheet']);
    // 100,000 entries are over the per-request cap: refused with the cap's message, not a 500.
    expect(uploaded.statusCode).toBe(413);
    expect(uploaded.json().message).toMatch(/^Please add at most 2000 students at a time/);
  });

  it('stops a read that runs over its time limit and answers a clear 422', async () => {
    const content = makeWorkbook({ S: [['time.limit@example.edu']] });
    const refused = await readEmailsFromSpreadsheetOffThread(content, undefined, {
      ...SPREADSHEET_THREAD_LIMITS,
      timeoutMs: 1,
    }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({
      status: 422,
      code: 'UNPROCESSABLE',
      message:
        'Reading this spreadsheet took longer than 1 ms, so it was stopped. Please save only the sheet with the email addresses as .xlsx and upload it again.',
    });
    // The next read, with the usual limits, is not affected.
    expect(await readEmailsFromSpreadsheetOffThread(content)).toEqual(['time.limit@example.edu']);
  });
});
