import type { CreateAssignmentOutput } from '@gradewise/shared/contracts/assignments';
import type { AuthOutput } from '@gradewise/shared/contracts/auth';
import type { CreateCourseOutput } from '@gradewise/shared/contracts/courses';
import type { CreateQuestionOutput } from '@gradewise/shared/contracts/questions';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { buildTextPdf } from '../apps/server/src/demo/pdf-documents.ts';

/**
 * Watches a page for what must never happen in this app: a request to another origin (everything
 * is self-hosted under a strict CSP), a CSP refusal, or an uncaught exception. Call `assertClean`
 * at the end of a journey.
 */
export function watchPage(page: Page, baseURL: string) {
  const origin = new URL(baseURL).origin;
  const foreignRequests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.origin !== origin) foreignRequests.push(request.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`Uncaught: ${error.message}`));
  return {
    assertClean() {
      expect(foreignRequests, 'requests to other origins').toEqual([]);
      expect(problems, 'CSP violations or uncaught errors').toEqual([]);
    },
  };
}

/** A token shaped like the server's whose `exp` is in the past (its signature is never checked). */
export function expiredToken(): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) - 3600;
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: 'someone', tv: 0, iss: 'gradewise', exp })}.c2lnbmF0dXJl`;
}

export const storedToken = (page: Page) => page.evaluate(() => window.localStorage.getItem('token'));

// ---------------------------------------------------------------------------------------------
// Setting a journey up through the API (what happens before its first screen)

/** A registered account and its session token. */
export interface Person {
  name: string;
  email: string;
  token: string;
}

let counter = 0;
/** Unique per call in this run: course titles and emails of journeys that share one server. */
export const unique = () => `${Date.now()}-${(counter += 1)}`;

/**
 * The JSON body of an answer that must be a success; otherwise fails naming the step. Name `T`
 * (a contract output) to type the body; the journeys' other reads are left untyped.
 */
export async function ok<T = unknown>(
  response: Awaited<ReturnType<APIRequestContext['get']>>,
  what: string,
): Promise<T> {
  if (!response.ok()) throw new Error(`${what} failed: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A value the journey needs from an API answer, or a failure that names what was missing. */
export function found<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`${what}: not in the answer`);
  return value;
}

/** A typed PDF to upload (the title becomes its file name), from the project's one PDF writer. */
export async function pdf(title: string, paragraphs: string[]) {
  return {
    name: `${title.replace(/\W+/g, '-').toLowerCase()}.pdf`,
    mimeType: 'application/pdf',
    buffer: Buffer.from(await buildTextPdf({ title, paragraphs })),
  };
}

export async function registerPerson(
  request: APIRequestContext,
  name: string,
  role: 'student' | 'instructor',
): Promise<Person> {
  const email = `${name.split(' ')[0]!.toLowerCase()}-${unique()}@example.edu`;
  const password = 'correct horse battery';
  // Registering answers no token (it never says whether an address had an account): sign in next.
  await ok(await request.post('/api/auth/register', { data: { name, email, password, role } }), 'register');
  const body = await ok<AuthOutput>(await request.post('/api/auth/login', { data: { email, password } }), 'log in');
  return { name, email, token: body.token };
}

export interface SeededQuestion {
  instructor: Person;
  students: Person[];
  assignmentId: string;
  questionId: string;
  questionPath: string;
  assignmentTitle: string;
}

export const EIGENVALUES_QUESTION =
  'Find the eigenvalues of the matrix A = [[2, 0], [0, 3]] and explain how you found them.';
export const EIGENVALUES_SOLUTION =
  'The matrix is diagonal, so its eigenvalues are its diagonal entries: 2 and 3. The characteristic polynomial (2 - x)(3 - x) = 0 gives x = 2 and x = 3.';

/** What the question's two PDFs say (each paragraph a line of the PDF): the eigenvalue question unless told. */
export interface QuestionTexts {
  title: string;
  question: string[];
  solution: string[];
}

const EIGENVALUES: QuestionTexts = {
  title: 'Eigenvalues',
  question: [EIGENVALUES_QUESTION],
  solution: [EIGENVALUES_SOLUTION],
};

/** An instructor's course with the given students, one assignment and one 10-point question; each student submits their answer. */
export async function seedQuestion(
  request: APIRequestContext,
  answers: { name: string; answer: string }[],
  texts: QuestionTexts = EIGENVALUES,
): Promise<SeededQuestion> {
  const instructor = await registerPerson(request, 'Ada Instructor', 'instructor');
  const auth = { Authorization: `Bearer ${instructor.token}` };
  const students = [];
  for (const { name } of answers) students.push(await registerPerson(request, name, 'student'));
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
  const assignmentTitle = 'Homework 1';
  const { assignment } = await ok<CreateAssignmentOutput>(
    await request.post('/api/assignments', {
      headers: auth,
      data: { title: assignmentTitle, courseId: course._id, deadline: null },
    }),
    'create assignment',
  );
  const { question } = await ok<CreateQuestionOutput>(
    await request.post(`/api/assignments/${assignment._id}/questions`, {
      headers: auth,
      multipart: {
        title: texts.title,
        points: '10',
        questionFile: await pdf('Question 1', texts.question),
        solutionFile: await pdf('Solution 1', texts.solution),
      },
    }),
    'create question',
  );
  const questionPath = `/assignments/${assignment._id}/questions/${question._id}`;
  for (const [index, student] of students.entries()) {
    await ok(
      await request.post(`/api${questionPath}/submit`, {
        headers: { Authorization: `Bearer ${student.token}` },
        multipart: { file: await pdf(`Answer of ${student.name}`, [answers[index]!.answer]) },
      }),
      'submit',
    );
  }
  return {
    instructor,
    students,
    assignmentId: assignment._id,
    questionId: question._id,
    questionPath,
    assignmentTitle,
  };
}

/** A browser page signed in as this person: the session starts from the stored token, as after a login. */
export async function pageFor(
  browser: Browser,
  person: Person,
  viewport: { width: number; height: number } = { width: 1366, height: 900 },
): Promise<Page> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  await context.addInitScript((token) => {
    if (!window.localStorage.getItem('token')) window.localStorage.setItem('token', token);
    window.localStorage.setItem('seenDemo', 'true');
  }, person.token);
  return context.newPage();
}
