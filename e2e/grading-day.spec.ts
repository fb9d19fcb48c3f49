import type { QuestionForStaff } from '@gradewise/shared/contracts/questions';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { found, ok, pageFor, seedQuestion, watchPage } from './support.ts';

/**
 * Issue 29, "a grading day without friction", layout and keyboard: at a desk (1280x900) the
 * question table keeps its buttons on one line and breaks an email only where an address can, and
 * every control the keyboard reaches shows where it is; on a phone (390x844) the student's report
 * puts the grade and comments before the PDF. Set up through the API.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
const SHOTS = process.env.SHOTS_DIR;

/** Where the email's text wraps: the characters each new line starts with, and what precedes them. */
async function emailLineBreaks(page: Page, email: string): Promise<{ before: string; after: string }[]> {
  return page.evaluate((text) => {
    const holder = Array.from(document.querySelectorAll('table p, table span')).find(
      (element) => element.textContent === text,
    );
    if (!holder) throw new Error(`${text} is not in the table`);
    const breaks: { before: string; after: string }[] = [];
    let previousTop: number | null = null;
    let previousChar = '';
    const walker = document.createTreeWalker(holder, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let index = 0; index < node.textContent!.length; index += 1) {
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        const top = Math.round(range.getBoundingClientRect().top);
        const char = node.textContent![index]!;
        if (previousTop !== null && top > previousTop + 2) breaks.push({ before: previousChar, after: char });
        previousTop = top;
        previousChar = char;
      }
    }
    return breaks;
  }, email);
}

/** What the focused element shows: its own outline, or (a text field) MUI's focused outline. */
async function focusMark(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    // A switch or checkbox focuses its hidden native input; the mark is on the control around it
    // (MUI's ButtonBase with .Mui-focusVisible), and its name is its label's.
    const marked = (element.closest('.Mui-focusVisible') as HTMLElement | null) ?? element;
    const style = getComputedStyle(marked);
    const label = element instanceof HTMLInputElement ? element.labels?.[0]?.textContent?.trim() : undefined;
    return {
      name: element.getAttribute('aria-label') ?? label ?? element.textContent?.trim().slice(0, 40) ?? element.tagName,
      outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
      field: Boolean(element.closest('.Mui-focused')),
    };
  });
}

test('desk: the question table keeps buttons on one line, emails whole words, and keyboard focus is visible', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const seeded = await seedQuestion(request, [
    { name: 'Maximilian Longname-Studentson', answer: 'The eigenvalues are 2 and 3, the diagonal entries.' },
    { name: 'Kim Student', answer: 'The eigenvalue is 2.' },
  ]);
  const auth = { Authorization: `Bearer ${seeded.instructor.token}` };
  const listed = await ok<QuestionForStaff>(
    await request.get(`/api${seeded.questionPath}?includeSubmissions=1`, { headers: auth }),
    'read the question',
  );
  const graded = found(listed.submissions?.[0], 'a submission');
  // One graded answer: the Regrade and View Report buttons are in the table too.
  await ok(
    await request.post(`/api${seeded.questionPath}/save-grade/${graded._id}`, {
      headers: auth,
      data: {
        expectedGradeId: null,
        grade: 8,
        feedback: '',
        comments: [{ text: 'Say how you found them.', pointsDeducted: 2, accepted: true }],
      },
    }),
    'save a grade',
  );

  const page = await pageFor(browser, seeded.instructor, { width: 1280, height: 900 });
  const watcher = watchPage(page, baseURL!);
  await page.goto(seeded.questionPath);
  const table = page.getByRole('table', { name: 'Submissions' });
  await expect(table.getByRole('link', { name: /^View Report of / })).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/question-table-desk.png`, fullPage: true });

  // Each button's label on one line: as tall as a one-line small button, never two lines.
  const buttons = table.locator('.MuiButton-root');
  baseExpect(await buttons.count()).toBeGreaterThanOrEqual(5);
  for (const button of await buttons.all()) {
    const box = found(await button.boundingBox(), 'button box');
    baseExpect(box.height, await button.innerText()).toBeLessThan(40);
  }
  // An email wraps, if at all, after its '@' or before a dot of the domain: never inside a word.
  for (const student of seeded.students) {
    for (const lineBreak of await emailLineBreaks(page, student.email)) {
      baseExpect(lineBreak.before === '@' || lineBreak.after === '.', `${student.email} breaks mid-word`).toBe(true);
    }
  }

  // Tab through the page: every control the keyboard reaches is visibly marked.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  const seen: string[] = [];
  for (let step = 0; step < 25; step += 1) {
    await page.keyboard.press('Tab');
    const mark = await focusMark(page);
    if (!mark) continue;
    seen.push(mark.name);
    baseExpect(mark.outline || mark.field, `focus on "${mark.name}" is not visible`).toBe(true);
  }
  baseExpect(seen.length).toBeGreaterThanOrEqual(20);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/focus-visible-desk.png` });
  watcher.assertClean();
  await page.context().close();
});

