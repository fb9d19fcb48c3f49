import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  AnswerGroupOfSubmissionOutput,
  AnswerGroupsOutput,
  ApplyToGroupOutput,
} from '@gradewise/shared/contracts/answer-groups';
import { GradingReportForStaff, ReviewQueueOutput } from '@gradewise/shared/contracts/review';
import { expectMostDoubtfulFirst } from './support/review-order.ts';
import { ErrorBody } from '@gradewise/shared/errors';
import { fileExtractions, submissions } from '../src/db/schema.ts';
import { countCurrentSavedGrades, selectSavedGradeExamples } from '../src/models/graded-examples.ts';
import {
  addStudents,
  createAssignment,
  createCourse,
  createQuestion,
  submitAnswer,
} from './support/course-fixtures.ts';
import { expectJson } from './support/expect-json.ts';
import { FAKE_MODEL_ID, startFakeLlmServer, type FakeLlmServer } from './support/fake-llm-server.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { gradeWithAi, questionPath, saveGrade, saveRubric } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Answer groups, Apply to group and "grade these first" through the HTTP API on a real database.
 * The AI suggestions come from a scripted OpenAI-compatible fake model, so the scores the groups
 * are judged by are the test's, not whatever the built-in grader makes of the answers today.
 */

let t: TestApp;
let fake: FakeLlmServer;
let owner: TestUser;
let otherInstructor: TestUser;
const students = new Map<string, TestUser>();
const submissionOf = new Map<string, string>();
let assignmentId: string;
let questionId: string;

const NAMES = ['Ann', 'Ben', 'Cat', 'Dan', 'Eve', 'Fay', 'Gus', 'Hal'];
/** Ann..Dan say the same (6 N); Eve ends on another value; Fay says 6 N in other words; Gus does not know. */
const ANSWERS: Record<string, string> = {
  Ann: 'F = m a = 2 kg x 3 m/s^2 = 6 N. The net force is 6 N.',
  Ben: 'F = ma = 2 kg x 3 m/s^2 = 6 N. The net force is 6 N.',
  Cat: 'F = m a = 2 kg x 3 m/s^2 = 6 N. The net force is 6 N!',
  Dan: 'F = m a = 2 kg x 3 m/s^2 = 6 N, so the net force is 6 N.',
  Eve: 'F = m a = 2 kg x 3 m/s^2 = 5 N. The net force is 5 N.',
  Fay: 'The net force is 6 N because force equals mass times acceleration.',
  Gus: "I don't know.",
  Hal: 'F = m a = 2 kg x 3 m/s^2 = 6 N. The net force is 6 N.',
};
/** The fake model's deductions (value item, reason item) and self-reported confidence, per student. */
const SUGGESTIONS: Record<string, { value: number; reason: number; confidence: number }> = {
  Ann: { value: 0, reason: 0, confidence: 90 },
  Ben: { value: 0, reason: 0, confidence: 70 },
  Cat: { value: 0, reason: 1, confidence: 80 },
  // Alike to Ann, Ben and Cat, but the model docked it 6 of 10: flagged as differing from its group.
  Dan: { value: 6, reason: 0, confidence: 85 },
  Eve: { value: 6, reason: 0, confidence: 40 },
  Fay: { value: 0, reason: 2, confidence: 60 },
  Gus: { value: 6, reason: 4, confidence: 95 },
};

const groupsUrl = () => `${questionPath(assignmentId, questionId)}/answer-groups`;
const readGroups = (user: TestUser = owner) => t.app.inject({ method: 'GET', url: groupsUrl(), headers: user.auth });
/** The owner's answer groups, parsed by their contract. */
const groupsOf = async () => expectJson(await readGroups(), 200, AnswerGroupsOutput);
const readGroupOf = (name: string, user: TestUser = owner) =>
  t.app.inject({ method: 'GET', url: `${groupsUrl()}/of/${submissionOf.get(name)}`, headers: user.auth });
const groupOf = async (name: string) => expectJson(await readGroupOf(name), 200, AnswerGroupOfSubmissionOutput);
const readQueue = async () =>
  expectJson(
    await t.app.inject({
      method: 'GET',
      url: `${questionPath(assignmentId, questionId)}/review-queue`,
      headers: owner.auth,
    }),
    200,
    ReviewQueueOutput,
  );
