import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CourseForStaff } from '@gradewise/shared/contracts/courses';
import { expectJson } from './support/expect-json.ts';
import { passwordProblem } from '../src/auth/password-policy.ts';
import { users } from '../src/db/schema.ts';
import { BASE_WAIT_SECONDS, clientOf, FREE_ATTEMPTS, MAX_WAIT_SECONDS } from '../src/services/login-throttle.ts';
import { addStudents, createCourse, submitAnswer } from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/** The app's clock, moved by the tests instead of waiting. */
let now = new Date('2026-03-01T09:00:00Z');
const advanceSeconds = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
});
afterAll(async () => {
  await t?.close();
});

const login = (email: string, password: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });
const me = (auth: { authorization: string }) => t.app.inject({ method: 'GET', url: '/api/auth/user', headers: auth });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('password policy', () => {
  it.each([
    ['password', 'too common'],
    ['12345678', 'too common'],
    ['        ', 'too common'],
    ['qwertyuiop', 'too common'],
    ['Password1', 'too common'],
    ['pat@example.edu', 'must not be your email'],
    ['PAT@example.edu', 'must not be your email'],
    ['short', 'at least 8 characters'],
  ])('refuses %j (%s)', async (password, reason) => {
    expect(await passwordProblem(password, { email: 'pat@example.edu', name: 'Pat Lee' })).toContain(reason);
  });

  it.each(['correct horse battery', 'long-enough-password', 'analytical-engine'])('accepts %j', async (password) => {
    expect(await passwordProblem(password, { email: 'pat@example.edu' })).toBeNull();
  });

  it.each(['password', '12345678', '        '])(
    'registration refuses %j with a 400 and creates nothing',
    async (password) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { name: 'Weak', email: 'weak@example.edu', password },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('WEAK_PASSWORD');
      expect(await t.ctx.db.select().from(users).where(eq(users.email, 'weak@example.edu'))).toEqual([]);
    },
  );

  it('registration refuses the email as the password', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Same', email: 'same.as.password@example.edu', password: 'same.as.password@example.edu' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Your password must not be your email address.');
  });
});

