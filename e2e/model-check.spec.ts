import { expect, test, type Page } from '@playwright/test';
import { EIGENVALUES_QUESTION, EIGENVALUES_SOLUTION, ok, seedQuestion, watchPage } from './support.ts';

/**
 * Issue 31, item 5 on the screen: on the course's AI settings, the owner estimates a model check
 * on the course's saved grades, confirms it, watches it run and reads the agreement side by side.
 * The e2e server has the built-in grader only, so the candidate is the provider of now and the
 * cost is 0. Screenshots at 1280 px and on a phone go to SHOTS_DIR when it is set.
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

test('the owner checks a model on the saved grades: estimate, confirm, progress, the result side by side', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const watcher = watchPage(page, baseURL!);
  const seeded = await seedQuestion(request, [
    { name: 'Ana Student', answer: 'The eigenvalues are 2 and 3, the diagonal entries.' },
    { name: 'Ben Student', answer: 'Eigenvalues: 2 and 3.' },
    { name: 'Cleo Student', answer: 'I think it is 5.' },
  ]);
  const auth = { Authorization: `Bearer ${seeded.instructor.token}` };
  const api = `/api${seeded.questionPath}`;
  await ok(
    await request.patch(`${api}/save-rubric`, {
      headers: auth,
      data: {
        questionText: EIGENVALUES_QUESTION,
        solutionText: EIGENVALUES_SOLUTION,
        items: [
          { id: 'values', criterion: 'Gives the eigenvalues 2 and 3', points: 6, guidance: '' },
          { id: 'why', criterion: 'Explains how they were found', points: 4, guidance: '' },
        ],
      },
    }),
    'save rubric',
  );
  const listed = await ok<{ submissions: { _id: string; student?: { name?: string } }[] }>(
    await request.get(`${api}?includeSubmissions=1`, { headers: auth }),
    'read question',
  );
  const grades = [10, 6, 0];
  for (const [index, row] of listed.submissions.entries()) {
    const grade = grades[index] ?? 10;
    await ok(
      await request.post(`${api}/save-grade/${row._id}`, {
        headers: auth,
        data: {
          expectedGradeId: null,
          grade,
          feedback: '',
          comments:
            grade === 10
              ? []
              : [
                  {
                    text: 'Not explained.',
                    pointsDeducted: 10 - grade,
                    accepted: true,
                    rubricItemId: grade === 6 ? 'why' : null,
                  },
                ],
        },
      }),
      'save grade',
    );
  }
  const assignment = await ok<{ course: { _id: string } }>(
    await request.get(`/api/assignments/${seeded.assignmentId}`, { headers: auth }),
    'read assignment',
  );

  await page.goto('/login');
  await page.getByLabel('Email').fill(seeded.instructor.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).not.toHaveURL('/login');
  await page.goto(`/courses/${assignment.course._id}`);
  const section = page.getByRole('region', { name: 'Check a model before switching' });
  await expect(section.getByText('No model checks yet.', { exact: false })).toBeVisible({ timeout: 30_000 });

  // A sample of 0 is refused by the server, naming the field, on the field.
  await section.getByLabel('Saved grades to compare').fill('0');
  await section.getByRole('button', { name: 'Estimate the check' }).click();
  await expect(section.getByLabel('Saved grades to compare')).toHaveAccessibleDescription('must be at least 1 answer', {
    timeout: 30_000,
  });

  // The estimate first, then the run.
  await section.getByLabel('Saved grades to compare').fill('20');
  await section.getByRole('button', { name: 'Estimate the check' }).click();
  await expect(section.getByText(/3 of your 3 saved grades, graded by/)).toBeVisible({ timeout: 30_000 });
  await shot(page, 'model-check-estimate');
  await section.getByRole('button', { name: /^Run the check/ }).click();
  await expect(page.getByText('The model check started.', { exact: false })).toBeVisible({ timeout: 30_000 });

  const result = section.getByRole('table', { name: 'Agreement with your saved grades' });
  await expect(result).toBeVisible({ timeout: 120_000 });
  await expect(section.getByText('Done')).toBeVisible();
  await expect(result.getByRole('rowheader', { name: 'Within 10% of the points' })).toBeVisible();
  await expect(section.getByRole('table', { name: 'Mean difference per rubric item' })).toContainText(
    'Gives the eigenvalues 2 and 3',
  );
  // Answers are named by their place in the sample, never by the student.
  await expect(section).not.toContainText('Ana Student');
  await expect(section).not.toContainText('Cleo Student');
  // Keyboard: the first control of the form takes a visible focus.
  await section.getByRole('combobox', { name: 'Provider to check' }).focus();
  await expect(section.getByRole('combobox', { name: 'Provider to check' })).toBeFocused();
  await shot(page, 'model-check-result');
  watcher.assertClean();
});