const apply = (payload: Record<string, unknown>, user: TestUser = owner) =>
  t.app.inject({ method: 'POST', url: `${groupsUrl()}/apply`, headers: user.auth, payload });
const target = (name: string) => ({ assignmentId, questionId, submissionId: submissionOf.get(name)!, points: 10 });
const nameOf = (submissionId: string) => [...submissionOf].find(([, id]) => id === submissionId)![0];

async function gradeReport(name: string): Promise<GradingReportForStaff> {
  const response = await t.app.inject({
    method: 'GET',
    url: `${questionPath(assignmentId, questionId)}/grade/${submissionOf.get(name)}/report`,
    headers: owner.auth,
  });
  return expectJson(response, 200, GradingReportForStaff);
}

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp(
    { AI_PROVIDER: 'openai-compatible', AI_BASE_URL: fake.baseUrl, AI_MODEL: FAKE_MODEL_ID, AI_MAX_RETRIES: '0' },
    { withJobs: true },
  );
  owner = await registerUser(t.app, { role: 'instructor', name: 'Prof Ada' });
  otherInstructor = await registerUser(t.app, { role: 'instructor' });
  for (const name of NAMES)
    students.set(name, await registerUser(t.app, { name, email: `${name.toLowerCase()}@example.edu` }));
  const course = await createCourse(t.app, owner);
  await addStudents(
    t.app,
    owner,
    course._id,
    [...students.values()].map((student) => student.email),
  );
  assignmentId = (await createAssignment(t.app, owner, course._id))._id;
  questionId = (await createQuestion(t.app, owner, assignmentId, { points: '10' }))._id;
  await saveRubric(
    t.app,
    owner,
    { assignmentId, questionId },
    {
      questionText: 'A 2 kg cart accelerates at 3 m/s^2. What net force acts on it?',
      solutionText: 'F = m a = 2 kg x 3 m/s^2 = 6 N.',
      items: [
        { id: 'value', criterion: 'The force is 6 N', points: 6 },
        { id: 'reason', criterion: 'Uses F = m a', points: 4 },
      ],
    },
  );
  for (const name of NAMES) {
    const submission = await submitAnswer(t.app, students.get(name)!, assignmentId, questionId, ANSWERS[name]);
    submissionOf.set(name, submission._id);
  }
  // Texts are read at submission (the extract-text job): once every one is, Hal's is put back to
  // "not read yet" (queued), the state this file tests for an answer without text.
  for (const name of NAMES) {
    const [row] = await t.ctx.db
      .select()
      .from(submissions)
      .where(eq(submissions.id, submissionOf.get(name)!));
    const fileId = row!.fileId;
    await t.ctx.jobs!.waitFor(
      fileId,
      async () => {
        const [found] = await t.ctx.db.select().from(fileExtractions).where(eq(fileExtractions.fileId, fileId));
        return found && (found.status === 'succeeded' || found.status === 'failed') ? found : undefined;
      },
      { timeoutMs: 120_000, pollMs: 250 },
    );
    if (name === 'Hal')
      await t.ctx.db
        .update(fileExtractions)
        .set({ status: 'queued', text: '', pages: [], hiddenText: [], finishedAt: null })
        .where(eq(fileExtractions.fileId, fileId));
  }
  // Every answer but Hal's gets a suggestion; Hal's is not read yet.
  for (const name of NAMES.filter((student) => student !== 'Hal')) {
    const { value, reason, confidence } = SUGGESTIONS[name]!;
    fake.enqueue({
      kind: 'json',
      content: {
        items: [
          { rubricItemId: 'value', pointsDeducted: value, comment: value ? 'The value is off.' : 'Right value.' },
          { rubricItemId: 'reason', pointsDeducted: reason, comment: reason ? 'Show F = m a.' : 'Good reasoning.' },
        ],
        generalComment: '',
        confidence,
      },
    });
    await gradeWithAi(t.app, owner, target(name));
  }
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('GET .../answer-groups', () => {
  it('groups the alike answers with their size, representative, shared value and flags', async () => {
    const body = await groupsOf();
    expect(body.questionPoints).toBe(10);
    // Hal's answer has no text yet: it is counted, not grouped (though it says the same as Ann's).
    expect(body.withoutText).toBe(1);
    expect(body.groups).toHaveLength(1);
    const group = body.groups[0]!;
    expect(group.size).toBe(4);
    expect(group.members.map((member) => nameOf(member.submissionId)).sort()).toEqual(['Ann', 'Ben', 'Cat', 'Dan']);
    expect(group.finalValue).toBe('6 N');
    expect(group.representativeSubmissionId).toBe(group.members[0]!.submissionId);
    expect(group.members[0]).toMatchObject({ isRepresentative: true, similarity: 1 });
    expect(group.members.filter((member) => member.isRepresentative)).toHaveLength(1);

    const byName = new Map(group.members.map((member) => [nameOf(member.submissionId), member]));
    expect(byName.get('Dan')).toMatchObject({
      status: 'needs-review',
      suggestedScore: 4,
      grade: null,
      flags: ['score-differs'],
      appliedFromSubmissionId: null,
      student: { name: 'Dan', email: 'dan@example.edu' },
    });
    for (const name of ['Ann', 'Ben', 'Cat']) expect(byName.get(name)?.flags).toEqual([]);
    expect(body.gradeFirst).toEqual({ target: 5, ownGrades: 0, isActive: true });
  });

  it("gives one answer's group as the whole list has it, without the other members (decision 0095)", async () => {
    const [whole] = (await groupsOf()).groups;
    const dan = await groupOf('Dan');
    expect(dan.questionPoints).toBe(10);
    const others = whole!.members.filter((member) => member.submissionId !== submissionOf.get('Dan'));
    expect(dan.group).toEqual({
      groupId: whole!.groupId,
      size: 4,
      representativeSubmissionId: whole!.representativeSubmissionId,
      member: whole!.members.find((member) => member.submissionId === submissionOf.get('Dan')),
      namedOthers: others.map(({ submissionId, student }) => ({ submissionId, student })),
      openOthers: 3,
      appliedFrom: null,
    });
    // Eve ends on another value and Gus does not know: in no group. An id of no answer here: none either.
    expect((await groupOf('Eve')).group).toBeNull();
    expect((await groupOf('Gus')).group).toBeNull();
    const unknown = await t.app.inject({ method: 'GET', url: `${groupsUrl()}/of/nobody`, headers: owner.auth });
    expect(expectJson(unknown, 200, AnswerGroupOfSubmissionOutput).group).toBeNull();
    // The owner only, as the whole list.
    const student = await readGroupOf('Dan', students.get('Ann')!);
    expect(expectJson(student, 403, ErrorBody).code).toBe('FORBIDDEN');
    expect(student.body).not.toContain(submissionOf.get('Ben')!);
    expect((await readGroupOf('Dan', otherInstructor)).statusCode).toBe(404);
  });

  it('is for the owning instructor only: students never see groups', async () => {
    const student = await readGroups(students.get('Ann')!);
    expect(expectJson(student, 403, ErrorBody).code).toBe('FORBIDDEN');
    expect(student.body).not.toContain(submissionOf.get('Ben')!);
    expect((await readGroups(otherInstructor)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: groupsUrl() })).statusCode).toBe(401);
  });
});

