import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileExtractions } from '../src/db/schema.ts';
import { buildCourseFixture, type CourseFixture } from '../src/demo/course-fixture.ts';
import { FAKE_MODEL_ID, startFakeLlmServer, type FakeLlmServer } from './support/fake-llm-server.ts';
import { expectStatus } from './support/http.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * GRADING_CONCURRENCY bounds the grader calls of a process, not the reading of the answers
 * (decision 0041). A grade-all batch of answers never read before (as the benchmark's fixture
 * makes them), the real job queue and an OpenAI-compatible fake model on loopback that holds its
 * answers until the test lets them go: while C calls are held, other runs of the batch read their
 * PDFs; the model never sees more than C calls at once, and each submission is paid for once.
 * Every wait is on observable state (requests the fake received, rows), never on time.
 */

const C = 2;
const STUDENTS = 7;
const INSTRUCTOR = { name: 'Slots Instructor', email: 'slots.instructor@example.edu', password: 'slots-password-1' };

let fake: FakeLlmServer;
let t: TestApp;
let fixture: CourseFixture;
let auth: { authorization: string };

const base = () => `/api/assignments/${fixture.assignmentId}/questions/${fixture.questions[0]!.id}`;

/** How many of the batch's answers have their text stored. */
async function answersRead(): Promise<number> {
  const fileIds = fixture.submissions.map(({ submission }) => submission.fileId);
  const rows = await t.ctx.db
    .select({ fileId: fileExtractions.fileId })
    .from(fileExtractions)
    .where(and(inArray(fileExtractions.fileId, fileIds), eq(fileExtractions.status, 'succeeded')));
  return rows.length;
}

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp(
    {
      AI_PROVIDER: 'openai-compatible',
      AI_BASE_URL: fake.baseUrl,
      AI_MODEL: FAKE_MODEL_ID,
      AI_MAX_RETRIES: '0',
      GRADING_CONCURRENCY: String(C),
    },
    { withJobs: true },
  );
  fixture = await buildCourseFixture(t.ctx, {
    instructor: INSTRUCTOR,
    studentCount: STUDENTS,
    studentPassword: 'slots-student-password',
    studentEmailDomain: 'slots.example.edu',
    questionKeys: ['car'],
  });
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: INSTRUCTOR.email, password: INSTRUCTOR.password },
  });
  auth = { authorization: `Bearer ${expectStatus<{ token: string }>(login, 200, 'login').token}` };
  expectStatus(
    await t.app.inject({ method: 'POST', url: `${base()}/generate-rubric`, headers: auth }),
    200,
    'generate-rubric',
  );
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('grade-all: GRADING_CONCURRENCY bounds the model calls, not the reading of the answers', () => {
  it('while C calls are held, more answers of the batch are read; never more than C calls at once; one call each', async () => {
    expect(await answersRead()).toBe(0);
    const rubricCalls = fake.chatRequests().length;
    fake.reset();
    let letAnswer!: () => void;
    fake.setDefaultBehaviour({ kind: 'smart', until: new Promise<void>((resolve) => (letAnswer = resolve)) });

    const queued = expectStatus<{ batchId: string; queued: number }>(
      await t.app.inject({ method: 'POST', url: `${base()}/grade-all`, headers: auth }),
      200,
      'grade-all',
    );
    expect(queued.queued).toBe(STUDENTS);
    expect(rubricCalls).toBe(1);

    // C calls reach the model and are held there. Before the call slots, each of the C job slots
    // held its call, so no other answer was read until one came back: this wait never ended.
    await fake.waitForChatRequests(C);
    await vi.waitFor(async () => expect(await answersRead()).toBeGreaterThanOrEqual(2 * C), {
      timeout: 30_000,
      interval: 50,
    });
    expect(fake.chatRequestsInFlight()).toBe(C);
    expect(t.ctx.gradingCalls.inUse).toBe(C);

    letAnswer();
    await vi.waitFor(
      async () => {
        const progress = expectStatus<{ isFinished: boolean; done: number; failed: number }>(
          await t.app.inject({
            method: 'GET',
            url: `${base()}/grade-all/progress?batchId=${queued.batchId}`,
            headers: auth,
          }),
          200,
          'progress',
        );
        expect(progress).toMatchObject({ isFinished: true, done: STUDENTS, failed: 0 });
      },
      { timeout: 60_000, interval: 50 },
    );
    expect(fake.chatRequests()).toHaveLength(STUDENTS);
    expect(fake.mostChatRequestsInFlight()).toBe(C);
    expect(t.ctx.gradingCalls.mostInUse).toBe(C);
    expect(await answersRead()).toBe(STUDENTS);
  });
});
