import type { CreateAssignmentOutput } from '@gradewise/shared/contracts/assignments';
import type { CreateCourseOutput } from '@gradewise/shared/contracts/courses';
import type { GradingProgressOutput } from '@gradewise/shared/contracts/grading';
import type { CreateQuestionOutput } from '@gradewise/shared/contracts/questions';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ok, pageFor, pdf, registerPerson, unique, watchPage } from './support.ts';

/**
 * Answer groups (issue 9) in a real browser against the real server with the built-in grader:
 * alike answers form a group shown on the question page, in the table and on the grading screen;
 * the instructor grades one and applies it to the group after confirming the members; each
 * applied grade stays open to change. Screenshots at 1280 and 390 px wide go to the test's output.
 */

// Grade All reads six PDFs and grades them on a small, busy machine.
const expect = baseExpect.configure({ timeout: 20_000 });

const QUESTION = 'Find the eigenvalues of the matrix A = [[2, 0], [0, 3]] and explain how you found them.';
const SOLUTION = 'The matrix is diagonal, so its eigenvalues are its diagonal entries: 2 and 3.';
const ALIKE = 'The eigenvalues are 2 and 3 because the matrix is diagonal, so they are its diagonal entries.';
const ANSWERS = [
  { name: 'Ann Archer', answer: ALIKE },
  { name: 'Ben Baker', answer: ALIKE.toLowerCase() },
  { name: 'Cat Cole', answer: ALIKE.replace('diagonal entries.', 'diagonal entries!') },
  { name: 'Dan Diaz', answer: ALIKE.replace(', so', '. So') },
  { name: 'Eve Evans', answer: 'The only eigenvalue is 5.' },
  { name: 'Fay Fox', answer: 'I did not have time for this question.' },
];
const ALIKE_NAMES = ['Ann Archer', 'Ben Baker', 'Cat Cole', 'Dan Diaz'];

/** A course, a 10-point question with a rubric, six answers, and an AI suggestion for each (Grade All). */
async function seed(request: APIRequestContext) {
  const instructor = await registerPerson(request, 'Ada Instructor', 'instructor');
  const auth = { Authorization: `Bearer ${instructor.token}` };
  const students = [];
  for (const { name } of ANSWERS) students.push(await registerPerson(request, name, 'student'));
  const { course } = await ok<CreateCourseOutput>(
    await request.post('/api/courses', { headers: auth, multipart: { title: `Linear Algebra ${unique()}` } }),
    'create course',
  );
  await ok(
    await request.post(`/api/courses/${course._id}/add-students`, {
      headers: auth,
      data: { emails: students.map((student) => student.email) },
    }),
    'add students',
  );
  const { assignment } = await ok<CreateAssignmentOutput>(
    await request.post('/api/assignments', {
      headers: auth,
      data: { title: 'Homework 1', courseId: course._id, deadline: null },
    }),
    'create assignment',
  );
  const { question } = await ok<CreateQuestionOutput>(
    await request.post(`/api/assignments/${assignment._id}/questions`, {
      headers: auth,
      multipart: {
        title: 'Eigenvalues',
        points: '10',
        questionFile: await pdf('Question 1', [QUESTION]),
        solutionFile: await pdf('Solution 1', [SOLUTION]),
      },
    }),
    'create question',
  );
  const questionPath = `/assignments/${assignment._id}/questions/${question._id}`;
  await ok(
    await request.patch(`/api${questionPath}/save-rubric`, {
      headers: auth,
      data: {
        questionText: QUESTION,
        solutionText: SOLUTION,
        items: [
          { criterion: 'States both eigenvalues, 2 and 3', points: 6, guidance: '' },
          { criterion: 'Explains the method (diagonal entries)', points: 4, guidance: '' },
        ],
      },
    }),
    'save rubric',
  );
  for (const [index, student] of students.entries()) {
    await ok(
      await request.post(`/api${questionPath}/submit`, {
        headers: { Authorization: `Bearer ${student.token}` },
        multipart: { file: await pdf(`Answer of ${student.name}`, [ANSWERS[index]!.answer]) },
      }),
      'submit',
    );
  }
  await ok(await request.post(`/api${questionPath}/grade-all`, { headers: auth }), 'grade all');
  await expect
    .poll(
      async () =>
        (
          await ok<GradingProgressOutput>(
            await request.get(`/api${questionPath}/grade-all/progress`, { headers: auth }),
            'progress',
          )
        ).isFinished,
      { timeout: 180_000, intervals: [1000] },
    )
    .toBe(true);
  return { instructor, questionPath };
}

