import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { buildTextPdf } from '../apps/server/src/demo/pdf-documents.ts';
import { watchPage } from './support.ts';

/**
 * The course lifecycle of issue 3, in a real browser against the real server: an instructor
 * creates a course with an image, invites a student who has no account yet, creates an assignment
 * with a deadline and a question with PDFs; the student registers, finds the course and submits;
 * the instructor sees the submission (on time, not graded) and opens its PDF in the viewer.
 */

/** A one-page PDF with a heading and a line of text, as a person would upload. */
async function writePdf(dir: string, name: string, heading: string, body: string): Promise<string> {
  const filePath = path.join(dir, name);
  fs.writeFileSync(filePath, await buildTextPdf({ title: heading, paragraphs: [body], pageSize: 'a4' }));
  return filePath;
}

/** A small solid-colour PNG (RGB, 8 bit), built by hand: signature, IHDR, IDAT, IEND. */
function writePng(dir: string, name: string, width: number, height: number, [r, g, b]: number[]): string {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r!, g!, b!]).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  const filePath = path.join(dir, name);
  fs.writeFileSync(filePath, png);
  return filePath;
}

/** The value of a datetime-local input for a moment in local time: YYYY-MM-DDTHH:mm. */
function toDateTimeLocal(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function register(
  page: Page,
  person: { name: string; email: string; password: string; role: 'Student' | 'Instructor' },
) {
  await page.goto('/register');
  await page.getByLabel('Name').fill(person.name);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('radio', { name: person.role }).check();
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Registration successful! Redirecting to login…')).toBeVisible();
  await expect(page).toHaveURL('/login');
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  // Login clears seenDemo: the demo comes first, then the courses.
  await expect(page).toHaveURL('/demo');
  await page.getByRole('button', { name: 'Skip Demo' }).click();
  await expect(page).toHaveURL('/courses');
}

async function logOut(page: Page) {
  await nav(page).getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL('/');
}

test('an instructor sets up a course and a question, an invited student registers and submits, the instructor opens the answer', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const watcher = watchPage(page, baseURL!);
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-e2e-files-'));
  try {
    const stamp = Date.now();
    const instructor = {
      name: 'Ada Instructor',
      email: `ada-${stamp}@example.edu`,
      password: 'correct horse battery',
      role: 'Instructor' as const,
    };
    const student = {
      name: 'Sam Student',
      email: `sam-${stamp}@example.edu`,
      password: 'battery staple horse',
      role: 'Student' as const,
    };
    const courseTitle = `Linear Algebra ${stamp}`;
    const image = writePng(files, 'cover.png', 96, 48, [40, 90, 160]);
    const questionPdf = await writePdf(
      files,
      'question.pdf',
      'Question 1',
      'Find the eigenvalues of the matrix [[2, 0], [0, 3]].',
    );
    const solutionPdf = await writePdf(files, 'solution.pdf', 'Solution 1', 'The eigenvalues are 2 and 3.');
    const answerPdf = await writePdf(
      files,
      'answer.pdf',
      'My answer',
      'The matrix is diagonal, so the eigenvalues are 2 and 3.',
    );

    // ---- The instructor registers, logs in and creates a course with an image.
    await register(page, instructor);
    await logIn(page, instructor.email, instructor.password);
    await expect(page.getByRole('heading', { level: 1, name: 'My Courses' })).toBeVisible();
    await page.getByRole('link', { name: 'Create New Course' }).click();
    await expect(page).toHaveURL('/courses/create');
    await page.getByLabel('Course Title').fill(courseTitle);
    await page.getByLabel('Course Image').setInputFiles(image);
    await expect(page.getByText('cover.png')).toBeVisible();
    await page.getByRole('button', { name: 'Create Course' }).click();
    await expect(page.getByText('Course created successfully.')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: courseTitle })).toBeVisible();
    const coursePath = new URL(page.url()).pathname;
    expect(coursePath).toMatch(/^\/courses\/[^/]+$/);
    // The image arrives through its signed link.
    await expect
      .poll(() =>
        page
          .locator('main img')
          .first()
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBe(96);

    // ---- Adds the student, who has no account yet, by email; back on the course after a second.
    await page.getByRole('link', { name: 'View Students' }).click();
    await expect(page.getByText('No students yet')).toBeVisible();
    await page.getByLabel('Student emails').fill(`${student.email}, `);
    await page.getByRole('button', { name: 'Add Students' }).click();
    await expect(page.getByText(/Students added successfully\. 0 added, 1 invited/)).toBeVisible();
    await expect(page).toHaveURL(coursePath);
    await page.getByRole('link', { name: 'View Students' }).click();
    await expect(page.getByText(student.email)).toBeVisible();
    await page.getByRole('link', { name: 'Back to Course' }).click();

    // ---- Creates an assignment with a deadline a week ahead.
    await expect(page.getByText('No assignments yet')).toBeVisible();
    await page.getByRole('button', { name: 'Create Assignment' }).click();
    await expect(page).toHaveURL('/assignments/create');
    await expect(page.getByText(`Course: ${courseTitle}`)).toBeVisible();
    await page.getByLabel('Title').fill('Homework 1');
    await page.getByLabel('Deadline').fill(toDateTimeLocal(new Date(Date.now() + 7 * 24 * 3600 * 1000)));
    await page.getByRole('button', { name: 'Create Assignment' }).click();
    await expect(page.getByText('Assignment created successfully!')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Homework 1' })).toBeVisible();
    await expect(page.getByText(/^Deadline:/)).toBeVisible();
    await expect(page).toHaveURL(/^.*\/assignments\/[^/]+$/);

    // ---- Creates a question with its question and solution PDFs.
    await page.getByRole('link', { name: 'Create a Question' }).click();
    await expect(
      page.getByText('For best results, PDFs should be no longer than two pages and reasonably organized.'),
    ).toBeVisible();
    await expect(page.getByRole('spinbutton', { name: 'Points' })).toHaveValue('10');
    await page.getByLabel('Title (optional)').fill('Eigenvalues');
    await page.getByLabel('Question PDF').setInputFiles(questionPdf);
    await page.getByLabel('Solution PDF').setInputFiles(solutionPdf);
    await page.getByRole('button', { name: 'Create Question' }).click();
    await expect(page.getByText('Question created successfully!')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Eigenvalues' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'View Solution PDF' })).toBeVisible();
    await expect(page.getByText('No submissions yet.')).toBeVisible();
    const questionPath = new URL(page.url()).pathname;
    await logOut(page);

    // ---- The student registers with the invited email. Without SMTP (this server) the invitation
    // waits for the instructor's confirmation (issue 15): until then the student is told so (issue 29).
    await register(page, student);
    await logIn(page, student.email, student.password);
    await expect(page.getByText('Waiting for your instructor to confirm')).toBeVisible();
    await logOut(page);
    await page.goto('/login');
    await logIn(page, instructor.email, instructor.password);
    await page.goto(`${coursePath}/students`);
    await expect(page.getByText(`${student.name} registered, awaiting your confirmation`)).toBeVisible();
    await page.getByRole('button', { name: `Confirm ${student.name} (${student.email})` }).click();
    await expect(page.getByText(`${student.name} (${student.email}) is now enrolled in this course.`)).toBeVisible();
    await logOut(page);
    await page.goto('/login');
    await logIn(page, student.email, student.password);
    await expect(page.getByRole('heading', { level: 1, name: 'Enrolled Courses' })).toBeVisible();
    await page.getByRole('link', { name: `View Course: ${courseTitle}` }).click();
    await expect(page.getByRole('heading', { level: 1, name: courseTitle })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create Assignment' })).toHaveCount(0);
    await page.getByRole('link', { name: 'View Assignment: Homework 1' }).click();
    await page.getByRole('link', { name: 'View Questions' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Questions for Homework 1' })).toBeVisible();
    await page.getByRole('link', { name: /Eigenvalues/ }).click();
    await expect(page).toHaveURL(questionPath);
    await expect(page.getByRole('button', { name: 'View Solution PDF' })).toHaveCount(0);

    // ---- Submits an answer PDF.
    await expect(page.getByRole('heading', { name: 'Submit Your Answer' })).toBeVisible();
    await page.getByLabel('Answer PDF').setInputFiles(answerPdf);
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(page.getByText('Submission successful!')).toBeVisible();
    await expect(
      page.getByRole('table', { name: 'Submissions' }).getByRole('row', { name: /Sam Student/ }),
    ).toBeVisible();
    await logOut(page);

    // ---- The instructor sees the row: on time, not graded; and opens the PDF.
    await nav(page).getByRole('link', { name: 'Login' }).click();
    await logIn(page, instructor.email, instructor.password);
    await page.goto(questionPath);
    const row = page.getByRole('table', { name: 'Submissions' }).getByRole('row', { name: /Sam Student/ });
    await expect(row.getByRole('cell').nth(1)).toHaveText('No'); // Late?
    await expect(row.getByText('Not Graded')).toBeVisible();
    await expect(row.getByRole('link', { name: 'Grade Sam Student' })).toBeVisible();

    await row.getByRole('button', { name: 'View PDF of Sam Student' }).click();
    const viewer = page.getByRole('dialog', { name: 'Submission of Sam Student' });
    await expect(viewer).toBeVisible();
    await expect(viewer.locator('.react-pdf__Page canvas')).toBeVisible();
    await expect(viewer.getByText('Page 1 of 1')).toBeVisible();
    // The page was really drawn: the canvas has the PDF's page proportions and is not blank.
    const canvas = await viewer.locator('.react-pdf__Page canvas').evaluate((element: HTMLCanvasElement) => {
      const context = element.getContext('2d')!;
      const { data } = context.getImageData(0, 0, element.width, element.height);
      let darkPixels = 0;
      for (let index = 0; index < data.length; index += 4) if (data[index]! < 128) darkPixels += 1;
      return { ratio: element.height / element.width, darkPixels };
    });
    expect(canvas.ratio).toBeCloseTo(842 / 595, 1);
    expect(canvas.darkPixels).toBeGreaterThan(100);
    await expect(viewer.getByRole('link', { name: 'Open in new tab' })).toHaveAttribute('href', /^\/api\/files\//);
    await viewer.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(viewer).toHaveCount(0);

    // A tampered file link is refused by the server, and the viewer says so.
    await page.route('**/api/files/**', (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('sig', 'tampered');
      return route.continue({ url: url.toString() });
    });
    await row.getByRole('button', { name: 'View PDF of Sam Student' }).click();
    await expect(viewer.getByText('Failed to load PDF.')).toBeVisible();
    await page.unroute('**/api/files/**');

    watcher.assertClean();
  } finally {
    fs.rmSync(files, { recursive: true, force: true });
  }
});
