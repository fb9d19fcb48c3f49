import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitCourseConvention, isConventionStale } from '../src/ai/builtin/course-convention.ts';
import type { BuiltinJudgement } from '../src/ai/builtin/grade-answer.ts';
import { submissions } from '../src/db/schema.ts';
import { courseGradesFor } from '../src/services/grading-input.ts';
import { ensureFileExtraction } from '../src/services/ensure-file-extraction.ts';
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
  readEveryAnswer,
  THUNDER_ANSWERS as ANSWERS,
  thunderCourse,
  type ThunderQuestion as Question,
} from './support/thunder-course.ts';

/**
 * Saving grades on one question of a course refreshes the cold built-in suggestions of the course's
 * other questions without a saved grade (decision 0115): they follow the course's convention, which
 * those grades move. Through HTTP with the real grader and job queue; jobs are waited for by their
 * rows, as the queue settles them.
 */

let t: TestApp;
let instructor: TestUser;
let students: Map<string, TestUser>;
/** A: graded in the test; B: no saved grade; C: a saved grade of its own. */
let questionA: Question;
let questionB: Question;
let questionC: Question;
/** Each question's answers by student name: the submission id. */
let answers: Map<Question, Map<string, string>>;
let answerOf: (question: Question, name: string) => Question & { submissionId: string };

const newestRun = (submissionId: string) => newestSucceededRun(t, submissionId);
const courseOf = async (submissionId: string) =>
  ((await newestRun(submissionId)).rawOutput as BuiltinJudgement).confidenceInputs.course;

const refreshesOf = (question: Question) => refreshesOfQuestion(t, question.questionId);

const refreshesFinished = (question: Question) => refreshesFinishedOf(t, question.questionId);

/** Saves the answer's suggestion as it is, less `deducted` more points (a comment of the instructor's). */
async function saveSuggestion(question: Question, name: string, deducted = 0) {
  const target = answerOf(question, name);
  const suggestion = await gradeWithAi(t.app, instructor, target);
  const comments = suggestion.gradingResult.comments.map(({ text, pointsDeducted, rubricItemId }) => ({
    text,
    pointsDeducted,
    accepted: true,
    rubricItemId: rubricItemId ?? null,
  }));
  const suggested = comments.reduce((sum, comment) => sum + comment.pointsDeducted, 0);
  const extra = Math.min(deducted, question.points - suggested);
  if (extra > 0)
    comments.push({ text: 'Say why the speeds differ.', pointsDeducted: extra, accepted: true, rubricItemId: null });
  return saveGrade(t.app, instructor, target, comments);
}

beforeAll(async () => {
  ({
    t,
    instructor,
    students,
    questions: [questionA, questionB, questionC],
    answers,
    answerOf,
  } = await thunderCourse({ assignmentOfQuestions: [0, 1, 1] }));
  // Eve answers C; her answer is graded by hand, never by the grader.
  const eve = await submitAnswer(t.app, students.get('Eve')!, questionC.assignmentId, questionC.questionId, 'Speed.');
  answers.get(questionC)!.set('Eve', eve._id);
  // Every answer read before any is graded: each suggestion is made with its whole class, so no
  // refresh is asked for because a class grew (decision 0093).
  await readEveryAnswer(t);
  // Suggestions on every answer of A, B and C (Eve's aside), before any grade in the course.
  for (const question of [questionA, questionB, questionC]) {
    for (const name of Object.keys(ANSWERS)) await gradeWithAi(t.app, instructor, answerOf(question, name));
  }
  // C's saved grade, by hand on an answer the grader never judged: its save refreshes C's own
  // suggestions and tells nothing of the course's convention.
  await saveGrade(t.app, instructor, { ...answerOf(questionC, 'Eve'), points: 10 }, [
    { text: 'Say what is faster.', pointsDeducted: 8, accepted: true },
  ]);
  await refreshesFinished(questionC);
});

afterAll(async () => {
  await t?.close();
});

