import { and, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GradeHistoryOutput } from '@gradewise/shared/contracts/grade-audit';
import { QuestionForStaff } from '@gradewise/shared/contracts/questions';
import { expectJson } from './support/expect-json.ts';
import { gradingRuns, suggestionRefreshes } from '../src/db/schema.ts';
import {
  addStudents,
  addTa,
  createCourseWorld,
  createQuestion,
  submitAnswer,
  type CourseWorld,
} from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { currentGradeId, gradeWithAi, questionPath } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * The toast's Undo after a save (issue 13 item 10, decision 0032): the answer returns to the grade
 * it had before, or to not graded; only the author's own, current, recent save can be taken back.
 */
let t: TestApp;
let world: CourseWorld;
let ta: TestUser;
// The app's clock: a test moves it to let the undo window pass.
let offsetMs = 0;

beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true, clock: () => new Date(Date.now() + offsetMs) });
  world = await createCourseWorld(t.app);
  ta = await registerUser(t.app, { role: 'instructor', name: 'Tess Assistant' });
  await addTa(t.app, world.instructor, world.course._id, ta);
});
afterAll(async () => {
  await t?.close();
});

interface Answer {
  assignmentId: string;
  questionId: string;
  base: string;
  submissionId: string;
}

/** A fresh question answered by a fresh student, so the tests do not share grades. */
async function freshAnswer(): Promise<Answer> {
  const question = await createQuestion(t.app, world.instructor, world.assignment._id, { points: '10' });
  const student = await registerUser(t.app, { name: `Student ${Math.random().toString(36).slice(2, 8)}` });
  await addStudents(t.app, world.instructor, world.course._id, [student.email]);
  const submission = await submitAnswer(t.app, student, world.assignment._id, question._id, 'The answer is 4.');
  return {
    assignmentId: world.assignment._id,
    questionId: question._id,
    base: questionPath(world.assignment._id, question._id),
    submissionId: submission._id,
  };
}

async function save(answer: Answer, grade: number, user: TestUser = world.instructor): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: `${answer.base}/save-grade/${answer.submissionId}`,
    headers: user.auth,
    payload: {
      grade,
      feedback: '',
      comments: grade < 10 ? [{ text: 'Missing a step.', pointsDeducted: 10 - grade, accepted: true }] : [],
      expectedGradeId: await currentGradeId(t.app, user, answer),
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().grade._id;
}

function undo(answer: Answer, gradeId: unknown, user: TestUser = world.instructor) {
  return t.app.inject({
    method: 'POST',
    url: `${answer.base}/save-grade/${answer.submissionId}/undo`,
    headers: user.auth,
    payload: { gradeId },
  });
}

/**
 * Waits (event-driven, as learning-from-grades does) until the suggestion refreshes that the
 * question's saves and undos queued have finished: each re-suggests the pending answers, so what
 * an answer shows is only settled once they have run.
 */
async function refreshesSettled(answer: Answer): Promise<void> {
  const unfinished = await t.ctx.db
    .select({ id: suggestionRefreshes.id })
    .from(suggestionRefreshes)
    .where(
      and(
        eq(suggestionRefreshes.questionId, answer.questionId),
        inArray(suggestionRefreshes.status, ['queued', 'running']),
      ),
    );
  for (const { id } of unfinished) {
    const settled = await t.ctx.jobs!.waitFor(
      id,
      async () => {
        const [row] = await t.ctx.db.select().from(suggestionRefreshes).where(eq(suggestionRefreshes.id, id));
        return row && (row.status === 'succeeded' || row.status === 'failed') ? row : undefined;
      },
      { timeoutMs: 120_000, pollMs: 200 },
    );
    if (!settled) throw new Error(`refresh ${id} did not finish`);
  }
}

/** The submission's newest finished AI suggestion (the one the grading screen shows). */
async function newestFinishedRunId(answer: Answer): Promise<string | undefined> {
  const [run] = await t.ctx.db
    .select({ id: gradingRuns.id })
    .from(gradingRuns)
    .where(and(eq(gradingRuns.submissionId, answer.submissionId), eq(gradingRuns.status, 'succeeded')))
    .orderBy(desc(gradingRuns.createdAt), desc(gradingRuns.id))
    .limit(1);
  return run?.id;
}

async function staffRow(answer: Answer) {
  const response = await t.app.inject({
    method: 'GET',
    url: `${answer.base}?includeSubmissions=1`,
    headers: world.instructor.auth,
  });
  const row = expectJson(response, 200, QuestionForStaff).submissions?.find(
    (found) => found._id === answer.submissionId,
  );
  if (!row) throw new Error(`no staff row for submission ${answer.submissionId}`);
  return row;
}

