import { expect, test, type Page } from '@playwright/test';
import { ok, seedQuestion, watchPage } from './support.ts';

/**
 * Issue 31 on the screens: the course's AI settings (staff) and the notice students read, the
 * estimate Grade All shows before it starts and the spend under its progress, and the AI spend on
 * the statistics page. The e2e server grades with the built-in grader, so every amount is 0.
 * Screenshots at 1280 px and on a phone go to SHOTS_DIR when it is set.
 */

const SHOTS = process.env.SHOTS_DIR;
const PASSWORD = 'correct horse battery';

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const [label, viewport] of [
    ['1280', { width: 1280, height: 900 }],
    ['390', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function logIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).not.toHaveURL('/login');
}

test('an instructor sets the course AI, sees the estimate before Grade All and the spend; a student reads who grades', async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  test.setTimeout(180_000);
  const watcher = watchPage(page, baseURL!);
  const seeded = await seedQuestion(request, [
    { name: 'Ana Student', answer: 'The eigenvalues are 2 and 3, the diagonal entries.' },
    { name: 'Ben Student', answer: 'Eigenvalues: 2 and 3.' },
  ]);
  const auth = { Authorization: `Bearer ${seeded.instructor.token}` };
  const assignment = await ok<{ course: { _id: string } }>(
    await request.get(`/api/assignments/${seeded.assignmentId}`, { headers: auth }),
    'read assignment',
  );
  const coursePath = `/courses/${assignment.course._id}`;

  // 1. The course's AI settings: the provider, on this server only, the budget and the amount to ask above.
  await logIn(page, seeded.instructor.email);
  await page.goto(coursePath);
  const settings = page.getByRole('region', { name: 'AI grading and cost' });
  await expect(settings.getByLabel('Grades with')).toBeVisible({ timeout: 30_000 });
  await expect(settings.getByText(/Spent this month: \$0\.00/)).toBeVisible();
  // A bad amount: the server's message names the field, nothing is saved.
  await settings.getByLabel('Ask before spending more than').fill('-3');
  await settings.getByRole('button', { name: 'Save AI settings' }).click();
  await expect(settings.getByRole('alert')).toHaveText('confirmAbove: must not be negative', { timeout: 30_000 });
  await expect(settings.getByLabel('Ask before spending more than')).toHaveAccessibleDescription(
    'must not be negative',
  );
  await settings.getByLabel('Ask before spending more than').fill('2');
  await settings.getByLabel('Monthly budget').fill('25');
  await settings.getByRole('switch', { name: /On this server only/ }).check();
  await settings.getByRole('button', { name: 'Save AI settings' }).click();
  await expect(page.getByText("The course's AI settings are saved.")).toBeVisible({ timeout: 30_000 });
  await expect(settings.getByText(/\$25\.00 left of the course budget/)).toBeVisible();
  await shot(page, 'course-ai-settings');

  // 2. Grade All shows its estimate first; Start queues it; the spend shows under the progress.
  await page.goto(seeded.questionPath);
  const gradeWithAi = page.getByRole('region', { name: 'Grade with AI' });
  await gradeWithAi.getByRole('button', { name: 'Grade All' }).click();
  const dialog = page.getByRole('dialog', { name: 'Grade All: what it will cost' });
  await expect(dialog.getByText(/2 answers on/)).toBeVisible({ timeout: 60_000 });
  await expect(dialog.getByText('Estimated cost')).toBeVisible();
  await shot(page, 'grade-all-estimate');
  await dialog.getByRole('button', { name: /^Start/ }).click();
  await expect(gradeWithAi.getByRole('status')).toHaveText(/^Grading finished: 2 done/, { timeout: 120_000 });
  await expect(gradeWithAi.getByText(/^Spent: \$0\.00/)).toBeVisible();
  await shot(page, 'grade-all-spend');

  // 3. The statistics page: what AI grading cost (nothing, with the built-in grader).
  await page.goto(`/assignments/${seeded.assignmentId}/statistics`);
  const spend = page.getByRole('region', { name: 'AI spend' });
  await expect(spend.getByText(/No AI provider calls yet/)).toBeVisible({ timeout: 30_000 });
  await shot(page, 'statistics-ai-spend');
  watcher.assertClean();

  // 4. A student reads, on the course, who reads their answers and that names are not sent.
  const context = await browser.newContext();
  const studentPage = await context.newPage();
  await logIn(studentPage, seeded.students[0]!.email);
  await studentPage.goto(coursePath);
  await expect(studentPage.getByText(/read by an AI grader on this school server/)).toBeVisible({ timeout: 30_000 });
  await expect(studentPage.getByText(/Your name and email are never sent with them/)).toBeVisible();
  await shot(studentPage, 'course-ai-student-notice');
  await context.close();
});