describe('the review queue while fewer than k grades are saved', () => {
  it('starts with the answers that best represent the class, marked grade first, the group medoid first', async () => {
    const queue = await readQueue();
    expect(queue.gradeFirst).toEqual({ target: 5, ownGrades: 0, isActive: true });
    const first = queue.items.filter((item) => item.isGradeFirst);
    // Four kinds of answer (the group, Eve's 5 N, Fay's words, Gus's "don't know"): one of each,
    // not a fifth that would be a near copy of one already picked.
    expect(first).toHaveLength(4);
    expect(first.filter((item) => item.groupSize === 4)).toHaveLength(1);
    // The grade-first items lead the queue...
    expect(queue.items.slice(0, 4)).toEqual(first);
    // ...the first of them is the representative of the biggest group, standing for its members.
    const groups = await groupsOf();
    expect(first[0]).toMatchObject({
      submissionId: groups.groups[0]!.representativeSubmissionId,
      groupSize: 4,
      represents: expect.any(Number),
    });
    expect(first[0]!.represents).toBeGreaterThanOrEqual(3);
    // Never an answer without text; the rest follow the most doubtful first, unread ones last.
    const hal = queue.items.find((item) => item.submissionId === submissionOf.get('Hal'));
    expect(hal).toMatchObject({ isGradeFirst: false, represents: null, groupSize: null, status: 'not-graded' });
    expect(queue.items.at(-1)).toEqual(hal);
    expectMostDoubtfulFirst(queue.items.slice(4, -1));
    // Group sizes are shown on every member and only on members.
    for (const item of queue.items) {
      const isMember = ['Ann', 'Ben', 'Cat', 'Dan'].includes(nameOf(item.submissionId));
      expect(item.groupSize).toBe(isMember ? 4 : null);
    }
  });
});

