import fs from 'node:fs';
import { expect as baseExpect, test } from '@playwright/test';
import { ROLE, startTestPlatform, type TestPlatform } from '../apps/server/test/support/lti-platform.ts';
import { ok, registerPerson, storedToken, unique } from './support.ts';

/**
 * Issue 32: Gradewise inside the school's LMS. The project's own test LMS (a real HTTP server with
 * its own keys and JWKS, apps/server/test/support/lti-platform.ts) is registered through the API by
 * an instructor; then, in a real browser, the LMS course page's link starts the OIDC login, the
 * LMS's form posts a real RS256 id_token back, and: the instructor's first launch offers to link
 * the LMS course and lands in the new course as its owner; a student's launch lands in the same
 * course as a student; a framed launch offers a new tab that works; an expired launch is refused
 * with a page. The instructor's "Connect your LMS" page is looked at too. Screenshots at 1280x900
 * and 390x844 go to /tmp/shots-i32/.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
const DESK = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const SHOTS = '/tmp/shots-i32';

let lms: TestPlatform;
test.beforeAll(async () => {
  lms = await startTestPlatform();
});
test.afterAll(async () => {
  await lms?.close();
});

test('a launch from the LMS opens the right course, as the right role, in a real browser', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const tool = baseURL!;
  const registrar = await registerPerson(request, 'Rita Registrar', 'instructor');
  await ok(
    await request.post('/api/lti/platforms', {
      headers: { Authorization: `Bearer ${registrar.token}` },
      data: lms.registration(['deployment-1'], 'Test LMS'),
    }),
    'register the LMS',
  );
  const loginUrl = `${tool}/api/lti/login`;
  const launchUrl = `${tool}/api/lti/launch`;
  const contextId = `course-${unique()}`;
  const contextTitle = `Physics 101 (${contextId})`;

  // The instructor's first launch from a new LMS course: link it by creating a course.
  const teacher = await browser.newContext({ viewport: DESK });
  const page = await teacher.newPage();
  const hint = lms.nextLaunch({
    sub: `teacher-${contextId}`,
    name: 'Irene Instructor',
    email: `irene-${contextId}@school.example`,
    roles: [ROLE.instructor],
    context: { id: contextId, title: contextTitle },
  });
  await page.goto(lms.coursePageUrl(loginUrl, launchUrl, hint));
  await page.getByRole('link', { name: 'Open Gradewise' }).click();
  await expect(page.getByRole('heading', { name: 'Link your LMS course' })).toBeVisible();
  await expect(page.getByText(`${contextTitle} in your LMS is not linked to Gradewise yet`)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/link-1280.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/link-390.png`, fullPage: true });
  await page.setViewportSize(DESK);
  // The fragment with the one-time code is gone from the address bar.
  expect(page.url()).not.toContain('code=');
  await expect(page.getByRole('radio', { name: `A new course named “${contextTitle}”` })).toBeChecked();
  await page.getByRole('button', { name: 'Create and link' }).click();
  await expect(page).toHaveURL(/\/courses\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: contextTitle, level: 1 })).toBeVisible();
  const courseUrl = page.url();
  // Signed in as an instructor: the owner's roster tools are on the page.
  const me = await (
    await request.get('/api/auth/user', { headers: { Authorization: `Bearer ${await storedToken(page)}` } })
  ).json();
  expect(me).toMatchObject({ name: 'Irene Instructor', role: 'instructor' });

  // A student of the LMS course: straight into the same course, as a student.
  const learner = await browser.newContext({ viewport: DESK });
  const studentPage = await learner.newPage();
  const studentHint = lms.nextLaunch({
    sub: `student-${contextId}`,
    name: 'Sam Learner',
    roles: [ROLE.learner],
    context: { id: contextId, title: contextTitle },
  });
  await studentPage.goto(lms.coursePageUrl(loginUrl, launchUrl, studentHint));
  await studentPage.getByRole('link', { name: 'Open Gradewise' }).click();
  await expect(studentPage).toHaveURL(courseUrl);
  await expect(studentPage.getByRole('heading', { name: contextTitle, level: 1 })).toBeVisible();
  const student = await (
    await request.get('/api/auth/user', { headers: { Authorization: `Bearer ${await storedToken(studentPage)}` } })
  ).json();
  expect(student).toMatchObject({ name: 'Sam Learner', role: 'student' });
  await studentPage.screenshot({ path: `${SHOTS}/student-course-1280.png`, fullPage: true });

  // Framed by the LMS page: Gradewise offers a new tab, and the new tab is signed in.
  const framedHint = lms.nextLaunch({
    sub: `student-${contextId}`,
    name: 'Sam Learner',
    roles: [ROLE.learner],
    context: { id: contextId, title: contextTitle },
  });
  const framedContext = await browser.newContext({ viewport: DESK });
  const framedPage = await framedContext.newPage();
  await framedPage.goto(lms.coursePageUrl(loginUrl, launchUrl, framedHint, true));
  const frame = framedPage.frameLocator('iframe[title="Gradewise"]');
  const openInTab = frame.getByRole('link', { name: 'Open Gradewise in a new tab' });
  await expect(openInTab).toBeVisible();
  await framedPage.screenshot({ path: `${SHOTS}/framed-1280.png` });
  const [tab] = await Promise.all([framedContext.waitForEvent('page'), openInTab.click()]);
  await expect(tab).toHaveURL(courseUrl);
  await expect(tab.getByRole('heading', { name: contextTitle, level: 1 })).toBeVisible();

  // A hostile launch (an expired token): refused with a page, and nobody is signed in.
  const hostile = await browser.newContext({ viewport: PHONE });
  const hostilePage = await hostile.newPage();
  const expiredHint = lms.nextLaunch({
    sub: `late-${contextId}`,
    roles: [ROLE.learner],
    context: { id: contextId, title: contextTitle },
    expiresInSeconds: -300,
  });
  await hostilePage.goto(lms.coursePageUrl(loginUrl, launchUrl, expiredHint));
  await hostilePage.getByRole('link', { name: 'Open Gradewise' }).click();
  await expect(hostilePage.getByRole('heading', { name: 'Gradewise could not open' })).toBeVisible();
  await expect(hostilePage.getByText('This launch has expired. Please launch again from your course.')).toBeVisible();
  await hostilePage.screenshot({ path: `${SHOTS}/refused-390.png` });

  // The instructor's page for connecting an LMS: the addresses to paste and the registration.
  const registrarContext = await browser.newContext({ viewport: DESK });
  await registrarContext.addInitScript(
    ([token]) => {
      window.localStorage.setItem('token', token!);
      window.localStorage.setItem('seenDemo', 'true');
    },
    [registrar.token],
  );
  const settings = await registrarContext.newPage();
  await settings.goto('/lti');
  await expect(settings.getByRole('heading', { name: 'Connect your LMS' })).toBeVisible();
  await expect(settings.getByRole('textbox', { name: 'Login initiation URL' })).toHaveValue(loginUrl);
  await expect(settings.getByRole('textbox', { name: 'Gradewise keyset (JWKS) URL' })).toHaveValue(
    `${tool}/api/lti/jwks`,
  );
  await expect(settings.getByText('Test LMS', { exact: true })).toBeVisible();
  await settings.screenshot({ path: `${SHOTS}/settings-1280.png`, fullPage: true });
  await settings.setViewportSize(PHONE);
  await settings.screenshot({ path: `${SHOTS}/settings-390.png`, fullPage: true });
  // Keyboard: the first copy button is reachable by Tab and named.
  await settings.getByRole('textbox', { name: 'Login initiation URL' }).focus();
  await settings.keyboard.press('Tab');
  await expect(settings.getByRole('button', { name: 'Copy login initiation url' })).toBeFocused();

  for (const context of [teacher, learner, framedContext, hostile, registrarContext]) await context.close();
});
