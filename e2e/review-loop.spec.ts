import fs from 'node:fs';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import type { ReviewQueueOutput } from '@gradewise/shared/contracts/review';
import type { SuggestionSummary } from '@gradewise/shared/contracts/suggestions';
import {
  EIGENVALUES_QUESTION as QUESTION,
  EIGENVALUES_SOLUTION as SOLUTION,
  ok,
  pageFor,
  seedQuestion,
  watchPage,
} from './support.ts';

/**
 * The instructor's review loop of issue 5, in a real browser against the real server with the
 * built-in grader: rubric generation and the wizard, grading one submission by hand, Grade All
 * and the review queue, the grades CSV, and the student's report. The course, question and
 * answers are set up through the API (the course journey covers those screens); every step of
 * the review loop itself goes through the screens.
 */

// These journeys run AI grading and PDF extraction on the server between screens: on a small
// machine a screen can take longer than the default 5 seconds to settle.
const expect = baseExpect.configure({ timeout: 15_000 });

const submissionsTable = (page: Page) => page.getByRole('table', { name: 'Submissions' });
const finalGradeOf = async (page: Page) => {
  const text = await page.getByText(/^Final Grade: /).textContent();
  return Number(/Final Grade: ([\d.]+) \//.exec(text ?? '')![1]);
};

test('an instructor generates a rubric, shapes it in the wizard, tries it and saves it; Edit Rubric previews math', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const seeded = await seedQuestion(request, [
    { name: 'Sam Student', answer: 'The eigenvalues are 2 and 3 because the matrix is diagonal.' },
  ]);
  const page = await pageFor(browser, seeded.instructor);
  const watcher = watchPage(page, baseURL!);

  await page.goto(seeded.questionPath);
  await expect(page.getByRole('link', { name: 'View Rubric Wizard' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Generate Rubric' }).click();
  // The blocking dialog, then the wizard.
  await expect(page.getByText('Rubric generated successfully!')).toBeVisible({ timeout: 120_000 });
  await expect(page).toHaveURL(`${seeded.questionPath}/rubric-wizard`);

  // Step 1: the texts the grader reads, extracted from the PDFs.
  await expect(page.getByRole('textbox', { name: 'Question Text' })).toHaveValue(/eigenvalues of the matrix/);
  await expect(page.getByRole('textbox', { name: 'Solution Text' })).toHaveValue(/diagonal entries: 2 and 3/);
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 2: the items add up to the question's points; a wrong total blocks the way on.
  await expect(page.getByText('Total: 10 / 10 points')).toBeVisible();
  await page.getByRole('button', { name: 'Add Item' }).click();
  const count = await page.getByRole('list', { name: 'Rubric items' }).getByRole('listitem').count();
  await page.getByRole('textbox', { name: `Criterion of item ${count}` }).fill('Explains why the method works');
  await page.getByRole('textbox', { name: `Points of item ${count}` }).fill('2');
  await expect(page.getByText('Total: 12 / 10 points')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await page.getByRole('button', { name: `Remove item ${count}` }).click();
  await page.getByRole('textbox', { name: 'Criterion of item 1' }).fill('States both eigenvalues, 2 and 3');
  await expect(page.getByText('Total: 10 / 10 points')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 3: try it on a sample answer and on the real submission.
  await page.getByRole('textbox', { name: 'Sample answer' }).fill('The only eigenvalue is 5.');
  await page.getByRole('checkbox', { name: 'Sam Student' }).check();
  await page.getByRole('button', { name: 'Try Rubric' }).click();
  const sample = page.getByRole('region', { name: 'Trial: Sample answer' });
  const real = page.getByRole('region', { name: 'Trial: Sam Student' });
  await expect(sample.getByText(/^Score: [\d.]+ \/ 10$/)).toBeVisible();
  await expect(real.getByText(/^Score: [\d.]+ \/ 10$/)).toBeVisible();
  const scoreOf = async (region: typeof sample) =>
    Number(/Score: ([\d.]+)/.exec((await region.getByText(/^Score:/).textContent()) ?? '')![1]);
  expect(await scoreOf(real)).toBeGreaterThan(await scoreOf(sample));
  await expect(page.getByText(/Suggestions by Built-in grader/)).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 4: save, back to the question.
  await expect(
    page.getByRole('table', { name: 'Rubric to save' }).getByText('States both eigenvalues, 2 and 3'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Save Rubric' }).click();
  await expect(page.getByText('Rubric saved successfully!')).toBeVisible();
  await expect(page).toHaveURL(seeded.questionPath);
  await expect(page.getByRole('link', { name: 'View Rubric Wizard' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Generate Rubric' })).toHaveCount(0);

  // The saved rubric is what the wizard shows next time.
  await page.getByRole('link', { name: 'View Rubric Wizard' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('textbox', { name: 'Criterion of item 1' })).toHaveValue(
    'States both eigenvalues, 2 and 3',
  );

  // Edit Rubric: Markdown and math rendered by the self-hosted KaTeX, then Save Rubric.
  await page.goto(`${seeded.questionPath}/rubric`);
  await expect(page.getByText('(No preview yet. Click Recompile Preview to see it here.)')).toBeVisible();
  await page
    .getByRole('textbox', { name: 'Solution Text' })
    .fill('The eigenvalues are $\\lambda_1 = 2$ and $\\lambda_2 = 3$, from\n\n$$\n\\det(A - \\lambda I) = 0\n$$');
  await page.getByRole('button', { name: 'Recompile Preview' }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.locator('.katex').first()).toBeVisible();
  await expect(preview.locator('.katex-display')).toHaveCount(1);
  // The math fonts are loaded, from our server (the watcher fails the test on any other origin).
  await expect
    .poll(() =>
      page.evaluate(() => {
        let isLoaded = false;
        document.fonts.forEach((font) => {
          if (font.family.replace(/"/g, '') === 'KaTeX_Main' && font.status === 'loaded') isLoaded = true;
        });
        return isLoaded;
      }),
    )
    .toBe(true);
  await page.getByRole('button', { name: 'Full screen: Preview' }).click();
  await expect(page.getByRole('textbox', { name: 'Solution Text' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Exit full screen: Preview' }).click();
  await page.getByRole('button', { name: 'Save Rubric' }).click();
  await expect(page.getByText('Rubric saved successfully!')).toBeVisible();
  await expect(page).toHaveURL(seeded.questionPath);

  watcher.assertClean();
  await page.context().close();
});

test('an instructor grades a submission by hand — edits, declines, adds a comment — and the student sees the report without the declined comment', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const seeded = await seedQuestion(request, [
    { name: 'Sam Student', answer: 'The eigenvalue is 2. I did not find another one.' },
  ]);
  const page = await pageFor(browser, seeded.instructor);
  const watcher = watchPage(page, baseURL!);

  // A two-item rubric, saved by the instructor, so the AI judges each item.
  await ok(
    await request.patch(`/api${seeded.questionPath}/save-rubric`, {
      headers: { Authorization: `Bearer ${seeded.instructor.token}` },
      data: {
        questionText: QUESTION,
        solutionText: SOLUTION,
        items: [
          {
            criterion: 'States both eigenvalues, 2 and 3',
            points: 6,
            guidance: 'Both values are needed for full marks.',
          },
          { criterion: 'Explains the method (diagonal entries or characteristic polynomial)', points: 4, guidance: '' },
        ],
      },
    }),
    'save rubric',
  );

  await page.goto(seeded.questionPath);
  const row = submissionsTable(page).getByRole('row', { name: /Sam Student/ });
  await expect(row.getByText('Not Graded')).toBeVisible();
  await row.getByRole('link', { name: 'Grade Sam Student' }).click();

  const dialog = page.getByRole('dialog', { name: 'Grade Question Submission' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Review Comments' })).toBeVisible({ timeout: 90_000 });
  await expect(dialog.getByText(/^Suggested by the built-in grader/)).toBeVisible();
  await expect(dialog.getByText(/^Confidence: \d+%$/)).toBeVisible();
  const comments = dialog.getByRole('list', { name: 'Review comments' }).getByRole('listitem');
  await expect(comments).toHaveCount(2);
  await expect(comments.nth(0).getByText(/^Rubric: States both eigenvalues/)).toBeVisible();
  const declinedText = (await comments.nth(1).locator('p').first().textContent())!.trim();

  // Converted Text shows what the grader read.
  await dialog.getByRole('button', { name: 'Converted Text' }).click();
  await expect(dialog.getByText(/I did not find another one/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Original PDF' }).click();
  await expect(dialog.locator('.react-pdf__Page canvas')).toBeVisible({ timeout: 20_000 });

  // Decline the second comment; edit the first (its own text and 2.5 points); add a comment of 1 point.
  await dialog.getByRole('button', { name: 'Decline comment 2' }).click();
  await dialog.getByRole('button', { name: 'Edit comment 1' }).click();
  await dialog.getByRole('textbox', { name: 'Comment 1' }).fill('Only one eigenvalue found: 3 is missing.');
  await dialog.getByRole('textbox', { name: 'Points deducted' }).fill('2.5');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await dialog.getByRole('button', { name: 'Add Comment' }).click();
  await dialog.getByRole('textbox', { name: 'New comment' }).fill('Show the characteristic polynomial next time.');
  await dialog.getByRole('textbox', { name: 'Points deducted' }).fill('1');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(comments).toHaveCount(3);
  await expect(dialog.getByText('Final Grade: 6.5 / 10')).toBeVisible();

  await dialog.getByRole('button', { name: 'Save Grade' }).click();
  await expect(page.getByText('Grade saved successfully!')).toBeVisible();
  await expect(page).toHaveURL(seeded.questionPath);
  await expect(row.getByText('6.5 / 10').first()).toBeVisible();

  // The instructor's report: the accepted comments, the declined one set apart, the final grade.
  await row.getByRole('link', { name: 'View Report of Sam Student' }).click();
  const report = page.getByRole('dialog', { name: 'Grading Report' });
  await expect(report.getByText('Final Grade: 6.5 / 10')).toBeVisible();
  await expect(report.getByRole('list', { name: 'Review comments' }).getByRole('listitem')).toHaveCount(2);
  await expect(report.getByText('Declined comments (1): not counted, not shown to the student')).toBeVisible();
  await report.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page).toHaveURL(seeded.questionPath);
  watcher.assertClean();
  await page.context().close();

  // The student: their grade in the table, and the report without the declined comment.
  const studentPage = await pageFor(browser, seeded.students[0]!);
  const studentWatcher = watchPage(studentPage, baseURL!);
  await studentPage.goto(seeded.questionPath);
  const ownRow = submissionsTable(studentPage).getByRole('row', { name: /Sam Student/ });
  await expect(ownRow.getByText('6.5 / 10')).toBeVisible();
  await ownRow.getByRole('link', { name: /View Report/ }).click();
  const studentReport = studentPage.getByRole('dialog', { name: 'Grading Report' });
  await expect(studentReport.getByText('Final Grade: 6.5 / 10')).toBeVisible();
  await expect(studentReport.getByText('Only one eigenvalue found: 3 is missing.')).toBeVisible();
  await expect(studentReport.getByText('Show the characteristic polynomial next time.')).toBeVisible();
  await expect(studentReport.getByText(declinedText, { exact: true })).toHaveCount(0);
  await expect(studentReport.getByText(/Declined/)).toHaveCount(0);
  await expect(studentReport.getByText(/Confidence/)).toHaveCount(0);
  studentWatcher.assertClean();
  await studentPage.context().close();
});

test('Grade All suggests grades for a class of ten, the review queue walks the answers to grade first, then the most doubtful first, and the CSV holds the saved grades', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(300_000);
  // A class of ten, from full answers to wrong ones, so the AI's confidence differs between them.
  const seeded = await seedQuestion(request, [
    {
      name: 'Ann Archer',
      answer: 'The eigenvalues are 2 and 3: the matrix is diagonal, so they are the diagonal entries.',
    },
    { name: 'Ben Baker', answer: 'I think it is 5.' },
    { name: 'Cat Cole', answer: 'Solving (2 - x)(3 - x) = 0 gives x = 2 and x = 3.' },
    { name: 'Dan Diaz', answer: 'The eigenvalue is 2.' },
    { name: 'Eve Evans', answer: 'Eigenvalues: 2, 3. The characteristic polynomial is (2 - x)(3 - x).' },
    { name: 'Fay Fox', answer: 'A has no eigenvalues because it is not symmetric.' },
    { name: 'Gus Gray', answer: 'The diagonal entries 2 and 3 are the eigenvalues since A is diagonal.' },
    { name: 'Hal Hunt', answer: 'x = 3' },
    { name: 'Ivy Ives', answer: 'det(A - xI) = (2 - x)(3 - x), so the eigenvalues are 2 and 3.' },
    { name: 'Jon Judd', answer: 'I did not have time for this question.' },
  ]);
  const page = await pageFor(browser, seeded.instructor);
  const watcher = watchPage(page, baseURL!);

  await page.goto(seeded.questionPath);
  await page.getByRole('button', { name: 'Grade All' }).click();
  await page
    .getByRole('dialog', { name: 'Grade All: what it will cost' })
    .getByRole('button', { name: /^Start/ })
    .click();
  // Live progress, read from the server: it is still there after a reload.
  await expect(page.getByText(/^Grading finished: 10 done · 0 failed · 0 remaining \(of 10\)\.$/)).toBeVisible({
    timeout: 180_000,
  });
  await page.reload();
  await expect(page.getByText(/^Grading finished: 10 done · 0 failed · 0 remaining \(of 10\)\.$/)).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Grade All progress' })).toHaveAttribute('aria-valuenow', '100');

  await page.getByRole('button', { name: 'Review (10 left)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Grade Question Submission' });
  const queueBar = dialog.getByRole('navigation', { name: 'Review queue' });
  const auth = { Authorization: `Bearer ${seeded.instructor.token}` };
  const questionApi = `/api${seeded.questionPath}`;
  // Each save starts a refresh of the other suggestions from the saved grades (in the background):
  // the queue is read once none is queued or running, so the screen and this test see the same
  // suggestions, whatever the machine's speed.
  const settledQueue = async () => {
    await expect
      .poll(
        async () =>
          (
            await ok<SuggestionSummary>(
              await request.get(`${questionApi}/suggestion-summary`, { headers: auth }),
              'summary',
            )
          ).refresh?.status ?? 'none',
        { timeout: 60_000 },
      )
      .not.toMatch(/^(queued|running)$/);
    return ok<ReviewQueueOutput>(await request.get(`${questionApi}/review-queue`, { headers: auth }), 'review queue');
  };
  const saved = new Map<string, number>();
  const isGradeFirst: boolean[] = [];
  // Until 5 grades are saved ("grade these first", k = 5) the queue starts with the answers that
  // best represent the class, and keeps its order; the 5th grade turns it to the most doubtful
  // first. From then on the queue is opened again once the suggestions are settled, and the
  // answer it opens must be the most doubtful left.
  const K = 5;
  let previous = '';
  for (let step = 0; step < 10; step += 1) {
    const queue = step === 0 ? null : await settledQueue();
    const isConfidenceOrder = queue !== null && queue.gradeFirst?.isActive !== true;
    if (isConfidenceOrder) {
      await page.goto(seeded.questionPath);
      await page.getByRole('button', { name: `Review (${10 - step} left)` }).click();
    }
    const position = step < K ? String(step + 1) : '\\d+';
    await expect(dialog.getByText(new RegExp(`^Review queue: ${position} of 10 · ${10 - step} left$`))).toBeVisible({
      timeout: 60_000,
    });
    isGradeFirst.push((await queueBar.getByText('Grade first').count()) > 0);
    // The queue moves on to another student: wait until the screen names them, so a name read in
    // the moment the previous answer is still drawn is never counted twice (a queue that showed the
    // same answer again would time out here and fail).
    const header = dialog.getByText(/ · Eigenvalues · 10 points$/);
    if (previous) await expect(header).not.toHaveText(`${previous} · Eigenvalues · 10 points`);
    await expect(dialog.getByRole('heading', { name: 'Review Comments' })).toBeVisible();
    const who = (await header.textContent())!.split(' · ')[0]!;
    previous = who;
    if (isConfidenceOrder) {
      // The most doubtful left: the highest chance of a big miss (decision 0097), then the lowest
      // confidence among those.
      const left = queue.items.filter((item) => item.grade === null);
      const riskOf = (item: (typeof left)[number]) => item.missChance ?? 1 - (item.confidenceLevel ?? 101) / 100;
      const top = Math.max(...left.map(riskOf));
      const mostDoubtful = left.filter((item) => riskOf(item) === top);
      const lowest = Math.min(...mostDoubtful.map((item) => item.confidenceLevel ?? Number.POSITIVE_INFINITY));
      const shown = Number(/Confidence: (\d+)%/.exec((await dialog.getByText(/^Confidence: /).textContent())!)![1]);
      expect(shown).toBe(lowest);
      expect(mostDoubtful.find((item) => item.student.name === who)?.confidenceLevel).toBe(lowest);
    }
    // The third one is checked by hand: every AI deduction declined. The fifth is saved from the keyboard.
    if (step === 2) await dialog.getByRole('button', { name: 'Decline All' }).click();
    saved.set(who, await finalGradeOf(page));
    if (step === 4) await page.keyboard.press('s');
    else await dialog.getByRole('button', { name: 'Save Grade' }).click();
    await expect(page.getByText('Grade saved successfully!').first()).toBeVisible();
  }
  // A few answers to grade first lead (one per kind of answer, at most k), then the most doubtful first.
  const gradeFirst = isGradeFirst.filter(Boolean).length;
  expect(gradeFirst).toBeGreaterThan(0);
  expect(gradeFirst).toBeLessThanOrEqual(K);
  expect(isGradeFirst).toEqual(isGradeFirst.map((_, step) => step < gradeFirst));
  expect([...saved.keys()].sort()).toEqual(seeded.students.map((student) => student.name).sort());

  // The queue is done: back on the question, with every grade in the table.
  await expect(page.getByText('Review queue done: every submission of this question has a saved grade.')).toBeVisible();
  await expect(page).toHaveURL(seeded.questionPath);
  await expect(page.getByRole('button', { name: 'Review (0 left)' })).toBeDisabled();
  for (const [name, grade] of saved) {
    await expect(
      submissionsTable(page)
        .getByRole('row', { name: new RegExp(name) })
        .getByText(`${grade} / 10`)
        .first(),
    ).toBeVisible();
  }

  // The grades CSV of the question holds exactly the saved grades.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Grades (CSV)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('homework-1-eigenvalues-grades.csv');
  const csv = fs.readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
  const rows = csv
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));
  expect(rows[0]).toEqual(['Student name', 'Email', 'Eigenvalues (10 pts)', 'Total (10 pts)', 'Late']);
  const byName = new Map(rows.slice(1).map((cells) => [cells[0]!, cells]));
  for (const [index, student] of seeded.students.entries()) {
    const grade = saved.get(student.name)!;
    expect(byName.get(student.name), `row of ${student.name} (${index})`).toEqual([
      student.name,
      student.email,
      String(grade),
      String(grade),
      'No',
    ]);
  }

  watcher.assertClean();
  await page.context().close();
});
