import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@gradewise/shared/errors';
import { expectJson } from './support/expect-json.ts';
import { aiUsageCounts, gradingRuns } from '../src/db/schema.ts';
import { chargeProviderCalls } from '../src/services/ai-spend.ts';
import { startGradingRun } from '../src/services/grade-submission.ts';
import { gradeSubmissionJob } from '../src/services/run-grading.ts';
import {
  addStudents,
  createAssignment,
  createCourse,
  createCourseWorld,
  createQuestion,
  submitAnswer,
  type CourseWorld,
} from './support/course-fixtures.ts';
import { FAKE_MODEL_ID, startFakeLlmServer, type FakeLlmServer } from './support/fake-llm-server.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Issue 15, item 2: the school's AI budget. Every attack of the issue, replayed against the real
 * API and job queue: 20 regrades in a row, 10 rubric drafts, a stranger's two self-registered
 * accounts; and the provider quotas against the tests' fake OpenAI-compatible server. Time is the
 * app's injected clock (ctx.clock): windows never roll over during a test, and "a minute later" is
 * a clock set forward, not a wait.
 */

const questionBase = (world: CourseWorld) => `/api/assignments/${world.assignment._id}/questions/${world.question._id}`;
const TRIAL = {
  questionText: 'What is 2 + 2?',
  solutionText: '4',
  items: [{ criterion: 'Says 4', points: 10 }],
  sampleAnswer: 'It is 4.',
};

function setClock(t: TestApp, iso: string): { advance(ms: number): void } {
  let at = new Date(iso).getTime();
  t.ctx.clock = () => new Date(at);
  return {
    advance: (ms) => {
      at += ms;
    },
  };
}

describe('interactive AI calls per user per minute (built-in grader)', () => {
  const LIMIT = 8;
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ AI_USER_CALLS_PER_MINUTE: String(LIMIT) }, { withJobs: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stops 20 regrades in a row at the limit, says which limit and when it resets, and lets the next minute through', async () => {
    const clock = setClock(t, '2026-11-23T10:15:20Z');
    const world = await createCourseWorld(t.app);
    const submission = await submitAnswer(t.app, world.student, world.assignment._id, world.question._id);
    const statuses: number[] = [];
    let refusal: ErrorBody | undefined;
    let retryAfter: unknown;
    for (let i = 0; i < 20; i += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: `${questionBase(world)}/regrade/${submission._id}`,
        headers: world.instructor.auth,
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        refusal ??= expectJson(response, 429, ErrorBody);
        retryAfter ??= response.headers['retry-after'];
      }
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT);
    expect(statuses.slice(0, LIMIT).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(LIMIT).every((status) => status === 429)).toBe(true);
    expect(refusal?.code).toBe('RATE_LIMITED');
    expect(refusal?.message).toContain(`${LIMIT} AI calls`);
    expect(refusal?.message).toContain('AI_USER_CALLS_PER_MINUTE');
    expect(refusal?.message).toContain('It resets at 2026-11-23 10:16:00 UTC.');
    // 10:15:20 to the reset at 10:16:00: the wait, as Retry-After and in the body.
    expect(retryAfter).toBe('40');
    expect(refusal?.retryAfterSeconds).toBe(40);
    // Refused calls queued nothing: exactly LIMIT runs exist for the submission.
    const runs = await t.ctx.db.select().from(gradingRuns).where(eq(gradingRuns.submissionId, submission._id));
    expect(runs).toHaveLength(LIMIT);

    const quota = await t.app.inject({
      method: 'GET',
      url: `${questionBase(world)}/ai-quota`,
      headers: world.instructor.auth,
    });
    expect(quota.json()).toMatchObject({
      provider: 'builtin',
      perMinute: { limit: LIMIT, used: LIMIT, remaining: 0, resetsAt: '2026-11-23T10:16:00.000Z' },
      providerQuotas: null,
      providerCallsLeft: null,
    });

    clock.advance(60_000);
    const nextMinute = await t.app.inject({
      method: 'POST',
      url: `${questionBase(world)}/regrade/${submission._id}`,
      headers: world.instructor.auth,
    });
    expect(nextMinute.statusCode).toBe(200);
  });

  it('stops 10 rubric drafts in a row at the limit; opening a graded answer again is free', async () => {
    setClock(t, '2026-11-23T11:00:05Z');
    const world = await createCourseWorld(t.app);
    const submission = await submitAnswer(t.app, world.student, world.assignment._id, world.question._id);
    // One real grading (counts), then nine re-openings of the stored result (free: nothing runs).
    for (let i = 0; i < 10; i += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: `${questionBase(world)}/grade/${submission._id}`,
        headers: world.instructor.auth,
      });
      expect(response.statusCode).toBe(200);
    }
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: `${questionBase(world)}/generate-rubric`,
        headers: world.instructor.auth,
      });
      statuses.push(response.statusCode);
    }
    // The first grade drafted the rubric inside its own call: 1 counted, LIMIT - 1 drafts left.
    expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT - 1);
    expect(statuses.slice(LIMIT - 1).every((status) => status === 429)).toBe(true);
    // rubric-trial shares the same per-minute count.
    const trial = await t.app.inject({
      method: 'POST',
      url: `${questionBase(world)}/rubric-trial`,
      headers: world.instructor.auth,
      payload: TRIAL,
    });
    expect(trial.statusCode).toBe(429);
    expect(trial.json().message).toContain('AI_USER_CALLS_PER_MINUTE');
  });

  it("a stranger's two self-registered accounts: the student one starts no AI call, the instructor one stops at the limit", async () => {
    setClock(t, '2026-11-23T12:30:00Z');
    // Both accounts are self-registered: an instructor with a course of their own, and a student in it.
    const stranger = await registerUser(t.app, { role: 'instructor', name: 'Mallory' });
    const sidekick = await registerUser(t.app, { role: 'student', name: 'Mallory Two' });
    const course = await createCourse(t.app, stranger);
    await addStudents(t.app, stranger, course._id, [sidekick.email]);
    const assignment = await createAssignment(t.app, stranger, course._id);
    const question = await createQuestion(t.app, stranger, assignment._id);
    const world = { instructor: stranger, student: sidekick, course, assignment, question };
    const submission = await submitAnswer(t.app, sidekick, assignment._id, question._id);

    const regrade = (user: TestUser) =>
      t.app.inject({ method: 'POST', url: `${questionBase(world)}/regrade/${submission._id}`, headers: user.auth });
    const fromStudent = await Promise.all(Array.from({ length: 15 }, () => regrade(sidekick)));
    expect(fromStudent.map((response) => response.statusCode)).toEqual(Array(15).fill(403));
    // All 15 at once, as in the issue: the durable count lets exactly LIMIT through.
    const fromInstructor = await Promise.all(Array.from({ length: 15 }, () => regrade(stranger)));
    const statuses = fromInstructor.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15 - LIMIT);
    const runs = await t.ctx.db.select().from(gradingRuns).where(eq(gradingRuns.submissionId, submission._id));
    expect(runs.length).toBeLessThanOrEqual(LIMIT);
  });
});

