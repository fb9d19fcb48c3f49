import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { SmtpInbox, linkIn } from '../apps/server/test/support/smtp-inbox.ts';
import { freePort, startServerProcess, type ServerProcess } from '../apps/server/test/support/server-process.ts';
import { watchPage } from './support.ts';

/**
 * Issue 15 in the browser. With email: a Gradewise server of its own, sending real SMTP to a local
 * smtp-server started in this process; a student invited before registering registers, follows the
 * emailed link and only then sees the course; password reset by email end to end. Without email
 * (the shared e2e server, the embedded default): the instructor confirms the registered student on
 * the students page. Screenshots go to SHOTS_DIR when it is set.
 */
const SHOTS = process.env.SHOTS_DIR;
const PHONE = { width: 390, height: 844 };
const DESK = { width: 1280, height: 900 };

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const [label, viewport] of [
    ['desk', DESK],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize(DESK);
}

async function createCourseWithInvite(
  request: APIRequestContext,
  base: string,
  token: string,
  title: string,
  email: string,
) {
  const headers = { Authorization: `Bearer ${token}` };
  const created = await request.post(`${base}/api/courses`, { headers, multipart: { title } });
  expect(created.status()).toBe(201);
  const { course } = (await created.json()) as { course: { _id: string } };
  const added = await request.post(`${base}/api/courses/${course._id}/add-students`, {
    headers,
    data: { emails: [email] },
  });
  expect(added.status(), await added.text()).toBe(200);
  return course._id;
}

