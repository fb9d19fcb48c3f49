import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradingRuns } from '../src/db/schema.ts';
import { startGradingRun } from '../src/services/grade-submission.ts';
import { createCourseWorld, submitAnswer } from './support/course-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * POST grade on a submission whose run succeeds while the call is on its way (a job re-sent at
 * boot, another tab) must answer that run, not pay for a second one. The call checks for a
 * succeeded run first, then queues: job-recovery.test.ts (PGlite on its thread, under load) saw
 * the run finish between the two and a third model call. The queueing step itself now joins a
 * succeeded run, in the same transaction as its insert; a regrade still queues a new run.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true });
});

afterAll(async () => {
  await t?.close();
});

describe('queuing a grading run', () => {
  it('joins the succeeded run for grade and starts a new one for regrade', async () => {
    const world = await createCourseWorld(t.app);
    const submission = await submitAnswer(t.app, world.student, world.assignment._id, world.question._id);
    const graded = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${world.assignment._id}/questions/${world.question._id}/grade/${submission._id}`,
      headers: world.instructor.auth,
    });
    expect(graded.statusCode).toBe(200);
    const runsOf = () => t.ctx.db.select().from(gradingRuns).where(eq(gradingRuns.submissionId, submission._id));
    const [succeeded] = await runsOf();
    expect(succeeded).toMatchObject({ status: 'succeeded' });

    // What grade does when it saw no succeeded run, but one exists by the time it queues.
    const joined = await startGradingRun(t.ctx, submission._id, world.instructor.id, null, { joinSucceeded: true });
    expect(joined.id).toBe(succeeded!.id);
    expect(await runsOf()).toHaveLength(1);

    // A regrade asks for a new run on purpose.
    const fresh = await startGradingRun(t.ctx, submission._id, world.instructor.id, null);
    expect(fresh.id).not.toBe(succeeded!.id);
    expect(fresh.status).toBe('queued');
    expect(await runsOf()).toHaveLength(2);
  });
});
