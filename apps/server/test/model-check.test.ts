import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aiCosts, aiModelChecks } from '../src/db/schema.ts';
import { addStudents, addTa, createCourseWorld, submitAnswer, type CourseWorld } from './support/course-fixtures.ts';
import { FAKE_MODEL_ID, startFakeLlmServer, type FakeLlmServer } from './support/fake-llm-server.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { saveGrade, saveRubric } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Issue 31, item 5 (decision 0077): a check of a candidate provider on a sample of the course's
 * saved grades, side by side with the course's provider now, before switching. Against the tests'
 * OpenAI-compatible server (which reports token usage as the real protocol does) and the built-in
 * grader, through the real job queue.
 */

const PRICE = { inputPricePerMillion: 0.15, outputPricePerMillion: 0.6 };

let fake: FakeLlmServer;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  const providers = [
    {
      id: 'hosted',
      label: 'Hosted model',
      provider: 'openai-compatible',
      baseUrl: fake.baseUrl,
      model: FAKE_MODEL_ID,
      onServer: false,
      ...PRICE,
    },
    {
      id: 'local',
      label: 'Local model',
      provider: 'openai-compatible',
      baseUrl: fake.baseUrl,
      model: FAKE_MODEL_ID,
      onServer: true,
      ...PRICE,
    },
  ];
  t = await createTestApp(
    {
      AI_PROVIDERS: JSON.stringify(providers),
      AI_DEFAULT_PROVIDER: 'builtin',
      AI_MAX_RETRIES: '0',
      LOG_LEVEL: 'error',
    },
    { withJobs: true },
  );
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.reset();
  fake.setDefaultBehaviour({ kind: 'smart' });
});

const checks = (world: CourseWorld) => `/api/courses/${world.course._id}/ai-model-checks`;

/**
 * A course whose question has a two-item rubric (5 + 5 points) and three answers saved at 10, 7
 * and 4 points, the deductions on the items. The fake's "smart" answer deducts nothing: 10 each.
 */
async function gradedCourse(): Promise<CourseWorld & { answers: string[]; students: TestUser[] }> {
  const world = await createCourseWorld(t.app);
  const target = { assignmentId: world.assignment._id, questionId: world.question._id };
  await saveRubric(t.app, world.instructor, target, {
    questionText: 'Explain why the sum of two even numbers is even.',
    solutionText: 'Write them as 2a and 2b; the sum 2(a + b) is a multiple of 2.',
    items: [
      { id: 'item-1', criterion: 'Writes the numbers as multiples of 2', points: 5 },
      { id: 'item-2', criterion: 'Concludes that the sum is a multiple of 2', points: 5 },
    ],
  });
  const students = await Promise.all(
    [0, 1, 2].map((index) => registerUser(t.app, { name: `Quentin Uniquename${index}` })),
  );
  await addStudents(
    t.app,
    world.instructor,
    world.course._id,
    students.map((student) => student.email),
  );
  const answers: string[] = [];
  for (const [index, student] of students.entries()) {
    const submission = await submitAnswer(
      t.app,
      student,
      target.assignmentId,
      target.questionId,
      `Answer ${index}: 2a + 2b = 2(a + b).`,
    );
    answers.push(submission._id);
  }
  const deductions = [
    [],
    [{ text: 'The conclusion is not stated.', pointsDeducted: 3, accepted: true, rubricItemId: 'item-2' }],
    [
      { text: 'Not written as multiples of 2.', pointsDeducted: 5, accepted: true, rubricItemId: 'item-1' },
      { text: 'The conclusion is vague.', pointsDeducted: 1, accepted: true, rubricItemId: 'item-2' },
    ],
  ];
  for (const [index, submissionId] of answers.entries()) {
    // `points` is the question's: the fixture saves it less the accepted deductions.
    await saveGrade(t.app, world.instructor, { ...target, submissionId, points: 10 }, deductions[index]!);
  }
  return { ...world, answers, students };
}

async function waitForCheck(world: CourseWorld, checkId: string) {
  const finished = await t.ctx.jobs!.waitFor(
    checkId,
    async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: `${checks(world)}/${checkId}`,
        headers: world.instructor.auth,
      });
      expect(response.statusCode).toBe(200);
      const check = response.json();
      return check.status === 'succeeded' || check.status === 'failed' ? check : undefined;
    },
    { timeoutMs: 120_000, pollMs: 100 },
  );
  expect(finished).toBeDefined();
  return finished;
}

