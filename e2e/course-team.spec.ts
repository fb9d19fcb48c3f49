import fs from 'node:fs';
import { expect as baseExpect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { buildTextPdf } from '../apps/server/src/pdf/pdf-documents.ts';
import { watchPage } from './support.ts';

/**
 * Issue 12's course-team journey, as far as it has landed: the instructor turns anonymous grading
 * on, grades an answer on the grading screen without seeing who wrote it, and the statistics page
 * shows the grade distribution (chart and table) and the graders, the AI among them. The course,
 * question, answers and the other grades are set up through the API; the steps of the journey go
 * through the screens. Screenshots at 1280x900 and 390x844 go to /tmp/shots-i12stats/.
 */

interface Person {
  name: string;
  email: string;
  token: string;
}

const expect = baseExpect.configure({ timeout: 15_000 });
const SHOTS = '/tmp/shots-i12stats';
const QUESTION = 'What is 2 + 2? Explain how you found it.';
const SOLUTION = '2 + 2 = 4: adding two and two gives four.';
const CLASS = [
  { name: 'Quentin Marblehead', answer: 'Two plus two is four, because adding two to two counts up to four.' },
  { name: 'Rosalind Fernsby', answer: 'It is 4.' },
  { name: 'Theodora Pickwick', answer: 'I think it is 22 because you put the twos together.' },
];

let counter = 0;
const unique = () => `${Date.now()}-${(counter += 1)}`;

async function ok<T = any>(response: Awaited<ReturnType<APIRequestContext['get']>>, what: string): Promise<T> {
  if (!response.ok()) throw new Error(`${what} failed: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

async function pdf(title: string, paragraphs: string[]) {
  return {
    name: `${title.replace(/\W+/g, '-').toLowerCase()}.pdf`,
    mimeType: 'application/pdf',
    buffer: Buffer.from(await buildTextPdf({ title, paragraphs })),
  };
}

async function registerPerson(
  request: APIRequestContext,
  name: string,
  role: 'student' | 'instructor',
): Promise<Person> {
  const email = `${name.split(' ')[0]!.toLowerCase()}-${unique()}@example.edu`;
  const body = await ok(
    await request.post('/api/auth/register', { data: { name, email, password: 'correct horse battery', role } }),
    'register',
  );
  return { name, email, token: body.token };
}

async function pageFor(browser: Browser, person: Person, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  await context.addInitScript((token) => {
    if (!window.localStorage.getItem('token')) window.localStorage.setItem('token', token);
    window.localStorage.setItem('seenDemo', 'true');
  }, person.token);
  return context.newPage();
}

test('the instructor grades an anonymous assignment and reads its statistics', async ({
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
  const { course } = await ok(
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
  const { assignment } = await ok(
    await request.post('/api/assignments', {
      headers: auth,
      data: { title: 'Homework 1', courseId: course._id, deadline: null },
    }),
    'create assignment',
  );
  const { question } = await ok(
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
    const { submission } = await ok(
      await request.post(`/api${questionPath}/submit`, {
        headers: { Authorization: `Bearer ${student.token}` },
        multipart: { file: await pdf('My answer', [CLASS[index]!.answer]) },
      }),
      'submit',
    );
    submissionIds.push(submission._id);
  }

  const page = await pageFor(browser, instructor);
  const watcher = watchPage(page, baseURL!);

  // 1. The instructor turns anonymous grading on from the assignment page.
  await page.goto(`/assignments/${assignment._id}`);
  const anonymity = page.getByLabel('Anonymous grading');
  await expect(anonymity).not.toBeChecked();
  await anonymity.click();
  await expect(page.getByText(/Anonymous grading is on/)).toBeVisible();
  await expect(anonymity).toBeChecked();
  await page.screenshot({ path: `${SHOTS}/assignment-anonymous-1280.png`, fullPage: true });

  // 2. The question page names nobody: Student 1…N instead of names and emails.
  await page.goto(questionPath);
  const table = page.getByRole('table', { name: 'Submissions' });
  await expect(table.getByRole('row', { name: /Student \d/ })).toHaveCount(3);
  for (const student of students) {
    await expect(page.getByText(student.name)).toHaveCount(0);
    await expect(page.getByText(student.email)).toHaveCount(0);
  }
  await page.screenshot({ path: `${SHOTS}/question-anonymous-1280.png`, fullPage: true });

  // 3. Grading one answer on the grading screen: the AI suggests, the instructor saves.
  const firstRow = table.getByRole('row', { name: /Student \d/ }).first();
  const label = /Student \d+/.exec((await firstRow.textContent()) ?? '')![0];
  await firstRow.getByRole('link', { name: `Grade ${label}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Grade Question Submission' });
  await expect(dialog.getByRole('heading', { name: 'Review Comments' })).toBeVisible({ timeout: 90_000 });
  await expect(dialog.getByText(/^Final Grade: [\d.]+ \/ 10$/)).toBeVisible();
  for (const student of students) await expect(dialog.getByText(student.name)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Save Grade' }).click();
  await expect(page.getByText('Grade saved successfully!')).toBeVisible();

  // The others are graded by hand through the API: full marks, and 0 for the wrong answer.
  const listed = await ok<any>(
    await request.get(`/api${questionPath}?includeSubmissions=1`, { headers: auth }),
    'read',
  );
  for (const [index, submissionId] of submissionIds.entries()) {
    if (listed.submissions.find((entry: any) => entry._id === submissionId).isAlreadyGraded) continue;
    const isWrong = index === 2;
    await ok(
      await request.post(`/api${questionPath}/save-grade/${submissionId}`, {
        headers: auth,
        data: {
          grade: isWrong ? 0 : 10,
          feedback: '',
          comments: isWrong ? [{ text: 'Wrong value, no explanation.', pointsDeducted: 10, accepted: true }] : [],
        },
      }),
      'save grade',
    );
  }

  // 4. The statistics page shows the distribution (chart and table) and the graders.
  // Save Grade went back to the question page (in the app: a reload here would cut its PDF worker off).
  await expect(page).toHaveURL(questionPath);
  await page.getByRole('link', { name: 'Statistics' }).click();
  await expect(page).toHaveURL(`${questionPath}/statistics`);
  await expect(page.getByRole('heading', { name: 'Statistics: Addition', level: 1 })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Grades of 3 students out of 10 points/ })).toBeVisible();
  const distribution = page.getByRole('table', { name: 'Grade distribution table' });
  // At least one full mark whoever the grading screen showed first.
  await expect(distribution.getByRole('row', { name: /^9–10 [123]$/ })).toBeVisible();
  const graders = page.getByRole('table', { name: 'Graders table' });
  await expect(graders.getByRole('row', { name: /Ada Instructor \(instructor\) 3/ })).toBeVisible();
  await expect(graders.getByRole('row', { name: /AI suggestions/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/question-statistics-1280.png`, fullPage: true });

  // The assignment's statistics, on a phone.
  const phone = await pageFor(browser, instructor, { width: 390, height: 844 });
  const phoneWatcher = watchPage(phone, baseURL!);
  await phone.goto(`/assignments/${assignment._id}`);
  await phone.getByRole('link', { name: 'Statistics' }).click();
  await expect(phone.getByRole('heading', { name: 'Statistics: Homework 1', level: 1 })).toBeVisible();
  await expect(phone.getByRole('img', { name: /^Grades of 3 students out of 10 points/ })).toBeVisible();
  await phone.screenshot({ path: `${SHOTS}/assignment-statistics-390.png`, fullPage: true });
  await phone.goto(questionPath);
  await expect(phone.getByText(/Student \d/).first()).toBeVisible();
  await phone.screenshot({ path: `${SHOTS}/question-anonymous-390.png`, fullPage: true });
  await page.goto(`/assignments/${assignment._id}/statistics`);
  await expect(page.getByRole('img', { name: /^Grades of 3 students/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/assignment-statistics-1280.png`, fullPage: true });

  watcher.assertClean();
  phoneWatcher.assertClean();
});