describe('login throttle per account and client', () => {
  it('holds back one address guessing at an account, with a growing wait, no oracle while waiting, and Retry-After', async () => {
    const victim = await registerUser(t.app, { email: 'victim@example.edu' });
    const statuses: number[] = [];
    for (let i = 0; i < 25; i += 1)
      statuses.push((await login(victim.email, `guess-number-${i}`, '10.0.0.1')).statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(FREE_ATTEMPTS);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25 - FREE_ATTEMPTS);
    // While waiting, even the right password is not checked from that address: 429, not 200.
    const right = await login(victim.email, victim.password, '10.0.0.1');
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toBe(
      `Too many failed attempts for this account. Please wait ${BASE_WAIT_SECONDS} seconds and try again, or reset your password.`,
    );
    expect(right.headers['retry-after']).toBe(String(BASE_WAIT_SECONDS));
    expect(right.json().retryAfterSeconds).toBe(BASE_WAIT_SECONDS);

    // The wait doubles with each further failure.
    advanceSeconds(BASE_WAIT_SECONDS);
    expect((await login(victim.email, 'another-wrong-guess', '10.0.0.1')).statusCode).toBe(401);
    const doubled = await login(victim.email, victim.password, '10.0.0.1');
    expect(doubled.statusCode).toBe(429);
    expect(doubled.json().message).toContain(`wait ${BASE_WAIT_SECONDS * 2} seconds`);
    expect(doubled.headers['retry-after']).toBe(String(BASE_WAIT_SECONDS * 2));

    // After the wait the right password works and the count starts over.
    advanceSeconds(BASE_WAIT_SECONDS * 2);
    expect((await login(victim.email, victim.password, '10.0.0.1')).statusCode).toBe(200);
    expect((await login(victim.email, 'one-more-typo', '10.0.0.1')).statusCode).toBe(401);
    expect((await login(victim.email, victim.password, '10.0.0.1')).statusCode).toBe(200);
  });

  it('lets the owner sign in from elsewhere while another address hammers the account', async () => {
    const owner = await registerUser(t.app, { email: 'hammered@example.edu' });
    const hammer = async (count: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < count; i += 1)
        statuses.push((await login(owner.email, `guess-${i}`, '203.0.113.66')).statusCode);
      return statuses;
    };
    expect(await hammer(FREE_ATTEMPTS + 20)).toEqual([
      ...Array<number>(FREE_ATTEMPTS).fill(401),
      ...Array<number>(20).fill(429),
    ]);
    // The owner, at home and on a phone (an IPv6 network), signs in at once, again and again,
    // while the hammering goes on.
    for (const address of ['198.51.100.7', '2001:db8:aaaa:1::42']) {
      expect((await login(owner.email, owner.password, address)).statusCode).toBe(200);
      expect(await hammer(3)).toEqual([429, 429, 429]);
      expect((await login(owner.email, owner.password, address)).statusCode).toBe(200);
    }
    // The guesser stays held back, and its own right guess is not checked.
    expect((await login(owner.email, owner.password, '203.0.113.66')).statusCode).toBe(429);
    // The owner's typos count for the owner's address alone.
    for (let i = 0; i < FREE_ATTEMPTS; i += 1) await login(owner.email, `my-typo-${i}`, '198.51.100.7');
    expect((await login(owner.email, owner.password, '198.51.100.7')).statusCode).toBe(429);
    expect((await login(owner.email, owner.password, '2001:db8:aaaa:1::42')).statusCode).toBe(200);
  });

  it('counts an IPv6 network as one client, and IPv4 mapped into IPv6 as its IPv4 address', async () => {
    expect(clientOf('2001:db8:aaaa:1::42')).toBe('2001:db8:aaaa:1::/64');
    expect(clientOf('2001:0db8:aaaa:0001:ffff:1:2:3')).toBe('2001:db8:aaaa:1::/64');
    expect(clientOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientOf('192.0.2.7')).toBe('192.0.2.7');
    const user = await registerUser(t.app, { email: 'hopping@example.edu' });
    // Hopping between addresses of one /64 does not buy more guesses.
    for (let i = 0; i < FREE_ATTEMPTS; i += 1) await login(user.email, `guess-${i}`, `2001:db8:bbbb:2::${i + 1}`);
    expect((await login(user.email, user.password, '2001:db8:bbbb:2::ffff')).statusCode).toBe(429);
    expect((await login(user.email, user.password, '2001:db8:bbbb:3::1')).statusCode).toBe(200);
  });

  it('caps the wait', async () => {
    const user = await registerUser(t.app, { email: 'capped@example.edu' });
    for (let round = 0; round < 12; round += 1) {
      await login(user.email, 'wrong-guess-again');
      advanceSeconds(MAX_WAIT_SECONDS);
    }
    await login(user.email, 'wrong-guess-again');
    const waiting = await login(user.email, user.password);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json().message).toContain(`wait ${MAX_WAIT_SECONDS / 60} minutes`);
    expect(waiting.headers['retry-after']).toBe(String(MAX_WAIT_SECONDS));
  });

  it('does not lock out another user behind the same address', async () => {
    const target = await registerUser(t.app, { email: 'target@example.edu' });
    const classmate = await registerUser(t.app, { email: 'classmate@example.edu' });
    for (let i = 0; i < FREE_ATTEMPTS + 5; i += 1) await login(target.email, `guess-${i}`, '192.0.2.7');
    expect((await login(target.email, target.password, '192.0.2.7')).statusCode).toBe(429);
    expect((await login(classmate.email, classmate.password, '192.0.2.7')).statusCode).toBe(200);
  });

  it('throttles unknown emails the same way (the throttle lists no accounts)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < FREE_ATTEMPTS + 2; i += 1)
      statuses.push((await login('ghost@example.edu', `guess-${i}`)).statusCode);
    expect(statuses).toEqual([...Array<number>(FREE_ATTEMPTS).fill(401), 429, 429]);
  });
});

