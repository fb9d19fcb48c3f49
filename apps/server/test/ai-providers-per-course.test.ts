import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { updateCourseAi } from '../src/models/ai-costs.ts';
import { selectGradingRunById } from '../src/models/grading-runs.ts';
import { startGradingRun } from '../src/services/grade-submission.ts';
import { gradeSubmissionJob } from '../src/services/run-grading.ts';
import { findProvider } from '../src/services/course-ai.ts';
import { addStudents, createCourseWorld, submitAnswer, type CourseWorld } from './support/course-fixtures.ts';
import { FAKE_MODEL_ID, startFakeLlmServer, type FakeLlmServer } from './support/fake-llm-server.ts';
import { registerUser } from './support/http.ts';
import { questionPath, saveGrade, saveRubric } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Issue 31, item 1: providers as a list, chosen per course, and "on this server only" enforced on
 * the server for every AI call. Both providers are the tests' OpenAI-compatible server over real
 * HTTP; one is declared external (as a hosted service would be), the other on this server.
 */

describe('the provider list in the configuration', () => {
  const base = { DATA_DIR: '/tmp/gradewise-config-test' };

  it("keeps today's single-provider variables working as a one-entry list beside the built-in grader", () => {
    const config = loadConfig({
      ...base,
      AI_PROVIDER: 'openai-compatible',
      AI_BASE_URL: 'http://localhost:11434/v1',
      AI_MODEL: 'llama3.1',
      AI_PRICE_INPUT_PER_MILLION: '0.1',
      AI_PRICE_OUTPUT_PER_MILLION: '0.4',
    });
    expect(config.aiProviders.map((provider) => provider.id)).toEqual(['builtin', 'openai-compatible']);
    expect(config.ai).toMatchObject({
      id: 'openai-compatible',
      provider: 'openai-compatible',
      model: 'llama3.1',
      inputPricePerMillion: 0.1,
      outputPricePerMillion: 0.4,
      // localhost: answers stay on this machine.
      onServer: true,
    });
    expect(loadConfig(base).ai).toMatchObject({ id: 'builtin', onServer: true, inputPricePerMillion: 0 });
  });

  it('reads AI_PROVIDERS, with keys from the variables they name, and a default among them', () => {
    const config = loadConfig({
      ...base,
      SCHOOL_OPENAI_KEY: 'sk-test',
      AI_PROVIDERS: JSON.stringify([
        {
          id: 'gpt-mini',
          provider: 'openai',
          model: 'gpt-4o-mini',
          apiKeyEnv: 'SCHOOL_OPENAI_KEY',
          inputPricePerMillion: 0.15,
          outputPricePerMillion: 0.6,
        },
        {
          id: 'lab-gpu',
          provider: 'openai-compatible',
          baseUrl: 'http://10.0.0.5:8000/v1',
          model: 'qwen2.5',
          inputPricePerMillion: 0,
          outputPricePerMillion: 0,
        },
      ]),
      AI_DEFAULT_PROVIDER: 'lab-gpu',
    });
    expect(config.aiProviders.map((provider) => [provider.id, provider.onServer])).toEqual([
      ['builtin', true],
      ['gpt-mini', false],
      ['lab-gpu', true],
    ]);
    expect(findProvider(config, 'gpt-mini')?.apiKey).toBe('sk-test');
    expect(config.ai.id).toBe('lab-gpu');
  });

  it.each([
    [
      [{ id: 'x', provider: 'openai', apiKey: 'k', inputPricePerMillion: -1, outputPricePerMillion: 1 }],
      'AI_PROVIDERS[0].inputPricePerMillion: must not be negative',
    ],
    [
      [{ id: 'x', provider: 'openai', apiKey: 'k', inputPricePerMillion: '0.1', outputPricePerMillion: 1 }],
      'AI_PROVIDERS[0].inputPricePerMillion: must be a number',
    ],
    [
      [{ id: 'x', provider: 'openai', apiKey: 'k', inputPricePerMillion: 1, outputPricePerMillion: 50000 }],
      'AI_PROVIDERS[0].outputPricePerMillion: must be at most 1000 per million tokens',
    ],
    [
      [{ id: 'x', provider: 'openai', inputPricePerMillion: 1, outputPricePerMillion: 1 }],
      'AI_PROVIDERS[0].apiKeyEnv: is required for openai',
    ],
    [
      [{ id: 'x', provider: 'openai', apiKey: 'k', onServer: true, inputPricePerMillion: 1, outputPricePerMillion: 1 }],
      'AI_PROVIDERS[0].onServer: cannot be true for openai',
    ],
    [
      [
        {
          id: 'builtin',
          provider: 'openai-compatible',
          baseUrl: 'http://localhost:1/v1',
          model: 'm',
          inputPricePerMillion: 0,
          outputPricePerMillion: 0,
        },
      ],
      'AI_PROVIDERS[0].id: "builtin" is already the id of another provider',
    ],
  ])('refuses a bad entry at start, naming the field (%#)', (entries, message) => {
    expect(() => loadConfig({ ...base, AI_PROVIDERS: JSON.stringify(entries) })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, AI_PROVIDERS: JSON.stringify(entries) })).toThrow(message);
  });

  it('refuses a price that is not a number, prices that are negative, and an unknown default', () => {
    expect(() => loadConfig({ ...base, AI_PRICE_INPUT_PER_MILLION: 'cheap' })).toThrow(
      'AI_PRICE_INPUT_PER_MILLION: must be a number',
    );
    expect(() => loadConfig({ ...base, AI_PRICE_OUTPUT_PER_MILLION: '-2' })).toThrow(
      'AI_PRICE_OUTPUT_PER_MILLION: must not be negative',
    );
    expect(() => loadConfig({ ...base, AI_INSTRUCTOR_MONTHLY_BUDGET: 'lots' })).toThrow(
      'AI_INSTRUCTOR_MONTHLY_BUDGET: must be a number',
    );
    expect(() => loadConfig({ ...base, AI_DEFAULT_PROVIDER: 'nope' })).toThrow(
      'AI_DEFAULT_PROVIDER: names "nope", which is not a configured provider (builtin)',
    );
    expect(() => loadConfig({ ...base, AI_PROVIDERS: '{not json' })).toThrow('AI_PROVIDERS: must be a JSON array');
  });
});

