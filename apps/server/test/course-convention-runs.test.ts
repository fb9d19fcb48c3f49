import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { conventionOf, fitCourseConvention, isConventionStale } from '../src/ai/builtin/course-convention.ts';
import { gradingRuns } from '../src/db/schema.ts';
import { newId } from '../src/lib/ids.ts';
import { insertGrade } from '../src/models/grades.ts';
import { courseGradesFor } from '../src/services/grading-input.ts';
import { submitAnswer } from './support/course-fixtures.ts';
import type { TestUser } from './support/http.ts';
import { gradeWithAi, questionPath, saveGrade } from './support/review-fixtures.ts';
import {
  refreshesFinished as refreshesFinishedOf,
  refreshesOf as refreshesOfQuestion,
} from './support/suggestion-refreshes.ts';
import type { TestApp } from './support/test-app.ts';
import {
  newestSucceededRun,
  readEveryAnswer as readEveryAnswerOf,
  THUNDER_ANSWERS as ANSWERS,
  thunderCourse,
  type ThunderQuestion as Question,
} from './support/thunder-course.ts';

/**
 * What a built-in grading run checks of the course's convention once it has finished (decision
 * 0118): its own question's pending cold suggestions, so a run that graded with a convention a save
 * moved while it ran is made again; and the course's other questions only when it judged an answer
 * whose grade the convention is fitted on. And what a new version of a graded answer checks as it is
 * handed in (decision 0124). Through HTTP with the real grader and job queue, one
 * grader call at a time (GRADING_CONCURRENCY=1), whose slot the test holds to keep a run in flight;
 * jobs are waited for by their rows and the queue's state, never by time.
 */

let t: TestApp;
let instructor: TestUser;
let students: Map<string, TestUser>;
/** A: graded in the tests (resubmission allowed); B and D: no saved grade. */
let questionA: Question;
let questionB: Question;
let questionD: Question;
/** Each question's answers by student name: the submission id. */
let answers: Map<Question, Map<string, string>>;
let answerOf: (question: Question, name: string) => Question & { submissionId: string };

const newestRun = (submissionId: string) => newestSucceededRun(t, submissionId);
const courseOf = async (submissionId: string) => conventionOf((await newestRun(submissionId)).rawOutput);
const conventionNow = async () =>
  fitCourseConvention(await courseGradesFor(t.ctx, { kind: 'builtin' }, questionB.questionId));

const refreshesOf = (question: Question) => refreshesOfQuestion(t, question.questionId);

const refreshesFinished = (question: Question) => refreshesFinishedOf(t, question.questionId);

/** Waits until the run's job has asked for another refresh of the question than those it had. */
async function refreshAskedAfter(runId: string, question: Question, had: number) {
  const rows = await t.ctx.jobs!.waitFor(
    runId,
    async () => {
      const now = await refreshesOf(question);
      return now.length > had ? now : undefined;
    },
    // A hang's bound, within the test's.
    { timeoutMs: 60_000, pollMs: 200 },
  );
  expect(rows?.at(-1)?.requestedById).toBeNull();
}

/** Every grading job has finished, its checks after the run included. */
async function gradingJobsDone() {
  await vi.waitFor(async () => expect(await t.ctx.jobs!.countOpenJobs('grade-submission')).toBe(0), {
    timeout: 60_000,
    interval: 50,
  });
}

/** Every answer's text read, so no suggestion is made again because its class grew (decision 0093). */
const readEveryAnswer = () => readEveryAnswerOf(t);

beforeAll(async () => {
  ({
    t,
    instructor,
    students,
    questions: [questionA, questionB, questionD],
    answers,
    answerOf,
  } = await thunderCourse({
    env: { GRADING_CONCURRENCY: '1', AI_USER_CALLS_PER_MINUTE: '1000' },
    assignmentOfQuestions: [0, 1, 1],
    resubmissionOnFirst: true,
  }));
  // Eve answers B and D; her answers are graded in the tests, not now.
  for (const question of [questionB, questionD]) {
    const eve = await submitAnswer(
      t.app,
      students.get('Eve')!,
      question.assignmentId,
      question.questionId,
      'Light is much faster than sound, so we see the flash first.',
    );
    answers.get(question)!.set('Eve', eve._id);
  }
  await readEveryAnswer();
  // Suggestions on the others' answers, before any grade in the course: made without a convention.
  for (const question of [questionA, questionB, questionD]) {
    for (const name of Object.keys(ANSWERS)) await gradeWithAi(t.app, instructor, answerOf(question, name));
  }
  expect(await conventionNow()).toBeNull();
});

afterAll(async () => {
  await t?.close();
});