describe('POST .../answer-groups/apply', () => {
  it('refuses an answer without a saved grade, and an unknown one', async () => {
    const ungraded = await apply({ fromSubmissionId: submissionOf.get('Ann') });
    expect(ungraded.statusCode).toBe(409);
    expect(ungraded.json()).toEqual({
      code: 'CONFLICT',
      message: 'Save a grade on this answer first, then apply it to its group.',
    });
    const unknown = await apply({ fromSubmissionId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    expect((await apply({ fromSubmissionId: submissionOf.get('Ann') }, students.get('Ann')!)).statusCode).toBe(403);
    expect((await apply({ fromSubmissionId: submissionOf.get('Ann') }, otherInstructor)).statusCode).toBe(404);
  });

  it('copies the grade to the confirmed members without one, and leaves graded and outside answers alone', async () => {
    await saveGrade(t.app, owner, target('Ann'), [
      { text: 'Give the unit in the first line too.', pointsDeducted: 1, accepted: true },
      { text: 'Nice diagram.', pointsDeducted: 0, accepted: true },
      { text: 'Not counted.', pointsDeducted: 2, accepted: false },
    ]);
    // Cat was graded by hand first, within a tenth of the points of Ann (a grade further apart would
    // take Cat out of the group): applying must not overwrite it.
    await saveGrade(t.app, owner, target('Cat'), [{ text: 'Sloppy.', pointsDeducted: 0.5, accepted: true }]);

    const response = await apply({
      fromSubmissionId: submissionOf.get('Ann'),
      submissionIds: ['Ben', 'Cat', 'Eve'].map((name) => submissionOf.get(name)),
    });
    const body = expectJson(response, 200, ApplyToGroupOutput);
    expect(body.applied).toEqual([{ submissionId: submissionOf.get('Ben'), grade: 9 }]);
    expect(body.skipped).toEqual([
      { submissionId: submissionOf.get('Cat'), reason: 'already-graded' },
      { submissionId: submissionOf.get('Eve'), reason: 'not-in-group' },
    ]);
    expect(body.message).toBe('Grade applied to 1 alike answer. Each stays open to review and change.');

    const ben = await gradeReport('Ben');
    expect(ben).toMatchObject({ isAlreadyGraded: true, grade: 9 });
    expect(ben.comments.map((comment) => [comment.text, comment.pointsDeducted, comment.accepted])).toEqual([
      ['Give the unit in the first line too.', 1, true],
      ['Nice diagram.', 0, true],
      ['Not counted.', 2, false],
    ]);
    // The copies are Ben's own comments, not Ann's rows.
    const ann = await gradeReport('Ann');
    expect(ben.comments.map((comment) => comment.id)).not.toContain(ann.comments[0]!.id);
    expect((await gradeReport('Cat')).grade).toBe(9.5);
    expect((await gradeReport('Eve')).isAlreadyGraded).toBe(false);
    // Dan was not confirmed in the dialog: still without a grade.
    expect((await gradeReport('Dan')).isAlreadyGraded).toBe(false);

    const group = (await groupsOf()).groups[0]!;
    const benMember = group.members.find((member) => member.submissionId === submissionOf.get('Ben'));
    expect(benMember).toMatchObject({ status: 'graded', grade: 9, appliedFromSubmissionId: submissionOf.get('Ann') });
  });

  it('without a list applies to every member still without a grade; the applied grades do not count as own grades', async () => {
    const response = await apply({ fromSubmissionId: submissionOf.get('Ann') });
    const body = expectJson(response, 200, ApplyToGroupOutput);
    expect(body.applied).toEqual([{ submissionId: submissionOf.get('Dan'), grade: 9 }]);
    expect(body.skipped).toEqual([]);
    const again = await apply({ fromSubmissionId: submissionOf.get('Ann') });
    expect(expectJson(again, 200, ApplyToGroupOutput)).toMatchObject({
      applied: [],
      message: 'Nothing to apply: every chosen answer already has a grade.',
    });
    // Ann and Cat were graded by hand; Ben and Dan got Ann's grade applied.
    expect((await groupsOf()).gradeFirst).toEqual({ target: 5, ownGrades: 2, isActive: true });
    // The grading screen's read of Dan's group names where the grade came from; nobody is left open.
    const ann = (await groupsOf()).groups[0]!.members.find(
      (member) => member.submissionId === submissionOf.get('Ann'),
    )!;
    const dan = (await groupOf('Dan')).group!;
    expect(dan.member).toMatchObject({ grade: 9, appliedFromSubmissionId: submissionOf.get('Ann') });
    expect(dan.appliedFrom).toEqual({ submissionId: ann.submissionId, student: ann.student });
    expect(dan.appliedFrom?.student.name).toBe('Ann');
    expect(dan.openOthers).toBe(0);
  });

  it('learns from the grade a group copied, once: the applied copies are not examples', async () => {
    const examples = await selectSavedGradeExamples(t.ctx.db, questionId);
    // Own grades: Ann and Cat. Ben and Dan carry Ann's grade applied: not examples of their own.
    expect(examples.map((example) => nameOf(example.submissionId)).sort()).toEqual(['Ann', 'Cat']);
    // And what the suggestions are said to learn from (their up-to-date rule) counts the same two.
    expect(await countCurrentSavedGrades(t.ctx.db, questionId)).toBe(2);
  });

  it('leaves each applied grade open to review: the grading screen loads it and a new save replaces it alone', async () => {
    const opened = await t.app.inject({
      method: 'POST',
      url: `${questionPath(assignmentId, questionId)}/grade/${submissionOf.get('Dan')}`,
      headers: owner.auth,
    });
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({ isAlreadyGraded: true, gradingResult: { totalScore: 9 } });

    await saveGrade(t.app, owner, target('Dan'), [{ text: 'Wrong working.', pointsDeducted: 4, accepted: true }]);
    expect((await gradeReport('Dan')).grade).toBe(6);
    expect((await gradeReport('Ann')).grade).toBe(9);
    expect((await gradeReport('Ben')).grade).toBe(9);
    // Saved by hand now at 6 against Ann's 9: the instructor has told Dan's answer apart from
    // Ann's, so it leaves Ann's group however alike the words (decision 0068).
    const { groups } = await groupsOf();
    const annGroup = groups.find((group) =>
      group.members.some((member) => member.submissionId === submissionOf.get('Ann')),
    );
    expect(annGroup?.members.map((member) => member.submissionId)).not.toContain(submissionOf.get('Dan'));
    expect(annGroup?.members.map((member) => member.submissionId)).toContain(submissionOf.get('Ben'));
    // Dan's grade is the instructor's own again: an example to learn from.
    const examples = await selectSavedGradeExamples(t.ctx.db, questionId);
    expect(examples.map((example) => nameOf(example.submissionId)).sort()).toEqual(['Ann', 'Cat', 'Dan']);
    expect(await countCurrentSavedGrades(t.ctx.db, questionId)).toBe(3);
  });

  it('refuses an answer that is in no group', async () => {
    await saveGrade(t.app, owner, target('Gus'), []);
    const response = await apply({ fromSubmissionId: submissionOf.get('Gus') });
    expect(expectJson(response, 409, ErrorBody).message).toBe(
      'This answer is not in a group of alike answers any more.',
    );
  });
});

describe('the review queue after k grades', () => {
  it('turns to the most doubtful suggestions first once the instructor saved k grades of their own', async () => {
    // Own grades so far: Ann, Cat, Dan (re-saved), Gus = 4 of 5.
    const before = await readQueue();
    expect(before.gradeFirst).toEqual({ target: 5, ownGrades: 4, isActive: true });
    expect(before.items.filter((item) => item.isGradeFirst)).toHaveLength(4);

    await saveGrade(t.app, owner, target('Fay'), []);
    const after = await readQueue();
    expect(after.gradeFirst).toEqual({ target: 5, ownGrades: 5, isActive: false });
    expect(after.items.some((item) => item.isGradeFirst)).toBe(false);
    expect(after.items.every((item) => item.represents === null)).toBe(true);
    expectMostDoubtfulFirst(after.items.slice(0, -1));
    expect(after.items.at(-1)?.submissionId).toBe(submissionOf.get('Hal'));
    // The order differs from the grade-first one (Gus, most confident, is not near the front any more).
    expect(after.items.map((item) => item.submissionId)).not.toEqual(before.items.map((item) => item.submissionId));
  });
});
