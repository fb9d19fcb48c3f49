import fs from 'node:fs';
import { expect as baseExpect, test } from '@playwright/test';
import { ROLE, startTestPlatform, type TestPlatform } from '../apps/server/test/support/lti-platform.ts';
import { ok, pdf, registerPerson, storedToken, unique } from './support.ts';

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
  // A first launch asks which account to use (decision 0076): a new one here.
  await page.getByRole('button', { name: 'Continue with a new account' }).click();
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

test('the course LMS section syncs the roster, and a saved grade shows as sent to the LMS', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const tool = baseURL!;
  // A platform of its own: the first journey registered the other one.
  const gradebook = await startTestPlatform();
  try {
    const registrar = await registerPerson(request, 'Gary Gradebook', 'instructor');
    await ok(
      await request.post('/api/lti/platforms', {
        headers: { Authorization: `Bearer ${registrar.token}` },
        data: gradebook.registration(['deployment-1'], 'Gradebook LMS'),
      }),
      'register the LMS',
    );
    gradebook.setToolJwksUrl(`${tool}/api/lti/jwks`);
    const loginUrl = `${tool}/api/lti/login`;
    const launchUrl = `${tool}/api/lti/launch`;
    const contextId = `graded-${unique()}`;
    const context = { id: contextId, title: `Chemistry 201 (${contextId})` };
    const teacherSub = `teacher-${contextId}`;
    const learnerSub = `learner-${contextId}`;

    const teacher = await browser.newContext({ viewport: DESK });
    const page = await teacher.newPage();
    const hint = gradebook.nextLaunch({
      sub: teacherSub,
      name: 'Carla Chemist',
      roles: [ROLE.instructor],
      context,
      nrps: true,
      ags: {},
    });
    await page.goto(gradebook.coursePageUrl(loginUrl, launchUrl, hint));
    await page.getByRole('link', { name: 'Open Gradewise' }).click();
    await page.getByRole('button', { name: 'Continue with a new account' }).click();
    await page.getByRole('button', { name: 'Create and link' }).click();
    await expect(page).toHaveURL(/\/courses\/[0-9a-f-]{36}$/);
    const courseId = page.url().split('/courses/')[1]!;
    const teacherAuth = { Authorization: `Bearer ${await storedToken(page)}` };

    // The course's LMS section: not synced yet; the owner syncs it now.
    gradebook.setMembers(contextId, [
      { user_id: teacherSub, roles: [ROLE.instructor], name: 'Carla Chemist' },
      { user_id: learnerSub, roles: [ROLE.learner], name: 'Lou Learner' },
    ]);
    const lmsSection = page.getByRole('region', { name: 'LMS' });
    await expect(lmsSection.getByText('Roster not synced yet.')).toBeVisible();
    await lmsSection.getByRole('button', { name: 'Sync roster now' }).click();
    await expect(lmsSection.getByText(/Roster synced .*: 2 in the course\./)).toBeVisible();
    await lmsSection.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/course-lms-1280.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await lmsSection.screenshot({ path: `${SHOTS}/course-lms-390.png` });
    await page.setViewportSize(DESK);

    // The learner the sync brought in launches, and answers an assignment the owner grades.
    const learner = await browser.newContext({ viewport: DESK });
    const learnerPage = await learner.newPage();
    const learnerHint = gradebook.nextLaunch({ sub: learnerSub, roles: [ROLE.learner], context, ags: {} });
    await learnerPage.goto(gradebook.coursePageUrl(loginUrl, launchUrl, learnerHint));
    await learnerPage.getByRole('link', { name: 'Open Gradewise' }).click();
    await expect(learnerPage).toHaveURL(new RegExp(`/courses/${courseId}$`));
    const learnerAuth = { Authorization: `Bearer ${await storedToken(learnerPage)}` };
    const { assignment } = await ok<{ assignment: { _id: string } }>(
      await request.post('/api/assignments', {
        headers: teacherAuth,
        data: { title: 'Titration lab', courseId, deadline: null },
      }),
      'create assignment',
    );
    const { question } = await ok<{ question: { _id: string } }>(
      await request.post(`/api/assignments/${assignment._id}/questions`, {
        headers: teacherAuth,
        multipart: { title: 'Endpoint', points: '10', questionFile: await pdf('Question', ['Find the endpoint.']) },
      }),
      'create question',
    );
    const base = `/api/assignments/${assignment._id}/questions/${question._id}`;
    const { submission } = await ok<{ submission: { _id: string } }>(
      await request.post(`${base}/submit`, {
        headers: learnerAuth,
        multipart: { file: await pdf('Answer', ['The endpoint is at 25.0 mL.']) },
      }),
      'submit',
    );
    await ok(
      await request.post(`${base}/save-grade/${submission._id}`, {
        headers: teacherAuth,
        data: {
          grade: 8,
          feedback: '',
          comments: [{ text: 'Units missing.', pointsDeducted: 2, accepted: true }],
          expectedGradeId: null,
        },
      }),
      'save grade',
    );

    // The assignment page shows the score as sent, and the LMS received exactly that.
    await page.goto(`/assignments/${assignment._id}`);
    const passback = page.getByRole('region', { name: 'Grades in the LMS' });
    await expect(passback.getByText('Sent', { exact: true })).toBeVisible();
    await expect(passback.getByText(/8 \/ 10 \(final\)/)).toBeVisible();
    const scores = gradebook.agsRequests().filter((sent) => sent.path.endsWith('/scores'));
    expect(scores.map((sent) => sent.body)).toEqual([
      expect.objectContaining({
        userId: learnerSub,
        scoreGiven: 8,
        scoreMaximum: 10,
        gradingProgress: 'FullyGraded',
        comment: 'Endpoint: Units missing.',
      }),
    ]);
    await passback.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/grades-in-lms-1280.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await passback.screenshot({ path: `${SHOTS}/grades-in-lms-390.png` });
    // Keyboard: the owner's button is reachable and named.
    await passback.getByRole('button', { name: 'Send grades to the LMS' }).focus();
    await expect(passback.getByRole('button', { name: 'Send grades to the LMS' })).toBeFocused();
    for (const each of [teacher, learner]) await each.close();
  } finally {
    await gradebook.close();
  }
});

