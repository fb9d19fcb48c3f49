import { expect as baseExpect, test, type Page } from '@playwright/test';
import { pageFor, seedQuestion, watchPage } from './support.ts';

/**
 * Decision 0127 in a real browser: the marks an instructor wrote beside each part of the solution
 * are the split of the rubric the built-in grader drafts, and the notes are not part of the items.
 */

// Rubric generation reads both PDFs on the server first.
const expect = baseExpect.configure({ timeout: 15_000 });

/** Generate Rubric on the question page, then the wizard's step with the drafted items. */
async function openDraftedRubric(page: Page, questionPath: string) {
  await page.goto(questionPath);
  await page.getByRole('button', { name: 'Generate Rubric' }).click();
  await expect(page.getByText('Rubric generated successfully!')).toBeVisible({ timeout: 60_000 });
  await expect(page).toHaveURL(`${questionPath}/rubric-wizard`);
  await page.getByRole('button', { name: 'Next' }).click();
}

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

  await openDraftedRubric(page, seeded.questionPath);

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

/**
 * Decision 0131 in a real browser: a solution that lists key elements and gives points by how many
 * an answer shows is drafted as one item that counts them, and trying it on a sample answer says
 * how many the answer shows, never which ones it missed.
 */
test('Generate Rubric drafts a key-elements scheme as one counting item, and trying it counts what an answer shows', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const seeded = await seedQuestion(request, [{ name: 'Sam Student', answer: 'Desert plants have deep roots.' }], {
    title: 'Desert plants',
    question: ['Describe three adaptations that help desert plants conserve water.'],
    solution: [
      'Key elements:',
      'A thick waxy cuticle reduces evaporation from the leaves.',
      'Leaves reduced to spines lower the surface area that loses water.',
      'Deep roots reach groundwater far below the surface.',
      'Stems store water in spongy tissue.',
      'Stomata open at night instead of during the hot day.',
      'Marking rubric:',
      '3 points: Three key elements;',
      '2 points: Two key elements;',
      '1 point: One key element;',
      '0 points: Other.',
    ],
  });
  const page = await pageFor(browser, seeded.instructor);
  const watcher = watchPage(page, baseURL!);

  await openDraftedRubric(page, seeded.questionPath);

  await expect(page.getByText('Total: 10 / 10 points')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Rubric items' }).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('textbox', { name: 'Criterion of item 1' })).toHaveValue(
    'Three of the listed key elements',
  );

  await page.getByRole('button', { name: 'Next' }).click();
  await page
    .getByRole('textbox', { name: 'Sample answer' })
    .fill('A waxy cuticle on the leaves cuts evaporation. Water is stored in spongy stems.');
  await page.getByRole('button', { name: 'Try Rubric' }).click();
  const trial = page.getByRole('region', { name: 'Trial: Sample answer' });
  await expect(
    trial.getByText('Three of the listed key elements: the answer shows 2 of the 3 asked for.'),
  ).toBeVisible();
  await expect(trial.getByText(/spines|groundwater|Stomata/)).toHaveCount(0);
  watcher.assertClean();
});
