import { and, count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GradingOutput } from '@gradewise/shared/contracts/grading';
import type { SubmissionForStudent } from '@gradewise/shared/contracts/submissions';
import type { Grader, GradingInput } from '../src/ai/grader-types.ts';
import { gradingRuns, submissions, suggestionRefreshes } from '../src/db/schema.ts';
import { ensureFileExtraction } from '../src/services/ensure-file-extraction.ts';
import { addStudents, createCourseWorld, submitAnswer, type CourseWorld } from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { gradeWithAi, questionPath, saveGrade, saveRubric } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Learning from saved grades with the built-in grader (issue 9): each grading call is given the
 * question's saved grades as examples, and every save queues one background refresh that
 * re-suggests the answers still without a grade. Through HTTP with the real job queue.
 *
 * The grader is the real one, wrapped to record the input it was given: what the grader does
 * with the examples is the grader's business (and its tests'); here we check what it receives.
 */
const recorded = vi.hoisted(() => {
  // The PGlite server files share a worker's modules (decision 0098): an app module another file
  // loaded first holds the real grader, so this file's imports load every module afresh, with the mock.
  vi.resetModules();
  return { inputs: [] as GradingInput[] };
});

vi.mock('../src/ai/builtin/builtin-grader.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/ai/builtin/builtin-grader.ts')>();
  return {
    ...original,
    createBuiltinGrader: (...args: Parameters<typeof original.createBuiltinGrader>) => {
      const grader = original.createBuiltinGrader(...args);
      const wrapped: Grader = {
        kind: grader.kind,
        requestGrading: (input, signal) => {
          recorded.inputs.push(structuredClone(input));
          return grader.requestGrading(input, signal);
        },
        interpretGrading: (rawOutput, input) => grader.interpretGrading(rawOutput, input),
        requestRubric: (input, signal) => grader.requestRubric(input, signal),
        interpretRubric: (rawOutput, input) => grader.interpretRubric(rawOutput, input),
      };
      return wrapped;
    },
  };
});

const ANSWERS: Record<string, string> = {
  Ann: 'Two plus two is four, so the answer is 4.',
  Ben: 'The answer is 5.',
  Cat: 'It is 4 because 2 + 2 = 4.',
  Dan: 'I am not sure, maybe 22.',
  Eve: 'Four, since two and two make four.',
};

let t: TestApp;
let world: CourseWorld;
const students = new Map<string, TestUser>();
const submissionOf = new Map<string, SubmissionForStudent>();
const suggestionOf = new Map<string, GradingOutput>();

const target = (name: string) => ({
  assignmentId: world.assignment._id,
  questionId: world.question._id,
  submissionId: submissionOf.get(name)!._id,
  points: 10,
});
const inputsFor = (name: string) => recorded.inputs.filter((input) => input.answerText.includes(ANSWERS[name]!));

const refreshesOf = (questionId: string) =>
  t.ctx.db
    .select()
    .from(suggestionRefreshes)
    .where(eq(suggestionRefreshes.questionId, questionId))
    .orderBy(suggestionRefreshes.createdAt);

const runsOf = (submissionId: string) =>
  t.ctx.db
    .select()
    .from(gradingRuns)
    .where(eq(gradingRuns.submissionId, submissionId))
    .orderBy(desc(gradingRuns.createdAt));

/** Waits (event-driven: the queue wakes waiters when it settles the row) until the refresh finished. */
async function refreshFinished(id: string) {
  const row = await t.ctx.jobs!.waitFor(
    id,
    async () => {
      const [current] = await t.ctx.db.select().from(suggestionRefreshes).where(eq(suggestionRefreshes.id, id));
      return current && (current.status === 'succeeded' || current.status === 'failed') ? current : undefined;
    },
    { timeoutMs: 120_000, pollMs: 200 },
  );
  if (!row) throw new Error(`refresh ${id} did not finish`);
  return row;
}

beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true });
  world = await createCourseWorld(t.app);
  for (const name of Object.keys(ANSWERS)) {
    const student = await registerUser(t.app, { name, email: `${name.toLowerCase()}@example.edu` });
    students.set(name, student);
  }
  await addStudents(
    t.app,
    world.instructor,
    world.course._id,
    [...students.values()].map((student) => student.email),
  );
  await saveRubric(
    t.app,
    world.instructor,
    { assignmentId: world.assignment._id, questionId: world.question._id },
    {
      questionText: 'What is 2 + 2? Explain.',
      solutionText: '2 + 2 = 4: adding two and two gives four.',
      items: [
        { id: 'item-value', criterion: 'Gives the value 4', points: 6 },
        { id: 'item-why', criterion: 'Explains the addition', points: 4 },
      ],
    },
  );
  for (const [name, student] of students) {
    submissionOf.set(name, await submitAnswer(t.app, student, world.assignment._id, world.question._id, ANSWERS[name]));
  }
  // Every answer read before any is graded: each suggestion is made with the whole class, so the
  // only refreshes are the ones saves ask for (a run that finds a larger class asks too, 0093).
  for (const submission of submissionOf.values()) {
    const [row] = await t.ctx.db.select().from(submissions).where(eq(submissions.id, submission._id));
    expect((await ensureFileExtraction(t.ctx, row!.fileId)).status).toBe('succeeded');
  }
  // Eve's answer is never graded: no suggestion to refresh.
  for (const name of ['Ann', 'Ben', 'Cat', 'Dan'])
    suggestionOf.set(name, await gradeWithAi(t.app, world.instructor, target(name)));
});

afterAll(async () => {
  await t?.close();
  // And the next file in this worker gets the real grader back.
  vi.doUnmock('../src/ai/builtin/builtin-grader.ts');
  vi.resetModules();
});

describe('saved grades become examples, and each save refreshes the pending suggestions', () => {
  it('a cold start gives the grader no examples', () => {
    for (const name of ['Ann', 'Ben', 'Cat', 'Dan']) expect(inputsFor(name).at(-1)!.examples).toEqual([]);
    expect(suggestionOf.get('Ben')!.examplesUsed).toBe(0);
  });

  it("a save queues one refresh that re-suggests only the ungraded answers, with the grade, its accepted comments and the AI's earlier score as the example", async () => {
    const runsBefore = new Map<string, number>();
    for (const name of students.keys()) runsBefore.set(name, (await runsOf(submissionOf.get(name)!._id)).length);
    const inputsBefore = recorded.inputs.length;

    await saveGrade(t.app, world.instructor, target('Ann'), [
      { text: 'Say why 2 + 2 gives 4.', pointsDeducted: 2, accepted: true, rubricItemId: 'item-why' },
      { text: 'A remark the instructor declined.', pointsDeducted: 1, accepted: false, rubricItemId: null },
    ]);

    const refreshes = await refreshesOf(world.question._id);
    expect(refreshes).toHaveLength(1);
    const refresh = await refreshFinished(refreshes[0]!.id);
    expect(refresh).toMatchObject({ status: 'succeeded', examplesUsed: 1, resuggested: 3 });

    // Ann's graded answer is not suggested again, nor Eve's never-graded one; every other answer
    // got exactly one new run.
    expect((await runsOf(submissionOf.get('Ann')!._id)).length).toBe(runsBefore.get('Ann'));
    expect(await runsOf(submissionOf.get('Eve')!._id)).toEqual([]);
    for (const name of ['Ben', 'Cat', 'Dan']) {
      const runs = await runsOf(submissionOf.get(name)!._id);
      expect(runs.length).toBe(runsBefore.get(name)! + 1);
      expect(runs[0]).toMatchObject({ status: 'succeeded', graderKind: 'builtin', examplesUsed: 1 });
    }

    const refreshInputs = recorded.inputs.slice(inputsBefore);
    expect(refreshInputs).toHaveLength(3);
    expect(refreshInputs.some((input) => input.answerText.includes(ANSWERS.Ann!))).toBe(false);
    for (const input of refreshInputs) {
      expect(input.examples).toEqual([
        {
          answerText: expect.stringContaining(ANSWERS.Ann!),
          score: 8,
          comments: [{ text: 'Say why 2 + 2 gives 4.', pointsDeducted: 2, rubricItemId: 'item-why' }],
          suggestedScore: suggestionOf.get('Ann')!.gradingResult.totalScore,
        },
      ]);
    }
  });

  it('the grade call answers the refreshed suggestion with how many grades it learned from', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `${questionPath(world.assignment._id, world.question._id)}/grade/${submissionOf.get('Ben')!._id}`,
      headers: world.instructor.auth,
    });
    expect(response.statusCode).toBe(200);
    const [latest] = await runsOf(submissionOf.get('Ben')!._id);
    expect(response.json()).toMatchObject({ isAlreadyGraded: false, gradingRunId: latest!.id, examplesUsed: 1 });
  });

  it('a regrade of a graded answer never learns from its own grade', async () => {
    const before = recorded.inputs.length;
    const response = await t.app.inject({
      method: 'POST',
      url: `${questionPath(world.assignment._id, world.question._id)}/regrade/${submissionOf.get('Ann')!._id}`,
      headers: world.instructor.auth,
    });
    expect(response.statusCode).toBe(200);
    const [input] = recorded.inputs.slice(before);
    expect(input!.answerText).toContain(ANSWERS.Ann);
    expect(input!.examples).toEqual([]);
    expect(response.json().examplesUsed).toBe(0);
  });

  it('the suggestion summary counts pending suggestions and the changes they are expected to need', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `${questionPath(world.assignment._id, world.question._id)}/suggestion-summary`,
      headers: world.instructor.auth,
    });
    expect(response.statusCode).toBe(200);
    const summary = response.json();
    const confidences: number[] = [];
    for (const name of ['Ben', 'Cat', 'Dan']) {
      const [latest] = (await runsOf(submissionOf.get(name)!._id)).filter((run) => run.status === 'succeeded');
      confidences.push(latest!.confidence!);
    }
    expect(summary).toMatchObject({
      questionPoints: 10,
      pending: 3,
      withoutSuggestion: 1,
      savedGrades: 1,
      upToDate: 3,
      grader: { kind: 'builtin', provider: 'builtin' },
      refreshesAutomatically: true,
      refresh: { status: 'succeeded', examplesUsed: 1, resuggested: 3 },
      resuggestable: 4,
      expectedChanges: Math.round(confidences.reduce((sum, confidence) => sum + (1 - confidence / 100), 0)),
    });
  });

  it('a second save learns from both grades and leaves the newly graded answer alone', async () => {
    const catRunsBefore = await runsOf(submissionOf.get('Cat')!._id);
    const catRuns = catRunsBefore.length;
    // The grade is saved against Cat's newest suggestion, which the first refresh already made.
    const catSuggestion = catRunsBefore.find((run) => run.status === 'succeeded')!;
    await saveGrade(t.app, world.instructor, target('Cat'), []);
    const refreshes = await refreshesOf(world.question._id);
    expect(refreshes).toHaveLength(2);
    expect(await refreshFinished(refreshes[1]!.id)).toMatchObject({ examplesUsed: 2, resuggested: 2 });
    expect((await runsOf(submissionOf.get('Cat')!._id)).length).toBe(catRuns);
    for (const name of ['Ben', 'Dan']) {
      const [latest] = await runsOf(submissionOf.get(name)!._id);
      expect(latest).toMatchObject({ status: 'succeeded', examplesUsed: 2 });
      const examples = inputsFor(name).at(-1)!.examples!;
      expect(examples.map((example) => example.score).sort((a, b) => a - b)).toEqual([8, 10]);
      expect(examples.find((example) => example.score === 10)).toMatchObject({
        comments: [],
        suggestedScore: catSuggestion.totalScore,
      });
    }
  });
});

