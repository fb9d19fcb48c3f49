import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GRADE_COMMENT_TEXT_MAX,
  RUBRIC_CRITERION_MAX,
  RUBRIC_GUIDANCE_MAX,
  RUBRIC_ITEMS_MAX,
} from '@gradewise/shared/contracts/grading';
import { createBuiltinGrader } from '../src/ai/builtin/builtin-grader.ts';
import { gradingRuns } from '../src/db/schema.ts';
import { REPAIR_EXCERPT_HEAD, REPAIR_EXCERPT_TAIL } from '../src/ai/llm/prompts.ts';
import { addStudents, createCourseWorld, submitAnswer, type CourseWorld } from './support/course-fixtures.ts';
import { FAKE_MODEL_ID, messageText, startFakeLlmServer, type FakeLlmServer } from './support/fake-llm-server.ts';
import { registerUser } from './support/http.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Whatever a model answers is clamped to what the product can store and save again (the limits of
 * the save-grade and save-rubric contracts), a repair request quotes a bounded excerpt of a bad
 * answer, and a provider that hangs is given up within AI_TOTAL_TIMEOUT_MS with a message saying so.
 * The model is the OpenAI-compatible fake server on loopback; everything else is the real app.
 */

let fake: FakeLlmServer;
let t: TestApp;
let world: CourseWorld;

const base = () => `/api/assignments/${world.assignment._id}/questions/${world.question._id}`;
const RUBRIC_ITEMS = [
  { id: 'setup', criterion: 'Sets up the sum', points: 4, guidance: '' },
  { id: 'result', criterion: 'Finds 4', points: 6, guidance: '' },
];

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp(
    { AI_PROVIDER: 'openai-compatible', AI_BASE_URL: fake.baseUrl, AI_MODEL: FAKE_MODEL_ID, AI_MAX_RETRIES: '0' },
    { withJobs: true },
  );
  world = await createCourseWorld(t.app);
  const saved = await t.app.inject({
    method: 'PATCH',
    url: `${base()}/save-rubric`,
    headers: world.instructor.auth,
    payload: { questionText: 'What is 2 + 2?', solutionText: '4', items: RUBRIC_ITEMS },
  });
  expect(saved.statusCode).toBe(200);
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function newSubmission(name: string): Promise<string> {
  const student = await registerUser(t.app, { name });
  await addStudents(t.app, world.instructor, world.course._id, [student.email]);
  return (await submitAnswer(t.app, student, world.assignment._id, world.question._id, 'It is 4.'))._id;
}

/** Grades with the model's next answer, then saves exactly what the screen showed. */
async function gradeAndSaveAsShown(submissionId: string) {
  const graded = await t.app.inject({
    method: 'POST',
    url: `${base()}/grade/${submissionId}`,
    headers: world.instructor.auth,
  });
  expect(graded.statusCode, graded.body.slice(0, 500)).toBe(200);
  const { gradingResult, currentGradeId } = graded.json();
  const saved = await t.app.inject({
    method: 'POST',
    url: `${base()}/save-grade/${submissionId}`,
    headers: world.instructor.auth,
    payload: {
      grade: gradingResult.totalScore,
      feedback: '',
      comments: gradingResult.comments,
      expectedGradeId: currentGradeId,
    },
  });
  expect(saved.statusCode, saved.body.slice(0, 500)).toBe(200);
  return { shown: gradingResult.comments as { text: string }[], saved: saved.json().grade };
}