describe('provider quotas per course and instructor (fake OpenAI-compatible model)', () => {
  let fake: FakeLlmServer;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    t = await createTestApp(
      {
        AI_PROVIDER: 'openai-compatible',
        AI_BASE_URL: fake.baseUrl,
        AI_MODEL: FAKE_MODEL_ID,
        AI_MAX_RETRIES: '0',
        AI_COURSE_CALLS_PER_HOUR: '5',
        AI_COURSE_CALLS_PER_DAY: '7',
        AI_INSTRUCTOR_CALLS_PER_HOUR: '9',
        AI_INSTRUCTOR_CALLS_PER_DAY: '100',
      },
      { withJobs: true },
    );
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  async function worldWithAnswers(count: number, instructor?: TestUser) {
    const world = instructor
      ? await (async () => {
          const course = await createCourse(t.app, instructor);
          const assignment = await createAssignment(t.app, instructor, course._id);
          const question = await createQuestion(t.app, instructor, assignment._id);
          return { instructor, student: instructor, course, assignment, question } as CourseWorld;
        })()
      : await createCourseWorld(t.app);
    const students = await Promise.all(Array.from({ length: count }, () => registerUser(t.app)));
    if (students.length > 0)
      await addStudents(
        t.app,
        world.instructor,
        world.course._id,
        students.map((s) => s.email),
      );
    const submissions = [];
    for (const student of students) {
      submissions.push(await submitAnswer(t.app, student, world.assignment._id, world.question._id, 'It is 4.'));
    }
    return { world, submissions };
  }

  const quotaOf = async (world: CourseWorld) =>
    (
      await t.app.inject({ method: 'GET', url: `${questionBase(world)}/ai-quota`, headers: world.instructor.auth })
    ).json();

  it('Grade All that does not fit the hour is refused whole, naming the quota; one that fits counts once per submission', async () => {
    setClock(t, '2026-11-23T09:10:00Z');
    const { world } = await worldWithAnswers(6);
    const before = fake.chatRequests().length;
    const refused = await t.app.inject({
      method: 'POST',
      url: `${questionBase(world)}/grade-all`,
      headers: world.instructor.auth,
    });
    expect(refused.statusCode).toBe(429);
    // 6 gradings + the rubric draft do not fit 5 per hour: nothing was drafted, queued or sent.
    expect(refused.json().message).toBe(
      "This course's quota of 5 AI provider calls per hour (AI_COURSE_CALLS_PER_HOUR) is reached: 0 used, 5 left, and this needs 7. Nothing was sent. It resets at 2026-11-23 10:00:00 UTC.",
    );
    expect(refused.headers['retry-after']).toBe(String(50 * 60));
    expect(fake.chatRequests().length).toBe(before);
    expect((await quotaOf(world)).providerQuotas.courseHour.used).toBe(0);

    // Four answers and a rubric: 5 calls, exactly what the hour allows.
    const { world: smaller } = await worldWithAnswers(4);
    const queued = await t.app.inject({
      method: 'POST',
      url: `${questionBase(smaller)}/grade-all`,
      headers: smaller.instructor.auth,
    });
    expect(queued.statusCode).toBe(200);
    expect(queued.json().queued).toBe(4);
    const batchId = queued.json().batchId;
    await expect
      .poll(
        async () =>
          (
            await t.app.inject({
              method: 'GET',
              url: `${questionBase(smaller)}/grade-all/progress?batchId=${batchId}`,
              headers: smaller.instructor.auth,
            })
          ).json().remaining,
        { timeout: 30_000 },
      )
      .toBe(0);
    const quota = await quotaOf(smaller);
    expect(quota.provider).toBe('external');
    expect(quota.providerQuotas.courseHour).toMatchObject({
      limit: 5,
      used: 5,
      remaining: 0,
      resetsAt: '2026-11-23T10:00:00.000Z',
    });
    expect(quota.providerQuotas.courseDay).toMatchObject({ limit: 7, used: 5, remaining: 2 });
    expect(quota.providerCallsLeft).toBe(0);
    expect(fake.chatRequests().length).toBe(before + 5);

    // The hour is used up: a regrade is refused before anything is queued.
    const [submission] = await t.ctx.db.select().from(gradingRuns).where(eq(gradingRuns.batchId, batchId)).limit(1);
    const regrade = await t.app.inject({
      method: 'POST',
      url: `${questionBase(smaller)}/regrade/${submission!.submissionId}`,
      headers: smaller.instructor.auth,
    });
    expect(regrade.statusCode).toBe(429);
    expect(regrade.json().message).toContain('AI_COURSE_CALLS_PER_HOUR');
    expect(fake.chatRequests().length).toBe(before + 5);
  });

  it('a job that finds the quota used up when it runs fails with the quota sentence and sends nothing', async () => {
    setClock(t, '2026-11-23T13:05:00Z');
    const { world, submissions } = await worldWithAnswers(1);
    const generate = await t.app.inject({
      method: 'POST',
      url: `${questionBase(world)}/generate-rubric`,
      headers: world.instructor.auth,
    });
    expect(generate.statusCode).toBe(200);
    // Another process used the rest of the hour after this run was queued.
    await chargeProviderCalls(
      t.ctx,
      { courseId: world.course._id, instructorId: world.instructor.id, provider: t.config.ai },
      4,
    );
    const before = fake.chatRequests().length;
    const run = await startGradingRun(t.ctx, submissions[0]!._id, world.instructor.id, null);
    await t.ctx.jobs!.send(gradeSubmissionJob, { id: run.id });
    await expect
      .poll(async () => (await t.ctx.db.select().from(gradingRuns).where(eq(gradingRuns.id, run.id)))[0]!.status, {
        timeout: 30_000,
      })
      .toBe('failed');
    const [failed] = await t.ctx.db.select().from(gradingRuns).where(eq(gradingRuns.id, run.id));
    expect(failed!.errorCode).toBe('RATE_LIMITED');
    expect(failed!.error).toContain("This course's quota of 5 AI provider calls per hour");
    expect(fake.chatRequests().length).toBe(before);
    expect((await quotaOf(world)).providerQuotas.courseHour.used).toBe(5);

    // The next hour the same answer is graded; its count lands in the new hour.
    setClock(t, '2026-11-23T14:00:00Z');
    const graded = await t.app.inject({
      method: 'POST',
      url: `${questionBase(world)}/grade/${submissions[0]!._id}`,
      headers: world.instructor.auth,
    });
    expect(graded.statusCode).toBe(200);
    expect(fake.chatRequests().length).toBe(before + 1);
    const quota = await quotaOf(world);
    expect(quota.providerQuotas.courseHour).toMatchObject({ used: 1, resetsAt: '2026-11-23T15:00:00.000Z' });
    expect(quota.providerQuotas.courseDay.used).toBe(6);
  });

  it('rubric trials count one call per answer, all or none, and the instructor quota spans their courses', async () => {
    setClock(t, '2026-11-23T16:20:00Z');
    const instructor = await registerUser(t.app, { role: 'instructor' });
    const first = await worldWithAnswers(0, instructor);
    const second = await worldWithAnswers(0, instructor);
    const trial = (world: CourseWorld) =>
      t.app.inject({
        method: 'POST',
        url: `${questionBase(world)}/rubric-trial`,
        headers: instructor.auth,
        payload: TRIAL,
      });
    for (let i = 0; i < 5; i += 1) expect((await trial(first.world)).statusCode).toBe(200);
    // The first course's hour is used up; the instructor has 4 of 9 left for the other course.
    expect((await trial(first.world)).statusCode).toBe(429);
    for (let i = 0; i < 4; i += 1) expect((await trial(second.world)).statusCode).toBe(200);
    const refused = await trial(second.world);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toContain("The instructor's quota of 9 AI provider calls per hour");
    expect(refused.json().message).toContain('AI_INSTRUCTOR_CALLS_PER_HOUR');
    const quota = await quotaOf(second.world);
    expect(quota.providerQuotas.instructorHour).toMatchObject({ used: 9, remaining: 0 });
    expect(quota.providerQuotas.courseHour).toMatchObject({ used: 4, remaining: 1 });
    expect(quota.providerCallsLeft).toBe(0);
  });

  it('counts a work row once, and concurrent charges never go over a quota (durable counts in the database)', async () => {
    setClock(t, '2026-11-23T18:00:00Z');
    const { world } = await worldWithAnswers(0);
    const scope = { courseId: world.course._id, instructorId: world.instructor.id, provider: t.config.ai };
    const workId = crypto.randomUUID();
    await chargeProviderCalls(t.ctx, scope, 1, workId);
    await chargeProviderCalls(t.ctx, scope, 1, workId);
    expect((await quotaOf(world)).providerQuotas.courseHour.used).toBe(1);

    const results = await Promise.allSettled(Array.from({ length: 10 }, () => chargeProviderCalls(t.ctx, scope, 1)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(4);
    expect(
      results.every(
        (result) => result.status === 'fulfilled' || (result.reason as { code?: string }).code === 'RATE_LIMITED',
      ),
    ).toBe(true);
    // A refused charge of several calls is refused whole: nothing of it is counted.
    await expect(chargeProviderCalls(t.ctx, { ...scope, courseId: crypto.randomUUID() }, 10)).rejects.toMatchObject({
      status: 429,
    });
    expect((await quotaOf(world)).providerQuotas.instructorHour.used).toBe(5);
  });

  it("keeps today's counters and drops those of windows that ended before today, once a new window opens", async () => {
    const clock = setClock(t, '2026-11-24T22:10:00Z');
    const { world } = await worldWithAnswers(0);
    const scope = { courseId: world.course._id, instructorId: world.instructor.id, provider: t.config.ai };
    const counters = async () =>
      (
        await t.ctx.db
          .select({
            limitName: aiUsageCounts.limitName,
            windowStart: aiUsageCounts.windowStart,
            count: aiUsageCounts.count,
          })
          .from(aiUsageCounts)
          .where(inArray(aiUsageCounts.subjectId, [scope.courseId, scope.instructorId]))
          .orderBy(aiUsageCounts.limitName, aiUsageCounts.windowStart)
      ).map((row) => `${row.limitName} ${row.windowStart.toISOString()} ${row.count}`);

    await chargeProviderCalls(t.ctx, scope, 1);
    clock.advance(60 * 60_000); // 23:10: a new hour of the same day
    await chargeProviderCalls(t.ctx, scope, 1);
    expect(await counters()).toEqual([
      'course-day 2026-11-24T00:00:00.000Z 2',
      'course-hour 2026-11-24T22:00:00.000Z 1',
      'course-hour 2026-11-24T23:00:00.000Z 1',
      'instructor-day 2026-11-24T00:00:00.000Z 2',
      'instructor-hour 2026-11-24T22:00:00.000Z 1',
      'instructor-hour 2026-11-24T23:00:00.000Z 1',
    ]);

    clock.advance(60 * 60_000); // 00:10 the next day: yesterday's windows can never be read again
    await chargeProviderCalls(t.ctx, scope, 1);
    await chargeProviderCalls(t.ctx, scope, 2);
    expect(await counters()).toEqual([
      'course-day 2026-11-25T00:00:00.000Z 3',
      'course-hour 2026-11-25T00:00:00.000Z 3',
      'instructor-day 2026-11-25T00:00:00.000Z 3',
      'instructor-hour 2026-11-25T00:00:00.000Z 3',
    ]);
  });
});
