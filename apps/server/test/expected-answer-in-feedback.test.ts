import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GradingOutput } from '@gradewise/shared/contracts/grading';
import type { SubmissionForStudent } from '@gradewise/shared/contracts/submissions';
import { createBuiltinGrader } from '../src/ai/builtin/builtin-grader.ts';
import type { GradingInput } from '../src/ai/grader-types.ts';
import { buildGradingSystemPrompt } from '../src/ai/llm/prompts.ts';
import { suggestionRefreshes } from '../src/db/schema.ts';
import { DEMO_QUESTIONS } from '../src/demo/demo-content.ts';
import { addTa, createCourseWorld, submitAnswer, type CourseWorld } from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { gradeWithAi, questionPath, saveRubric } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * "Show the expected answer in feedback" (issue 27 item 6, decision 0088): off by default, the
 * grader's comments say what is missing without giving the answer away; the question's owner may
 * turn it on, and then a comment on a part not fully met also states what was expected. Only the
 * words change: never a score, a deduction or a confidence.
 */

const grader = createBuiltinGrader();

async function builtinSuggestion(key: string, answer: 'partial' | 'wrong', showExpectedAnswer: boolean) {
  const question = DEMO_QUESTIONS.find((demo) => demo.key === key)!;
  const questionText = question.questionPages.flat().join('\n');
  const solutionText = question.solutionPages.flat().join('\n');
  const draft = { questionText, solutionText, points: question.points };
  const rubricItems = grader.interpretRubric((await grader.requestRubric(draft)).rawOutput, draft).items;
  const input: GradingInput = {
    ...draft,
    rubricItems,
    answerText: question.answers[answer].join('\n'),
    examples: [],
    showExpectedAnswer,
  };
  return grader.interpretGrading((await grader.requestGrading(input)).rawOutput, input);
}

/** Everything of a suggestion but its words. */
const scoresOf = (suggestion: Awaited<ReturnType<typeof builtinSuggestion>>) => ({
  totalScore: suggestion.totalScore,
  confidence: suggestion.confidence,
  deductions: suggestion.comments.map((comment) => [comment.rubricItemId, comment.pointsDeducted]),
});

describe('the built-in grader states the expected answer only when the question allows it', () => {
  it('a wrong result: the expected value only when on, and the same scores either way', async () => {
    const off = await builtinSuggestion('car', 'partial', false);
    const on = await builtinSuggestion('car', 'partial', true);
    expect(scoresOf(on)).toEqual(scoresOf(off));
    for (const comment of off.comments) expect(comment.text).not.toMatch(/\b96\b/);
    // Part (b) is wrong (192 m for 96 m); part (a) is right and its comment is unchanged.
    expect(off.comments[1]!.text).toMatch(/the value 192 m is not the expected result\.$/);
    expect(on.comments[1]!.text).toBe(`${off.comments[1]!.text} Expected: 96 m.`);
    expect(on.comments[0]!.text).toBe(off.comments[0]!.text);
    expect(on.comments[0]!.pointsDeducted).toBe(0);
  });

  it('a missing or wrong result in every part: each part names its own expected value', async () => {
    const off = await builtinSuggestion('car', 'wrong', false);
    const on = await builtinSuggestion('car', 'wrong', true);
    expect(scoresOf(on)).toEqual(scoresOf(off));
    for (const comment of off.comments) expect(comment.text).not.toMatch(/Expected:|\b96\b|\b3 m\/s/);
    expect(on.comments[0]!.text).toMatch(/Expected: 3 m\/s\^2\.$/);
    expect(on.comments[1]!.text).toMatch(/Expected: 96 m\.$/);
  });

  it("a wrong formula: the reference's wording for that part only when on", async () => {
    const off = await builtinSuggestion('pendulum', 'partial', false);
    const on = await builtinSuggestion('pendulum', 'partial', true);
    expect(scoresOf(on)).toEqual(scoresOf(off));
    const period = (suggestion: typeof on) => suggestion.comments.find((comment) => /\(c\)/.test(comment.text))!;
    expect(period(off).text).not.toMatch(/sqrt\(L\s*\/\s*g\)|Expected:/i);
    expect(period(on).text).toMatch(/Expected: .*period is T = .*2 pi sqrt\(L \/ g\)\.$/);
    // Parts fully met are never followed by an expected answer.
    for (const comment of on.comments.filter((c) => c.pointsDeducted === 0))
      expect(comment.text).not.toMatch(/Expected:/);
  });
});