test("an instructor's first launch can use their existing Gradewise account, after its password", async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const tool = baseURL!;
  const school = await startTestPlatform();
  try {
    const owner = await registerPerson(request, 'Paula Password', 'instructor');
    const ownerAuth = { Authorization: `Bearer ${owner.token}` };
    const courseTitle = `Optics 301 ${unique()}`;
    await ok(await request.post('/api/courses', { headers: ownerAuth, multipart: { title: courseTitle } }), 'course');
    await ok(
      await request.post('/api/lti/platforms', {
        headers: ownerAuth,
        data: school.registration(['deployment-1'], 'School LMS'),
      }),
      'register the LMS',
    );
    const contextId = `optics-${unique()}`;
    const page = await (await browser.newContext({ viewport: DESK })).newPage();
    const hint = school.nextLaunch({
      sub: `paula-${contextId}`,
      name: 'Paula P.',
      roles: [ROLE.instructor],
      context: { id: contextId, title: `Optics (${contextId})` },
    });
    await page.goto(school.coursePageUrl(`${tool}/api/lti/login`, `${tool}/api/lti/launch`, hint));
    await page.getByRole('link', { name: 'Open Gradewise' }).click();
    const useExisting = page.getByRole('button', { name: 'Use my existing Gradewise account' });
    await expect(useExisting).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/account-choice-1280.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: `${SHOTS}/account-choice-390.png`, fullPage: true });
    await page.setViewportSize(DESK);

    // Keyboard: the choice and the form work without a mouse.
    await useExisting.focus();
    await page.keyboard.press('Enter');
    const email = page.getByRole('textbox', { name: 'Email of your Gradewise account' });
    await expect(email).toBeFocused();
    await page.keyboard.type(owner.email);
    await page.getByLabel('Password').fill('not my password');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: `${SHOTS}/account-link-error-390.png`, fullPage: true });
    await page.setViewportSize(DESK);

    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in and link' }).click();
    // Signed in as the existing account: the LMS course can be linked to the course it already owns.
    await expect(page.getByRole('heading', { name: 'Link your LMS course' })).toBeVisible();
    await expect(page.getByText(courseTitle)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/account-linked-1280.png`, fullPage: true });
    const token = await storedToken(page);
    const me = await ok<{ _id: string; email: string }>(
      await request.get('/api/auth/user', { headers: { Authorization: `Bearer ${token}` } }),
      'who is signed in',
    );
    expect(me.email).toBe(owner.email);
  } finally {
    await school.close();
  }
});
