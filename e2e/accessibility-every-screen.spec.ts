import type { CreateAssignmentOutput } from '@gradewise/shared/contracts/assignments';
import type { CreateCourseOutput } from '@gradewise/shared/contracts/courses';
import type { CreateQuestionOutput } from '@gradewise/shared/contracts/questions';
import type { SubmitAnswerOutput } from '@gradewise/shared/contracts/submissions';
import axe from 'axe-core';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ok, pageFor, pdf, registerPerson, unique, type Person } from './support.ts';

/**
 * axe on every screen (issue 29 part 5): each screen of the app, as the person who uses it
 * (signed out, the instructor, a TA, a student), at 1280x900 and 390x844, checked by axe-core with
 * its default rules once the screen has drawn its data. Any violation fails the journey, each
 * named with its screen, width, rule and elements, so one run lists them all.
 *
 * axe-core is loaded into the page by the DevTools protocol (page.evaluate), which the app's strict
 * CSP does not govern: nothing is added to the app for it, and nothing is downloaded.
 */
// axe-core's own source, as the package exports it for injecting into a page.
const AXE_SOURCE = axe.source;
const VIEWPORTS = [
  { label: '1280', size: { width: 1280, height: 900 } },
  { label: '390', size: { width: 390, height: 844 } },
] as const;

interface World {
  instructor: Person;
  ta: Person;
  student: Person;
  courseId: string;
  assignmentId: string;
  questionPath: string;
  submissionId: string;
}

/**
 * A course with a TA and one student, a two-item question whose answer is graded 7 / 10 and
 * released, and the student's regrade request on it: every screen then has something to show.
 */
async function seed(request: APIRequestContext): Promise<World> {
  const instructor = await registerPerson(request, 'Ada Instructor', 'instructor');
  const ta = await registerPerson(request, 'Tina Assistant', 'instructor');
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
  await ok(
    await request.post(`/api/courses/${course._id}/staff`, { headers: auth, data: { email: ta.email, role: 'ta' } }),
    'add TA',
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
        solutionFile: await pdf('Solution 1', ['A is diagonal: its eigenvalues are 2 and 3.']),
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
        solutionText: 'A is diagonal: its eigenvalues are 2 and 3.',
        items: [
          { criterion: 'Gives the eigenvalues 2 and 3', points: 6, guidance: '' },
          { criterion: 'Explains why', points: 4, guidance: '' },
        ],
      },
    }),
    'save rubric',
  );
  const { submission } = await ok<SubmitAnswerOutput>(
    await request.post(`/api${questionPath}/submit`, {
      headers: { Authorization: `Bearer ${student.token}` },
      multipart: { file: await pdf('My answer', ['The eigenvalues are 2 and 3 because A is diagonal.']) },
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
        comments: [{ text: 'The reason is too short.', pointsDeducted: 3, accepted: true, rubricItemId: 'item-2' }],
      },
    }),
    'save grade',
  );
  await ok(
    await request.post(`/api${questionPath}/regrade-requests`, {
      headers: { Authorization: `Bearer ${student.token}` },
      data: { submissionId: submission._id, rubricItemId: null, reason: 'I explain it in the first line.' },
    }),
    'ask for a regrade',
  );
  return {
    instructor,
    ta,
    student,
    courseId: course._id,
    assignmentId: assignment._id,
    questionPath,
    submissionId: submission._id,
  };
}

/** A screen to check: where it is, and what says it has drawn its data (its title by default). */
interface Screen {
  name: string;
  path: string;
  ready?: (page: Page) => ReturnType<Page['getByRole']>;
}

const title = (page: Page) => page.getByRole('heading', { level: 1 }).first();

/** Opens each screen at both widths, waits until it has drawn, and collects axe's violations. */
async function violationsOf(page: Page, screens: Screen[]): Promise<string[]> {
  const found: string[] = [];
  for (const screen of screens) {
    for (const { label, size } of VIEWPORTS) {
      await page.setViewportSize(size);
      await page.goto(screen.path);
      try {
        await expect((screen.ready ?? title)(page)).toBeVisible({ timeout: 60_000 });
        // Loading states end before the check: a spinner still showing is a screen not yet drawn.
        // (An indeterminate one: a determinate bar, such as a share graded, is content.)
        await expect(page.locator('[role="progressbar"]:not([aria-valuenow])')).toHaveCount(0, { timeout: 60_000 });
      } catch {
        // Said with the violations, so one run still checks every other screen.
        found.push(`${screen.name} @${label}: not drawn (no title, or still loading)`);
        continue;
      }
      await page.evaluate(AXE_SOURCE);
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } }).axe;
        interface AxeResults {
          violations: { id: string; help: string; nodes: { target: unknown[] }[] }[];
        }
        const results = await axe.run(document);
        return results.violations.map((violation) => ({
          id: violation.id,
          help: violation.help,
          targets: violation.nodes.slice(0, 5).map((node) => JSON.stringify(node.target)),
        }));
      });
      // Said as it is found, so a run cut short still shows what it found.
      console.log(`${screen.name} @${label}: ${violations.length} violation(s)`);
      for (const violation of violations)
        found.push(`${screen.name} @${label}: ${violation.id} (${violation.help}) at ${violation.targets.join(', ')}`);
    }
  }
  return found;
}