describe('a course held to "on this server only"', () => {
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
        // What a hosted service is: the answers leave this server.
        onServer: false,
        inputPricePerMillion: 0.15,
        outputPricePerMillion: 0.6,
      },
      {
        id: 'local',
        label: 'Local model',
        provider: 'openai-compatible',
        baseUrl: fake.baseUrl,
        model: FAKE_MODEL_ID,
        inputPricePerMillion: 0,
        outputPricePerMillion: 0,
      },
    ];
    t = await createTestApp(
      { AI_PROVIDERS: JSON.stringify(providers), AI_DEFAULT_PROVIDER: 'hosted', AI_MAX_RETRIES: '0' },
      { withJobs: true },
    );
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const settingsOf = (world: CourseWorld) => `/api/courses/${world.course._id}/ai-settings`;

  /** A course with a rubric, one graded answer with an open regrade request, and one answer not graded. */
  async function heldCourse() {
    const world = await createCourseWorld(t.app);
    const target = { assignmentId: world.assignment._id, questionId: world.question._id };
    await saveRubric(t.app, world.instructor, target, {
      questionText: 'What is 2 + 2?',
      solutionText: '4',
      items: [{ id: 'item-1', criterion: 'Says 4', points: 10 }],
    });
    const graded = await submitAnswer(t.app, world.student, target.assignmentId, target.questionId, 'It is 4.');
    await saveGrade(t.app, world.instructor, { ...target, submissionId: graded._id, points: 10 }, [
      { text: 'Right.', pointsDeducted: 0, accepted: true, rubricItemId: 'item-1' },
    ]);
    const regrade = await t.app.inject({
      method: 'POST',
      url: `${questionPath(target.assignmentId, target.questionId)}/regrade-requests`,
      headers: world.student.auth,
      payload: { submissionId: graded._id, reason: 'Please look again.' },
    });
    expect(regrade.statusCode).toBe(201);
    const other = await registerUser(t.app, { name: 'Olga Other' });
    await addStudents(t.app, world.instructor, world.course._id, [other.email]);
    const ungraded = await submitAnswer(t.app, other, target.assignmentId, target.questionId, 'Five.');
    return { world, target, ungradedId: ungraded._id, regradeRequestId: regrade.json().request._id as string };
  }

  /** Every route that calls a grader, with a valid request. */
  function aiRoutes(held: Awaited<ReturnType<typeof heldCourse>>) {
    const base = questionPath(held.target.assignmentId, held.target.questionId);
    return [
      { name: 'generate-rubric', method: 'POST' as const, url: `${base}/generate-rubric` },
      { name: 'grade', method: 'POST' as const, url: `${base}/grade/${held.ungradedId}` },
      { name: 'regrade', method: 'POST' as const, url: `${base}/regrade/${held.ungradedId}` },
      { name: 'grade-all', method: 'POST' as const, url: `${base}/grade-all`, payload: { confirmCost: true } },
      {
        name: 'resuggest',
        method: 'POST' as const,
        url: `${base}/resuggest`,
        payload: { answers: 1, confirmCost: true },
      },
      {
        name: 'rubric-trial',
        method: 'POST' as const,
        url: `${base}/rubric-trial`,
        payload: {
          questionText: 'What is 2 + 2?',
          solutionText: '4',
          items: [{ criterion: 'Says 4', points: 10 }],
          sampleAnswer: 'It is 4.',
        },
      },
      { name: 'ai-recheck', method: 'POST' as const, url: `/api/regrade-requests/${held.regradeRequestId}/ai-recheck` },
    ];
  }

  it('refuses every AI route with an external provider, sending nothing; the same routes work on a local one', async () => {
    const held = await heldCourse();
    const { world } = held;
    // The operator's default is external, and the course was held to this server before that (a
    // course's owner cannot set this combination: see the next test).
    await updateCourseAi(t.ctx.db, world.course._id, { aiServerOnly: true });

    for (const route of aiRoutes(held)) {
      const response = await t.app.inject({ ...route, headers: world.instructor.auth });
      expect({ route: route.name, status: response.statusCode, code: response.json().code }).toEqual({
        route: route.name,
        status: 403,
        code: 'AI_PROVIDER_NOT_ALLOWED',
      });
      expect(response.json().message).toContain('held to AI on this server only');
    }
    expect(fake.chatRequests()).toHaveLength(0);

    // The owner picks the local provider: every route now reaches it.
    const picked = await t.app.inject({
      method: 'PATCH',
      url: settingsOf(world),
      headers: world.instructor.auth,
      payload: { providerId: 'local' },
    });
    expect(picked.statusCode).toBe(200);
    expect(picked.json()).toMatchObject({ providerId: 'local', serverOnly: true, providerChosen: true });
    for (const route of aiRoutes(held)) {
      const response = await t.app.inject({ ...route, headers: world.instructor.auth });
      expect({ route: route.name, status: response.statusCode }).toEqual({ route: route.name, status: 200 });
    }
    expect(fake.chatRequests().length).toBeGreaterThan(0);
    expect(fake.chatRequests().every((request) => request.body.model === FAKE_MODEL_ID)).toBe(true);
  });

  it('refuses a run queued on the external provider when its job runs after the course was held to this server', async () => {
    const held = await heldCourse();
    const hosted = findProvider(t.ctx.config, 'hosted')!;
    const run = await startGradingRun(t.ctx, held.ungradedId, held.world.instructor.id, null, { provider: hosted });
    await updateCourseAi(t.ctx.db, held.world.course._id, { aiServerOnly: true });
    await t.ctx.jobs!.send(gradeSubmissionJob, { id: run.id });
    const settled = await t.ctx.jobs!.waitFor(
      run.id,
      async () => {
        const row = await selectGradingRunById(t.ctx.db, run.id);
        return row && (row.status === 'failed' || row.status === 'succeeded') ? row : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(settled).toMatchObject({ status: 'failed', errorCode: 'AI_PROVIDER_NOT_ALLOWED' });
    expect(fake.chatRequests()).toHaveLength(0);
  });

  it('lets the owner pick among configured providers only, and refuses an external one while held, naming the field', async () => {
    const world = await createCourseWorld(t.app);
    const patch = (payload: Record<string, unknown>, as = world.instructor) =>
      t.app.inject({ method: 'PATCH', url: settingsOf(world), headers: as.auth, payload });

    const unknown = await patch({ providerId: 'gpt-9' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('providerId');

    const held = await patch({ serverOnly: true });
    expect(held.statusCode).toBe(403);
    expect(held.json()).toMatchObject({ code: 'AI_PROVIDER_NOT_ALLOWED' });
    expect(held.json().message).toContain('providerId');

    const local = await patch({ providerId: 'local', serverOnly: true });
    expect(local.statusCode).toBe(200);
    const external = await patch({ providerId: 'hosted' });
    expect(external.statusCode).toBe(403);

    const settings = await t.app.inject({ method: 'GET', url: settingsOf(world), headers: world.instructor.auth });
    expect(settings.json()).toMatchObject({
      providerId: 'local',
      serverOnly: true,
      providers: [
        { id: 'builtin', location: 'on-server' },
        { id: 'hosted', location: 'external', inputPricePerMillion: 0.15, outputPricePerMillion: 0.6 },
        { id: 'local', location: 'on-server' },
      ],
    });
  });

  it('tells students which kind of provider reads their answers, and that names are not sent', async () => {
    const world = await createCourseWorld(t.app);
    const read = () =>
      t.app.inject({ method: 'GET', url: `/api/courses/${world.course._id}/ai-reader`, headers: world.student.auth });
    expect((await read()).json()).toEqual({ location: 'external', namesSent: false });
    await t.app.inject({
      method: 'PATCH',
      url: settingsOf(world),
      headers: world.instructor.auth,
      payload: { providerId: 'local' },
    });
    expect((await read()).json()).toEqual({ location: 'on-server', namesSent: false });
  });
});
