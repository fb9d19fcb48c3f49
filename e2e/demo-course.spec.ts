import { expect, test, type Page } from '@playwright/test';
import type { ReviewQueueOutput } from '@gradewise/shared/contracts/review';
// Plain data, unlike load-demo.ts (which pulls in the database and PDF code).
import { DEMO_ASSIGNMENT_TITLE, DEMO_COURSE_TITLE } from '../apps/server/src/demo/demo-content.ts';
import { watchPage } from './support.ts';

/**
 * Issue 6: the demo course that `npm run demo` loads (the e2e server loads it too), walked as a
 * newcomer would: sign in as the demo instructor, open the demo course from /demo, Grade All on the
 * numeric question with the built-in grader, walk the review queue (grade first, then most doubtful) and
 * save one grade, which the question's table then shows.
 */

/** The sign-in `npm run demo` prints (DEMO_INSTRUCTOR in apps/server/src/demo/load-demo.ts). */
const DEMO_INSTRUCTOR = { email: 'instructor@demo.gradewise.local', password: 'gradewise-demo' };
const QUESTION_TITLE = 'Uniform acceleration';
const QUESTION_POINTS = 6;
const CLASS_SIZE = 9;

/** The confidence the grading screen shows for the open submission, once it has loaded. */
async function shownConfidence(page: Page): Promise<number> {
  const confidence = page.getByText(/^Confidence: \d+%$/);
  await expect(confidence).toBeVisible({ timeout: 30_000 });
  return Number((await confidence.textContent())!.match(/\d+/)![0]);
}