test("phone: the student's report shows the grade and comments before the PDF", async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const seeded = await seedQuestion(request, [{ name: 'Pia Phone', answer: 'The eigenvalues are 2 and 3.' }]);
  const auth = { Authorization: `Bearer ${seeded.instructor.token}` };
  const listed = await ok<QuestionForStaff>(
    await request.get(`/api${seeded.questionPath}?includeSubmissions=1`, { headers: auth }),
    'read the question',
  );
  const submissionId = found(listed.submissions?.[0], 'a submission')._id;
  await ok(
    await request.post(`/api${seeded.questionPath}/save-grade/${submissionId}`, {
      headers: auth,
      data: {
        expectedGradeId: null,
        grade: 9,
        feedback: '',
        comments: [{ text: 'Say how you found them.', pointsDeducted: 1, accepted: true }],
      },
    }),
    'save a grade',
  );

  const page = await pageFor(browser, seeded.students[0]!, { width: 390, height: 844 });
  const watcher = watchPage(page, baseURL!);
  await page.goto(`${seeded.questionPath}/grade/${submissionId}/report`);
  const report = page.getByRole('dialog', { name: 'Grading Report' });
  const grade = report.getByText(/^Final Grade: /);
  await expect(grade).toBeVisible();
  const pdfToggle = report.getByRole('button', { name: 'Original PDF' });
  const gradeBox = found(await grade.boundingBox(), 'grade box');
  const pdfBox = found(await pdfToggle.boundingBox(), 'PDF toggle box');
  baseExpect(gradeBox.y).toBeLessThan(pdfBox.y);
  // The grade is on the first screen, without scrolling.
  baseExpect(gradeBox.y + gradeBox.height).toBeLessThan(844);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/report-phone.png`, fullPage: true });
  watcher.assertClean();
  await page.context().close();
});

test('desk: no control the keyboard reaches on the grading screen is hidden under the grade bar', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const seeded = await seedQuestion(request, [{ name: 'Bo Bar', answer: 'The eigenvalues are 2 and 3.' }]);
  const auth = { Authorization: `Bearer ${seeded.instructor.token}` };
  const listed = await ok<QuestionForStaff>(
    await request.get(`/api${seeded.questionPath}?includeSubmissions=1`, { headers: auth }),
    'read the question',
  );
  const submissionId = found(listed.submissions?.[0], 'a submission')._id;
  const page = await pageFor(browser, seeded.instructor, { width: 1280, height: 900 });
  const watcher = watchPage(page, baseURL!);
  await page.goto(`${seeded.questionPath}/grade/${submissionId}`);
  const dialog = page.getByRole('dialog', { name: 'Grade Question Submission' });
  await expect(dialog.getByRole('heading', { name: 'Review Comments' })).toBeVisible({ timeout: 90_000 });
  // Enough comments that the list runs under the bar stuck to the bottom.
  for (let index = 1; index <= 6; index += 1) {
    await dialog.getByRole('button', { name: 'Add Comment' }).click();
    await dialog.getByRole('textbox', { name: 'New comment' }).fill(`A remark of the instructor, number ${index}.`);
    await dialog.getByRole('button', { name: 'Done' }).click();
  }
  const bar = dialog.locator('[data-grade-summary]');
  await dialog.getByRole('button', { name: 'Add Comment' }).focus();
  let checked = 0;
  for (let step = 0; step < 40; step += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element.closest('[data-grade-summary]') || !element.closest('.MuiDialogContent-root'))
        return null;
      const box = element.getBoundingClientRect();
      return {
        name: element.getAttribute('aria-label') ?? element.textContent?.trim() ?? '',
        top: box.top,
        bottom: box.bottom,
      };
    });
    if (!focused) continue;
    const barBox = found(await bar.boundingBox(), 'grade bar box');
    checked += 1;
    baseExpect(
      focused.bottom <= barBox.y || focused.top >= barBox.y + barBox.height,
      `"${focused.name}" is under the grade bar`,
    ).toBe(true);
  }
  baseExpect(checked).toBeGreaterThanOrEqual(10);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/grading-bar-desk.png` });
  watcher.assertClean();
  await page.context().close();
});
