import { expect, test } from '@playwright/test';
import { expiredToken, storedToken, watchPage } from './support.ts';

test('an instructor registers, logs in, is shown the demo once, skips it and reaches the courses', async ({
  page,
  baseURL,
}) => {
  const watcher = watchPage(page, baseURL!);
  const email = `instructor-${Date.now()}@example.edu`;
  const password = 'correct horse battery';

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Gradewise' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Register' }).click();
  await expect(page).toHaveURL('/register');

  await page.getByLabel('Name').fill('Ada Instructor');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('radio', { name: 'Instructor' }).check();
  await page.getByRole('button', { name: 'Register' }).click();

  await expect(page.getByText('Registration successful! Redirecting to login…')).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('');
  await expect(page.getByRole('radio', { name: 'Student' })).toBeChecked();
  await expect(page).toHaveURL('/login');
  // The URL moves before the login screen is drawn: wait for it, not the register form's Email.
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Login successful! Redirecting…')).toBeVisible();

  // Login cleared seenDemo, so /courses sends the instructor to the demo first.
  await expect(page).toHaveURL('/demo');
  await expect(page.getByRole('heading', { level: 1, name: 'How It Works' })).toBeVisible();
  await page.getByRole('button', { name: 'Skip Demo' }).click();

  await expect(page).toHaveURL('/courses');
  await expect(page.getByRole('heading', { level: 1, name: 'My Courses' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('seenDemo'))).not.toBeNull();

  // The session survives a reload: the stored token is checked with the server.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'My Courses' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' })).toBeVisible();
  expect(await storedToken(page)).toBeNull();

  watcher.assertClean();
});

test('a private route visited while logged out lands on the home page', async ({ page, baseURL }) => {
  const watcher = watchPage(page, baseURL!);
  await page.goto('/assignments/123/questions');

  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Gradewise' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'try Gradewise' })).toBeVisible();
  watcher.assertClean();
});

test('an expired token in local storage is discarded and the visitor is logged out', async ({ page, baseURL }) => {
  const watcher = watchPage(page, baseURL!);
  await page.goto('/');
  await page.evaluate((token) => window.localStorage.setItem('token', token), expiredToken());
  await page.goto('/courses');

  await expect(page).toHaveURL('/');
  await expect.poll(() => storedToken(page)).toBeNull();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' })).toHaveCount(0);
  watcher.assertClean();
});