describe('a built-in grading run, once finished', () => {
  it("asks for its own question's refresh when a save moved the course's convention while it ran", async () => {
    // The test holds the only grader call slot: Eve's run on B reads the course's grades (none yet),
    // then waits for the slot.
    let release!: () => void;
    const held = t.ctx.gradingCalls.run(() => new Promise<void>((resolve) => (release = resolve)));
    const eveOnB = answerOf(questionB, 'Eve');
    const graded = gradeWithAi(t.app, instructor, eveOnB);
    await vi.waitFor(() => expect(t.ctx.gradingCalls.waiting).toBe(1), { timeout: 60_000, interval: 20 });

    // Meanwhile the instructor grades three of A's judged answers harder than suggested.
    for (const [name, deducted] of [
      ['Ann', 5],
      ['Ben', 7],
      ['Cat', 6],
    ] as const) {
      await saveGrade(t.app, instructor, { ...answerOf(questionA, name), points: 10 }, [
        { text: 'Say why the speeds differ.', pointsDeducted: deducted, accepted: true, rubricItemId: 'item-1' },
      ]);
    }
    await refreshesFinished(questionA);
    const refreshesOfB = await refreshesFinished(questionB);
    const now = await conventionNow();
    expect(now).not.toBeNull();
    // The saves' check refreshed B's suggestions, and left Eve's answer to the run in flight.
    expect(refreshesOfB.length).toBeGreaterThan(0);
    for (const name of Object.keys(ANSWERS))
      expect(await courseOf(answerOf(questionB, name).submissionId)).toEqual(now);

    release();
    await held;
    await graded;
    // The instructor's run (the refreshes are the server's): Eve's suggestion was made with the
    // convention it read, none.
    const [run] = await t.ctx.db
      .select()
      .from(gradingRuns)
      .where(and(eq(gradingRuns.submissionId, eveOnB.submissionId), eq(gradingRuns.requestedById, instructor.id)));
    expect(run!.status).toBe('succeeded');
    expect(conventionOf(run!.rawOutput)).toBeNull();
    await refreshAskedAfter(run!.id, questionB, refreshesOfB.length);
    await refreshesFinished(questionB);
    expect(await courseOf(eveOnB.submissionId)).toEqual(now);
  });

  it('a new version of a graded answer refreshes its question and checks the course as it is handed in', async () => {
    const dansOnA = answerOf(questionA, 'Dan').submissionId;
    const examplesBefore = (await newestRun(dansOnA)).examplesUsed;
    expect(examplesBefore).toBe(3);
    const refreshesOfA = (await refreshesFinished(questionA)).length;
    const refreshesOfB = (await refreshesFinished(questionB)).length;
    // Ben hands in a new version on A: his grade no longer counts, two are left, and the course
    // has no convention.
    const newer = await submitAnswer(
      t.app,
      students.get('Ben')!,
      questionA.assignmentId,
      questionA.questionId,
      'Light is faster than sound, and the flash reaches us first.',
    );
    answers.get(questionA)!.set('Ben', newer._id);
    expect(await conventionNow()).toBeNull();
    // Asked by the server while the hand-in was answered (nobody saved a grade), and done.
    const ofA = await refreshesFinished(questionA);
    const ofB = await refreshesFinished(questionB);
    expect(ofA.slice(refreshesOfA).map((row) => row.requestedById)).toEqual([null]);
    expect(ofB.slice(refreshesOfB).map((row) => row.requestedById)).toEqual([null]);
    // A's pending suggestion learns from the two grades left; B's follow the course, which has no
    // convention now.
    expect((await newestRun(dansOnA)).examplesUsed).toBe(2);
    for (const name of Object.keys(ANSWERS)) expect(await courseOf(answerOf(questionB, name).submissionId)).toBeNull();
    await readEveryAnswer();
    await gradingJobsDone();
  });

  it("checks the course's other questions only after judging an answer whose grade the convention is fitted on", async () => {
    // Every path of the product that moves the convention checks it (saves, applies, undos, judgements
    // of graded answers, new versions of graded answers); to see which runs check, the test moves it
    // behind the server's back: Ben's new version on A is judged (a run on an ungraded answer), then
    // graded by a row written to the table directly, so three grades count again and nothing checked.
    const bensOnA = answerOf(questionA, 'Ben');
    await gradeWithAi(t.app, instructor, bensOnA);
    await gradingJobsDone();
    // What that run asked of A (its class grew with Ben's new text) has checked the course already.
    await refreshesFinished(questionA);
    const refreshesOfB = await refreshesFinished(questionB);
    expect(await conventionNow()).toBeNull();
    await insertGrade(t.ctx.db, {
      id: newId(),
      submissionId: bensOnA.submissionId,
      grade: 3,
      feedback: '',
      comments: [],
      savedById: instructor.id,
      reason: 'save',
    });
    const now = await conventionNow();
    expect(now).not.toBeNull();
    for (const name of Object.keys(ANSWERS)) {
      expect(isConventionStale(await courseOf(answerOf(questionB, name).submissionId), now)).toBe(true);
    }

    // The grader judges Eve's answer on D, which has no grade: it cannot move the convention, and
    // the course's other questions are not read. (D's own suggestions are its run's to check.)
    await gradeWithAi(t.app, instructor, answerOf(questionD, 'Eve'));
    await gradingJobsDone();
    expect(await refreshesOf(questionB)).toEqual(refreshesOfB);
    for (const name of Object.keys(ANSWERS)) expect(await courseOf(answerOf(questionB, name).submissionId)).toBeNull();

    // A judgement of Ann's graded answer on A is one the convention is fitted on: the course is checked.
    const regraded = await t.app.inject({
      method: 'POST',
      url: `${questionPath(questionA.assignmentId, questionA.questionId)}/regrade/${answerOf(questionA, 'Ann').submissionId}`,
      headers: instructor.auth,
    });
    expect(regraded.statusCode).toBe(200);
    await refreshAskedAfter(
      (await newestRun(answerOf(questionA, 'Ann').submissionId)).id,
      questionB,
      refreshesOfB.length,
    );
    await refreshesFinished(questionB);
    // The regrade recorded a new cold share of Ann's answer, so the convention is read again.
    const after = await conventionNow();
    expect(after).not.toBeNull();
    for (const name of Object.keys(ANSWERS))
      expect(await courseOf(answerOf(questionB, name).submissionId)).toEqual(after);
  });
});
