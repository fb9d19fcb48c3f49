import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RubricTrialOutput } from '@gradewise/shared/contracts/review';
import { expectJson } from './support/expect-json.ts';
import { count } from 'drizzle-orm';
import { gradingRuns, rubrics } from '../src/db/schema.ts';
import {
  createAssignment,
  createCourseWorld,
  createQuestion,
  submitAnswer,
  type CourseWorld,
} from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { questionPath } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let world: CourseWorld;
let otherInstructor: TestUser;

const RUBRIC = {
  questionText: 'What is 2 + 2? Explain your reasoning.',
  solutionText: '2 + 2 = 4, because adding two and two gives four.',
  items: [
    { criterion: 'States that the sum is 4', points: 6, guidance: 'The final answer must be 4.' },
    { criterion: 'Explains the addition of two and two', points: 4, guidance: '' },
  ],
};
const trialUrl = (w: { assignment: { _id: string }; question: { _id: string } } = world) =>
  `${questionPath(w.assignment._id, w.question._id)}/rubric-trial`;
const tryRubric = (user: TestUser, payload: object, url = trialUrl()) =>
  t.app.inject({ method: 'POST', url, headers: user.auth, payload });
const tableCount = async (table: typeof gradingRuns | typeof rubrics) =>
  (await t.ctx.db.select({ n: count() }).from(table))[0]!.n;

beforeAll(async () => {
  t = await createTestApp();
  world = await createCourseWorld(t.app);
  otherInstructor = await registerUser(t.app, { role: 'instructor' });
});
afterAll(async () => {
  await t?.close();
});

describe('POST .../rubric-trial', () => {
  it('grades a pasted sample answer with the unsaved rubric and stores nothing', async () => {
    const response = await tryRubric(world.instructor, {
      ...RUBRIC,
      sampleAnswer: 'The sum is 4, because two and two gives four.',
    });
    const trial = expectJson(response, 200, RubricTrialOutput);
    expect(trial.grader).toEqual({ kind: 'builtin', provider: 'builtin', model: expect.any(String) });
    expect(trial.questionPoints).toBe(10);
    expect(trial.results).toHaveLength(1);
    const result = trial.results[0]!;
    expect(result).toMatchObject({ label: 'Sample answer', submissionId: null });
    expect(result.totalScore).toBeGreaterThanOrEqual(0);
    expect(result.totalScore).toBeLessThanOrEqual(10);
    expect(result.confidenceLevel).toBeGreaterThanOrEqual(0);
    expect(result.confidenceLevel).toBeLessThanOrEqual(100);
    // Items without ids were numbered; every judging comment names one of them and its criterion.
    for (const comment of result.comments.filter((comment) => comment.rubricItemId !== null)) {
      expect(['item-1', 'item-2']).toContain(comment.rubricItemId);
      expect(comment.criterion).toBe(RUBRIC.items[comment.rubricItemId === 'item-1' ? 0 : 1]!.criterion);
    }
    expect(await tableCount(gradingRuns)).toBe(0);
    expect(await tableCount(rubrics)).toBe(0);
  });

  it('scores a right answer above a wrong one', async () => {
    const right = (
      await tryRubric(world.instructor, {
        ...RUBRIC,
        sampleAnswer: 'The sum is 4, because adding two and two gives four.',
      })
    ).json();
    const wrong = (await tryRubric(world.instructor, { ...RUBRIC, sampleAnswer: 'It is 7. I guessed.' })).json();
    expect(right.results[0].totalScore).toBeGreaterThan(wrong.results[0].totalScore);
  });

  it('grades real submissions of the question, labelled with the student name, after the sample', async () => {
    const submission = await submitAnswer(
      t.app,
      world.student,
      world.assignment._id,
      world.question._id,
      'Two plus two is 4.',
    );
    const response = await tryRubric(world.instructor, {
      ...RUBRIC,
      sampleAnswer: 'Four.',
      submissionIds: [submission._id],
    });
    expect(
      expectJson(response, 200, RubricTrialOutput).results.map((result) => [result.label, result.submissionId]),
    ).toEqual([
      ['Sample answer', null],
      ['Sam Student', submission._id],
    ]);
    expect(await tableCount(gradingRuns)).toBe(0);
  });

  it.each([
    [{ ...RUBRIC }, 'Paste a sample answer or choose at least one submission to try the rubric on.'],
    [
      { ...RUBRIC, sampleAnswer: '   ' },
      'Paste a sample answer or choose at least one submission to try the rubric on.',
    ],
    [{ ...RUBRIC, items: [], sampleAnswer: 'x' }, 'A rubric needs at least one item.'],
    [{ ...RUBRIC, submissionIds: ['a', 'b', 'c', 'd'] }, 'Try the rubric on at most 3 submissions at a time.'],
    [{ ...RUBRIC, items: [{ criterion: '', points: 10 }], sampleAnswer: 'x' }, 'Each rubric item needs a criterion.'],
  ])('refuses %j with a 400 and its message', async (payload, message) => {
    const response = await tryRubric(world.instructor, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message, code: 'VALIDATION_FAILED' });
  });

  it('refuses items that do not add up to the question points', async () => {
    const response = await tryRubric(world.instructor, {
      ...RUBRIC,
      items: [{ criterion: 'All of it', points: 9 }],
      sampleAnswer: 'Four.',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      message: 'The rubric items add up to 9 points, but the question is worth 10 points.',
      code: 'BAD_REQUEST',
    });
  });

  it('answers 404 for a submission of another question, never reading it', async () => {
    const other = await createQuestion(t.app, world.instructor, world.assignment._id, { title: 'Other' });
    const foreign = await submitAnswer(t.app, world.student, world.assignment._id, other._id, 'Elsewhere.');
    const response = await tryRubric(world.instructor, { ...RUBRIC, submissionIds: [foreign._id] });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Submission not found.', code: 'NOT_FOUND' });
  });

  it('is for the owning instructor only: student 403, another instructor 404', async () => {
    const student = await tryRubric(world.student, { ...RUBRIC, sampleAnswer: 'Four.' });
    expect(student.statusCode).toBe(403);
    expect(student.json()).toEqual({
      message: 'Only the instructor of this course can try its rubric.',
      code: 'FORBIDDEN',
    });
    expect((await tryRubric(otherInstructor, { ...RUBRIC, sampleAnswer: 'Four.' })).statusCode).toBe(404);
    const elsewhere = await createAssignment(t.app, world.instructor, world.course._id);
    expect(
      (
        await tryRubric(
          world.instructor,
          { ...RUBRIC, sampleAnswer: 'Four.' },
          trialUrl({ assignment: elsewhere, question: world.question }),
        )
      ).statusCode,
    ).toBe(404);
  });
});