test('the demo instructor grades a demo question with Grade All and reviews it, answers to grade first then the most doubtful first', async ({
  page,
  baseURL,
}) => {
  // Grade All reads nine PDFs (one of them a scan, read by OCR) on a two-core machine.
  test.setTimeout(240_000);
  const watcher = watchPage(page, baseURL!);

  await page.goto('/login');
  await page.getByLabel('Email').fill(DEMO_INSTRUCTOR.email);
  await page.getByLabel('Password').fill(DEMO_INSTRUCTOR.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL('/demo');

  // /demo knows this instructor owns the running demo course and links straight to it.
  const demoCard = page.getByRole('region', { name: 'Your demo course is ready' });
  await expect(demoCard).toBeVisible();
  await expect(page.getByRole('link', { name: /View Demo/ })).toHaveAttribute('href', '/tour.html');
  await demoCard.getByRole('link', { name: 'Open the demo course' }).click();
  await expect(page.getByRole('heading', { level: 1, name: DEMO_COURSE_TITLE })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('seenDemo'))).not.toBeNull();

  await page.getByRole('link', { name: `View Assignment: ${DEMO_ASSIGNMENT_TITLE}` }).click();
  await page.getByRole('link', { name: 'View Questions' }).click();
  await page.getByRole('link', { name: new RegExp(QUESTION_TITLE) }).click();
  await expect(page.getByRole('heading', { level: 1, name: QUESTION_TITLE })).toBeVisible();
  const table = page.getByRole('table', { name: 'Submissions' });
  await expect(table.getByRole('row')).toHaveCount(CLASS_SIZE + 1);
  await expect(table.getByText('Not Graded')).toHaveCount(CLASS_SIZE);

  // The queues the page reads from here on, to compare the review walk with: the question page's
  // own read after Grade All is one (the grading route takes a queue read in the last few seconds
  // rather than reading it again, decision 0109), and a background refresh can reorder it.
  const queuesRead: ReviewQueueOutput[] = [];
  page.on('response', (response) => {
    if (response.request().method() === 'GET' && /\/review-queue(\?|$)/.test(response.url()) && response.ok())
      void response.json().then(
        (body: ReviewQueueOutput) => queuesRead.push(body),
        () => undefined,
      );
  });

  // Grade All drafts the rubric itself when the question has none, then grades the whole class.
  const gradeWithAi = page.getByRole('region', { name: 'Grade with AI' });
  await gradeWithAi.getByRole('button', { name: 'Grade All' }).click();
  // The estimate comes first (issue 31); Start queues the run.
  await page
    .getByRole('dialog', { name: 'Grade All: what it will cost' })
    .getByRole('button', { name: /^Start/ })
    .click();
  await expect(gradeWithAi.getByRole('progressbar', { name: 'Grade All progress' })).toBeVisible({ timeout: 60_000 });
  await expect(gradeWithAi.getByRole('status')).toHaveText(
    `Grading finished: ${CLASS_SIZE} done · 0 failed · 0 remaining (of ${CLASS_SIZE}).`,
    { timeout: 180_000 },
  );
  await expect(gradeWithAi.getByRole('progressbar', { name: 'Grade All progress' })).toHaveAttribute(
    'aria-valuenow',
    '100',
  );

  // The review queue: every suggestion, the most doubtful first.
  const review = gradeWithAi.getByRole('button', { name: `Review (${CLASS_SIZE} left)` });
  await expect(review).toBeEnabled();
  await review.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Grade Question Submission' })).toBeVisible();
  const queueBar = page.getByRole('navigation', { name: 'Review queue' });
  const confidences: number[] = [];
  const walked: string[] = [];
  const isGradeFirst: boolean[] = [];
  for (let position = 1; position <= CLASS_SIZE; position += 1) {
    await expect(queueBar).toContainText(`Review queue: ${position} of ${CLASS_SIZE}`);
    confidences.push(await shownConfidence(page));
    const shownSubtitle = await page
      .getByText(new RegExp(` · ${QUESTION_TITLE} · ${QUESTION_POINTS} points$`))
      .textContent();
    walked.push(shownSubtitle!.split(' · ')[0]!);
    isGradeFirst.push((await queueBar.getByText('Grade first').count()) > 0);
    if (position < CLASS_SIZE) await queueBar.getByRole('button', { name: 'Next' }).click();
  }
  // No grade saved yet: the queue starts with the answers that best represent the class ("grade
  // these first", at most k = 5, one per kind of answer), then the rest most doubtful first.
  const gradeFirst = isGradeFirst.filter(Boolean).length;
  expect(gradeFirst).toBeGreaterThan(0);
  expect(gradeFirst).toBeLessThanOrEqual(5);
  expect(isGradeFirst).toEqual(isGradeFirst.map((_, index) => index < gradeFirst));
  // The walk is the order of a queue the server gave; after the answers to grade first it is the
  // built-in grader's chance of a big miss, most likely first, then lowest confidence (decision 0097).
  const walkedQueue = queuesRead.findLast(
    (queue) => queue.items.map((item) => item.student.name).join('|') === walked.join('|'),
  );
  expect(walkedQueue, `the walk ${walked.join(', ')} is the order of a queue read`).toBeDefined();
  const afterGradeFirst = walkedQueue!.items.slice(gradeFirst).map((item) => ({
    risk: item.missChance!,
    confidence: item.confidenceLevel!,
  }));
  for (const item of afterGradeFirst) expect(item.risk).toEqual(expect.any(Number));
  expect(afterGradeFirst).toEqual([...afterGradeFirst].sort((a, b) => b.risk - a.risk || a.confidence - b.confidence));
  // Full, partial, wrong and scanned answers: the grader is not equally sure of all of them.
  expect(new Set(confidences).size).toBeGreaterThan(1);
  test.info().annotations.push({ type: 'confidences in queue order', description: confidences.join(', ') });
  await expect(queueBar.getByRole('button', { name: 'Next' })).toBeDisabled();

  // Save the last (most confident of the rest) suggestion as it stands.
  const subtitle = await page.getByText(new RegExp(` · ${QUESTION_TITLE} · ${QUESTION_POINTS} points$`)).textContent();
  const studentName = subtitle!.split(' · ')[0]!;
  const finalGrade = (await page.getByText(/^Final Grade: /).textContent())!.replace('Final Grade: ', '');
  await page.getByRole('button', { name: 'Save Grade' }).click();
  await expect(page.getByText('Grade saved successfully!')).toBeVisible();
  // In the queue, saving moves on to the next submission without a grade: the first one.
  await expect(queueBar).toContainText(`Review queue: 1 of ${CLASS_SIZE} · ${CLASS_SIZE - 1} left`);
  await page.getByRole('button', { name: 'Close' }).first().click();

  await expect(page.getByRole('heading', { level: 1, name: QUESTION_TITLE })).toBeVisible();
  const savedRow = table
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${studentName}`) }) });
  await expect(savedRow).toContainText(finalGrade);
  await expect(savedRow.getByRole('link', { name: `Regrade ${studentName}` })).toBeVisible();
  await expect(table.getByText('Not Graded')).toHaveCount(CLASS_SIZE - 1);
  await expect(gradeWithAi.getByRole('button', { name: `Review (${CLASS_SIZE - 1} left)` })).toBeVisible();

  watcher.assertClean();
});