async function history(answer: Answer) {
  const response = await t.app.inject({
    method: 'GET',
    url: `${answer.base}/submissions/${answer.submissionId}/grade-history`,
    headers: world.instructor.auth,
  });
  return expectJson(response, 200, GradeHistoryOutput).entries;
}

describe('undo a saved grade', () => {
  it('takes a first grade back: the answer is not graded again and shows its AI suggestion', async () => {
    const answer = await freshAnswer();
    const suggestion = await gradeWithAi(t.app, world.instructor, answer);
    const gradeId = await save(answer, 7);
    expect((await staffRow(answer)).isAlreadyGraded).toBe(true);

    const undone = await undo(answer, gradeId);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toEqual({
      message: 'Grade undone: the answer is not graded again.',
      currentGradeId: null,
      grade: null,
    });
    const row = await staffRow(answer);
    expect(row.isAlreadyGraded).toBe(false);
    expect(row.grade ?? null).toBeNull();
    // The undo queued a refresh of the question's pending suggestions, this answer now among them:
    // once it has run, the answer shows the newest suggestion (the refresh's, or the first one if
    // the refresh ran before the undo), never the taken-back grade.
    // Opening it again shows that suggestion; it is not graded afresh.
    await refreshesSettled(answer);
    const shown = await newestFinishedRunId(answer);
    expect(suggestion.gradingRunId).toBeTruthy();
    expect(shown).toBeTruthy();
    const reopened = await gradeWithAi(t.app, world.instructor, answer);
    expect(reopened.currentGradeId).toBeNull();
    expect(reopened.gradingRunId).toBe(shown);
    expect(await history(answer)).toEqual([]);
  });

  it('takes a second grade back: the earlier grade counts again', async () => {
    const answer = await freshAnswer();
    const first = await save(answer, 6);
    const second = await save(answer, 9);
    const undone = await undo(answer, second);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toEqual({
      message: 'Grade undone: the answer is back to its earlier grade of 6.',
      currentGradeId: first,
      grade: 6,
    });
    expect((await staffRow(answer)).grade).toBe(6);
    expect((await history(answer)).map((entry) => entry.gradeId)).toEqual([first]);
    // Undone once: the same grade cannot be undone again (it is gone).
    expect((await undo(answer, second)).statusCode).toBe(404);
  });

  it('refuses a grade that is no longer current, and keeps it', async () => {
    const answer = await freshAnswer();
    const first = await save(answer, 5);
    await save(answer, 8);
    const refused = await undo(answer, first);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This grade can no longer be undone: another grade was saved for this answer since. Open the answer to change it.',
    );
    expect((await staffRow(answer)).grade).toBe(8);
    expect(await history(answer)).toHaveLength(2);
  });

  it("lets only the grade's author undo it: a TA their own, not the owner's", async () => {
    const answer = await freshAnswer();
    const owners = await save(answer, 4);
    const refused = await undo(answer, owners, ta);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Only the person who saved a grade can undo it.');
    const tas = await save(answer, 10, ta);
    expect((await undo(answer, tas, world.instructor)).statusCode).toBe(403);
    const undone = await undo(answer, tas, ta);
    expect(undone.statusCode).toBe(200);
    expect(undone.json().currentGradeId).toBe(owners);
  });

  it('refuses after ten minutes', async () => {
    const answer = await freshAnswer();
    const gradeId = await save(answer, 3);
    offsetMs = 11 * 60 * 1000;
    try {
      const refused = await undo(answer, gradeId);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(
        'This grade was saved more than 10 minutes ago, so it can no longer be undone. Open the answer to change it.',
      );
    } finally {
      offsetMs = 0;
    }
    expect((await staffRow(answer)).grade).toBe(3);
  });

  it('answers bad input with 400 and unknown grades with 404', async () => {
    const answer = await freshAnswer();
    await save(answer, 5);
    const missing = await undo(answer, undefined);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/Say which saved grade to undo/);
    expect((await undo(answer, 'not-an-id')).statusCode).toBe(404);
    expect((await undo(answer, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    // A grade of another answer is not this answer's.
    const other = await freshAnswer();
    const othersGrade = await save(other, 2);
    expect((await undo(answer, othersGrade)).statusCode).toBe(404);
    expect((await staffRow(other)).grade).toBe(2);
  });
});
