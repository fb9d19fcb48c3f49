import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitCourseConvention, isConventionStale } from '../src/ai/builtin/course-convention.ts';
import type { BuiltinJudgement } from '../src/ai/builtin/grade-answer.ts';
import { gradingRuns, submissions } from '../src/db/schema.ts';
import { courseGradesFor } from '../src/services/grading-input.ts';
import { ensureFileExtraction } from '../src/services/ensure-file-extraction.ts';
import {
  addStudents,
  createAssignment,
  createCourse,
  createQuestion,
  submitAnswer,
} from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { gradeWithAi, questionPath, saveGrade, saveRubric } from './support/review-fixtures.ts';
import {
  refreshesFinished as refreshesFinishedOf,
  refreshesOf as refreshesOfQuestion,
} from './support/suggestion-refreshes.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Saving grades on one question of a course refreshes the cold built-in suggestions of the course's
 * other questions without a saved grade (decision 0115): they follow the course's convention, which
 * those grades move. Through HTTP with the real grader and job queue; jobs are waited for by their
 * rows, as the queue settles them.
 */

interface Question {
  assignmentId: string;
  questionId: string;
  points: number;
}

let t: TestApp;
let instructor: TestUser;
const students = new Map<string, TestUser>();
/** A: graded in the test; B: no saved grade; C: a saved grade of its own. */
let questionA: Question;
let questionB: Question;
let questionC: Question;
/** Each question's answers by student name: the submission id. */
const answers = new Map<Question, Map<string, string>>();

const ANSWERS: Record<string, string> = {
  Ann: 'Light travels much faster than sound, so the flash reaches us before the thunder.',
  Ben: 'Light is faster than sound.',
  Cat: 'The sound of thunder is slower than the light of the lightning.',
  Dan: 'Because the lightning is closer to us than the thunder.',
};

const answerOf = (question: Question, name: string) => ({
  ...question,
  submissionId: answers.get(question)!.get(name)!,
});

const newestRun = async (submissionId: string) => {
  const [run] = await t.ctx.db
    .select()
    .from(gradingRuns)
    .where(and(eq(gradingRuns.submissionId, submissionId), eq(gradingRuns.status, 'succeeded')))
    .orderBy(desc(gradingRuns.createdAt))
    .limit(1);
  return run!;
};
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
  t = await createTestApp({}, { withJobs: true });
  instructor = await registerUser(t.app, { role: 'instructor', name: 'Prof Ada' });
  for (const name of [...Object.keys(ANSWERS), 'Eve']) {
    students.set(name, await registerUser(t.app, { name, email: `${name.toLowerCase()}@example.edu` }));
  }
  const course = await createCourse(t.app, instructor);
  await addStudents(
    t.app,
    instructor,
    course._id,
    [...students.values()].map((student) => student.email),
  );
  const first = await createAssignment(t.app, instructor, course._id, { title: 'Homework 1' });
  const second = await createAssignment(t.app, instructor, course._id, { title: 'Homework 2' });
  const questionOf = async (assignmentId: string): Promise<Question> => {
    const question = await createQuestion(t.app, instructor, assignmentId, { points: '10' });
    const ids = { assignmentId, questionId: question._id };
    await saveRubric(t.app, instructor, ids, {
      questionText: 'Why do we see lightning before we hear thunder?',
      solutionText: 'Light travels much faster than sound, so the flash reaches us before the sound.',
      items: [{ id: 'item-1', criterion: 'Compares the speeds of light and sound', points: 10 }],
    });
    return { ...ids, points: 10 };
  };
  questionA = await questionOf(first._id);
  questionB = await questionOf(second._id);
  questionC = await questionOf(second._id);
  for (const question of [questionA, questionB, questionC]) {
    const ids = new Map<string, string>();
    for (const [name, text] of Object.entries(ANSWERS)) {
      const submission = await submitAnswer(
        t.app,
        students.get(name)!,
        question.assignmentId,
        question.questionId,
        text,
      );
      ids.set(name, submission._id);
    }
    answers.set(question, ids);
  }
  // Eve answers C; her answer is graded by hand, never by the grader.
  const eve = await submitAnswer(t.app, students.get('Eve')!, questionC.assignmentId, questionC.questionId, 'Speed.');
  answers.get(questionC)!.set('Eve', eve._id);
  // Every answer read before any is graded: each suggestion is made with its whole class, so no
  // refresh is asked for because a class grew (decision 0093).
  for (const row of await t.ctx.db.select().from(submissions)) {
    expect((await ensureFileExtraction(t.ctx, row.fileId)).status).toBe('succeeded');
  }
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
