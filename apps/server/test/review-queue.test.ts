import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssignmentDetail } from '@gradewise/shared/contracts/assignments';
import type { QuestionForStaff } from '@gradewise/shared/contracts/questions';
import { ReviewQueueOutput, type ReviewQueueItem } from '@gradewise/shared/contracts/review';
import type { SubmissionForStudent } from '@gradewise/shared/contracts/submissions';
import { expectJson } from './support/expect-json.ts';
import { expectMostDoubtfulFirst } from './support/review-order.ts';
import { fileExtractions, gradingRuns, submissions } from '../src/db/schema.ts';
import {
  addStudents,
  createAssignment,
  createCourse,
  createQuestion,
  submitAnswer,
} from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { gradeWithAi, questionPath, saveGrade } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let owner: TestUser;
let otherInstructor: TestUser;
let students: TestUser[];
let assignment: AssignmentDetail;
let question: QuestionForStaff;
const submissionOf = new Map<string, SubmissionForStudent>();

const queueUrl = () => `${questionPath(assignment._id, question._id)}/review-queue`;
const readQueue = (user: TestUser) => t.app.inject({ method: 'GET', url: queueUrl(), headers: user.auth });
/** The queue as `user` reads it, parsed by its contract. */
const queueOf = async (user: TestUser) => expectJson(await readQueue(user), 200, ReviewQueueOutput);

beforeAll(async () => {
  // Grade-first off: this file is about the order by doubt (answer-groups.test.ts covers grade-first).
  t = await createTestApp({ GRADE_FIRST_COUNT: '0' }, { withJobs: true });
  owner = await registerUser(t.app, { role: 'instructor' });
  otherInstructor = await registerUser(t.app, { role: 'instructor' });
  students = [];
  for (const name of ['Ann', 'Ben', 'Cat', 'Dan'])
    students.push(await registerUser(t.app, { name, email: `${name.toLowerCase()}@example.edu` }));
  const course = await createCourse(t.app, owner);
  await addStudents(
    t.app,
    owner,
    course._id,
    students.map((student) => student.email),
  );
  assignment = await createAssignment(t.app, owner, course._id);
  question = await createQuestion(t.app, owner, assignment._id, { points: '10' });
  const answers = [
    'The answer is 4 because 2 + 2 = 4.',
    'It is 5.',
    'I do not know, maybe 22.',
    'Four. Two plus two makes four.',
  ];
  for (const [index, student] of students.entries()) {
    submissionOf.set(student.name, await submitAnswer(t.app, student, assignment._id, question._id, answers[index]));
  }
  // Three answers get an AI suggestion (the built-in grader); Dan's is left ungraded.
  for (const name of ['Ann', 'Ben', 'Cat']) {
    await gradeWithAi(t.app, owner, {
      assignmentId: assignment._id,
      questionId: question._id,
      submissionId: submissionOf.get(name)!._id,
    });
  }
  // Texts are read at submission, in the background; Dan's answer joins a group of alike answers
  // once it is read, so the queue is read after that (the queue signals it; no fixed sleep).
  const [dan] = await t.ctx.db
    .select()
    .from(submissions)
    .where(eq(submissions.id, submissionOf.get('Dan')!._id));
  const read = await t.ctx.jobs!.waitFor(
    dan!.fileId,
    async () => {
      const [row] = await t.ctx.db.select().from(fileExtractions).where(eq(fileExtractions.fileId, dan!.fileId));
      return row?.status === 'succeeded' ? row : undefined;
    },
    { timeoutMs: 150_000, pollMs: 250 },
  );
  expect(read).toBeDefined();
});
afterAll(async () => {
  await t?.close();
});

