import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureClass, NO_CLASS, typicalityOf } from '../src/ai/builtin/class-closeness.ts';
import { createBuiltinGrader } from '../src/ai/builtin/builtin-grader.ts';
import { embedTexts, similarity } from '../src/ai/builtin/sentence-embeddings.ts';
import type { BuiltinJudgement } from '../src/ai/builtin/grade-answer.ts';
import type { GradingInput } from '../src/ai/grader-types.ts';
import { gradingRuns, submissions, suggestionRefreshes } from '../src/db/schema.ts';
import { selectClassAnswerTexts } from '../src/models/class-answers.ts';
import { classAnswersFor } from '../src/services/grading-input.ts';
import { ensureFileExtraction } from '../src/services/ensure-file-extraction.ts';
import { addStudents, createCourseWorld, submitAnswer } from './support/course-fixtures.ts';
import { registerUser } from './support/http.ts';
import { gradeWithAi, saveRubric } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * The built-in grader reads how typical an answer is of its class (decision 0093): its closeness
 * in meaning to its nearest classmates and to the whole class, centred on the class's mean.
 */

/** A unit vector at `angle` (radians) in the plane of the first two axes. */
function vector(angle: number): Float32Array {
  const values = new Float32Array(512);
  values[0] = Math.cos(angle);
  values[1] = Math.sin(angle);
  return values;
}

function classOf(angles: Record<string, number>) {
  const keys = Object.keys(angles);
  const meaning = (key: string) => vector(angles[key]!);
  return { keys, meaning, measured: measureClass(keys, meaning) };
}

describe('typicality of an answer in its class', () => {
  it('reads an answer like most of its class above 0 and an answer unlike any classmate below 0', () => {
    const { measured, meaning } = classOf({ a: 0, b: 0.05, c: 0.1, d: 0.15, e: 0.12, odd: 2.5 });
    const common = typicalityOf(meaning('b'), 'b', measured);
    const odd = typicalityOf(meaning('odd'), 'odd', measured);
    expect(common.near).toBeGreaterThan(0);
    expect(common.whole).toBeGreaterThan(0);
    expect(odd.near).toBeLessThan(0);
    expect(odd.whole).toBeLessThan(0);
  });

  it('is centred: over the class itself it averages 0', () => {
    const angles = { a: 0, b: 0.4, c: 0.9, d: 1.7, e: 2.2, f: 3 };
    const { keys, measured, meaning } = classOf(angles);
    const values = keys.map((key) => typicalityOf(meaning(key), key, measured));
    const mean = (numbers: number[]) => numbers.reduce((sum, value) => sum + value, 0) / numbers.length;
    expect(mean(values.map((value) => value.near))).toBeCloseTo(0, 9);
    expect(mean(values.map((value) => value.whole))).toBeCloseTo(0, 9);
  });

  it('does not count the answer as its own classmate', () => {
    const { measured, meaning } = classOf({ a: 0, b: 1, c: 1.1, d: 1.2 });
    // Graded as a member ("a"), its closeness to itself (1) is left out; the same meaning graded as
    // an outsider ("new") is compared with all four, itself included, and reads more typical.
    const asMember = typicalityOf(meaning('a'), 'a', measured);
    const asOutsider = typicalityOf(meaning('a'), 'new', measured);
    expect(asMember.whole).toBeLessThan(asOutsider.whole);
  });

  it('reads every answer as typical without a class, or with fewer than three answers', () => {
    expect(measureClass(['a', 'b'], () => vector(0))).toBeNull();
    expect(typicalityOf(vector(1), 'x', null)).toEqual(NO_CLASS);
  });

  it('measures a changed class again', () => {
    const first = classOf({ a: 0, b: 0.1, c: 0.2 }).measured!;
    const second = classOf({ a: 0, b: 0.1, z: 2 }).measured!;
    expect(second.meanWhole).toBeLessThan(first.meanWhole);
  });
});

