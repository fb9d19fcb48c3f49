import type { CreateAssignmentOutput } from '@gradewise/shared/contracts/assignments';
import type { CreateCourseOutput } from '@gradewise/shared/contracts/courses';
import type { CreateQuestionOutput } from '@gradewise/shared/contracts/questions';
import type { SubmitAnswerOutput } from '@gradewise/shared/contracts/submissions';
import fs from 'node:fs';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ok, pageFor, pdf, registerPerson, unique, watchPage } from './support.ts';

/**
 * Release of grades and regrade requests (issue 12 items 3 and 5) in a real browser: the instructor
 * holds a question's grades and the student's report says "not released yet"; once released, the
 * student asks for a regrade of one rubric item; the instructor finds it in the course's regrade
 * queue, asks the AI to re-check the item, accepts with a new grade; the student reads the reply
 * and the new grade. Setup goes through the API; every step of the feature through the screens.
 * Screenshots of each changed screen at 1280x900 and 390x844 go to /tmp/shots-i12regrade/.
 */
const expect = baseExpect.configure({ timeout: 20_000 });
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-i12regrade';
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A course with one student whose answer to a 10-point, two-item question is graded 7 / 10. */
async function seed(request: APIRequestContext) {
  const instructor = await registerPerson(request, 'Ada Instructor', 'instructor');
  const student = await registerPerson(request, 'Sam Student', 'student');
  const auth = { Authorization: `Bearer ${instructor.token}` };
  const { course } = await ok<CreateCourseOutput>(
    await request.post('/api/courses', { headers: auth, multipart: { title: `Linear Algebra ${unique()}` } }),
    'create course',
  );
  await ok(
    await request.post(`/api/courses/${course._id}/add-students`, { headers: auth, data: { emails: [student.email] } }),
    'add students',
  );
  const { assignment } = await ok<CreateAssignmentOutput>(
    await request.post('/api/assignments', { headers: auth, data: { title: 'Homework 1', courseId: course._id } }),
    'create assignment',
  );
  const { question } = await ok<CreateQuestionOutput>(
    await request.post(`/api/assignments/${assignment._id}/questions`, {
      headers: auth,
      multipart: {
        title: 'Eigenvalues',
        points: '10',
        questionFile: await pdf('Question 1', ['Find the eigenvalues of A = [[2, 0], [0, 3]].']),
      },
    }),
    'create question',
  );
  const questionPath = `/assignments/${assignment._id}/questions/${question._id}`;
  await ok(
    await request.patch(`/api${questionPath}/save-rubric`, {
      headers: auth,
      data: {
        questionText: 'Find the eigenvalues of A = [[2, 0], [0, 3]].',
        solutionText: 'A is diagonal, so its eigenvalues are 2 and 3.',
        items: [
          { id: 'item-1', criterion: 'Gives the eigenvalues 2 and 3', points: 6 },
          { id: 'item-2', criterion: 'Explains why (diagonal matrix)', points: 4 },
        ],
      },
    }),
    'save rubric',
  );
  const { submission } = await ok<SubmitAnswerOutput>(
    await request.post(`/api${questionPath}/submit`, {
      headers: { Authorization: `Bearer ${student.token}` },
      multipart: { file: await pdf('Answer', ['The eigenvalues are 2 and 3 because A is diagonal.']) },
    }),
    'submit',
  );
  await ok(
    await request.post(`/api${questionPath}/save-grade/${submission._id}`, {
      headers: auth,
      data: {
        expectedGradeId: null,
        grade: 7,
        feedback: '',
        comments: [
          { text: 'Only one eigenvalue is stated clearly.', pointsDeducted: 2, accepted: true, rubricItemId: 'item-1' },
          { text: 'The reason is too short.', pointsDeducted: 1, accepted: true, rubricItemId: 'item-2' },
        ],
      },
    }),
    'save grade',
  );
  return {
    instructor,
    student,
    courseId: course._id as string,
    assignmentId: assignment._id as string,
    questionPath,
    reportPath: `${questionPath}/grade/${submission._id}/report`,
  };
}

