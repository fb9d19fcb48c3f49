import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradingRuns } from '../src/db/schema.ts';
import { RUN_SUMMARY, selectLatestRuns } from '../src/models/grading-runs.ts';
import { addStudents, createCourseWorld, submitAnswer } from './support/course-fixtures.ts';
import { registerUser } from './support/http.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * A submissions row shows two runs of its answer (models/grading-runs.ts): the newest, whatever its
 * state (the row's grading status), and the newest that succeeded (its suggestion). Both come from
 * one read; these cases tell them apart.
 */
let t: TestApp;
const submissionIds: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const world = await createCourseWorld(t.app);
  const others = [];
  for (const name of ['Ben', 'Cy', 'Di']) others.push(await registerUser(t.app, { name }));
  await addStudents(
    t.app,
    world.instructor,
    world.course._id,
    others.map((student) => student.email),
  );
  for (const student of [world.student, ...others]) {
    const submission = await submitAnswer(
      t.app,
      student,
      world.assignment._id,
      world.question._id,
      `By ${student.name}`,
    );
    submissionIds.push(submission._id);
  }
});
afterAll(async () => {
  await t?.close();
});

async function insertRun(
  submissionId: string,
  run: {
    status: 'queued' | 'running' | 'succeeded' | 'failed';
    createdAt: string;
    finishedAt?: string;
    score?: number;
  },
): Promise<string> {
  const id = randomUUID();
  await t.ctx.db.insert(gradingRuns).values({
    id,
    submissionId,
    status: run.status,
    graderKind: 'builtin',
    provider: 'builtin',
    model: 'builtin',
    promptVersion: 'test',
    createdAt: new Date(run.createdAt),
    finishedAt: run.finishedAt ? new Date(run.finishedAt) : null,
    totalScore: run.score ?? null,
  });
  return id;
}

describe('the newest run and the newest succeeded run of each answer', () => {
  it('tells them apart, reads a run that is both once, and leaves out answers with no run', async () => {
    const [both, failedAfter, finishedOutOfOrder, none] = submissionIds as [string, string, string, string];
    await insertRun(both, {
      status: 'succeeded',
      createdAt: '2026-01-01T09:00:00Z',
      finishedAt: '2026-01-01T09:01:00Z',
    });
    const newestOfBoth = await insertRun(both, {
      status: 'succeeded',
      createdAt: '2026-01-01T10:00:00Z',
      finishedAt: '2026-01-01T10:01:00Z',
      score: 8,
    });
    // A later run that failed: the row says "failed" and still shows the earlier suggestion.
    const suggestion = await insertRun(failedAfter, {
      status: 'succeeded',
      createdAt: '2026-01-01T09:00:00Z',
      finishedAt: '2026-01-01T09:01:00Z',
      score: 6,
    });
    const failed = await insertRun(failedAfter, {
      status: 'failed',
      createdAt: '2026-01-01T10:00:00Z',
      finishedAt: '2026-01-01T10:01:00Z',
    });
    // Two succeeded runs that finished in the other order than they started, and one still queued:
    // the suggestion is the one that finished last.
    const startedFirst = await insertRun(finishedOutOfOrder, {
      status: 'succeeded',
      createdAt: '2026-01-01T09:00:00Z',
      finishedAt: '2026-01-01T09:30:00Z',
      score: 3,
    });
    await insertRun(finishedOutOfOrder, {
      status: 'succeeded',
      createdAt: '2026-01-01T09:10:00Z',
      finishedAt: '2026-01-01T09:20:00Z',
      score: 4,
    });
    const queued = await insertRun(finishedOutOfOrder, { status: 'queued', createdAt: '2026-01-01T11:00:00Z' });

    const { latest, latestSucceeded } = await selectLatestRuns(t.ctx.db, RUN_SUMMARY, submissionIds);
    expect([...latest.keys()].sort()).toEqual([both, failedAfter, finishedOutOfOrder].sort());
    expect([...latestSucceeded.keys()].sort()).toEqual([both, failedAfter, finishedOutOfOrder].sort());
    expect(latest.get(both)).toMatchObject({ id: newestOfBoth, status: 'succeeded', totalScore: 8 });
    expect(latestSucceeded.get(both)).toEqual(latest.get(both));
    expect(latest.get(failedAfter)).toMatchObject({ id: failed, status: 'failed' });
    expect(latestSucceeded.get(failedAfter)).toMatchObject({ id: suggestion, status: 'succeeded', totalScore: 6 });
    expect(latest.get(finishedOutOfOrder)).toMatchObject({ id: queued, status: 'queued' });
    expect(latestSucceeded.get(finishedOutOfOrder)).toMatchObject({ id: startedFirst, totalScore: 3 });
    expect(latest.has(none)).toBe(false);
    // Only the summary's columns, without the flags that sorted them.
    expect(Object.keys(latest.get(both)!).sort()).toEqual(
      [
        'comments',
        'confidence',
        'graderKind',
        'id',
        'model',
        'provider',
        'status',
        'submissionId',
        'totalScore',
      ].sort(),
    );
    expect(await selectLatestRuns(t.ctx.db, RUN_SUMMARY, [])).toEqual({
      latest: new Map(),
      latestSucceeded: new Map(),
    });
  });
});
