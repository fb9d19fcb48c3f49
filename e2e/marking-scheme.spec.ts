import { expect as baseExpect, test } from '@playwright/test';
import { pageFor, seedQuestion, watchPage } from './support.ts';

/**
 * Decision 0127 in a real browser: the marks an instructor wrote beside each part of the solution
 * are the split of the rubric the built-in grader drafts, and the notes are not part of the items.
 */

// Rubric generation reads both PDFs on the server first.
const expect = baseExpect.configure({ timeout: 15_000 });

test("Generate Rubric takes the marks written beside each part of the solution as the items' points", async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const seeded = await seedQuestion(request, [{ name: 'Sam Student', answer: 'A process runs a program.' }], {
    title: 'Processes and threads',
    question: [
      'Processes and threads.',
      '(a) Define a process.',
      '(b) Define a thread.',
      '(c) Give one advantage of threads over processes.',
    ],
    solution: [
      '(a) A program in execution with its own address space. [2 marks]',
      '(b) A unit of execution inside a process that shares its address space. [2 marks]',
      '(c) Threads are cheaper to create and to switch between than processes. [6 marks]',
    ],
  });
  const page = await pageFor(browser, seeded.instructor);
  const watcher = watchPage(page, baseURL!);

  await page.goto(seeded.questionPath);
  await page.getByRole('button', { name: 'Generate Rubric' }).click();
  await expect(page.getByText('Rubric generated successfully!')).toBeVisible({ timeout: 60_000 });
  await expect(page).toHaveURL(`${seeded.questionPath}/rubric-wizard`);
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByText('Total: 10 / 10 points')).toBeVisible();
  const items = page.getByRole('list', { name: 'Rubric items' }).getByRole('listitem');
  await expect(items).toHaveCount(3);
  const expected: [criterion: string, points: string][] = [
    ['(a) Define a process.', '2'],
    ['(b) Define a thread.', '2'],
    ['(c) Give one advantage of threads over processes.', '6'],
  ];
  for (const [index, [criterion, points]] of expected.entries()) {
    await expect(page.getByRole('textbox', { name: `Criterion of item ${index + 1}` })).toHaveValue(criterion);
    await expect(page.getByRole('textbox', { name: `Points of item ${index + 1}` })).toHaveValue(points);
  }
  await expect(page.getByText(/\[\d+ marks\]/)).toHaveCount(0);
  watcher.assertClean();
});
