import { desc, eq } from 'drizzle-orm';
import type { ApplyToGroupOutput } from '@gradewise/shared/contracts/answer-groups';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltinJudgement } from '../src/ai/builtin/grade-answer.ts';
import { gradingRuns, questions, submissions } from '../src/db/schema.ts';
import { selectCourseGrades } from '../src/models/course-grades.ts';
import { insertFinishedGradingRun } from '../src/models/grading-runs.ts';
import { newId } from '../src/lib/ids.ts';
import { courseGradesFor } from '../src/services/grading-input.ts';
import { ensureFileExtraction } from '../src/services/ensure-file-extraction.ts';
import {
  addStudents,
  createAssignment,
  createCourse,
  createQuestion,
  submitAnswer,
} from './support/course-fixtures.ts';
import { expectStatus, registerUser, type TestUser } from './support/http.ts';
import { gradeWithAi, questionPath, saveGrade, saveRubric } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * The course's saved grades a question's built-in grading reads before its first own grade
 * (decision 0115, models/course-grades.ts): which grades are in it, with what, in which order and
 * how many. Through the real API, grader and job queue; the one LLM run is written as a provider's
 * answer would be stored, so that no LLM server is needed to have one.
 */

interface Question {
  assignmentId: string;
  questionId: string;
  points: number;
}

let t: TestApp;
let instructor: TestUser;
const students: TestUser[] = [];
let target: Question; // the question whose course grades are read
let other: Question; // 10 points, same assignment
let later: Question; // 4 points, the course's second assignment
let pointless: Question; // its points set to 0 after grading
let elsewhere: Question; // another course of the same instructor

const RUBRIC = {
  questionText: 'Why do we see lightning before we hear thunder?',
  solutionText: 'Light travels much faster than sound, so the flash reaches us first.',
};

async function newQuestion(assignmentId: string, points: number): Promise<Question> {
  const question = await createQuestion(t.app, instructor, assignmentId, { points: String(points) });
  const ids = { assignmentId, questionId: question._id };
  await saveRubric(t.app, instructor, ids, {
    ...RUBRIC,
    items: [{ id: 'item-1', criterion: 'Compares the speeds of light and sound', points }],
  });
  return { ...ids, points };
}

/** A student's answer, read, and (unless by hand) the built-in grader's suggestion on it. */
async function answer(question: Question, student: TestUser, text: string, withAi = true) {
  const submission = await submitAnswer(t.app, student, question.assignmentId, question.questionId, text);
  const [row] = await t.ctx.db.select().from(submissions).where(eq(submissions.id, submission._id));
  expect((await ensureFileExtraction(t.ctx, row!.fileId)).status).toBe('succeeded');
  const ids = { ...question, submissionId: submission._id };
  const suggestion = withAi ? await gradeWithAi(t.app, instructor, ids) : undefined;
  return { ...ids, suggestion };
}

/** Saves the suggestion as it is; an answer graded by hand, full marks less `deducted`. */
async function save(graded: Awaited<ReturnType<typeof answer>>, deducted = 0): Promise<number> {
  const comments = graded.suggestion
    ? graded.suggestion.gradingResult.comments.map(({ text, pointsDeducted, rubricItemId }) => ({
        text,
        pointsDeducted,
        accepted: true,
        rubricItemId: rubricItemId ?? null,
      }))
    : [{ text: 'Not quite.', pointsDeducted: deducted, accepted: true }];
  return (await saveGrade(t.app, instructor, graded, comments)).grade;
}

const regrade = async (graded: { assignmentId: string; questionId: string; submissionId: string }) =>
  expectStatus(
    await t.app.inject({
      method: 'POST',
      url: `${questionPath(graded.assignmentId, graded.questionId)}/regrade/${graded.submissionId}`,
      headers: instructor.auth,
    }),
    200,
    'regrade',
  );

const newestJudgement = async (submissionId: string) => {
  const [run] = await t.ctx.db
    .select()
    .from(gradingRuns)
    .where(eq(gradingRuns.submissionId, submissionId))
    .orderBy(desc(gradingRuns.createdAt))
    .limit(1);
  return run!;
};

/** What the course grade of this answer must read: a built-in judgement and its saved grade. */
function courseGradeOf(judgement: unknown, grade: number, points: number) {
  const { confidenceInputs, status } = judgement as BuiltinJudgement;
  return { coldShare: confidenceInputs.coldShare, share: grade / points, points, status };
}

/** A run as a provider's answer is stored: an LLM's, which the test writes instead of calling one. */
async function insertLlmRun(submissionId: string, rawOutput: unknown) {
  await insertFinishedGradingRun(t.ctx.db, {
    id: newId(),
    submissionId,
    batchId: null,
    graderKind: 'llm',
    provider: 'openai-compatible',
    model: 'some-model',
    promptVersion: 'test',
    inputTokens: 10,
    outputTokens: 10,
    latencyMs: 1,
    rawOutput,
    comments: [],
    totalScore: 4,
    confidence: 80,
  });
}

/** The course grades of `target` each case below expects, by name. */
const expected: Record<string, ReturnType<typeof courseGradeOf>> = {};

beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true });
  instructor = await registerUser(t.app, { role: 'instructor', name: 'Prof Ada' });
  for (const name of ['Ann', 'Ben', 'Cat', 'Dan', 'Eve']) {
    students.push(await registerUser(t.app, { name, email: `${name.toLowerCase()}@example.edu` }));
  }
  const emails = students.map((student) => student.email);
  const course = await createCourse(t.app, instructor);
  await addStudents(t.app, instructor, course._id, emails);
  const first = await createAssignment(t.app, instructor, course._id, { title: 'Homework 1' });
  const second = await createAssignment(t.app, instructor, course._id, { title: 'Homework 2' });
  target = await newQuestion(first._id, 10);
  other = await newQuestion(first._id, 10);
  later = await newQuestion(second._id, 4);
  pointless = await newQuestion(second._id, 5);
  const otherCourse = await createCourse(t.app, instructor, { title: 'Another course' });
  await addStudents(t.app, instructor, otherCourse._id, emails);
  elsewhere = await newQuestion((await createAssignment(t.app, instructor, otherCourse._id))._id, 10);
  const [ann, ben, cat, dan, eve] = students as [TestUser, TestUser, TestUser, TestUser, TestUser];

  // In the order saved (the course's grades are newest first).
  // Cat's answer to the later question was judged by the built-in grader, then by an LLM (newer,
  // with a cold share of its own): the built-in judgement counts, the grader's kind decides.
  const catLater = await answer(later, cat, 'The light gets to us quicker than the sound.');
  const builtin = (await newestJudgement(catLater.submissionId)).rawOutput as BuiltinJudgement;
  await insertLlmRun(catLater.submissionId, {
    ...builtin,
    confidenceInputs: { ...builtin.confidenceInputs, coldShare: 0.123 },
  });
  expected.catLater = courseGradeOf(builtin, await save(catLater), 4);

  // Dan's answer to the later question was judged by an LLM only.
  const danLater = await answer(later, dan, 'Thunder is the sound of lightning, and light is fast.', false);
  await insertLlmRun(danLater.submissionId, { ...builtin, confidenceInputs: { ...builtin.confidenceInputs } });
  await save(danLater, 1);

  const annOther = await answer(other, ann, 'Light is faster than sound, so the flash arrives first.');
  expected.annOther = courseGradeOf((await newestJudgement(annOther.submissionId)).rawOutput, await save(annOther), 10);

  // Cat said what Ann said: Ann's grade applied to the group is one decision, counted once (Ann's).
  const catOther = await answer(other, cat, 'Light is faster than sound, so the flash arrives first.');
  const applied = await t.app.inject({
    method: 'POST',
    url: `${questionPath(other.assignmentId, other.questionId)}/answer-groups/apply`,
    headers: instructor.auth,
    payload: { fromSubmissionId: annOther.submissionId },
  });
  expect(expectStatus<ApplyToGroupOutput>(applied, 200, 'apply to group').applied).toEqual([
    { submissionId: catOther.submissionId, grade: expect.any(Number) },
  ]);

  // Ben's first answer to the other question was graded; then it was reopened and he answered
  // again: the grade is on an earlier version, not on the answer he stands by.
  const benFirst = await answer(other, ben, 'Thunder is louder than lightning.');
  await save(benFirst);
  const reopened = await t.app.inject({
    method: 'POST',
    url: `${questionPath(other.assignmentId, other.questionId)}/submissions/${benFirst.submissionId}/reopen`,
    headers: instructor.auth,
  });
  expectStatus(reopened, 200, 'reopen');
  await answer(other, ben, 'Light travels faster than sound does.');

  // Eve's answer to the other question was graded by hand, and only then judged by the built-in grader.
  const eveOther = await answer(other, eve, 'Because of physics.', false);
  const eveGrade = await save(eveOther, 6);
  await regrade(eveOther);
  expected.eveOther = courseGradeOf((await newestJudgement(eveOther.submissionId)).rawOutput, eveGrade, 10);

  // The question itself, a question of 0 points and another course's question: never in `target`'s.
  const annTarget = await answer(target, ann, 'Light is much faster than sound.');
  expected.annTarget = courseGradeOf(
    (await newestJudgement(annTarget.submissionId)).rawOutput,
    await save(annTarget),
    10,
  );
  await save(await answer(pointless, ann, 'Light is quicker than sound.'));
  await t.ctx.db.update(questions).set({ points: 0 }).where(eq(questions.id, pointless.questionId));
  await save(await answer(elsewhere, ann, 'Light is faster than sound.'));
});

afterAll(async () => {
  await t?.close();
});

describe("a question's course grades", () => {
  const read = (limits = { perQuestion: 10, max: 400 }) => selectCourseGrades(t.ctx.db, target.questionId, limits);

  it("are the current grades of the course's other questions that the built-in grader judged, newest first", async () => {
    expect(await read()).toEqual([expected.eveOther, expected.annOther, expected.catLater]);
  });

  it("hold the question's own grades for the course's other questions, and nothing of another course", async () => {
    const ofOther = await selectCourseGrades(t.ctx.db, other.questionId, { perQuestion: 10, max: 400 });
    expect(ofOther).toEqual([expected.annTarget, expected.catLater]);
    expect(await selectCourseGrades(t.ctx.db, elsewhere.questionId, { perQuestion: 10, max: 400 })).toEqual([]);
  });

  it('are the newest of each question, and the newest in all, within the limits', async () => {
    expect(await read({ perQuestion: 1, max: 400 })).toEqual([expected.eveOther, expected.catLater]);
    expect(await read({ perQuestion: 10, max: 2 })).toEqual([expected.eveOther, expected.annOther]);
  });

  it('are read for the built-in grader only', async () => {
    expect(await courseGradesFor(t.ctx, { kind: 'builtin' }, target.questionId)).toEqual(await read());
    expect(await courseGradesFor(t.ctx, { kind: 'llm' }, target.questionId)).toBeUndefined();
  });
});
