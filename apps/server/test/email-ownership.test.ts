import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CourseForStaff, CourseList } from '@gradewise/shared/contracts/courses';
import { expectJson } from './support/expect-json.ts';
import { users } from '../src/db/schema.ts';
import { newId } from '../src/lib/ids.ts';
import { mailboxOf, MAILS_PER_MAILBOX_PER_HOUR } from '../src/services/mail-throttle.ts';
import { addStudents, createCourse } from './support/course-fixtures.ts';
import { registerUser as registerWithoutSmtp, type TestUser } from './support/http.ts';
import { linkIn, SmtpInbox } from './support/smtp-inbox.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * With SMTP (issue 15): real mail through nodemailer to a real SMTP server started here, and the
 * links read back out of the received messages.
 */
const PUBLIC_URL = 'http://gradewise.test';

let inbox: SmtpInbox;
let t: TestApp;
let now = new Date('2026-03-02T08:00:00Z');
beforeAll(async () => {
  inbox = await SmtpInbox.start();
  t = await createTestApp(
    { SMTP_URL: inbox.url, MAIL_FROM: 'Gradewise <grading@school.test>', PUBLIC_URL },
    { clock: () => now },
  );
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

const register = (payload: { name: string; email: string; password: string; role?: string }) =>
  t.app.inject({ method: 'POST', url: '/api/auth/register', payload });
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const verify = (token: string) => t.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });

/** Registers through the emailed link, as a person with the inbox would. */
async function registerVerified(email: string, role = 'student'): Promise<TestUser> {
  const since = inbox.received.length;
  const password = 'correct horse battery';
  expect((await register({ name: `Person ${email}`, email, password, role })).statusCode).toBe(202);
  const mail = await inbox.nextFor(email, since);
  const verified = await verify(tokenOf(linkIn(mail, `${PUBLIC_URL}/verify-email?token=`)));
  expect(verified.statusCode).toBe(200);
  const { token, user } = verified.json();
  return {
    id: user._id,
    name: user.name,
    email,
    password,
    role: user.role,
    token,
    auth: { authorization: `Bearer ${token}` },
  };
}

describe('registration with SMTP', () => {
  it('creates no account until the emailed link is followed; the link logs in and works once', async () => {
    const since = inbox.received.length;
    const response = await register({ name: 'Nia', email: 'nia@school.test', password: 'correct horse battery' });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({
      message: 'Almost done: we sent a link to nia@school.test. Open it within 24 hours to finish registering.',
      verificationSent: true,
    });
    expect(await t.ctx.db.select().from(users).where(eq(users.email, 'nia@school.test'))).toEqual([]);

    const mail = await inbox.nextFor('nia@school.test', since);
    expect(mail.subject).toBe('Confirm your email for Gradewise');
    const token = tokenOf(linkIn(mail, `${PUBLIC_URL}/verify-email?token=`));
    const verified = await verify(token);
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user).toMatchObject({ email: 'nia@school.test', name: 'Nia', role: 'student' });
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { authorization: `Bearer ${verified.json().token}` },
    });
    expect(me.statusCode).toBe(200);

    const again = await verify(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('LINK_INVALID');
  });

  it('answers the same for an email that already has an account (no account listing), and tells its owner', async () => {
    await registerVerified('existing@school.test');
    const since = inbox.received.length;
    const taken = await register({ name: 'Intruder', email: 'existing@school.test', password: 'another long secret' });
    const fresh = await register({ name: 'Newcomer', email: 'newcomer@school.test', password: 'another long secret' });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.json().verificationSent).toBe(true);
    expect(Object.keys(taken.json())).toEqual(Object.keys(fresh.json()));
    const notice = await inbox.nextFor('existing@school.test', since);
    expect(notice.subject).toBe('You already have a Gradewise account');
    expect(notice.text).not.toContain('verify-email');
  });

  it('expires the link', async () => {
    const since = inbox.received.length;
    await register({ name: 'Late', email: 'late@school.test', password: 'correct horse battery' });
    const mail = await inbox.nextFor('late@school.test', since);
    now = new Date(now.getTime() + 25 * 3600 * 1000);
    const expired = await verify(tokenOf(linkIn(mail, `${PUBLIC_URL}/verify-email?token=`)));
    expect(expired.statusCode).toBe(400);
    expect(expired.json().code).toBe('LINK_INVALID');
  });
});

