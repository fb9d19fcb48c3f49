import type { SaveGradeOutput } from '@gradewise/shared/contracts/grading';
import type { Reliability, StatisticsOutput } from '@gradewise/shared/contracts/statistics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/lib/ids.ts';
import { insertFinishedGradingRun } from '../src/models/grading-runs.ts';
import {
  addStudents,
  createCourseWorld,
  createQuestion,
  submitAnswer,
  type CourseWorld,
} from './support/course-fixtures.ts';
import { expectStatus, registerUser, type TestUser } from './support/http.ts';
import { questionPath } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * The reliability diagram of the statistics (issue 27) over HTTP: AI suggestions that said known
 * confidences (finished runs written as the grader writes them), grades saved through the API from
 * them, and the bands and ECE the statistics answer with, per question and for the assignment.
 */

let t: TestApp;
let world: CourseWorld;
let bonus: { _id: string; points: number };
const students: TestUser[] = [];
/** Each student's answer to the first question, then to the bonus question. */
const answers: { _id: string }[] = [];
const bonusAnswers: { _id: string }[] = [];

/** A finished AI suggestion of the answer that said `confidence` for `totalScore`. */
async function suggest(submissionId: string, totalScore: number, confidence: number): Promise<string> {
  const run = await insertFinishedGradingRun(t.ctx.db, {
    id: newId(),
    submissionId,
    graderKind: 'builtin',
    provider: 'builtin',
    model: 'builtin',
    promptVersion: 'test',
    comments: [],
    totalScore,
    confidence,
    requestedById: world.instructor.id,
  });
  return run.id;
}

/** Saves `grade` through the API (one deduction makes up the difference), from the run named. */
async function save(
  question: { _id: string; points: number },
  submissionId: string,
  grade: number,
  basedOnRunId: string | null,
  expectedGradeId: string | null = null,
): Promise<string> {
  const deducted = question.points - grade;
  const response = await t.app.inject({
    method: 'POST',
    url: `${questionPath(world.assignment._id, question._id)}/save-grade/${submissionId}`,
    headers: world.instructor.auth,
    payload: {
      grade,
      feedback: '',
      comments: deducted > 0 ? [{ text: 'Partly right.', pointsDeducted: deducted, accepted: true }] : [],
      basedOnRunId,
      expectedGradeId,
    },
  });
  return expectStatus<SaveGradeOutput>(response, 200, 'save grade').grade.id;
}

async function statistics(url: string, user: TestUser = world.instructor): Promise<StatisticsOutput> {
  return expectStatus<StatisticsOutput>(await t.app.inject({ method: 'GET', url, headers: user.auth }), 200, url);
}

const band = (reliability: Reliability, from: number) => reliability.bins.find((bin) => bin.from === from);
const filled = (reliability: Reliability) => reliability.bins.filter((bin) => bin.count > 0).map((bin) => bin.from);

beforeAll(async () => {
  t = await createTestApp();
  world = await createCourseWorld(t.app);
  const bonusQuestion = await createQuestion(t.app, world.instructor, world.assignment._id, {
    title: 'Bonus',
    points: '5',
  });
  bonus = { _id: bonusQuestion._id, points: 5 };
  for (let index = 0; index < 7; index += 1) {
    const student = await registerUser(t.app, { name: `Reliability Student ${index + 1}` });
    await addStudents(t.app, world.instructor, world.course._id, [student.email]);
    students.push(student);
    answers.push(await submitAnswer(t.app, student, world.assignment._id, world.question._id, 'It is 4.'));
  }
  for (const student of students.slice(0, 2)) {
    bonusAnswers.push(await submitAnswer(t.app, student, world.assignment._id, bonus._id, 'Yes.'));
  }
  const question = { _id: world.question._id, points: 10 };

  // The first question (10 points: kept means within 1 point of the suggestion).
  // Said 90–100: two kept, one not.
  await save(question, answers[0]!._id, 8, await suggest(answers[0]!._id, 8, 95));
  await save(question, answers[1]!._id, 9, await suggest(answers[1]!._id, 8, 92));
  await save(question, answers[2]!._id, 3, await suggest(answers[2]!._id, 8, 90));
  // Said 50–59: both kept, the second only by its newest save (the one that counts).
  await save(question, answers[3]!._id, 6, await suggest(answers[3]!._id, 6, 55));
  const run = await suggest(answers[4]!._id, 6, 55);
  const first = await save(question, answers[4]!._id, 2, run);
  await save(question, answers[4]!._id, 6.5, run, first);
  // Not decisions: a grade saved by hand, and a suggestion nobody has saved a grade from.
  await save(question, answers[5]!._id, 7, null);
  await suggest(answers[6]!._id, 5, 40);

  // The bonus question (5 points: kept means within half a point). Said 30–39: one of two kept.
  await save(bonus, bonusAnswers[0]!._id, 2, await suggest(bonusAnswers[0]!._id, 5, 30));
  await save(bonus, bonusAnswers[1]!._id, 4.5, await suggest(bonusAnswers[1]!._id, 4, 35));
});