describe('a model check before switching', () => {
  it('shows the estimate first, then the candidate and the current provider side by side against the saved grades', async () => {
    const world = await gradedCourse();
    const estimate = await t.app.inject({
      method: 'GET',
      url: `${checks(world)}/estimate?providerId=hosted`,
      headers: world.instructor.auth,
    });
    expect(estimate.statusCode).toBe(200);
    // Default sample 20, three saved grades: all three. The built-in grader (current) costs nothing.
    expect(estimate.json()).toMatchObject({
      providerId: 'hosted',
      currentProviderId: 'builtin',
      answers: 3,
      savedGrades: 3,
      currentCost: 0,
      location: 'external',
    });
    expect(estimate.json().cost).toBeGreaterThan(0);
    expect(estimate.json().candidateCost).toBe(estimate.json().cost);
    expect(fake.chatRequests()).toHaveLength(0);

    const started = await t.app.inject({
      method: 'POST',
      url: checks(world),
      headers: world.instructor.auth,
      payload: { providerId: 'hosted', confirmCost: true },
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({
      candidateProviderId: 'hosted',
      currentProviderId: 'builtin',
      sampleSize: 3,
    });
    const check = await waitForCheck(world, started.json().id);
    expect(check.status).toBe('succeeded');
    expect(check.done).toBe(3);
    // One call per answer to the candidate; the built-in grader calls nothing.
    expect(fake.chatRequests()).toHaveLength(3);

    const { candidate, current, items, differences } = check.result;
    // The candidate gives 10 to answers saved at 10, 7 and 4: differences 0, 3 and 6 points.
    expect(candidate).toMatchObject({
      providerId: 'hosted',
      graded: 3,
      failed: 0,
      meanAbsoluteDifference: 3,
      meanAbsolutePercent: 30,
      meanSignedDifference: 3,
      withinTenPercent: 33.33,
    });
    expect(current).toMatchObject({ providerId: 'builtin', graded: 3, failed: 0, cost: 0 });
    expect(current.meanAbsoluteDifference).not.toBeNull();
    // Per rubric item: item 1 was cut by 5 on one answer of three, item 2 by 3 and by 1.
    expect(items).toEqual([
      expect.objectContaining({
        criterion: 'Writes the numbers as multiples of 2',
        answers: 3,
        candidateMeanDifference: 1.67,
      }),
      expect.objectContaining({
        criterion: 'Concludes that the sum is a multiple of 2',
        answers: 3,
        candidateMeanDifference: 1.33,
      }),
    ]);
    // Where they differ most, largest first; named by place in the sample, never by student.
    expect(differences.map((difference: { savedScore: number }) => difference.savedScore)).toEqual([4, 7]);
    expect(differences[0]).toMatchObject({ candidateScore: 10, points: 10, submissionId: world.answers[2] });
    expect(JSON.stringify(check)).not.toContain('Uniquename');

    // Its cost is what the provider reported, recorded once per call, and is in the course's spend.
    const recorded = await t.ctx.db.select().from(aiCosts).where(eq(aiCosts.courseId, world.course._id));
    expect(recorded.map((row) => row.kind)).toEqual(['model-check', 'model-check', 'model-check']);
    const spent = recorded.reduce((sum, row) => sum + Number(row.costMicros), 0) / 1e6;
    expect(check.cost).toBeCloseTo(spent, 9);
    expect(candidate.cost).toBeCloseTo(spent, 9);
    const ratio = estimate.json().cost / spent;
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);

    // Kept in the course's history, which the course's TA reads too.
    const ta = await registerUser(t.app, { role: 'instructor', name: 'Tess Assistant' });
    await addTa(t.app, world.instructor, world.course._id, ta);
    const history = await t.app.inject({ method: 'GET', url: checks(world), headers: ta.auth });
    expect(history.statusCode).toBe(200);
    expect(history.json().checks).toEqual([expect.objectContaining({ id: check.id, status: 'succeeded' })]);
    const taStart = await t.app.inject({
      method: 'POST',
      url: checks(world),
      headers: ta.auth,
      payload: { providerId: 'local' },
    });
    expect(taStart.statusCode).toBe(403);
  });

  it('runs both providers on the same answers when both are language models, and a provider failing on one answer is counted, not fatal', async () => {
    const world = await gradedCourse();
    await t.app.inject({
      method: 'PATCH',
      url: `/api/courses/${world.course._id}/ai-settings`,
      headers: world.instructor.auth,
      payload: { providerId: 'hosted' },
    });
    // The first call (the candidate on the first answer) fails; everything after answers.
    fake.enqueue({ kind: 'status', status: 500, message: 'model crashed' });
    const started = await t.app.inject({
      method: 'POST',
      url: checks(world),
      headers: world.instructor.auth,
      payload: { providerId: 'local', sampleSize: 2, confirmCost: true },
    });
    expect(started.statusCode, started.body).toBe(200);
    const check = await waitForCheck(world, started.json().id);
    expect(check.status).toBe('succeeded');
    expect(fake.chatRequests()).toHaveLength(4);
    expect(check.result.candidate).toMatchObject({ providerId: 'local', location: 'on-server', graded: 1, failed: 1 });
    expect(check.result.current).toMatchObject({ providerId: 'hosted', location: 'external', graded: 2, failed: 0 });
    const [row] = await t.ctx.db.select().from(aiModelChecks).where(eq(aiModelChecks.id, check.id));
    expect(row!.sampleSize).toBe(2);
    // Three calls answered, each priced; the failed one recorded nothing.
    const recorded = await t.ctx.db.select().from(aiCosts).where(eq(aiCosts.courseId, world.course._id));
    expect(recorded).toHaveLength(3);
  });

  it("stops before its next call when the course is held to this server meanwhile, failed with the rule's sentence, keeping what it spent", async () => {
    const world = await gradedCourse();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    fake.setDefaultBehaviour({ kind: 'smart', until: gate });
    const started = await t.app.inject({
      method: 'POST',
      url: checks(world),
      headers: world.instructor.auth,
      payload: { providerId: 'hosted', confirmCost: true },
    });
    expect(started.statusCode, started.body).toBe(200);
    await fake.waitForChatRequests(1);
    const held = await t.app.inject({
      method: 'PATCH',
      url: `/api/courses/${world.course._id}/ai-settings`,
      headers: world.instructor.auth,
      payload: { serverOnly: true },
    });
    expect(held.statusCode).toBe(200);
    release();
    const check = await waitForCheck(world, started.json().id);
    expect(check.status).toBe('failed');
    expect(check.error).toContain('held to AI on this server only');
    // The call in flight finished and is paid for; nothing more was sent.
    expect(fake.chatRequests()).toHaveLength(1);
    const recorded = await t.ctx.db.select().from(aiCosts).where(eq(aiCosts.courseId, world.course._id));
    expect(recorded).toHaveLength(1);
    expect(check.cost).toBeCloseTo(Number(recorded[0]!.costMicros) / 1e6, 9);
    expect(check.cost).toBeGreaterThan(0);
  });

  it('asks for confirmation above the course amount and refuses what does not fit the budget', async () => {
    const world = await gradedCourse();
    const settings = `/api/courses/${world.course._id}/ai-settings`;
    await t.app.inject({
      method: 'PATCH',
      url: settings,
      headers: world.instructor.auth,
      payload: { confirmAbove: 0 },
    });
    const unconfirmed = await t.app.inject({
      method: 'POST',
      url: checks(world),
      headers: world.instructor.auth,
      payload: { providerId: 'hosted' },
    });
    expect(unconfirmed.statusCode).toBe(409);
    expect(unconfirmed.json().code).toBe('COST_CONFIRMATION_REQUIRED');
    expect(unconfirmed.json().message).toContain('This model check is estimated at $');

    await t.app.inject({
      method: 'PATCH',
      url: settings,
      headers: world.instructor.auth,
      payload: { monthlyBudget: 0 },
    });
    const refused = await t.app.inject({
      method: 'POST',
      url: checks(world),
      headers: world.instructor.auth,
      payload: { providerId: 'hosted', confirmCost: true },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('AI_BUDGET_EXCEEDED');
    expect(fake.chatRequests()).toHaveLength(0);
    expect(await t.ctx.db.select().from(aiModelChecks).where(eq(aiModelChecks.courseId, world.course._id))).toEqual([]);
  });
});

describe('bad input: a clear 4xx, nothing queued, nothing sent', () => {
  let world: Awaited<ReturnType<typeof gradedCourse>>;
  beforeAll(async () => {
    world = await gradedCourse();
  });

  it.each([
    [{ providerId: 'hosted', sampleSize: 0 }, 'sampleSize: must be at least 1 answer'],
    [{ providerId: 'hosted', sampleSize: -5 }, 'sampleSize: must be at least 1 answer'],
    [{ providerId: 'hosted', sampleSize: 1_000_000 }, 'sampleSize: must be at most 100 answers'],
    [{ providerId: 'hosted', sampleSize: 2.5 }, 'sampleSize: must be a whole number of answers'],
    [{ providerId: 'hosted', sampleSize: 'lots' }, 'sampleSize: must be a whole number of answers'],
    [{ providerId: 'nope' }, 'providerId: "nope" is not a provider of this server'],
    [{ sampleSize: 5 }, 'providerId: must name a provider of this server'],
  ])('POST %o is a 400 naming the field', async (payload, message) => {
    const response = await t.app.inject({
      method: 'POST',
      url: checks(world),
      headers: world.instructor.auth,
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it.each([
    ['sampleSize=0', 'sampleSize: must be at least 1 answer'],
    ['sampleSize=-1', 'sampleSize: must be at least 1 answer'],
    ['sampleSize=999999', 'sampleSize: must be at most 100 answers'],
    ['sampleSize=abc', 'sampleSize: must be a whole number of answers'],
  ])('the estimate with %s is a 400 naming the field', async (query, message) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `${checks(world)}/estimate?providerId=hosted&${query}`,
      headers: world.instructor.auth,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it("refuses another course's external provider on a course held to this server (403), and another course's check (404)", async () => {
    const other = await gradedCourse();
    await t.app.inject({
      method: 'PATCH',
      url: `/api/courses/${other.course._id}/ai-settings`,
      headers: other.instructor.auth,
      payload: { providerId: 'hosted' },
    });
    const held = await gradedCourse();
    await t.app.inject({
      method: 'PATCH',
      url: `/api/courses/${held.course._id}/ai-settings`,
      headers: held.instructor.auth,
      payload: { serverOnly: true },
    });
    for (const request of [
      { method: 'POST' as const, url: checks(held), payload: { providerId: 'hosted', confirmCost: true } },
      { method: 'GET' as const, url: `${checks(held)}/estimate?providerId=hosted` },
    ]) {
      const response = await t.app.inject({ ...request, headers: held.instructor.auth });
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('AI_PROVIDER_NOT_ALLOWED');
      expect(response.json().message).toContain('Nothing was sent');
    }
    expect(fake.chatRequests()).toHaveLength(0);

    const started = await t.app.inject({
      method: 'POST',
      url: checks(other),
      headers: other.instructor.auth,
      payload: { providerId: 'builtin' },
    });
    expect(started.statusCode, started.body).toBe(200);
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `${checks(held)}/${started.json().id}`,
      headers: held.instructor.auth,
    });
    expect(elsewhere.statusCode).toBe(404);
    const notAnId = await t.app.inject({
      method: 'GET',
      url: `${checks(held)}/not-an-id`,
      headers: held.instructor.auth,
    });
    expect(notAnId.statusCode).toBe(404);
    await waitForCheck(other, started.json().id);
  });

  it('says there is nothing to compare with when the course has no saved grades (409)', async () => {
    const empty = await createCourseWorld(t.app);
    const estimate = await t.app.inject({
      method: 'GET',
      url: `${checks(empty)}/estimate?providerId=hosted`,
      headers: empty.instructor.auth,
    });
    expect(estimate.json()).toMatchObject({ answers: 0, savedGrades: 0, cost: 0 });
    const response = await t.app.inject({
      method: 'POST',
      url: checks(empty),
      headers: empty.instructor.auth,
      payload: { providerId: 'hosted' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('no saved grades to compare with');
  });
});