let world: World;
let gradingScreen: string;

test.beforeAll(async ({ request }) => {
  world = await seed(request);
  gradingScreen = `${world.questionPath}/grade/${world.submissionId}`;
});

test('signed out: every screen passes axe at 1280 and 390 wide', async ({ browser }) => {
  test.setTimeout(900_000);
  const visitor = await (await browser.newContext()).newPage();
  const problems = await violationsOf(visitor, [
    { name: 'home', path: '/' },
    { name: 'sign in', path: '/login' },
    { name: 'register', path: '/register' },
    { name: 'forgot password', path: '/forgot-password' },
    { name: 'about', path: '/about' },
    { name: 'FAQs', path: '/faqs' },
    { name: 'pricing', path: '/pricing' },
    { name: 'demo', path: '/demo' },
    { name: 'not found', path: '/no-such-page' },
  ]);
  expect(problems, 'axe violations').toEqual([]);
});

test('the instructor: every screen passes axe at 1280 and 390 wide', async ({ browser }) => {
  test.setTimeout(900_000);
  const { courseId, assignmentId, questionPath } = world;
  const instructor = await pageFor(browser, world.instructor);
  const problems = await violationsOf(instructor, [
    { name: 'courses', path: '/courses' },
    { name: 'create course', path: '/courses/create' },
    { name: 'course', path: `/courses/${courseId}`, ready: (page) => page.getByText('Homework 1').first() },
    {
      name: 'students',
      path: `/courses/${courseId}/students`,
      ready: (page) => page.getByText('Sam Student').first(),
    },
    {
      name: 'work split',
      path: `/courses/${courseId}/work-split`,
      ready: (page) => page.getByText('Tina Assistant').first(),
    },
    {
      name: 'regrade requests',
      path: `/courses/${courseId}/regrade-requests`,
      ready: (page) => page.getByText('I explain it in the first line.').first(),
    },
    { name: 'assignments', path: '/assignments', ready: (page) => page.getByText('Homework 1').first() },
    {
      name: 'create assignment',
      path: `/assignments/create?courseId=${courseId}`,
    },
    {
      name: 'assignment',
      path: `/assignments/${assignmentId}`,
      // The assignment page lists no question: its View Questions link is drawn with its data.
      ready: (page) => page.getByRole('link', { name: 'View Questions' }),
    },
    {
      name: 'questions',
      path: `/assignments/${assignmentId}/questions`,
      ready: (page) => page.getByText('Eigenvalues').first(),
    },
    {
      name: 'create question',
      path: `/assignments/${assignmentId}/questions/create`,
    },
    { name: 'question', path: questionPath, ready: (page) => page.getByText('Sam Student').first() },
    {
      name: 'assignment statistics',
      path: `/assignments/${assignmentId}/statistics`,
    },
    { name: 'question statistics', path: `${questionPath}/statistics` },
    { name: 'rubric', path: `${questionPath}/rubric`, ready: (page) => page.getByLabel('Criterion of item 2') },
    { name: 'rubric wizard', path: `${questionPath}/rubric-wizard` },
    {
      name: 'grading screen',
      path: gradingScreen,
      ready: (page) => page.getByRole('heading', { name: 'Review Comments' }),
    },
    { name: 'account', path: '/account' },
    { name: 'LMS settings', path: '/lti' },
  ]);
  expect(problems, 'axe violations').toEqual([]);
});

test('a TA: every screen passes axe at 1280 and 390 wide', async ({ browser }) => {
  test.setTimeout(900_000);
  const { courseId, questionPath } = world;
  const ta = await pageFor(browser, world.ta);
  const problems = await violationsOf(ta, [
    { name: 'TA courses', path: '/courses' },
    { name: 'TA course', path: `/courses/${courseId}`, ready: (page) => page.getByText('Homework 1').first() },
    { name: 'TA question', path: questionPath, ready: (page) => page.getByText('Sam Student').first() },
    {
      name: 'TA grading screen',
      path: gradingScreen,
      ready: (page) => page.getByRole('heading', { name: 'Review Comments' }),
    },
  ]);
  expect(problems, 'axe violations').toEqual([]);
});

test('a student: every screen passes axe at 1280 and 390 wide', async ({ browser }) => {
  test.setTimeout(900_000);
  const { courseId, assignmentId, questionPath } = world;
  const student = await pageFor(browser, world.student);
  const problems = await violationsOf(student, [
    { name: 'student courses', path: '/courses' },
    { name: 'student course', path: `/courses/${courseId}`, ready: (page) => page.getByText('Homework 1').first() },
    {
      name: 'student assignment',
      path: `/assignments/${assignmentId}`,
      ready: (page) => page.getByRole('link', { name: 'View Questions' }),
    },
    { name: 'student question', path: questionPath },
    {
      name: 'student report',
      path: `${gradingScreen}/report`,
      ready: (page) => page.getByText('The reason is too short.').first(),
    },
    { name: 'student account', path: '/account' },
  ]);
  expect(problems, 'axe violations').toEqual([]);
});