describe("the course's convention", () => {
  it('is not known before any judged grade in the course: the cold suggestions were made without one', async () => {
    for (const question of [questionA, questionB, questionC]) {
      for (const name of Object.keys(ANSWERS)) expect(await courseOf(answerOf(question, name).submissionId)).toBeNull();
    }
    expect(fitCourseConvention(await courseGradesFor(t.ctx, { kind: 'builtin' }, questionB.questionId))).toBeNull();
    // Only C's save asked for a refresh; nobody asked for B.
    expect(await refreshesOf(questionB)).toEqual([]);
  });

  it("refreshes the pending suggestions of the course's questions without a saved grade after saves on another", async () => {
    const runsBefore = new Map<string, string>();
    for (const name of Object.keys(ANSWERS)) {
      runsBefore.set(name, (await newestRun(answerOf(questionB, name).submissionId)).id);
    }
    const refreshesOfC = await refreshesOf(questionC);
    // The instructor grades A harder than the grader suggests.
    await saveSuggestion(questionA, 'Ann', 3);
    await saveSuggestion(questionA, 'Ben', 4);
    await saveSuggestion(questionA, 'Cat', 3);
    await refreshesFinished(questionA);
    const refreshesOfB = await refreshesFinished(questionB);

    // Asked by the server, not a person.
    expect(refreshesOfB.length).toBeGreaterThan(0);
    for (const refresh of refreshesOfB) expect(refresh.requestedById).toBeNull();
    const courseGrades = await courseGradesFor(t.ctx, { kind: 'builtin' }, questionB.questionId);
    expect(courseGrades).toHaveLength(3);
    const now = fitCourseConvention(courseGrades);
    expect(now).not.toBeNull();
    expect(now!.grades).toBe(3);
    for (const name of Object.keys(ANSWERS)) {
      const run = await newestRun(answerOf(questionB, name).submissionId);
      expect(run.id).not.toBe(runsBefore.get(name));
      expect((run.rawOutput as BuiltinJudgement).confidenceInputs.course).toEqual(now);
    }

    // C has a saved grade of its own: A's saves did not refresh it, its suggestions follow C's grades.
    expect(await refreshesOf(questionC)).toEqual(refreshesOfC);
    for (const name of Object.keys(ANSWERS)) {
      expect(await courseOf(answerOf(questionC, name).submissionId)).toBeNull();
    }
  });

  it('refreshes them after a built-in judgement of a graded answer, which the convention is fitted on', async () => {
    // Eve answers A and is graded by hand: no judgement of the grader, so nothing moves for B.
    const eve = await submitAnswer(
      t.app,
      students.get('Eve')!,
      questionA.assignmentId,
      questionA.questionId,
      'Light is much faster than sound, so we see the flash first.',
    );
    const [row] = await t.ctx.db.select().from(submissions).where(eq(submissions.id, eve._id));
    expect((await ensureFileExtraction(t.ctx, row!.fileId)).status).toBe('succeeded');
    const eveOnA = { ...questionA, submissionId: eve._id };
    const refreshesOfB = await refreshesOf(questionB);
    const before = fitCourseConvention(await courseGradesFor(t.ctx, { kind: 'builtin' }, questionB.questionId));
    await saveGrade(t.app, instructor, eveOnA, [
      { text: 'Only the flash, no reason.', pointsDeducted: 9, accepted: true },
    ]);
    await refreshesFinished(questionA);
    expect(await refreshesOf(questionB)).toEqual(refreshesOfB);

    // The grader judges Eve's graded answer: her grade joins the course's, and B's suggestions follow.
    const regraded = await t.app.inject({
      method: 'POST',
      url: `${questionPath(questionA.assignmentId, questionA.questionId)}/regrade/${eve._id}`,
      headers: instructor.auth,
    });
    expect(regraded.statusCode).toBe(200);
    const run = await newestRun(eve._id);
    const now = fitCourseConvention(await courseGradesFor(t.ctx, { kind: 'builtin' }, questionB.questionId));
    expect(now!.grades).toBe(4);
    expect(isConventionStale(before, now)).toBe(true);
    // The run's job asks before it settles: woken when it does.
    const asked = await t.ctx.jobs!.waitFor(
      run.id,
      async () => {
        const rows = await refreshesOf(questionB);
        return rows.length > refreshesOfB.length ? rows : undefined;
      },
      // A hang's bound, within the test's.
      { timeoutMs: 60_000, pollMs: 200 },
    );
    expect(asked?.at(-1)?.requestedById).toBeNull();
    await refreshesFinished(questionB);
    for (const name of Object.keys(ANSWERS)) {
      expect(await courseOf(answerOf(questionB, name).submissionId)).toEqual(now);
    }
  });
});
