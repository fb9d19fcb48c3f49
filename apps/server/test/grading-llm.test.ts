import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenerateRubricOutput } from '@gradewise/shared/contracts/grading';
import { expectJson } from './support/expect-json.ts';
import { gradingRuns, rubricGenerations } from '../src/db/schema.ts';
import { addStudents, createCourseWorld, submitAnswer, type CourseWorld } from './support/course-fixtures.ts';
import { FAKE_MODEL_ID, startFakeLlmServer, type FakeLlmServer } from './support/fake-llm-server.ts';
import { registerUser } from './support/http.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * The grading API on the LLM path: an OpenAI-compatible fake model on loopback (real HTTP), the
 * real job queue. Checks what the jobs record (provider, model, prompt version, tokens, latency),
 * and that a provider failure becomes a clear AI_FAILED answer and a failed run, paid once.
 */

let fake: FakeLlmServer;
let t: TestApp;
let world: CourseWorld;

const base = () => `/api/assignments/${world.assignment._id}/questions/${world.question._id}`;
const post = (url: string) => t.app.inject({ method: 'POST', url, headers: world.instructor.auth });

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp(
    { AI_PROVIDER: 'openai-compatible', AI_BASE_URL: fake.baseUrl, AI_MODEL: FAKE_MODEL_ID, AI_MAX_RETRIES: '0' },
    { withJobs: true },
  );
  world = await createCourseWorld(t.app);
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('grading through an OpenAI-compatible model', () => {
  it('generate-rubric asks the model once and records who answered, with tokens and latency', async () => {
    const response = await post(`${base()}/generate-rubric`);
    const body = expectJson(response, 200, GenerateRubricOutput);
    expect(body.grader).toEqual({ kind: 'llm', provider: 'openai-compatible', model: FAKE_MODEL_ID });
    const items = body.autoRubric[0]!.items;
    expect(items.reduce((sum, item) => sum + item.points, 0)).toBeCloseTo(10, 2);
    expect(fake.chatRequests()).toHaveLength(1);
    const [generation] = await t.ctx.db
      .select()
      .from(rubricGenerations)
      .where(eq(rubricGenerations.questionId, world.question._id));
    expect(generation).toMatchObject({
      status: 'succeeded',
      graderKind: 'llm',
      provider: 'openai-compatible',
      model: FAKE_MODEL_ID,
      promptVersion: expect.not.stringMatching(/^pending$/),
      rawOutput: expect.anything(),
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
      latencyMs: expect.any(Number),
    });
  });

  it('grade records the suggestion with its accounting and answers the spec fields', async () => {
    const submission = await submitAnswer(
      t.app,
      world.student,
      world.assignment._id,
      world.question._id,
      'The answer is 4.',
    );
    const before = fake.chatRequests().length;
    const response = await post(`${base()}/grade/${submission._id}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      questionPoints: 10,
      grader: { kind: 'llm', provider: 'openai-compatible', model: FAKE_MODEL_ID },
      hiddenText: [],
    });
    expect(body.submissionText).toContain('The answer is 4.');
    expect(fake.chatRequests()).toHaveLength(before + 1);
    // The grading prompt carried the answer as delimited data.
    expect(JSON.stringify(fake.chatRequests().at(-1)!.body)).toContain('The answer is 4.');
    const [run] = await t.ctx.db.select().from(gradingRuns).where(eq(gradingRuns.submissionId, submission._id));
    expect(run).toMatchObject({
      status: 'succeeded',
      graderKind: 'llm',
      rawOutput: expect.anything(),
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
      latencyMs: expect.any(Number),
      attempts: 1,
    });
    expect(run!.promptVersion).not.toBe('pending');
  });

  it('a provider failure answers 502 AI_FAILED with its message, fails the run, and is not retried by the job', async () => {
    const student = await registerUser(t.app, { name: 'Fay Failure' });
    await addStudents(t.app, world.instructor, world.course._id, [student.email]);
    const submission = await submitAnswer(t.app, student, world.assignment._id, world.question._id, 'Four.');
    const before = fake.chatRequests().length;
    fake.enqueue({ kind: 'status', status: 500, message: 'model crashed' });
    const response = await post(`${base()}/grade/${submission._id}`);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ code: 'AI_FAILED', message: expect.any(String) });
    expect(fake.chatRequests()).toHaveLength(before + 1);
    const runs = await t.ctx.db.select().from(gradingRuns).where(eq(gradingRuns.submissionId, submission._id));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'failed', errorCode: 'AI_FAILED', rawOutput: null, comments: null });

    // Asking again makes a new run (the failed one stays as a record) and succeeds.
    const retried = await post(`${base()}/grade/${submission._id}`);
    expect(retried.statusCode).toBe(200);
    expect(await t.ctx.db.select().from(gradingRuns).where(eq(gradingRuns.submissionId, submission._id))).toHaveLength(
      2,
    );
  });
});