describe('the built-in grader with its class', () => {
  const grader = createBuiltinGrader();
  const QUESTION: GradingInput = {
    questionText: 'Why do we see lightning before we hear thunder?',
    solutionText: 'Light travels much faster than sound, so the flash reaches us before the sound.',
    points: 4,
    rubricItems: [
      { id: 'item-1', criterion: 'Compares the speeds of light and sound', points: 4, guidance: 'Light is faster' },
    ],
    answerText: 'Because the flash of light moves faster than the sound of thunder does.',
  };
  const CLASS = [
    'Light is faster than sound so we see it first.',
    'Light travels faster than sound.',
    'The light gets to us quicker than the sound.',
    'Sound is slower than light.',
    'Because the flash of light moves faster than the sound of thunder does.',
    'My dog is afraid of storms.',
  ];

  async function judged(input: GradingInput) {
    const call = await grader.requestGrading(input);
    return call.rawOutput;
  }

  it('grades the same answer with the same class the same way every time', async () => {
    const input = { ...QUESTION, classAnswers: CLASS };
    expect(await judged(input)).toEqual(await judged({ ...input, classAnswers: [...CLASS] }));
  });

  it('grades with a class of fewer than three answers as without any class', async () => {
    expect(await judged({ ...QUESTION, classAnswers: CLASS.slice(0, 2) })).toEqual(await judged(QUESTION));
  });

  it('reads the class: an answer unlike its classmates reads less typical than one like them', async () => {
    const typicality = async (answerText: string) =>
      ((await judged({ ...QUESTION, answerText, classAnswers: CLASS })) as BuiltinJudgement).confidenceInputs
        .typicality;
    const common = await typicality('Light is faster than sound.');
    const odd = await typicality('My dog is afraid of storms.');
    expect(common.classSize).toBe(CLASS.length);
    expect(odd.near).toBeLessThan(common.near);
    expect(odd.whole).toBeLessThan(common.whole);
    const alone = ((await judged(QUESTION)) as BuiltinJudgement).confidenceInputs.typicality;
    expect(alone).toEqual({ near: 0, whole: 0, classSize: 0 });
  });
});

describe("the class's meanings", () => {
  it('are embedded once when grading calls that name the same class start together', async () => {
    const texts = ['Sound is a wave in the air.', 'Light is faster than sound, always.', 'Thunder follows the flash.'];
    const [first, second] = await Promise.all([embedTexts(texts.slice(0, 2)), embedTexts(texts.slice(1))]);
    // The second call waited for the first's vector of the shared text instead of embedding it again.
    expect(second[0]).toBe(first[1]);
    expect(first[0]).not.toBe(second[1]);
    expect(similarity(second[1]!, second[1]!)).toBeCloseTo(1, 5);
  });
});

describe('the class a grading job reads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("is every student's current answer whose text was read, in a fixed order, and only for the built-in grader", async () => {
    const world = await createCourseWorld(t.app);
    const others = await Promise.all([1, 2].map(() => registerUser(t.app, { role: 'student' })));
    await addStudents(
      t.app,
      world.instructor,
      world.course._id,
      others.map((student) => student.email),
    );
    const aid = world.assignment._id;
    const qid = world.question._id;
    await submitAnswer(t.app, world.student, aid, qid, 'First try: the answer is 5.');
    await submitAnswer(t.app, world.student, aid, qid, 'Second try: the answer is 4.');
    await submitAnswer(t.app, others[0]!, aid, qid, 'Two and two make four.');
    await submitAnswer(t.app, others[1]!, aid, qid, 'Not read yet.');
    const rows = await t.ctx.db.select().from(submissions).where(eq(submissions.questionId, qid));
    // Every file is read but the last student's (its text is still queued: no job runs here).
    for (const row of rows.filter((submission) => submission.studentId !== others[1]!.id)) {
      expect((await ensureFileExtraction(t.ctx, row.fileId)).status).toBe('succeeded');
    }
    const texts = await selectClassAnswerTexts(t.ctx.db, qid, 10);
    // The first try is not the student's current answer; the unread one is not in the class.
    expect(texts.some((text) => text.includes('First try'))).toBe(false);
    expect(texts.some((text) => text.includes('Not read yet'))).toBe(false);
    expect(texts.filter((text) => text.includes('Second try'))).toHaveLength(1);
    expect(texts.filter((text) => text.includes('two make four'))).toHaveLength(1);
    expect(texts).toHaveLength(2);
    const order = rows
      .filter((row) => row.studentId !== others[1]!.id && row.version === (row.studentId === world.student.id ? 2 : 1))
      .sort((left, right) => (left.id < right.id ? -1 : 1));
    expect(texts[0]).toContain(order[0]!.studentId === world.student.id ? 'Second try' : 'two make four');
    expect(await selectClassAnswerTexts(t.ctx.db, qid, 1)).toEqual(texts.slice(0, 1));
    expect(await classAnswersFor(t.ctx, { kind: 'builtin' }, qid)).toEqual(texts);
    expect(await classAnswersFor(t.ctx, { kind: 'llm' }, qid)).toBeUndefined();
  });
});