describe('AI output is clamped to what can be saved', () => {
  it('a 20,000-character comment is shown clamped and saved as shown', async () => {
    const submissionId = await newSubmission('Long Comment');
    fake.enqueue({
      kind: 'json',
      content: {
        items: [
          { rubricItemId: 'setup', pointsDeducted: 1, comment: 'a'.repeat(20_000) },
          { rubricItemId: 'result', pointsDeducted: 0, comment: 'Correct.' },
        ],
        generalComment: 'g'.repeat(20_000),
        confidence: 80,
      },
    });
    const { shown, saved } = await gradeAndSaveAsShown(submissionId);
    const longest = Math.max(...shown.map((comment) => comment.text.length));
    expect(longest).toBe(GRADE_COMMENT_TEXT_MAX);
    expect(shown.some((comment) => comment.text.startsWith('aaaa') && comment.text.endsWith('…'))).toBe(true);
    expect(saved.grade).toBe(9);
    expect(saved.comments.map((comment: { text: string }) => comment.text)).toEqual(shown.map((c) => c.text));
  });

  it('a 5 MB comment is clamped the same way and saved', async () => {
    const submissionId = await newSubmission('Huge Comment');
    fake.enqueue({
      kind: 'json',
      content: {
        items: [
          { rubricItemId: 'setup', pointsDeducted: 0, comment: 'Fine.' },
          { rubricItemId: 'result', pointsDeducted: 2, comment: 'z'.repeat(5 * 1024 * 1024) },
        ],
        generalComment: '',
        confidence: 70,
      },
    });
    const { shown, saved } = await gradeAndSaveAsShown(submissionId);
    expect(Math.max(...shown.map((comment) => comment.text.length))).toBe(GRADE_COMMENT_TEXT_MAX);
    expect(saved.grade).toBe(8);
    // The stored answer is bounded too: not megabytes per run in raw_output.
    const [run] = await t.ctx.db.select().from(gradingRuns).where(eq(gradingRuns.submissionId, submissionId));
    expect(JSON.stringify(run!.rawOutput).length).toBeLessThan(3 * GRADE_COMMENT_TEXT_MAX);
  });

  it('a 100,000-character criterion is drafted clamped, and the rubric can be saved again as shown', async () => {
    fake.enqueue({
      kind: 'json',
      content: {
        items: [
          { criterion: 'c'.repeat(100_000), points: 5, guidance: 'g'.repeat(100_000) },
          { criterion: 'Gives the result.', points: 5, guidance: 'Full credit for 4.' },
        ],
      },
    });
    const drafted = await t.app.inject({
      method: 'POST',
      url: `${base()}/generate-rubric`,
      headers: world.instructor.auth,
    });
    expect(drafted.statusCode, drafted.body.slice(0, 500)).toBe(200);
    const rubric = drafted.json().autoRubric[0];
    expect(rubric.items[0].criterion).toHaveLength(RUBRIC_CRITERION_MAX);
    expect(rubric.items[0].guidance).toHaveLength(RUBRIC_GUIDANCE_MAX);

    const saved = await t.app.inject({
      method: 'PATCH',
      url: `${base()}/save-rubric`,
      headers: world.instructor.auth,
      payload: { questionText: rubric.questionText, solutionText: rubric.solutionText, items: rubric.items },
    });
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(200);
    expect(saved.json().autoRubric[0].items[0].criterion).toBe(rubric.items[0].criterion);

    // Back to the rubric the grading tests use.
    const restored = await t.app.inject({
      method: 'PATCH',
      url: `${base()}/save-rubric`,
      headers: world.instructor.auth,
      payload: { questionText: 'What is 2 + 2?', solutionText: '4', items: RUBRIC_ITEMS },
    });
    expect(restored.statusCode).toBe(200);
  });

  it('the built-in grader clamps what it interprets with the same limits', () => {
    const grader = createBuiltinGrader();
    const suggestion = grader.interpretGrading(
      {
        version: 'stored',
        status: 'answered',
        items: [
          {
            rubricItemId: 'setup',
            credit: 1,
            evidence: 1,
            lexical: 1,
            numeric: null,
            certainty: 1,
            pointsDeducted: 0,
            comment: 'x'.repeat(20_000),
          },
        ],
        remarks: Array.from({ length: 300 }, () => 'r'.repeat(6000)),
        confidence: 50,
        confidenceInputs: { itemCertainty: 1, scoreShare: 1, relevance: 1, lengthRatio: 1, isNumericHeavy: false },
      },
      { questionText: 'q', solutionText: 's', rubricItems: RUBRIC_ITEMS, points: 10, answerText: 'a' },
    );
    expect(suggestion.comments.length).toBeLessThanOrEqual(200);
    expect(Math.max(...suggestion.comments.map((comment) => comment.text.length))).toBe(GRADE_COMMENT_TEXT_MAX);

    const draft = grader.interpretRubric(
      {
        version: 'stored',
        items: Array.from({ length: 80 }, (_, index) => ({
          criterion: `${index} ${'c'.repeat(100_000)}`,
          guidance: 'g'.repeat(100_000),
          points: 1,
        })),
      },
      { questionText: 'q', solutionText: 's', points: 100 },
    );
    expect(draft.items).toHaveLength(RUBRIC_ITEMS_MAX);
    expect(draft.items.reduce((sum, item) => sum + item.points, 0)).toBeCloseTo(100, 6);
    expect(Math.max(...draft.items.map((item) => item.criterion.length))).toBe(RUBRIC_CRITERION_MAX);
    expect(Math.max(...draft.items.map((item) => item.guidance.length))).toBe(RUBRIC_GUIDANCE_MAX);
  });
});

