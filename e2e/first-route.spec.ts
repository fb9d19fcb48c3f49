import { expect, test, type Page, type Response } from '@playwright/test';
import { watchPage } from './support.ts';

const DEMO_INSTRUCTOR = { email: 'instructor@demo.gradewise.local', password: 'gradewise-demo' };

/** The JavaScript files a page loads, with the encoding the server sent each one in. */
function recordScripts(page: Page) {
  const scripts: { path: string; encoding: string | undefined }[] = [];
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (/\.m?js$/.test(url.pathname))
      scripts.push({ path: url.pathname, encoding: response.headers()['content-encoding'] });
  });
  return scripts;
}

const isPdfJs = (path: string) =>
  /\/assets\/(pdf-[\w-]{8}\.js|pdf-viewer-[\w-]+\.js|pdf\.worker[\w.-]*\.mjs)$/.test(path);

test('the first routes load without pdf.js, their scripts sent compressed', async ({ page, baseURL }) => {
  const watch = watchPage(page, baseURL!);
  const scripts = recordScripts(page);

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Gradewise' })).toBeVisible();
  await page.goto('/login');
  await page.getByLabel('Email').fill(DEMO_INSTRUCTOR.email);
  await page.getByLabel('Password').fill(DEMO_INSTRUCTOR.password);
  await page.getByRole('button', { name: 'Login' }).click();
  // The demo instructor has not seen /demo yet, so login leads there first (spec); Skip Demo, then
  // /courses is opened again as a first page load.
  await expect(page).toHaveURL('/demo');
  await page.getByRole('button', { name: 'Skip Demo' }).click();
  await expect(page).toHaveURL('/courses');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'My Courses' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^View Course: / }).first()).toBeVisible();

  expect(scripts.length).toBeGreaterThan(3);
  expect(scripts.filter((script) => isPdfJs(script.path))).toEqual([]);
  // Chromium accepts brotli: every script is the .br copy the build wrote.
  expect(scripts.filter((script) => script.encoding !== 'br')).toEqual([]);
  watch.assertClean();
});

test('/courses asks for its list beside the session check, and once', async ({ page, baseURL }) => {
  const watch = watchPage(page, baseURL!);
  const login = await page.request.post('/api/auth/login', { data: DEMO_INSTRUCTOR });
  const { token } = (await login.json()) as { token: string };
  await page.goto('/about');
  await page.evaluate((value) => {
    localStorage.setItem('token', value);
    localStorage.setItem('seenDemo', 'true');
  }, token);

  const listRequests: string[] = [];
  let listAsked: () => void = () => undefined;
  const listAskedPromise = new Promise<void>((resolve) => {
    listAsked = resolve;
  });
  page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/courses') {
      listRequests.push(request.headers()['authorization'] ?? '');
      listAsked();
    }
  });
  // The session check is answered only once the list has been asked for: an app that asked for the
  // list only after the check (as before decision 0059) would never show the list.
  await page.route('**/api/auth/user', async (route) => {
    await listAskedPromise;
    await route.continue();
  });

  await page.goto('/courses');
  await expect(page.getByRole('heading', { level: 1, name: 'My Courses' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^View Course: / }).first()).toBeVisible();
  expect(listRequests).toEqual([`Bearer ${token}`]);
  watch.assertClean();
});

test('a screen whose chunk is gone after a deploy reloads once, then offers Reload', async ({ page }) => {
  // What the server answers for a chunk of an older build (compression.test.ts checks that answer).
  await page.route(/\/assets\/faqs-route-[\w-]+\.js$/, (route) =>
    route.fulfill({ status: 404, contentType: 'text/plain', body: 'not part of this build' }),
  );
  // Counted at DOMContentLoaded, which a reloaded page reaches before its chunk is asked for (and
  // fails): 'load' also waits for the page's other resources and could come after the error screen.
  let pageLoads = 0;
  page.on('domcontentloaded', () => (pageLoads += 1));

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Gradewise' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQs' }).click();

  await expect(
    page.getByText('Gradewise was updated while this page was open. Reload to get the new version.'),
  ).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
  // The first load, then the one automatic reload, and no more.
  expect(pageLoads).toBe(2);

  await page.unroute(/\/assets\/faqs-route-[\w-]+\.js$/);
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' })).toBeVisible();
});

test('a first visit paints the brand and the loading screen before any script runs', async ({ page }) => {
  // No script at all: what a slow line shows while the scripts (about 170 KB) are on their way.
  await page.route(/\.m?js$/, (route) => route.abort());
  const stylesheets: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet') stylesheets.push(request.url());
  });

  await page.goto('/courses');
  await expect(page.getByRole('status', { name: 'Loading' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Gradewise' })).toHaveAttribute('href', '/');
  // The bar has nothing to open: React replaces the page once the scripts have run (decision 0050).
  await expect(page.getByRole('button')).toHaveCount(0);
  // Roboto's @font-face rules are in the page itself: the first paint waited for no stylesheet.
  expect(stylesheets).toEqual([]);
  const families = await page.evaluate(() => {
    const found: string[] = [];
    document.fonts.forEach((face) => found.push(face.family));
    return found;
  });
  expect(families).toContain('Roboto');
});