describe('refreshes are debounced per question', () => {
  let quiet: TestApp;

  afterAll(async () => {
    await quiet?.close();
  });

  it('ten quick saves while a refresh waits share that one refresh', async () => {
    // A queue without workers: the first refresh stays queued, as it would while the worker is busy.
    quiet = await createTestApp({}, { withJobs: true, runWorkers: false });
    const place = await createCourseWorld(quiet.app);
    const submission = await submitAnswer(quiet.app, place.student, place.assignment._id, place.question._id);
    const grade = { assignmentId: place.assignment._id, questionId: place.question._id, submissionId: submission._id };
    for (let save = 0; save < 10; save += 1) {
      await saveGrade(quiet.app, place.instructor, { ...grade, points: 10 }, [
        { text: `Save ${save}`, pointsDeducted: save % 3, accepted: true },
      ]);
    }
    const rows = await quiet.ctx.db
      .select({ n: count() })
      .from(suggestionRefreshes)
      .where(and(eq(suggestionRefreshes.questionId, place.question._id), eq(suggestionRefreshes.status, 'queued')));
    expect(rows[0]!.n).toBe(1);
    expect((await quiet.ctx.db.select({ n: count() }).from(suggestionRefreshes))[0]!.n, 'no other refresh rows').toBe(
      1,
    );
    expect(await quiet.ctx.jobs!.countOpenJobs('refresh-suggestions')).toBe(1);
  });
});