/** Full-page screenshots at both widths, then back to the wide one. */
async function shoot(page: Page, name: string) {
  for (const [label, viewport] of [
    ['1280', WIDE],
    ['390', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize(WIDE);
}

test('an instructor holds and releases grades; a student asks for a regrade; staff resolve it from the queue', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const world = await seed(request);
  const staff = await pageFor(browser, world.instructor, WIDE);
  const student = await pageFor(browser, world.student, WIDE);
  const staffWatch = watchPage(staff, baseURL!);
  const studentWatch = watchPage(student, baseURL!);

  // The instructor holds this question's grades from the question page.
  await staff.goto(world.questionPath);
  const release = staff.getByRole('region', { name: 'Release of grades' });
  await expect(release).toContainText('as soon as they are saved');
  await release.getByRole('button', { name: 'Hold grades' }).click();
  await expect(release).toContainText('are held');
  await shoot(staff, 'question-held');

  // The student's report: nothing of the grade, a clear "not released yet".
  await student.goto(world.reportPath);
  await expect(student.getByText('Not released yet.')).toBeVisible();
  await expect(student.getByText('Only one eigenvalue is stated clearly.')).toHaveCount(0);
  await expect(student.getByText('Final Grade: — / 10')).toBeVisible();
  await expect(student.getByRole('button', { name: 'Request a regrade' })).toHaveCount(0);
  await shoot(student, 'report-not-released');

  // Released again: the assignment page shows the release and the regrade rules.
  await release.getByRole('button', { name: 'Release grades' }).click();
  await expect(release).toContainText('as soon as they are saved');
  await staff.goto(`/assignments/${world.assignmentId}`);
  await expect(staff.getByRole('region', { name: 'Regrade requests' })).toBeVisible();
  await expect(staff.getByLabel('Days after release')).toHaveValue('7');
  await shoot(staff, 'assignment-settings');

  // The student asks for a regrade of the first item.
  await student.reload();
  await expect(student.getByText('Final Grade: 7 / 10')).toBeVisible();
  await expect(student.getByText('0 of 3 requests used on this assignment')).toBeVisible();
  await student.getByRole('button', { name: 'Request a regrade' }).click();
  const ask = student.getByRole('dialog', { name: 'Request a regrade' });
  await ask.getByRole('radio', { name: 'Only one eigenvalue is stated clearly.' }).check();
  await ask.getByRole('button', { name: 'Send request' }).click();
  await expect(ask.getByText('Please say why the grade should be looked at again.')).toBeVisible();
  await ask.getByLabel(/Your reason/).fill('I state both eigenvalues, 2 and 3, in the first line.');
  await shoot(student, 'request-dialog');
  await ask.getByRole('button', { name: 'Send request' }).click();
  await expect(ask).toHaveCount(0);
  const mine = student.getByRole('list', { name: 'Your regrade requests' });
  await expect(mine).toContainText('Waiting for a reply');
  await expect(student.getByText('1 of 3 requests used on this assignment')).toBeVisible();
  await shoot(student, 'report-request-sent');

  // Staff: course page -> Regrade Requests -> AI re-check -> accept with a new grade.
  await staff.goto(`/courses/${world.courseId}`);
  await staff.getByRole('link', { name: 'Regrade Requests' }).click();
  await expect(staff).toHaveURL(new RegExp(`/courses/${world.courseId}/regrade-requests$`));
  const card = staff.getByRole('listitem').filter({ hasText: 'I state both eigenvalues' });
  await expect(card).toContainText('Rubric item: Gives the eigenvalues 2 and 3');
  await expect(card).toContainText('Only one eigenvalue is stated clearly.');
  await card.getByRole('button', { name: 'Re-check with AI' }).click();
  await expect(card).toContainText('AI re-check (a draft: nothing changes until you resolve)', { timeout: 90_000 });
  await expect(card).toContainText('/ 6');
  await shoot(staff, 'queue-open');
  await card.getByRole('button', { name: 'Resolve' }).click();
  const resolve = staff.getByRole('dialog', { name: 'Resolve regrade request' });
  await resolve.getByLabel('New grade (out of 10)').fill('9');
  await resolve.getByLabel(/Reply to the student/).fill('You are right: both are in the first line.');
  await shoot(staff, 'resolve-dialog');
  await resolve.getByRole('button', { name: 'Accept request' }).click();
  await expect(resolve).toHaveCount(0);
  await expect(staff.getByText('No open regrade requests.')).toBeVisible();
  await staff.getByRole('tab', { name: /Resolved/ }).click();
  await expect(staff.getByRole('listitem').filter({ hasText: 'I state both eigenvalues' })).toContainText(
    'New grade saved: 9 / 10',
  );
  await shoot(staff, 'queue-resolved');

  // The student reads the reply and the new grade.
  await student.reload();
  await expect(student.getByText('Final Grade: 9 / 10')).toBeVisible();
  await expect(mine).toContainText('Accepted');
  await expect(mine).toContainText('You are right: both are in the first line.');
  await shoot(student, 'report-resolved');

  staffWatch.assertClean();
  studentWatch.assertClean();
});