describe('the LLM prompt says whether a comment may state the expected answer', () => {
  const input: GradingInput = {
    questionText: 'Find the distance.',
    solutionText: 's = 96 m',
    rubricItems: [{ id: 'item-1', criterion: 'Finds the distance', points: 6, guidance: '' }],
    points: 6,
    answerText: 's = 192 m',
  };
  const items = input.rubricItems;

  it('off (absent or false): never state the expected answer', () => {
    for (const prompt of [
      buildGradingSystemPrompt(input, items, 'tag'),
      buildGradingSystemPrompt({ ...input, showExpectedAnswer: false }, items, 'tag'),
    ]) {
      expect(prompt).toContain('Never state the expected answer');
      expect(prompt).not.toContain('allows the comment to state the expected answer');
    }
  });

  it('on: the comment may state the expected value or the reference wording', () => {
    const prompt = buildGradingSystemPrompt({ ...input, showExpectedAnswer: true }, items, 'tag');
    expect(prompt).toContain('the instructor allows the comment to state the expected answer');
    expect(prompt).not.toContain('Never state the expected answer');
  });
});

describe('the question setting through HTTP', () => {
  let t: TestApp;
  let world: CourseWorld;
  let ta: TestUser;
  let outsider: TestUser;
  let submission: SubmissionForStudent;
  let before: GradingOutput;
  const base = () => questionPath(world.assignment._id, world.question._id);
  const target = () => ({
    assignmentId: world.assignment._id,
    questionId: world.question._id,
    submissionId: submission._id,
  });
  const patch = (user: TestUser, payload: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: `${base()}/feedback-settings`,
      headers: user.auth,
      payload: payload as object,
    });
  const read = (user: TestUser, query = '') =>
    t.app.inject({ method: 'GET', url: `${base()}${query}`, headers: user.auth });
  const texts = (output: GradingOutput) => output.gradingResult.comments.map((comment) => comment.text);
  const scores = (output: GradingOutput) => ({
    totalScore: output.gradingResult.totalScore,
    confidence: output.confidenceLevel,
    deductions: output.gradingResult.comments.map((comment) => [comment.rubricItemId, comment.pointsDeducted]),
  });

  beforeAll(async () => {
    t = await createTestApp({}, { withJobs: true });
    world = await createCourseWorld(t.app);
    ta = await registerUser(t.app, { role: 'instructor', name: 'Tia Assistant' });
    await addTa(t.app, world.instructor, world.course._id, ta);
    outsider = await registerUser(t.app, { role: 'instructor', name: 'Otto Outsider' });
    await saveRubric(
      t.app,
      world.instructor,
      { assignmentId: world.assignment._id, questionId: world.question._id },
      {
        questionText:
          'A car starts from rest and accelerates uniformly at 3.0 m/s^2 for 8.0 s. Find the distance it travels.',
        solutionText: 's = 1/2 a t^2 = 1/2 x 3.0 x 8.0^2 = 96 m.',
        items: [{ id: 'item-distance', criterion: 'Finds the distance travelled', points: 10 }],
      },
    );
    submission = await submitAnswer(
      t.app,
      world.student,
      world.assignment._id,
      world.question._id,
      'The distance is s = 3.0 x 8.0 x 8.0 = 192 m.',
    );
    before = await gradeWithAi(t.app, world.instructor, target());
  });

  afterAll(async () => {
    await t?.close();
  });

  it('is off by default: staff read it, and the comment does not give the answer away', async () => {
    for (const user of [world.instructor, ta]) {
      const response = await read(user);
      expect(response.statusCode).toBe(200);
      expect(response.json().showExpectedAnswer).toBe(false);
    }
    expect(before.gradingResult.totalScore).toBeLessThan(10);
    for (const text of texts(before)) expect(text).not.toMatch(/\b96\b|Expected:/);
  });

  it('only the owner may change it: a TA and the enrolled student get 403, an outsider 404, and nothing changes', async () => {
    expect((await patch(ta, { showExpectedAnswer: true })).statusCode).toBe(403);
    expect((await patch(world.student, { showExpectedAnswer: true })).statusCode).toBe(403);
    expect((await patch(outsider, { showExpectedAnswer: true })).statusCode).toBe(404);
    expect((await read(world.instructor)).json().showExpectedAnswer).toBe(false);
  });

  it('bad input is a 400 with a message, and changes nothing', async () => {
    for (const payload of [{}, { showExpectedAnswer: 'yes' }, { showExpectedAnswer: null }]) {
      const response = await patch(world.instructor, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/showExpectedAnswer/);
    }
    expect((await read(world.instructor)).json().showExpectedAnswer).toBe(false);
  });

  it('turned on by the owner: saved, and the pending suggestion is written again stating the expected value, with the same score', async () => {
    const response = await patch(world.instructor, { showExpectedAnswer: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message:
        'Comments on this question may now state the expected answer. Pending suggestions are being written again with this setting.',
      showExpectedAnswer: true,
      refreshQueued: true,
    });
    for (const user of [world.instructor, ta]) expect((await read(user)).json().showExpectedAnswer).toBe(true);

    const [refresh] = await t.ctx.db
      .select()
      .from(suggestionRefreshes)
      .where(eq(suggestionRefreshes.questionId, world.question._id))
      .orderBy(desc(suggestionRefreshes.createdAt))
      .limit(1);
    const finished = await t.ctx.jobs!.waitFor(
      refresh!.id,
      async () => {
        const [row] = await t.ctx.db.select().from(suggestionRefreshes).where(eq(suggestionRefreshes.id, refresh!.id));
        return row && (row.status === 'succeeded' || row.status === 'failed') ? row : undefined;
      },
      { timeoutMs: 120_000, pollMs: 200 },
    );
    expect(finished).toMatchObject({ status: 'succeeded', resuggested: 1 });

    const refreshed = await gradeWithAi(t.app, world.instructor, target());
    expect(refreshed.gradingRunId).not.toBe(before.gradingRunId);
    expect(scores(refreshed)).toEqual(scores(before));
    expect(texts(refreshed).join('\n')).toMatch(/Expected: .*\b96 m\./);
  });

  it('a student never sees the setting, in any read of the question', async () => {
    for (const query of ['', '?includeSubmissions=1', '?includeSubmissions=1&limit=10']) {
      const response = await read(world.student, query);
      expect(response.statusCode).toBe(200);
      expect(response.json().viewer).toBe('student');
      expect(response.body).not.toContain('showExpectedAnswer');
    }
    // Staff reads with the submissions carry it too (the kept whole list and a page).
    for (const query of ['?includeSubmissions=1', '?includeSubmissions=1&limit=10']) {
      expect((await read(world.instructor, query)).json().showExpectedAnswer).toBe(true);
    }
  });

  it('turned off again: the next regrade says what is missing without the answer, with the same score', async () => {
    const response = await patch(world.instructor, { showExpectedAnswer: false });
    expect(response.statusCode).toBe(200);
    expect(response.json().showExpectedAnswer).toBe(false);
    const regrade = await t.app.inject({
      method: 'POST',
      url: `${base()}/regrade/${submission._id}`,
      headers: world.instructor.auth,
    });
    expect(regrade.statusCode).toBe(200);
    const output = regrade.json() as GradingOutput;
    expect(scores(output)).toEqual(scores(before));
    for (const text of texts(output)) expect(text).not.toMatch(/\b96\b|Expected:/);
  });
});