describe('provider errors that quote unstorable text', () => {
  it('a provider error with a NUL and a lone surrogate is recorded and answered clean', async () => {
    const submissionId = await newSubmission('Error Quoter');
    fake.enqueue({ kind: 'status', status: 400, message: 'model\u0000 refused \ud800 this' });
    const response = await t.app.inject({
      method: 'POST',
      url: `${base()}/grade/${submissionId}`,
      headers: world.instructor.auth,
    });
    expect(response.statusCode).toBe(502);
    const { message } = response.json();
    expect(message).toContain('model refused \ufffd this');
    expect(message).not.toContain('\u0000');
    const [run] = await t.ctx.db.select().from(gradingRuns).where(eq(gradingRuns.submissionId, submissionId));
    expect(run).toMatchObject({ status: 'failed', errorCode: 'AI_FAILED', error: message });
  });
});

describe('repair requests quote a bounded excerpt of a bad answer', () => {
  it('a 3 MB malformed answer is quoted back in a few thousand characters', async () => {
    const submissionId = await newSubmission('Malformed Reply');
    const before = fake.chatRequests().length;
    const bad = `{"items": [${'"loop", '.repeat(400_000)}`;
    fake.enqueue({ kind: 'malformed', text: bad });
    const graded = await t.app.inject({
      method: 'POST',
      url: `${base()}/grade/${submissionId}`,
      headers: world.instructor.auth,
    });
    expect(graded.statusCode).toBe(200);
    const requests = fake.chatRequests().slice(before);
    expect(requests).toHaveLength(2);
    const repair = requests[1]!;
    const quoted = repair.body.messages.find((message) => message.role === 'assistant');
    const quotedText = messageText(quoted);
    expect(bad.length).toBeGreaterThan(3_000_000);
    expect(quotedText.length).toBeLessThan(REPAIR_EXCERPT_HEAD + REPAIR_EXCERPT_TAIL + 200);
    expect(quotedText.startsWith(bad.slice(0, 100))).toBe(true);
    expect(quotedText).toContain('characters of this answer left out');
    expect(JSON.stringify(repair.body).length).toBeLessThan(50_000);
  });
});

describe('a hanging provider is given up within the total time budget', () => {
  let budgeted: TestApp;
  let budgetWorld: CourseWorld;

  beforeAll(async () => {
    // Each request may take a minute, but the whole call only 1.5 s: the budget must win.
    budgeted = await createTestApp(
      {
        AI_PROVIDER: 'openai-compatible',
        AI_BASE_URL: fake.baseUrl,
        AI_MODEL: FAKE_MODEL_ID,
        AI_TIMEOUT_MS: '60000',
        AI_TOTAL_TIMEOUT_MS: '1500',
        AI_MAX_RETRIES: '3',
      },
      { withJobs: true },
    );
    budgetWorld = await createCourseWorld(budgeted.app);
  });

  afterAll(async () => {
    await budgeted?.close();
  });

  it('grading fails with AI_FAILED naming the budget, after one try', async () => {
    const budgetBase = `/api/assignments/${budgetWorld.assignment._id}/questions/${budgetWorld.question._id}`;
    const saved = await budgeted.app.inject({
      method: 'PATCH',
      url: `${budgetBase}/save-rubric`,
      headers: budgetWorld.instructor.auth,
      payload: { questionText: 'What is 2 + 2?', solutionText: '4', items: RUBRIC_ITEMS },
    });
    expect(saved.statusCode).toBe(200);
    const submission = await submitAnswer(
      budgeted.app,
      budgetWorld.student,
      budgetWorld.assignment._id,
      budgetWorld.question._id,
      'It is 4.',
    );
    const before = fake.chatRequests().length;
    fake.setDefaultBehaviour({ kind: 'hang' });
    try {
      const response = await budgeted.app.inject({
        method: 'POST',
        url: `${budgetBase}/grade/${submission._id}`,
        headers: budgetWorld.instructor.auth,
      });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toMatchObject({
        code: 'AI_FAILED',
        message: `The AI provider (openai-compatible at ${fake.baseUrl}) did not answer within the 1.5 s allowed for one grading (AI_TOTAL_TIMEOUT_MS), after 1 try.`,
      });
      // AI_MAX_RETRIES=3 would have made four one-minute tries; the budget left room for none.
      expect(fake.chatRequests().length - before).toBe(1);
    } finally {
      fake.setDefaultBehaviour({ kind: 'smart' });
    }
  });
});