describe('sessions', () => {
  it('logout ends this token only', async () => {
    const user = await registerUser(t.app);
    const other = (await login(user.email, user.password)).json().token as string;
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.auth });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: 'You are logged out.' });
    expect((await me(user.auth)).statusCode).toBe(401);
    expect((await me(bearer(other))).statusCode).toBe(200);
  });

  it('sign out everywhere ends every token, and a new login works', async () => {
    const user = await registerUser(t.app);
    const second = (await login(user.email, user.password)).json().token as string;
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout-everywhere', headers: user.auth });
    expect(out.statusCode).toBe(200);
    expect((await me(user.auth)).statusCode).toBe(401);
    expect((await me(bearer(second))).statusCode).toBe(401);
    const fresh = (await login(user.email, user.password)).json().token as string;
    expect((await me(bearer(fresh))).statusCode).toBe(200);
  });
});

describe('password change', () => {
  const change = (user: TestUser, currentPassword: string, newPassword: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: user.auth,
      payload: { currentPassword, newPassword },
    });

  it('needs the current password, applies the policy, and signs out other sessions', async () => {
    const user = await registerUser(t.app);
    const otherSession = (await login(user.email, user.password)).json().token as string;
    const wrong = await change(user, 'not-the-password', 'a fresh passphrase here');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Your current password is not right.');
    const weak = await change(user, user.password, '12345678');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().code).toBe('WEAK_PASSWORD');

    const changed = await change(user, user.password, 'a fresh passphrase here');
    expect(changed.statusCode).toBe(200);
    expect((await me(bearer(changed.json().token))).statusCode).toBe(200);
    expect((await me(bearer(otherSession))).statusCode).toBe(401);
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    expect((await login(user.email, 'a fresh passphrase here')).statusCode).toBe(200);
  });
});

describe('account deletion', () => {
  it('a student: the account is gone, their graded work stays in the course, the email can register anew', async () => {
    const instructor = await registerUser(t.app, { role: 'instructor' });
    const course = await createCourse(t.app, instructor);
    const student = await registerUser(t.app, { name: 'Leaving Student' });
    await addStudents(t.app, instructor, course._id, [student.email]);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/delete-account',
      headers: student.auth,
      payload: { password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(400);
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/auth/delete-account',
      headers: student.auth,
      payload: { password: student.password },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await me(student.auth)).statusCode).toBe(401);
    expect((await login(student.email, student.password)).statusCode).toBe(401);

    // The course still answers, with the seat shown as a deleted account.
    const detail = await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: instructor.auth });
    expect(expectJson(detail, 200, CourseForStaff).students.map((s) => s.name)).toEqual(['Deleted account']);

    // The address is free again, as a new account that sees nothing of the old one.
    const again = await registerUser(t.app, { email: student.email });
    expect(again.id).not.toBe(student.id);
    expect((await t.app.inject({ method: 'GET', url: '/api/courses', headers: again.auth })).json()).toEqual([]);
  });

  it('an instructor who owns courses is refused with a 409 and keeps the account', async () => {
    const instructor = await registerUser(t.app, { role: 'instructor' });
    await createCourse(t.app, instructor);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/auth/delete-account',
      headers: instructor.auth,
      payload: { password: instructor.password },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('You teach 1 course');
    expect((await me(instructor.auth)).statusCode).toBe(200);
  });
});

describe('graded work of a deleted student', () => {
  it('stays in the grades export', async () => {
    // Uses the fixtures' world: a question with a submission that gets graded.
    const { createCourseWorld } = await import('./support/course-fixtures.ts');
    const world = await createCourseWorld(t.app);
    const submission = await submitAnswer(t.app, world.student, world.assignment._id, world.question._id);
    const base = `/api/assignments/${world.assignment._id}/questions/${world.question._id}`;
    const saved = await t.app.inject({
      method: 'POST',
      url: `${base}/save-grade/${submission._id}`,
      headers: world.instructor.auth,
      payload: { grade: 10, feedback: '', comments: [], expectedGradeId: null },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/auth/delete-account',
      headers: world.student.auth,
      payload: { password: world.student.password },
    });
    expect(deleted.statusCode).toBe(200);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${world.assignment._id}/grades.csv`,
      headers: world.instructor.auth,
    });
    expect(csv.statusCode).toBe(200);
    const row = csv.body.split('\n').find((line) => line.includes('Deleted account'));
    expect(row).toBeDefined();
    expect(row!.split(',')).toContain('10');
  });
});