test('alike answers form a group; the instructor grades one, confirms the members and applies it; each stays open to change', async ({
  browser,
  request,
  baseURL,
}, testInfo) => {
  test.setTimeout(300_000);
  const { instructor, questionPath } = await seed(request);
  const shoot = (page: Page, name: string) =>
    page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });

  // ---- a phone, 390 px: the panel, the badges and the dialog fit
  const phone = await pageFor(browser, instructor, { width: 390, height: 844 });
  await phone.goto(questionPath);
  const phonePanel = phone.getByRole('region', { name: 'Alike answers' });
  await expect(phonePanel.getByText(/^Group of 4 alike answers, like /)).toBeVisible();
  await expect(phone.getByRole('list', { name: 'Submissions' }).getByText('Group of 4 alike answers')).toHaveCount(4);
  await phonePanel.getByRole('button', { name: /^Group of 4 alike answers, like / }).click();
  await shoot(phone, 'question-page-390');
  await phonePanel.screenshot({ path: testInfo.outputPath('alike-answers-panel-390.png') });
  await phone
    .getByRole('list', { name: 'Submissions' })
    .getByRole('listitem')
    .first()
    .screenshot({ path: testInfo.outputPath('submission-card-390.png') });
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await phone.context().close();

  // ---- a laptop, 1280 px
  const page = await pageFor(browser, instructor, { width: 1280, height: 900 });
  const watcher = watchPage(page, baseURL!);
  await page.goto(questionPath);
  const panel = page.getByRole('region', { name: 'Alike answers' });
  await expect(panel.getByRole('status')).toHaveText(/^Grade these first: 0 of 5 of your own grades saved\./);
  const summary = panel.getByRole('button', { name: /^Group of 4 alike answers, like / });
  await expect(summary).toBeVisible();
  const representative = /, like (.+?)'s/.exec((await summary.textContent())!)![1]!;
  expect(ALIKE_NAMES).toContain(representative);
  const table = page.getByRole('table', { name: 'Submissions' });
  for (const name of ALIKE_NAMES)
    await expect(
      table.getByRole('row', { name: new RegExp(name) }).getByText('Group of 4 alike answers'),
    ).toBeVisible();
  for (const name of ['Eve Evans', 'Fay Fox'])
    await expect(table.getByRole('row', { name: new RegExp(name) }).getByText(/alike answers/)).toHaveCount(0);
  // Three kinds of answer: one to grade first of each (the group's representative, Eve's, Fay's).
  await expect(table.getByText('Grade first')).toHaveCount(3);
  for (const name of ['Eve Evans', 'Fay Fox', representative])
    await expect(table.getByRole('row', { name: new RegExp(name) }).getByText('Grade first')).toBeVisible();
  await summary.click();
  await expect(panel.getByRole('button', { name: /^Apply to group/ })).toBeDisabled();
  await shoot(page, 'question-page-1280');

  // The queue starts with the representative of the group; grade it on the grading screen.
  await page.getByRole('button', { name: 'Review (6 left)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Grade Question Submission' });
  await expect(dialog.getByText(/^Review queue: 1 of 6/)).toBeVisible({ timeout: 60_000 });
  await expect(dialog.getByRole('navigation', { name: 'Review queue' }).getByText('Grade first')).toBeVisible();
  await expect(dialog.getByText(new RegExp(`^${representative} · Eigenvalues`))).toBeVisible();
  const group = dialog.getByRole('group', { name: 'Answer group' });
  await expect(group.getByText('Group of 4 alike answers')).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Review Comments' })).toBeVisible();
  await shoot(page, 'grading-screen-1280');
  await dialog.getByRole('button', { name: 'Decline All' }).click();
  await dialog.getByRole('button', { name: 'Add Comment' }).click();
  await dialog.getByRole('textbox', { name: 'New comment' }).fill('Name the theorem you used.');
  await dialog.getByRole('textbox', { name: 'Points deducted' }).fill('1');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog.getByText('Final Grade: 9 / 10')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save Grade' }).click();
  await expect(page.getByText('Grade saved successfully!')).toBeVisible();
  await expect(dialog.getByText(/^Review queue: 2 of 6/)).toBeVisible({ timeout: 60_000 });
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(page).toHaveURL(questionPath);

  // On a phone the confirmation takes the whole screen and still names every member.
  const phoneAgain = await pageFor(browser, instructor, { width: 390, height: 844 });
  await phoneAgain.goto(questionPath);
  const phoneGroups = phoneAgain.getByRole('region', { name: 'Alike answers' });
  await phoneGroups.getByRole('button', { name: /^Group of 4 alike answers, like / }).click();
  await phoneGroups.getByRole('button', { name: /^Apply to group/ }).click();
  const phoneDialog = phoneAgain.getByRole('dialog', { name: 'Apply to group: group of 4 alike answers' });
  await expect(phoneDialog.getByRole('checkbox')).toHaveCount(3);
  await expect(phoneDialog.getByRole('button', { name: 'Apply to 3 answers' })).toBeInViewport();
  await phoneAgain.screenshot({ path: testInfo.outputPath('apply-dialog-390.png') });
  await phoneDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(phoneDialog).toHaveCount(0);
  await phoneAgain.context().close();

  // Apply to group: the dialog names every member; the grade goes to the three ticked ones.
  await panel.getByRole('button', { name: /^Group of 4 alike answers, like / }).click();
  await panel.getByRole('button', { name: /^Apply to group/ }).click();
  const apply = page.getByRole('dialog', { name: 'Apply to group: group of 4 alike answers' });
  await expect(apply.getByText(`Apply the grade of ${representative}: 9 / 10`)).toBeVisible();
  const others = ALIKE_NAMES.filter((name) => name !== representative);
  for (const name of others) await expect(apply.getByRole('checkbox', { name: new RegExp(name) })).toBeVisible();
  await shoot(page, 'apply-dialog-1280');
  const ticked = [];
  for (const name of others)
    if (await apply.getByRole('checkbox', { name: new RegExp(name) }).isChecked()) ticked.push(name);
  // A member flagged as differing starts unticked; tick every member to apply to all three.
  for (const name of others) await apply.getByRole('checkbox', { name: new RegExp(name) }).check();
  await apply.getByRole('button', { name: 'Apply to 3 answers' }).click();
  await expect(page.getByText('Grade applied to 3 alike answers. Each stays open to review and change.')).toBeVisible();
  for (const name of ALIKE_NAMES)
    await expect(
      table
        .getByRole('row', { name: new RegExp(name) })
        .getByText('9 / 10')
        .first(),
    ).toBeVisible();
  await expect(table.getByRole('row', { name: /Eve Evans/ }).getByText('Not Graded')).toBeVisible();
  testInfo.annotations.push({ type: 'ticked by default', description: ticked.join(', ') });

  // An applied grade opens like any other and a new save changes it alone.
  const member = others[0]!;
  await table
    .getByRole('row', { name: new RegExp(member) })
    .getByRole('link', { name: `Regrade ${member}` })
    .click();
  await expect(
    dialog.getByText(
      `This grade was applied from ${representative}'s with Apply to group. Review and change it like any grade.`,
    ),
  ).toBeVisible();
  await expect(dialog.getByText('Final Grade: 9 / 10')).toBeVisible();
  await dialog.getByRole('button', { name: 'Add Comment' }).click();
  await dialog.getByRole('textbox', { name: 'New comment' }).fill('Your diagram is unclear.');
  await dialog.getByRole('textbox', { name: 'Points deducted' }).fill('2');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.getByRole('button', { name: 'Save Grade' }).click();
  await expect(page).toHaveURL(questionPath);
  await expect(
    table
      .getByRole('row', { name: new RegExp(member) })
      .getByText('7 / 10')
      .first(),
  ).toBeVisible();
  await expect(
    table
      .getByRole('row', { name: new RegExp(representative) })
      .getByText('9 / 10')
      .first(),
  ).toBeVisible();
  watcher.assertClean();
  await page.context().close();
});