describe('suggestions made before the whole class was read', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { withJobs: true });
  });
  afterAll(async () => {
    await t.close();
  });

  const newestRun = async (submissionId: string) =>
    (
      await t.ctx.db
        .select()
        .from(gradingRuns)
        .where(and(eq(gradingRuns.submissionId, submissionId), eq(gradingRuns.status, 'succeeded')))
        .orderBy(desc(gradingRuns.createdAt))
        .limit(1)
    )[0]!;
  const classSizeOf = (run: { rawOutput: unknown }) =>
    (run.rawOutput as BuiltinJudgement).confidenceInputs.typicality.classSize;

  it('are suggested again once a grading run finds a larger class, so the same answer gets the same suggestion', async () => {
    const world = await createCourseWorld(t.app);
    const names = ['Ann', 'Ben', 'Cat', 'Dan'];
    const students = await Promise.all(names.map((name) => registerUser(t.app, { role: 'student', name })));
    await addStudents(
      t.app,
      world.instructor,
      world.course._id,
      students.map((student) => student.email),
    );
    const target = { assignmentId: world.assignment._id, questionId: world.question._id };
    await saveRubric(t.app, world.instructor, target, {
      questionText: 'Why do we see lightning before we hear thunder?',
      solutionText: 'Light travels much faster than sound.',
      items: [{ id: 'item-1', criterion: 'Compares the speeds of light and sound', points: 10 }],
    });
    const same = 'Sound is slow because thunder is loud and far away.';
    const texts = [same, 'Light travels faster than sound does.', 'Light is much quicker than sound.', same];
    const submitted = [];
    // Ann, Ben and Cat first: Ann's answer is suggested while the class is those three.
    for (const index of [0, 1, 2]) {
      submitted[index] = await submitAnswer(
        t.app,
        students[index]!,
        target.assignmentId,
        target.questionId,
        texts[index],
      );
    }
    for (const submission of submitted) await ensureFileExtraction(t.ctx, await fileOf(submission!._id));
    await gradeWithAi(t.app, world.instructor, { ...target, submissionId: submitted[0]!._id });
    expect(classSizeOf(await newestRun(submitted[0]!._id))).toBe(3);
    const refreshesBefore = await refreshesOf(target.questionId);
    expect(refreshesBefore).toHaveLength(0);

    // Dan hands in Ann's answer; grading it reads a class of four, so Ann's suggestion is stale.
    submitted[3] = await submitAnswer(t.app, students[3]!, target.assignmentId, target.questionId, texts[3]);
    await ensureFileExtraction(t.ctx, await fileOf(submitted[3]._id));
    await gradeWithAi(t.app, world.instructor, { ...target, submissionId: submitted[3]._id });
    const dan = await newestRun(submitted[3]._id);
    expect(classSizeOf(dan)).toBe(4);

    const [refresh] = await refreshesOf(target.questionId);
    expect(refresh?.requestedById).toBeNull();
    const finished = await t.ctx.jobs!.waitFor(
      refresh!.id,
      async () => {
        const [row] = await refreshesOf(target.questionId);
        return row && (row.status === 'succeeded' || row.status === 'failed') ? row : undefined;
      },
      { timeoutMs: 120_000, pollMs: 200 },
    );
    expect(finished?.status).toBe('succeeded');
    const ann = await newestRun(submitted[0]!._id);
    expect(classSizeOf(ann)).toBe(4);
    expect(ann.totalScore).toBe(dan.totalScore);
    expect(ann.confidence).toBe(dan.confidence);
  });

  async function fileOf(submissionId: string): Promise<string> {
    const [row] = await t.ctx.db.select().from(submissions).where(eq(submissions.id, submissionId));
    return row!.fileId;
  }
  const refreshesOf = (questionId: string) =>
    t.ctx.db.select().from(suggestionRefreshes).where(eq(suggestionRefreshes.questionId, questionId));
});