afterAll(async () => {
  await t?.close();
});

describe('the reliability diagram in the statistics', () => {
  it('a question: per band the decisions, the confidence said and the share kept, and the ECE', async () => {
    const stats = await statistics(`${questionPath(world.assignment._id, world.question._id)}/statistics`);
    const { reliability } = stats;
    expect(reliability.decisions).toBe(5);
    expect(reliability.bins).toHaveLength(10);
    expect(filled(reliability)).toEqual([50, 90]);
    expect(band(reliability, 90)).toEqual({ from: 90, to: 100, count: 3, meanConfidence: 92.33, keptShare: 0.6667 });
    expect(band(reliability, 50)).toEqual({ from: 50, to: 59, count: 2, meanConfidence: 55, keptShare: 1 });
    // |92.33 − 66.67| × 3/5 + |55 − 100| × 2/5
    expect(reliability.expectedCalibrationError).toBe(33.4);
    expect(reliability.meanConfidence).toBe(77.4);
    expect(reliability.keptShare).toBe(0.8);
    expect(stats.questionReliability).toEqual([
      { questionId: world.question._id, questionLabel: world.question.title, reliability },
    ]);
    // The same decisions as the agreement with the AI: the counting grades that started from a suggestion.
    expect(stats.aiAgreement.compared).toBe(5);
  });

  it('the assignment: all decisions together, and each question on its own in the assignment’s order', async () => {
    const stats = await statistics(`/api/assignments/${world.assignment._id}/statistics`);
    expect(stats.reliability.decisions).toBe(7);
    expect(filled(stats.reliability)).toEqual([30, 50, 90]);
    expect(band(stats.reliability, 30)).toEqual({ from: 30, to: 39, count: 2, meanConfidence: 32.5, keptShare: 0.5 });
    // (|92.33 − 66.67| × 3 + |55 − 100| × 2 + |32.5 − 50| × 2) / 7 = 202 / 7
    expect(stats.reliability.expectedCalibrationError).toBe(28.86);
    expect(stats.reliability.meanConfidence).toBe(64.57);
    expect(stats.reliability.keptShare).toBe(0.7143);

    expect(stats.questionReliability.map((entry) => [entry.questionLabel, entry.reliability.decisions])).toEqual([
      [world.question.title, 5],
      ['Bonus', 2],
    ]);
    const bonusReliability = stats.questionReliability[1]!.reliability;
    expect(bonusReliability.expectedCalibrationError).toBe(17.5);
    expect(band(bonusReliability, 30)).toEqual(band(stats.reliability, 30));
  });

  it('carries no student identity, and a question without decisions has empty bands', async () => {
    const stats = await statistics(`/api/assignments/${world.assignment._id}/statistics`);
    const text = JSON.stringify([stats.reliability, stats.questionReliability]);
    for (const student of students) {
      expect(text).not.toContain(student.id);
      expect(text).not.toContain(student.name);
    }
    const empty = await createQuestion(t.app, world.instructor, world.assignment._id, { title: 'Unanswered' });
    const none = await statistics(`${questionPath(world.assignment._id, empty._id)}/statistics`);
    expect(none.reliability).toMatchObject({
      decisions: 0,
      expectedCalibrationError: null,
      meanConfidence: null,
      keptShare: null,
    });
    expect(none.reliability.bins.every((bin) => bin.count === 0)).toBe(true);
  });

  it('a student of the course may not read it', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${world.assignment._id}/statistics`,
      headers: students[0]!.auth,
    });
    expect(response.statusCode).toBe(403);
  });
});
