import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradingRuns } from '../src/db/schema.ts';
import { buildCourseFixture, type CourseFixture } from '../src/demo/course-fixture.ts';
import { newId } from '../src/lib/ids.ts';
import { insertGradingBatch } from '../src/models/grading-batches.ts';
import { insertGradingRunsUnlessActive, insertGradingRunUnlessActive } from '../src/models/grading-runs.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Grade All writes its class's runs in a few multi-row statements (issue 11) with the rule of one
 * run at a time: a submission with a run in flight keeps it and gets no second one.
 */

let t: TestApp;
let fixture: CourseFixture;

beforeAll(async () => {
  t = await createTestApp();
  fixture = await buildCourseFixture(t.ctx, {
    instructor: { name: 'Runs Instructor', email: 'runs.instructor@example.edu', password: 'runs-password-1' },
    studentCount: 11,
    studentPassword: 'runs-student-password',
    studentEmailDomain: 'runs.example.edu',
    questionKeys: ['car'],
  });
});

afterAll(async () => {
  await t?.close();
});

describe('the runs of a Grade All batch', () => {
  it('are inserted in statements of at most the given size, skipping a submission that has a run in flight', async () => {
    const questionId = fixture.questions[0]!.id;
    const submissionIds = fixture.submissions.map(({ submission }) => submission.id);
    expect(submissionIds).toHaveLength(11);
    const runOf = (submissionId: string, batchId: string | null) => ({
      id: newId(),
      submissionId,
      batchId,
      status: 'queued' as const,
      graderKind: 'builtin' as const,
      provider: 'builtin',
      model: 'builtin',
      promptVersion: 'pending',
      requestedById: fixture.instructor.id,
    });
    const inFlight = await insertGradingRunUnlessActive(t.ctx.db, runOf(submissionIds[6]!, null));
    expect(inFlight).toBeDefined();

    const batch = await insertGradingBatch(t.ctx.db, {
      id: newId(),
      questionId,
      requestedById: fixture.instructor.id,
      total: submissionIds.length,
    });
    const runs = submissionIds.map((submissionId) => runOf(submissionId, batch.id));
    // 11 runs, at most 4 a statement: statements of 4, 4, 2 and 1.
    const inserted = await insertGradingRunsUnlessActive(t.ctx.db, runs, 4);

    const skipped = runs[6]!.id;
    expect([...inserted].sort()).toEqual(
      runs
        .map((run) => run.id)
        .filter((id) => id !== skipped)
        .sort(),
    );
    const stored = await t.ctx.db.select().from(gradingRuns).where(eq(gradingRuns.batchId, batch.id));
    expect(stored.map((run) => run.submissionId).sort()).toEqual(
      submissionIds.filter((id) => id !== submissionIds[6]).sort(),
    );
    expect(stored.every((run) => run.status === 'queued' && run.requestedById === fixture.instructor.id)).toBe(true);
    const ofSkipped = await t.ctx.db.select().from(gradingRuns).where(eq(gradingRuns.submissionId, submissionIds[6]!));
    expect(ofSkipped.map((run) => run.id)).toEqual([inFlight!.id]);

    // The same class again while every run is in flight: nothing is inserted twice.
    const again = submissionIds.map((submissionId) => runOf(submissionId, batch.id));
    expect((await insertGradingRunsUnlessActive(t.ctx.db, again, 4)).size).toBe(0);
  });
});