describe('invitations with SMTP', () => {
  it('attach only when the invited owner follows the link; someone else registering the email first gets nothing', async () => {
    const instructor = await registerVerified('teacher@school.test', 'instructor');
    const course = await createCourse(t.app, instructor, { title: 'Biology' });
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course._id}/add-students`,
      headers: instructor.auth,
      payload: { emails: ['invited@school.test'] },
    });
    // With SMTP the words say what happens here: the student proves the address, then joins.
    expect(added.json().message).toBe(
      'Students added successfully. 0 added, 1 invited (no account yet; they join once they register and confirm their email).',
    );

    // An attacker registers the invited email (as an instructor, or a student): no account, no course.
    const attempt = await register({
      name: 'Mallory',
      email: 'invited@school.test',
      password: 'mallory secret phrase',
      role: 'instructor',
    });
    expect(attempt.statusCode).toBe(202);
    expect(await t.ctx.db.select().from(users).where(eq(users.email, 'invited@school.test'))).toEqual([]);
    const roster = expectJson(
      await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: instructor.auth }),
      200,
      CourseForStaff,
    );
    expect(roster.pendingStudents.map((p) => p.email)).toEqual(['invited@school.test']);
    expect(roster.invitationsConfirmedBy).toBe('email');

    // The owner of the address registers too and follows their own (latest) link.
    const student = await registerVerified('invited@school.test');
    expect(student.role).toBe('student');
    const courses = expectJson(
      await t.app.inject({ method: 'GET', url: '/api/courses', headers: student.auth }),
      200,
      CourseList,
    );
    expect(courses.map((c) => c.title)).toEqual(['Biology']);
    const after = expectJson(
      await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: instructor.auth }),
      200,
      CourseForStaff,
    );
    expect(after.pendingStudents).toEqual([]);
    expect(after.students.map((s) => s.email)).toEqual(['invited@school.test']);
  });

  it('keeps the invitation when the address owner registers as an instructor', async () => {
    const instructor = await registerVerified('teacher2@school.test', 'instructor');
    const course = await createCourse(t.app, instructor);
    await addStudents(t.app, instructor, course._id, ['dual@school.test']);
    await registerVerified('dual@school.test', 'instructor');
    const detail = expectJson(
      await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: instructor.auth }),
      200,
      CourseForStaff,
    );
    expect(detail.pendingStudents.map((p) => p.email)).toEqual(['dual@school.test']);
  });

  // Issue 28, deliver 3: an instructor account made before email was set up, which never proved the address.
  it('invites past an unproved instructor account; once the owner closes it, the student who proves the email joins', async () => {
    const instructor = await registerVerified('teacher4@school.test', 'instructor');
    const course = await createCourse(t.app, instructor, { title: 'Physics' });
    const email = 'held@school.test';
    await t.ctx.db
      .insert(users)
      .values({ id: newId(), name: 'Early Bird', email, passwordHash: 'not a real hash', role: 'instructor' });

    const added = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course._id}/add-students`,
      headers: instructor.auth,
      payload: { emails: [email] },
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({ invited: 1, rejected: [] });
    // While that account holds the address, the student's registration only tells her so.
    const since = inbox.received.length;
    expect((await register({ name: 'Hal', email, password: 'hals own passphrase' })).statusCode).toBe(202);
    expect((await inbox.nextFor(email, since)).subject).toBe('You already have a Gradewise account');

    const declined = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course._id}/decline-registrant`,
      headers: instructor.auth,
      payload: { email },
    });
    expect(declined.statusCode).toBe(200);
    // She registers again and follows the link: the proved address claims the invitation, no confirmation needed.
    const student = await registerVerified(email);
    const courses = expectJson(
      await t.app.inject({ method: 'GET', url: '/api/courses', headers: student.auth }),
      200,
      CourseList,
    );
    expect(courses.map((c) => c.title)).toEqual(['Physics']);
  });

  it('still enrols an already registered student at once', async () => {
    const instructor = await registerVerified('teacher3@school.test', 'instructor');
    const student = await registerVerified('already@school.test');
    const course = await createCourse(t.app, instructor, { title: 'Chemistry' });
    await addStudents(t.app, instructor, course._id, [student.email]);
    const courses = expectJson(
      await t.app.inject({ method: 'GET', url: '/api/courses', headers: student.auth }),
      200,
      CourseList,
    );
    expect(courses.map((c) => c.title)).toEqual(['Chemistry']);
  });
});

describe('password reset with SMTP', () => {
  it('sends a single-use link that sets a new password and ends every session', async () => {
    const user = await registerVerified('forgetful@school.test');
    const since = inbox.received.length;
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: user.email },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: 'nobody-here@school.test' },
    });
    expect(asked.statusCode).toBe(200);
    expect(unknown.json()).toEqual(asked.json());
    const mail = await inbox.nextFor(user.email, since);
    expect(mail.subject).toBe('Reset your Gradewise password');
    const token = tokenOf(linkIn(mail, `${PUBLIC_URL}/reset-password?token=`));

    const reset = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });
    const weak = await reset('12345678');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().code).toBe('WEAK_PASSWORD');
    const done = await reset('a brand new passphrase');
    expect(done.statusCode).toBe(200);
    expect((await reset('yet another passphrase')).json().code).toBe('LINK_INVALID');

    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: user.auth })).statusCode).toBe(401);
    const login = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } });
    expect((await login(user.password)).statusCode).toBe(401);
    expect((await login('a brand new passphrase')).statusCode).toBe(200);
  });
});

describe('account emails are limited per recipient, whoever asks', () => {
  const sentTo = (mailbox: RegExp, since: number) =>
    inbox.received.slice(since).filter((mail) => mail.to.some((to) => mailbox.test(to)));

  it(`sends at most ${MAILS_PER_MAILBOX_PER_HOUR} reset emails an hour for 50 requests from 5 addresses, answering each the same; the first link still works`, async () => {
    const user = await registerVerified('flooded@school.test');
    // The registration link was one of this hour's emails to the address: start a fresh hour.
    now = new Date(now.getTime() + 3600 * 1000);
    const since = inbox.received.length;
    const answers = [];
    for (let i = 0; i < 50; i += 1) {
      answers.push(
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/forgot-password',
          payload: { email: user.email },
          remoteAddress: `198.51.100.${i % 5}`,
        }),
      );
    }
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual(answers[0]!.json());
    }
    // Each answer came after its email was handed to the SMTP server: what arrived is all there is.
    const resets = sentTo(/^flooded@school\.test$/, since);
    expect(resets).toHaveLength(MAILS_PER_MAILBOX_PER_HOUR);
    // The refused requests retired nothing: the last link sent still resets the password.
    const token = tokenOf(linkIn(resets.at(-1)!, `${PUBLIC_URL}/reset-password?token=`));
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'flooded but fine passphrase' },
    });
    expect(reset.statusCode).toBe(200);

    // An hour later the mailbox may get a few again.
    now = new Date(now.getTime() + 3600 * 1000);
    const later = inbox.received.length;
    await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } });
    expect(sentTo(/^flooded@school\.test$/, later)).toHaveLength(1);
  });

  it('counts every spelling of one mailbox together, and registration emails with resets', async () => {
    expect(mailboxOf('Ann+Grades@School.Test')).toBe('ann@school.test');
    expect(mailboxOf('a.n.n+x@googlemail.com')).toBe('ann@gmail.com');
    expect(mailboxOf('a.n.n@school.test')).toBe('a.n.n@school.test');
    const since = inbox.received.length;
    const spellings = ['inbox@school.test', 'inbox+1@school.test', 'inbox+2@school.test', 'INBOX+3@school.test'];
    for (let i = 0; i < 40; i += 1) {
      const email = spellings[i % spellings.length]!;
      const answer =
        i % 2 === 0
          ? await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } })
          : await register({ name: 'Flood', email, password: 'correct horse battery' });
      expect(answer.statusCode).toBe(i % 2 === 0 ? 200 : 202);
    }
    expect(sentTo(/^inbox(\+\d)?@school\.test$/, since)).toHaveLength(MAILS_PER_MAILBOX_PER_HOUR);
  });
});

describe('without SMTP', () => {
  it('says clearly that password reset is not available', async () => {
    const plain = await createTestApp();
    try {
      const user = await registerWithoutSmtp(plain.app);
      const settings = await plain.app.inject({ method: 'GET', url: '/api/auth/settings' });
      expect(settings.json()).toEqual({ emailDelivery: false });
      const response = await plain.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: user.email },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        code: 'EMAIL_NOT_CONFIGURED',
        message:
          'Password reset by email is not available: this Gradewise server has no email (SMTP) set up. Ask the person who runs it.',
      });
    } finally {
      await plain.close();
    }
  });
});