describe('GET .../review-queue', () => {
  it('lists every latest submission, the suggestions most likely far off first, ungraded ones last', async () => {
    const queue = await queueOf(owner);
    expect(queue.questionPoints).toBe(10);
    expect(queue.remaining).toBe(4);
    expect(queue.items).toHaveLength(4);

    const suggested = queue.items.slice(0, 3);
    expect(suggested.map((item) => item.status)).toEqual(['needs-review', 'needs-review', 'needs-review']);
    // The built-in grader measures every suggestion's chance of a big miss (decision 0097).
    for (const item of suggested) expect(item.missChance).toEqual(expect.any(Number));
    expectMostDoubtfulFirst(suggested);
    expect(new Set(suggested.map((item) => item.student.name))).toEqual(new Set(['Ann', 'Ben', 'Cat']));

    expect(queue.items[3]).toEqual({
      submissionId: submissionOf.get('Dan')!._id,
      student: { _id: students[3]!.id, name: 'Dan', email: 'dan@example.edu' },
      isLate: false,
      status: 'not-graded',
      confidenceLevel: null,
      missChance: null,
      grade: null,
      isGradeFirst: false,
      represents: null,
      // "Four. Two plus two makes four." and "The answer is 4 because 2 + 2 = 4." end on the same value.
      groupSize: 2,
      // Nothing split (decision 0031): every answer is everyone's, and nobody has it open.
      assignedTo: [],
      isMine: true,
      openBy: null,
    });
    expect(queue.gradeFirst).toEqual({ target: 0, ownGrades: 0, isActive: false });
    expect(queue.share).toEqual({ scope: 'mine', isSplit: false, mine: 4, total: 4, remainingInQuestion: 4 });
  });

  it('keeps a saved item with the confidence it was graded at, counts it as done, and keeps every item', async () => {
    const before = await queueOf(owner);
    const first = before.items[0]!;
    await saveGrade(
      t.app,
      owner,
      { assignmentId: assignment._id, questionId: question._id, submissionId: first.submissionId, points: 10 },
      [{ text: 'Reviewed.', pointsDeducted: 1.5, accepted: true }],
    );
    const after = await queueOf(owner);
    // The save teaches the grader: the other suggestions may be refreshed with new confidences and
    // re-sorted (most doubtful first); the web's Next wraps round, so nothing is skipped.
    expect(new Set(after.items.map((item) => item.submissionId))).toEqual(
      new Set(before.items.map((item) => item.submissionId)),
    );
    const saved = after.items.find((item) => item.submissionId === first.submissionId);
    expect(saved).toMatchObject({ status: 'graded', grade: 8.5, confidenceLevel: first.confidenceLevel });
    const withSuggestion = after.items.filter((item) => item.confidenceLevel !== null);
    expectMostDoubtfulFirst(withSuggestion);
    // Any answer without a suggestion comes after every one with.
    expect(after.items.slice(0, withSuggestion.length)).toEqual(withSuggestion);
    expect(after.remaining).toBe(3);
  });

  it('shows only the latest version: a resubmission replaces the reviewed one and needs grading again', async () => {
    // A student whose answer is still ungraded (a graded answer cannot be resubmitted); which one
    // that is depends on the confidences, which decide what the test above graded first.
    const ungraded = (await queueOf(owner)).items.find((item) => item.status !== 'graded');
    const student = students.find((candidate) => candidate.id === ungraded?.student._id)!;
    const resubmitted = await submitAnswer(t.app, student, assignment._id, question._id, 'Corrected: 4.');
    const queue = await queueOf(owner);
    expect(queue.items).toHaveLength(4);
    const replaced = queue.items.find((item) => item.student._id === student.id);
    expect(replaced).toMatchObject({ submissionId: resubmitted._id, status: 'not-graded', confidenceLevel: null });
    expect(queue.items.at(-1)?.status).toBe('not-graded');
  });

  it('is for the staff of the course only: a student gets 403, another instructor 404', async () => {
    const student = await readQueue(students[0]!);
    expect(student.statusCode).toBe(403);
    expect(student.json()).toEqual({
      message: 'Only the staff of this course can review its submissions.',
      code: 'FORBIDDEN',
    });
    const other = await readQueue(otherInstructor);
    expect(other.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: queueUrl() })).statusCode).toBe(401);
  });

  it('orders by the chance of a big miss, not by confidence; a suggestion without one by the chance of not being kept', async () => {
    // Every answer with a suggestion (the resubmitted one gets its own first).
    for (const item of (await queueOf(owner)).items.filter((entry) => entry.confidenceLevel === null)) {
      await gradeWithAi(t.app, owner, {
        assignmentId: assignment._id,
        questionId: question._id,
        submissionId: item.submissionId,
      });
    }
    const suggested = (await queueOf(owner)).items;
    expect(suggested).toHaveLength(4);
    for (const item of suggested) expect(item.confidenceLevel).toEqual(expect.any(Number));
    // Chances that contradict the confidences: the more confident, the likelier a big miss. The
    // most confident of all gets none, as an LLM's suggestion has none.
    const byConfidence = [...suggested].sort((a, b) => a.confidenceLevel! - b.confidenceLevel!);
    const last = byConfidence.length - 1;
    const chances = new Map(
      byConfidence.map((item, index) => [item.submissionId, index === last ? null : 0.99 - 0.01 * (last - 1 - index)]),
    );
    for (const [submissionId, missChance] of chances) {
      const [run] = await t.ctx.db
        .select({ id: gradingRuns.id })
        .from(gradingRuns)
        .where(and(eq(gradingRuns.submissionId, submissionId), eq(gradingRuns.status, 'succeeded')))
        .orderBy(desc(gradingRuns.createdAt))
        .limit(1);
      await t.ctx.db.update(gradingRuns).set({ missChance }).where(eq(gradingRuns.id, run!.id));
    }
    const queue = await queueOf(owner);
    const risk = (item: ReviewQueueItem) => chances.get(item.submissionId) ?? 1 - item.confidenceLevel! / 100;
    const expected = [...suggested].sort((a, b) => risk(b) - risk(a)).map((item) => item.submissionId);
    expect(queue.items.slice(0, suggested.length).map((item) => item.submissionId)).toEqual(expected);
    expect(queue.items.slice(0, suggested.length).map((item) => item.missChance)).toEqual(
      expected.map((id) => chances.get(id)),
    );
    // Against the confidences: the most confident with a chance (0.99, the rest less) leads.
    expect(queue.items[0]!.submissionId).toBe(byConfidence.at(-2)!.submissionId);
  });
});
