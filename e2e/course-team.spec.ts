import type { CreateAssignmentOutput } from '@gradewise/shared/contracts/assignments';
import type { CreateCourseOutput } from '@gradewise/shared/contracts/courses';
import type { CreateQuestionOutput, QuestionForStaff } from '@gradewise/shared/contracts/questions';
import type { SubmitAnswerOutput } from '@gradewise/shared/contracts/submissions';
import fs from 'node:fs';
import { expect as baseExpect, test } from '@playwright/test';
import { found, ok, pageFor, pdf, registerPerson, unique, watchPage, type Person } from './support.ts';

/**
 * Issue 12's course-team journey: the instructor adds a TA on the course page and splits the
 * question between the two of them on the work-split page, turns anonymous grading on; the TA
 * walks their own share of the review queue while the instructor, opening the same answer, is told
 * the TA has it open; the TA saves the grade without ever seeing a name; a student appeals her grade and reads the instructor's reply; the statistics page shows the
 * grade distribution and the graders, the TA and the AI among them (regrade-release.spec.ts walks
 * held grades, an item's appeal and the AI re-check). The course, question, answers
 * and the other grades are set up through the API; the steps of the journey go through the
 * screens. Screenshots at 1280x900 and 390x844 go to /tmp/shots-i12stats/.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
const DESK = { width: 1280, height: 900 };
const SHOTS = '/tmp/shots-i12stats';
const QUESTION = 'What is 2 + 2? Explain how you found it.';
const SOLUTION = '2 + 2 = 4: adding two and two gives four.';
const CLASS = [
  { name: 'Quentin Marblehead', answer: 'Two plus two is four, because adding two to two counts up to four.' },
  { name: 'Rosalind Fernsby', answer: 'It is 4.' },
  { name: 'Theodora Pickwick', answer: 'I think it is 22 because you put the twos together.' },
];

test('an instructor and a TA split and grade an anonymous assignment, then read its statistics', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(300_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const instructor = await registerPerson(request, 'Ada Instructor', 'instructor');
  const auth = { Authorization: `Bearer ${instructor.token}` };
  const students: Person[] = [];
  for (const { name } of CLASS) students.push(await registerPerson(request, name, 'student'));
  const { course } = await ok<CreateCourseOutput>(
    await request.post('/api/courses', { headers: auth, multipart: { title: `Arithmetic ${unique()}` } }),
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
        title: 'Addition',
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
          { criterion: 'Gives the value 4', points: 6, guidance: '' },
          { criterion: 'Explains the addition', points: 4, guidance: '' },
        ],
      },
    }),
    'save rubric',
  );
  const submissionIds: string[] = [];
  for (const [index, student] of students.entries()) {
    const { submission } = await ok<SubmitAnswerOutput>(
      await request.post(`/api${questionPath}/submit`, {
        headers: { Authorization: `Bearer ${student.token}` },
        multipart: { file: await pdf('My answer', [CLASS[index]!.answer]) },
      }),
      'submit',
    );
    submissionIds.push(submission._id);
  }

  const ta = await registerPerson(request, 'Tina Assistant', 'instructor');
  const page = await pageFor(browser, instructor, DESK);
  const watcher = watchPage(page, baseURL!);

  // 1. The instructor adds the TA on the course page, by the email of their instructor account.
  await page.goto(`/courses/${course._id}`);
  const addTa = page.getByRole('form', { name: 'Add a teaching assistant' });
  await addTa.getByLabel('TA email').fill(ta.email);
  await addTa.getByRole('button', { name: 'Add TA' }).click();
  await expect(page.getByText(`Tina Assistant is now a teaching assistant of ${course.title}.`)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Course staff' }).getByText('Tina Assistant')).toBeVisible();

  // 2. ...and splits the question between the two of them on the work-split page.
  await page.getByRole('link', { name: 'Split the Grading Work' }).click();
  await expect(page).toHaveURL(`/courses/${course._id}/work-split`);
  const graders = page.getByRole('group', { name: 'Graders of Homework 1: Addition' });
  // Each box shows what the server saved: it turns checked once the change is stored.
  await graders.getByRole('checkbox', { name: 'Ada Instructor (instructor)' }).click();
  await expect(page.getByText('This question has one grader now.')).toBeVisible();
  await graders.getByRole('checkbox', { name: 'Tina Assistant' }).click();
  await expect(page.getByText('This question is split among 2 graders now.')).toBeVisible();
  await expect(graders.getByRole('checkbox', { name: 'Tina Assistant' })).toBeChecked();
  await expect(graders.getByText('Graded by Ada Instructor (instructor), Tina Assistant.')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/work-split-1280.png`, fullPage: true });

  // 3. The instructor turns anonymous grading on from the assignment page.
  await page.goto(`/assignments/${assignment._id}`);
  const anonymity = page.getByLabel('Anonymous grading');
  await expect(anonymity).not.toBeChecked();
  await anonymity.click();
  await expect(page.getByText(/Anonymous grading is on/)).toBeVisible();
  await expect(anonymity).toBeChecked();
  await page.screenshot({ path: `${SHOTS}/assignment-anonymous-1280.png`, fullPage: true });

  // 4. The TA's question page names nobody and holds their share: one of the three answers
  // (two graders split three students in ranges: the first two go to Ada, the last to Tina).
  const taPage = await pageFor(browser, ta, DESK);
  const taWatcher = watchPage(taPage, baseURL!);
  await taPage.goto(questionPath);
  const taTable = taPage.getByRole('table', { name: 'Submissions' });
  await expect(taTable.getByRole('row', { name: /Student \d/ })).toHaveCount(3);
  for (const student of students) {
    await expect(taPage.getByText(student.name)).toHaveCount(0);
    await expect(taPage.getByText(student.email)).toHaveCount(0);
  }
  const share = taPage.getByRole('region', { name: 'Your share' });
  await expect(share.getByText(/your share is 1 of 3 answers\./)).toBeVisible();
  // Both counts, each named: the TA's share, and the whole question beside it.
  await expect(share.getByText('Left to grade in your share:')).toBeVisible();
  await expect(share.getByText('Left to grade in the whole question:')).toBeVisible();
  await expect(taTable.getByText('Your share')).toHaveCount(1);
  await taPage.screenshot({ path: `${SHOTS}/question-ta-share-1280.png`, fullPage: true });

  // 5. The TA walks their share: the grading screen opens their answer and the AI suggests.
  await share.getByRole('button', { name: 'Review (1 left in your share)' }).click();
  const taDialog = taPage.getByRole('dialog', { name: 'Grade Question Submission' });
  await expect(taDialog.getByRole('heading', { name: 'Review Comments' })).toBeVisible({ timeout: 90_000 });
  await expect(taDialog.getByText(/^Final Grade: [\d.]+ \/ 10$/)).toBeVisible();
  for (const student of students) await expect(taDialog.getByText(student.name)).toHaveCount(0);

  // 6. Meanwhile the instructor sees that answer marked, and opening it says who has it.
  await page.goto(questionPath);
  const table = page.getByRole('table', { name: 'Submissions' });
  const taken = table.getByRole('row', { name: /Open by Tina Assistant/ });
  await expect(taken).toHaveCount(1);
  await expect(taken.getByText('Share of Tina Assistant')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/question-open-by-1280.png`, fullPage: true });
  const label = /Student \d+/.exec((await taken.textContent()) ?? '')![0];
  await taken.getByRole('link', { name: `Grade ${label}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Grade Question Submission' });
  await expect(dialog.getByText(/^Tina Assistant has had this answer open since/)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/grading-open-by-1280.png` });
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(page).toHaveURL(questionPath);

  // 7. The TA saves the grade.
  await taDialog.getByRole('button', { name: 'Save Grade' }).click();
  await expect(taPage.getByText('Grade saved successfully!')).toBeVisible();

  // The others are graded by hand through the API: full marks, and 0 for the wrong answer.
  const listed = await ok<QuestionForStaff>(
    await request.get(`/api${questionPath}?includeSubmissions=1`, { headers: auth }),
    'read',
  );
  for (const [index, submissionId] of submissionIds.entries()) {
    const row = found(
      listed.submissions?.find((entry) => entry._id === submissionId),
      `row of ${submissionId}`,
    );
    if (row.isAlreadyGraded) continue;
    const isWrong = index === 2;
    await ok(
      await request.post(`/api${questionPath}/save-grade/${submissionId}`, {
        headers: auth,
        data: {
          // Not graded yet (graded rows were skipped above): the save starts from no saved grade.
          expectedGradeId: null,
          grade: isWrong ? 0 : 10,
          feedback: '',
          comments: isWrong ? [{ text: 'Wrong value, no explanation.', pointsDeducted: 10, accepted: true }] : [],
        },
      }),
      'save grade',
    );
  }

  // 8. A student appeals: Theodora asks for a regrade of her whole answer, the instructor rejects
  // it with a reply from the course's regrade queue, and she reads the reply on her report.
  const appellant = await pageFor(browser, students[2]!, DESK);
  const appellantWatcher = watchPage(appellant, baseURL!);
  await appellant.goto(`${questionPath}/grade/${submissionIds[2]}/report`);
  await appellant.getByRole('button', { name: 'Request a regrade' }).click();
  const ask = appellant.getByRole('dialog', { name: 'Request a regrade' });
  await ask.getByRole('radio', { name: 'The whole answer' }).check();
  await ask.getByLabel(/Your reason/).fill('I explained how I found it: I put the twos together.');
  await ask.getByRole('button', { name: 'Send request' }).click();
  await expect(ask).toHaveCount(0);
  const appeals = appellant.getByRole('list', { name: 'Your regrade requests' });
  await expect(appeals).toContainText('Waiting for a reply');

  await page.goto(`/courses/${course._id}`);
  await page.getByRole('link', { name: 'Regrade Requests' }).click();
  const appeal = page.getByRole('listitem').filter({ hasText: 'I put the twos together.' });
  await appeal.getByRole('button', { name: 'Resolve' }).click();
  const resolve = page.getByRole('dialog', { name: 'Resolve regrade request' });
  await resolve.getByRole('radio', { name: 'Reject' }).check();
  await resolve.getByLabel(/Reply to the student/).fill('2 + 2 is 4, not 22: the grade stands.');
  await resolve.getByRole('button', { name: 'Reject request' }).click();
  await expect(resolve).toHaveCount(0);
  await expect(page.getByText('No open regrade requests.')).toBeVisible();
  await appellant.reload();
  await expect(appeals).toContainText('2 + 2 is 4, not 22: the grade stands.');
  await appellant.screenshot({ path: `${SHOTS}/report-appeal-answered-1280.png`, fullPage: true });

  // 9. The statistics page shows the distribution (chart and table) and the graders.
  await page.goto(questionPath);
  await page.getByRole('link', { name: 'Statistics' }).click();
  await expect(page).toHaveURL(`${questionPath}/statistics`);
  await expect(page.getByRole('heading', { name: 'Statistics: Addition', level: 1 })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Grades of 3 students out of 10 points/ })).toBeVisible();
  const distribution = page.getByRole('table', { name: 'Grade distribution table' });
  // At least one full mark whoever the grading screen showed first.
  await expect(distribution.getByRole('row', { name: /^9–10 [123]$/ })).toBeVisible();
  const graderTable = page.getByRole('table', { name: 'Graders table' });
  await expect(graderTable.getByRole('row', { name: /Ada Instructor \(instructor\) 2/ })).toBeVisible();
  await expect(graderTable.getByRole('row', { name: /Tina Assistant 1/ })).toBeVisible();
  await expect(graderTable.getByRole('row', { name: /AI suggestions/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/question-statistics-1280.png`, fullPage: true });

  // The assignment's statistics, on a phone.
  const phone = await pageFor(browser, instructor, { width: 390, height: 844 });
  const phoneWatcher = watchPage(phone, baseURL!);
  await phone.goto(`/assignments/${assignment._id}`);
  await phone.getByRole('link', { name: 'Statistics' }).click();
  await expect(phone.getByRole('heading', { name: 'Statistics: Homework 1', level: 1 })).toBeVisible();
  await expect(phone.getByRole('img', { name: /^Grades of 3 fully graded students out of 10 points/ })).toBeVisible();
  await phone.screenshot({ path: `${SHOTS}/assignment-statistics-390.png`, fullPage: true });
  await phone.goto(questionPath);
  await expect(phone.getByText(/Student \d/).first()).toBeVisible();
  await phone.screenshot({ path: `${SHOTS}/question-anonymous-390.png`, fullPage: true });
  await page.goto(`/assignments/${assignment._id}/statistics`);
  await expect(page.getByRole('img', { name: /^Grades of 3 fully graded students/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/assignment-statistics-1280.png`, fullPage: true });

  // The work split and the TA's share on a phone.
  const taPhone = await pageFor(browser, ta, { width: 390, height: 844 });
  await taPhone.goto(questionPath);
  await expect(taPhone.getByRole('region', { name: 'Your share' })).toBeVisible();
  await taPhone.screenshot({ path: `${SHOTS}/question-ta-share-390.png`, fullPage: true });
  await phone.goto(`/courses/${course._id}/work-split`);
  await expect(phone.getByRole('group', { name: 'Graders of Homework 1: Addition' })).toBeVisible();
  await phone.screenshot({ path: `${SHOTS}/work-split-390.png`, fullPage: true });

  watcher.assertClean();
  taWatcher.assertClean();
  appellantWatcher.assertClean();
  phoneWatcher.assertClean();
});