test.describe('with email (SMTP to a local server)', () => {
  let inbox: SmtpInbox;
  let server: ServerProcess;
  let dataDir: string;
  let base: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    inbox = await SmtpInbox.start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-e2e-smtp-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startServerProcess(
      {
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        AI_PROVIDER: '',
        TOKEN_SECRET: '',
        SMTP_URL: inbox.url,
        MAIL_FROM: 'Gradewise <grading@school.test>',
        PUBLIC_URL: base,
        AUTH_RATE_LIMIT: '1000',
      },
      { port },
    );
  });

  test.afterAll(async () => {
    await server?.stop();
    await inbox?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('an invited student registers, follows the emailed link, and only then sees the course; then resets the password by email', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(DESK);
    const watcher = watchPage(page, base);
    const stamp = Date.now();
    const teacherEmail = `teacher-${stamp}@school.test`;
    const studentEmail = `student-${stamp}@school.test`;

    // The instructor's own account is made through the same emailed link, by API (setup).
    let since = inbox.received.length;
    const pending = await request.post(`${base}/api/auth/register`, {
      data: { name: 'Tess Teacher', email: teacherEmail, password: 'teacher secret phrase', role: 'instructor' },
    });
    expect(pending.status()).toBe(202);
    const teacherLink = linkIn(await inbox.nextFor(teacherEmail, since), `${base}/verify-email?token=`);
    const verified = await request.post(`${base}/api/auth/verify-email`, {
      data: { token: new URL(teacherLink).searchParams.get('token') },
    });
    expect(verified.status()).toBe(200);
    const teacherToken = ((await verified.json()) as { token: string }).token;
    const courseTitle = `Biology ${stamp}`;
    await createCourseWithInvite(request, base, teacherToken, courseTitle, studentEmail);

    // The student registers in the browser: no account yet, a link is emailed.
    since = inbox.received.length;
    await page.goto(`${base}/register`);
    await page.getByLabel('Name').fill('Robin Student');
    await page.getByLabel('Email').fill(studentEmail);
    await page.getByLabel('Password').fill('robin secret phrase');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByText(`Almost done: we sent a link to ${studentEmail}.`)).toBeVisible();
    await shoot(page, 'register-link-sent');
    const login = await request.post(`${base}/api/auth/login`, {
      data: { email: studentEmail, password: 'robin secret phrase' },
    });
    expect(login.status()).toBe(401);

    const mail = await inbox.nextFor(studentEmail, since);
    expect(mail.subject).toBe('Confirm your email for Gradewise');
    await page.goto(linkIn(mail, `${base}/verify-email?token=`));
    await expect(page.getByRole('heading', { name: 'Confirm your email' })).toBeVisible();
    await shoot(page, 'verify-email');
    await page.getByRole('button', { name: 'Confirm my email' }).click();
    // A first sign-in: the demo page comes first (spec), then the courses with the invitation attached.
    await expect(page).toHaveURL(`${base}/demo`);
    await page.getByRole('button', { name: 'Skip Demo' }).click();
    await expect(page).toHaveURL(`${base}/courses`);
    await expect(page.getByText(courseTitle)).toBeVisible();

    // Password reset by email, from the login page.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(`${base}/`);
    await page.goto(`${base}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(`${base}/forgot-password`);
    // React Router moves the URL before the new screen is drawn (in a transition), so for a moment
    // the login form's own Email field is still there: wait for the screen, not only the URL.
    await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
    since = inbox.received.length;
    await page.getByLabel('Email').fill(studentEmail);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('If an account uses this email, we sent it a link')).toBeVisible();
    await shoot(page, 'forgot-password-sent');
    const reset = await inbox.nextFor(studentEmail, since);
    expect(reset.subject).toBe('Reset your Gradewise password');
    await page.goto(linkIn(reset, `${base}/reset-password?token=`));
    await page.getByLabel('New password').fill('12345678');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText(/This password is too common/)).toBeVisible();
    await shoot(page, 'reset-password-refused');
    await page.getByLabel('New password').fill('a brand new phrase');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('Your password is changed. Please log in with it.')).toBeVisible();
    await shoot(page, 'reset-password-done');
    await page.getByRole('link', { name: 'Log in' }).click();
    await page.getByLabel('Email').fill(studentEmail);
    await page.getByLabel('Password').fill('a brand new phrase');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(`${base}/demo`);
    const old = await request.post(`${base}/api/auth/login`, {
      data: { email: studentEmail, password: 'robin secret phrase' },
    });
    expect(old.status()).toBe(401);
    watcher.assertClean();
  });
});

test.describe('without email (the embedded default)', () => {
  test('the instructor confirms an invited student who registered; the student then sees the course; Account is in the menu', async ({
    browser,
    page,
    request,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const watcher = watchPage(page, baseURL!);
    const stamp = Date.now();
    const teacher = { name: 'Nia Teacher', email: `nia-${stamp}@example.edu`, password: 'nia secret phrase' };
    const student = { name: 'Kai Student', email: `kai-${stamp}@example.edu`, password: 'kai secret phrase' };

    const registered = await request.post('/api/auth/register', { data: { ...teacher, role: 'instructor' } });
    expect(registered.status()).toBe(201);
    const signedIn = await request.post('/api/auth/login', {
      data: { email: teacher.email, password: teacher.password },
    });
    const teacherToken = ((await signedIn.json()) as { token: string }).token;
    const courseTitle = `Chemistry ${stamp}`;
    const courseId = await createCourseWithInvite(request, baseURL!, teacherToken, courseTitle, student.email);

    // The student registers (made at once without email) and sees nothing of the course yet.
    const studentPage = await (await browser.newContext({ viewport: PHONE })).newPage();
    await studentPage.goto('/register');
    await studentPage.getByLabel('Name').fill(student.name);
    await studentPage.getByLabel('Email').fill(student.email);
    await studentPage.getByLabel('Password').fill(student.password);
    await studentPage.getByRole('button', { name: 'Register' }).click();
    await expect(studentPage).toHaveURL('/login');
    // The URL moves before the login screen is drawn: wait for it, not the register form's Email.
    await expect(studentPage.getByRole('heading', { name: 'Login' })).toBeVisible();
    await studentPage.getByLabel('Email').fill(student.email);
    await studentPage.getByLabel('Password').fill(student.password);
    await studentPage.getByRole('button', { name: 'Login' }).click();
    await studentPage.getByRole('button', { name: 'Skip Demo' }).click();
    // Not an empty list: the course they are invited to, waiting for the instructor (issue 29).
    await expect(studentPage.getByText('Waiting for your instructor to confirm')).toBeVisible();
    await expect(studentPage.getByText(`${courseTitle} (${teacher.name})`)).toBeVisible();
    await expect(studentPage.getByRole('link', { name: `View Course: ${courseTitle}` })).toHaveCount(0);
    await shoot(studentPage, 'student-waiting-for-confirmation');
    await studentPage.setViewportSize(PHONE);

    // The instructor, in the browser, confirms them on the students page.
    await page.setViewportSize(DESK);
    await page.goto('/login');
    await page.getByLabel('Email').fill(teacher.email);
    await page.getByLabel('Password').fill(teacher.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('button', { name: 'Skip Demo' }).click();
    await page.goto(`/courses/${courseId}/students`);
    await expect(page.getByText(`${student.name} registered, awaiting your confirmation`)).toBeVisible();
    // Without email the words say who lets the student in: the instructor.
    await expect(page.getByText(/Email is not set up on this server, so nobody joins by themselves/)).toBeVisible();
    await shoot(page, 'students-awaiting-confirmation');
    // The course page lists them too, with Confirm all.
    await page.goto(`/courses/${courseId}`);
    await expect(page.getByText(`${student.name} registered, awaiting your confirmation`)).toBeVisible();
    await shoot(page, 'course-awaiting-confirmation');
    await page.getByRole('button', { name: 'Confirm all (1)' }).click();
    await expect(page.getByText('1 student is now enrolled.')).toBeVisible();
    await page.goto(`/courses/${courseId}/students`);
    await expect(page.getByRole('table', { name: 'Students' }).getByText(student.email)).toBeVisible();

    // The student now sees the course; on the phone, Account is in the menu and opens /account.
    await studentPage.reload();
    await expect(studentPage.getByText(courseTitle)).toBeVisible();
    await studentPage.getByRole('button', { name: 'Open navigation menu' }).click();
    await studentPage.getByRole('menuitem', { name: 'Account' }).click();
    await expect(studentPage).toHaveURL('/account');
    await expect(studentPage.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    await expect(studentPage.getByText(`${student.name} · ${student.email}`)).toBeVisible();

    // The desk nav bar has the link too, reachable from the keyboard.
    const account = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' });
    await account.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/account');
    await shoot(page, 'account');
    watcher.assertClean();
    await studentPage.context().close();
  });
});
