import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CreateRegradeRequestOutput, RegradeQueue } from '@gradewise/shared/contracts/regrades';
import { GradingReportForStudent } from '@gradewise/shared/contracts/review';
import { expectJson } from './support/expect-json.ts';
import {
  addStudents,
  addTa,
  createAssignment,
  createCourseWorld,
  createQuestion,
  submitAnswer,
  type CourseWorld,
} from './support/course-fixtures.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { questionPath, saveGrade, saveRubric } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Regrade requests (issue 12 item 3): a student asks for a second look at one rubric item or the
 * whole answer of their own graded, released answer, within the assignment's window and limit;
 * staff see the queue with the original comments, may ask the AI to re-check only the disputed
 * item (a draft, counted against the AI limits), and accept or reject with a reply the student
 * reads on their report. An accepted grade is saved through the normal save path.
 */
const DAY_MS = 86_400_000;
/** The app's clock runs this far ahead of the real one: a test moves it instead of waiting days. */
let clockShiftMs = 0;
/**
 * When set, the app's clock stands still at this real time (plus the shift): calls a test counts
 * against a per-minute limit must fall in one clock minute, however slow the machine.
 */
let stoppedAtMs: number | null = null;

let t: TestApp;
let world: CourseWorld;
let otherInstructor: TestUser;

beforeAll(async () => {
  // Two interactive AI calls a minute per user: the AI re-check must go through that limit.
  t = await createTestApp(
    { AI_USER_CALLS_PER_MINUTE: '2' },
    {
      clock: () => new Date((stoppedAtMs ?? Date.now()) + clockShiftMs),
    },
  );
  world = await createCourseWorld(t.app);
  otherInstructor = await registerUser(t.app, { role: 'instructor' });
});
afterAll(async () => {
  await t?.close();
});

const RUBRIC_ITEMS = [
  { id: 'item-1', criterion: 'Says the sum is 4', points: 6 },
  { id: 'item-2', criterion: 'Shows the addition', points: 4 },
];

interface GradedAnswer {
  student: TestUser;
  assignmentId: string;
  questionId: string;
  submissionId: string;
  base: string;
}

/**
 * A fresh question (in the given assignment) answered by a fresh student and graded 7 / 10:
 * item-1 loses 2 points, item-2 loses 1.
 */
async function gradedAnswer(assignmentId: string = world.assignment._id): Promise<GradedAnswer> {
  const question = await createQuestion(t.app, world.instructor, assignmentId, { points: '10' });
  const target = { assignmentId, questionId: question._id };
  await saveRubric(t.app, world.instructor, target, {
    questionText: 'What is 2 + 2?',
    solutionText: '4, because 2 + 2 = 4.',
    items: RUBRIC_ITEMS,
  });
  const student = await registerUser(t.app, { name: `Student ${Math.random().toString(36).slice(2, 8)}` });
  await addStudents(t.app, world.instructor, world.course._id, [student.email]);
  const submission = await submitAnswer(t.app, student, assignmentId, question._id, 'It is 4.');
  await saveGrade(t.app, world.instructor, { ...target, submissionId: submission._id, points: 10 }, [
    { text: 'The sum is right but stated late.', pointsDeducted: 2, accepted: true, rubricItemId: 'item-1' },
    { text: 'No working shown.', pointsDeducted: 1, accepted: true, rubricItemId: 'item-2' },
  ]);
  return { student, ...target, submissionId: submission._id, base: questionPath(assignmentId, question._id) };
}

function requestRegrade(answer: GradedAnswer, body: Record<string, unknown>, as: TestUser = answer.student) {
  return t.app.inject({
    method: 'POST',
    url: `${answer.base}/regrade-requests`,
    headers: as.auth,
    payload: { submissionId: answer.submissionId, ...body },
  });
}

function readReport(answer: GradedAnswer, as: TestUser = answer.student) {
  return t.app.inject({ method: 'GET', url: `${answer.base}/grade/${answer.submissionId}/report`, headers: as.auth });
}

function resolve(requestId: string, body: Record<string, unknown>, as: TestUser = world.instructor) {
  return t.app.inject({
    method: 'POST',
    url: `/api/regrade-requests/${requestId}/resolve`,
    headers: as.auth,
    payload: body,
  });
}

async function queue(status?: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/courses/${world.course._id}/regrade-requests${status ? `?status=${status}` : ''}`,
    headers: world.instructor.auth,
  });
  return expectJson(response, 200, RegradeQueue);
}

async function newAssignmentWith(settings: { regradeWindowDays: number; regradeRequestLimit: number }) {
  const assignment = await createAssignment(t.app, world.instructor, world.course._id, { title: 'Rules' });
  const response = await t.app.inject({
    method: 'PATCH',
    url: `/api/assignments/${assignment._id}/regrade-settings`,
    headers: world.instructor.auth,
    payload: settings,
  });
  expect(response.statusCode).toBe(200);
  expect(response.json().assignment).toMatchObject(settings);
  return assignment._id as string;
}

describe('opening a request', () => {
  it('lets the student dispute one item with a reason, shows it on their report and in the staff queue', async () => {
    const answer = await gradedAnswer();
    const before = (await readReport(answer)).json();
    expect(before.regrade).toMatchObject({ canRequest: true, blockedReason: null, used: 0, limit: 3, windowDays: 7 });

    const created = await requestRegrade(answer, { rubricItemId: 'item-1', reason: 'I stated the sum first.' });
    expect(created.statusCode).toBe(201);
    expect(created.json().request).toMatchObject({
      rubricItemId: 'item-1',
      target: 'The sum is right but stated late.',
      reason: 'I stated the sum first.',
      status: 'open',
      reply: null,
    });

    const report = (await readReport(answer)).json();
    expect(report.regrade.used).toBe(1);
    expect(report.regrade.requests).toHaveLength(1);
    expect(report.regrade.requests[0]).toMatchObject({ status: 'open', rubricItemId: 'item-1' });

    const open = await queue();
    const createdId = expectJson(created, 201, CreateRegradeRequestOutput).request._id;
    const item = open.requests.find((request) => request._id === createdId);
    expect(item).toMatchObject({
      status: 'open',
      reason: 'I stated the sum first.',
      student: { _id: answer.student.id, name: answer.student.name, email: answer.student.email },
      question: { _id: answer.questionId, points: 10 },
      rubricItem: { id: 'item-1', criterion: 'Says the sum is 4', points: 6 },
      disputedGrade: 7,
      currentGrade: 7,
      aiRecheck: null,
    });
    expect(item?.comments.map((comment) => [comment.rubricItemId, comment.pointsDeducted])).toEqual([
      ['item-1', 2],
      ['item-2', 1],
    ]);
  });

  it('refuses a second open request on the same item (409) but takes the whole answer separately', async () => {
    const answer = await gradedAnswer();
    expect((await requestRegrade(answer, { rubricItemId: 'item-2', reason: 'First.' })).statusCode).toBe(201);
    const again = await requestRegrade(answer, { rubricItemId: 'item-2', reason: 'Again.' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already have an open regrade request on this item/);
    const whole = await requestRegrade(answer, { reason: 'The whole answer deserves another look.' });
    expect(whole.statusCode).toBe(201);
    expect(whole.json().request).toMatchObject({ rubricItemId: null, target: 'Whole answer' });
  });

  it('answers a clear 4xx for bad input, other people and answers without a grade, and stores nothing', async () => {
    const answer = await gradedAnswer();
    const noReason = await requestRegrade(answer, { rubricItemId: 'item-1', reason: '   ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toMatch(/say why/);
    const unknownItem = await requestRegrade(answer, { rubricItemId: 'item-99', reason: 'Why?' });
    expect(unknownItem.statusCode).toBe(400);
    expect(unknownItem.json().message).toBe('That rubric item is not part of this grade.');

    // A classmate cannot ask about this answer: it does not exist for them.
    const classmate = await registerUser(t.app, { name: 'Classmate' });
    await addStudents(t.app, world.instructor, world.course._id, [classmate.email]);
    const foreign = await requestRegrade(answer, { reason: 'Not mine.' }, classmate);
    expect(foreign.statusCode).toBe(404);
    // The instructor can see it, but asking for a regrade is the student's act.
    const byOwner = await requestRegrade(answer, { reason: 'Hmm.' }, world.instructor);
    expect(byOwner.statusCode).toBe(403);

    // An answer with no saved grade yet.
    const ungraded = await submitAnswer(t.app, classmate, answer.assignmentId, answer.questionId, 'Four.');
    const notGraded = await t.app.inject({
      method: 'POST',
      url: `${answer.base}/regrade-requests`,
      headers: classmate.auth,
      payload: { submissionId: ungraded._id, reason: 'Please grade.' },
    });
    expect(notGraded.statusCode).toBe(409);
    expect(notGraded.json().message).toMatch(/has not been graded yet/);

    expect((await readReport(answer)).json().regrade).toMatchObject({ used: 0, requests: [] });
  });

  it('refuses a request while the grade is held (not released)', async () => {
    const answer = await gradedAnswer();
    const held = await t.app.inject({
      method: 'POST',
      url: `${answer.base}/grade-release`,
      headers: world.instructor.auth,
      payload: { released: false },
    });
    expect(held.statusCode).toBe(200);
    const refused = await requestRegrade(answer, { rubricItemId: 'item-1', reason: 'Why?' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Grades for this question have not been released yet.');
  });
});

describe('the window and the limit', () => {
  it('closes the window the set number of days after the grade became visible', async () => {
    const assignmentId = await newAssignmentWith({ regradeWindowDays: 2, regradeRequestLimit: 3 });
    const answer = await gradedAnswer(assignmentId);
    try {
      clockShiftMs = 2 * DAY_MS + 60_000;
      const late = await requestRegrade(answer, { rubricItemId: 'item-1', reason: 'Too late?' });
      expect(late.statusCode).toBe(409);
      expect(late.json().message).toMatch(/regrade window for this grade closed at/);
      expect((await readReport(answer)).json().regrade).toMatchObject({ canRequest: false, windowDays: 2 });
      clockShiftMs = 2 * DAY_MS - 60_000;
      expect((await requestRegrade(answer, { rubricItemId: 'item-1', reason: 'Just in time.' })).statusCode).toBe(201);
    } finally {
      clockShiftMs = 0;
    }
  });

  it('restarts the window when held grades are released later', async () => {
    const assignmentId = await newAssignmentWith({ regradeWindowDays: 1, regradeRequestLimit: 3 });
    const answer = await gradedAnswer(assignmentId);
    const release = (released: boolean) =>
      t.app.inject({
        method: 'POST',
        url: `/api/assignments/${assignmentId}/grade-release`,
        headers: world.instructor.auth,
        payload: { released },
      });
    try {
      expect((await release(false)).json().release).toEqual({ isHeld: true, releasedAt: null });
      clockShiftMs = 3 * DAY_MS; // released three days after the grade was saved
      const released = await release(true);
      expect(released.json().release.isHeld).toBe(false);
      const ok = await requestRegrade(answer, { rubricItemId: 'item-1', reason: 'Seen today.' });
      expect(ok.statusCode).toBe(201);
    } finally {
      clockShiftMs = 0;
    }
  });

  it('takes no requests when the window is 0 days', async () => {
    const assignmentId = await newAssignmentWith({ regradeWindowDays: 0, regradeRequestLimit: 3 });
    const answer = await gradedAnswer(assignmentId);
    const refused = await requestRegrade(answer, { reason: 'Please?' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('The instructor does not take regrade requests for this assignment.');
  });

  it('counts every request of the student on the assignment, resolved ones too', async () => {
    const assignmentId = await newAssignmentWith({ regradeWindowDays: 7, regradeRequestLimit: 2 });
    const answer = await gradedAnswer(assignmentId);
    const first = await requestRegrade(answer, { rubricItemId: 'item-1', reason: 'One.' });
    expect(first.statusCode).toBe(201);
    expect((await resolve(first.json().request._id, { decision: 'reject', reply: 'No.' })).statusCode).toBe(200);
    expect((await requestRegrade(answer, { rubricItemId: 'item-1', reason: 'Two.' })).statusCode).toBe(201);
    const third = await requestRegrade(answer, { rubricItemId: 'item-2', reason: 'Three.' });
    expect(third.statusCode).toBe(409);
    expect(third.json().message).toBe('You have used all 2 regrade requests for this assignment.');
    expect((await readReport(answer)).json().regrade).toMatchObject({ used: 2, limit: 2, canRequest: false });
  });

  it('lets only the owner change the rules, with clear messages for bad values', async () => {
    const path = `/api/assignments/${world.assignment._id}/regrade-settings`;
    const student = await t.app.inject({
      method: 'PATCH',
      url: path,
      headers: world.student.auth,
      payload: { regradeWindowDays: 3, regradeRequestLimit: 1 },
    });
    expect(student.statusCode).toBe(403);
    const bad = await t.app.inject({
      method: 'PATCH',
      url: path,
      headers: world.instructor.auth,
      payload: { regradeWindowDays: 2.5, regradeRequestLimit: -1 },
    });
    expect(bad.statusCode).toBe(400);
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${world.assignment._id}`,
      headers: world.instructor.auth,
    });
    expect(detail.json()).toMatchObject({ regradeWindowDays: 7, regradeRequestLimit: 3 });
  });
});

describe('resolving', () => {
  it('rejects with a reply the student reads, keeps the grade, and refuses a second resolution', async () => {
    const answer = await gradedAnswer();
    const created = (await requestRegrade(answer, { rubricItemId: 'item-2', reason: 'I showed it.' })).json().request;
    const withGrade = await resolve(created._id, { decision: 'reject', reply: 'No.', grade: 9 });
    expect(withGrade.statusCode).toBe(400);
    const rejected = await resolve(created._id, { decision: 'reject', reply: 'The working is missing on page 1.' });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().request).toMatchObject({
      status: 'rejected',
      reply: 'The working is missing on page 1.',
      resolvedBy: { _id: world.instructor.id },
      currentGrade: 7,
      resolvedGrade: null,
    });
    const report = (await readReport(answer)).json();
    expect(report.grade).toBe(7);
    expect(report.regrade.requests[0]).toMatchObject({
      status: 'rejected',
      reply: 'The working is missing on page 1.',
    });
    const again = await resolve(created._id, { decision: 'accept', reply: 'Changed my mind.' });
    expect(again.statusCode).toBe(409);
    expect((await queue('resolved')).requests.map((request) => request._id)).toContain(created._id);
    expect((await queue('open')).requests.map((request) => request._id)).not.toContain(created._id);
  });

  it('accepts with a higher grade by giving back the disputed item’s points, saved as a new grade', async () => {
    const answer = await gradedAnswer();
    const created = (await requestRegrade(answer, { rubricItemId: 'item-1', reason: 'Stated first.' })).json().request;
    const accepted = await resolve(created._id, { decision: 'accept', reply: 'You are right.', grade: 9 });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().request).toMatchObject({
      status: 'accepted',
      currentGrade: 9,
      resolvedGrade: 9,
      disputedGrade: 7,
    });

    const report = expectJson(await readReport(answer), 200, GradingReportForStudent);
    expect(report.grade).toBe(9);
    expect(report.comments.map((comment) => [comment.rubricItemId, comment.pointsDeducted])).toEqual([
      ['item-1', 0],
      ['item-2', 1],
    ]);
    expect(report.regrade?.requests[0]).toMatchObject({ status: 'accepted', reply: 'You are right.' });
  });

  it('accepts with a lower grade by adding a deduction on the item with the reply', async () => {
    const answer = await gradedAnswer();
    const created = (await requestRegrade(answer, { rubricItemId: 'item-2', reason: 'Look again.' })).json().request;
    const accepted = await resolve(created._id, { decision: 'accept', reply: 'The second step is wrong.', grade: 6 });
    expect(accepted.statusCode).toBe(200);
    const report = (await readReport(answer)).json();
    expect(report.grade).toBe(6);
    expect(report.comments.at(-1)).toMatchObject({
      text: 'Regrade: The second step is wrong.',
      pointsDeducted: 1,
      rubricItemId: 'item-2',
    });
  });

  it('refuses a raise beyond the disputed item’s deductions, leaving the request open and the grade as it was', async () => {
    const answer = await gradedAnswer();
    const created = (await requestRegrade(answer, { rubricItemId: 'item-2', reason: 'More!' })).json().request;
    const tooMuch = await resolve(created._id, { decision: 'accept', reply: 'Sure.', grade: 10 });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toMatch(/more points back than this item's deductions give \(1\)/);
    const outOfRange = await resolve(created._id, { decision: 'accept', reply: 'Sure.', grade: 11 });
    expect(outOfRange.statusCode).toBe(400);
    expect((await readReport(answer)).json()).toMatchObject({ grade: 7, regrade: { requests: [{ status: 'open' }] } });
  });

  it('accepts without a grade after staff regraded on the grading screen, keeping that grade', async () => {
    const answer = await gradedAnswer();
    const created = (await requestRegrade(answer, { reason: 'Whole answer.' })).json().request;
    // Staff regrade on the grading screen first; accepting "as is" then keeps that grade.
    await saveGrade(
      t.app,
      world.instructor,
      {
        assignmentId: answer.assignmentId,
        questionId: answer.questionId,
        submissionId: answer.submissionId,
        points: 10,
      },
      [{ text: 'Fine after all.', pointsDeducted: 0.5, accepted: true, rubricItemId: 'item-2' }],
    );
    const accepted = await resolve(created._id, { decision: 'accept', reply: 'Regraded on the grading screen.' });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().request).toMatchObject({ status: 'accepted', currentGrade: 9.5, resolvedGrade: null });
  });

  it('is for the course staff only: a student is told 403, another instructor 404, a bad id 404', async () => {
    const answer = await gradedAnswer();
    const created = (await requestRegrade(answer, { reason: 'Whole answer.' })).json().request;
    expect((await resolve(created._id, { decision: 'reject', reply: 'x' }, answer.student)).statusCode).toBe(403);
    expect((await resolve(created._id, { decision: 'reject', reply: 'x' }, otherInstructor)).statusCode).toBe(404);
    expect((await resolve('not-an-id', { decision: 'reject', reply: 'x' })).statusCode).toBe(404);
    const badDecision = await resolve(created._id, { decision: 'maybe', reply: 'x' });
    expect(badDecision.statusCode).toBe(400);
    const noReply = await resolve(created._id, { decision: 'reject', reply: '' });
    expect(noReply.statusCode).toBe(400);
    expect(noReply.json().message).toMatch(/write a reply/);
    const queueByStudent = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${world.course._id}/regrade-requests`,
      headers: answer.student.auth,
    });
    expect(queueByStudent.statusCode).toBe(403);
  });
});

describe('course staff', () => {
  it('lets a TA read the queue and resolve, but not hold grades or change the regrade rules', async () => {
    const ta = await registerUser(t.app, { role: 'instructor', name: 'Tia Assistant' });
    await addTa(t.app, world.instructor, world.course._id, ta);
    const answer = await gradedAnswer();
    const created = (await requestRegrade(answer, { rubricItemId: 'item-1', reason: 'Stated first.' })).json().request;
    const taQueue = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${world.course._id}/regrade-requests`,
      headers: ta.auth,
    });
    expect(expectJson(taQueue, 200, RegradeQueue).requests.map((request) => request._id)).toContain(created._id);
    const accepted = await resolve(created._id, { decision: 'accept', reply: 'Agreed.', grade: 8 }, ta);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().request).toMatchObject({ resolvedBy: { _id: ta.id }, resolvedGrade: 8 });
    const hold = await t.app.inject({
      method: 'POST',
      url: `${answer.base}/grade-release`,
      headers: ta.auth,
      payload: { released: false },
    });
    expect(hold.statusCode).toBe(403);
    const rules = await t.app.inject({
      method: 'PATCH',
      url: `/api/assignments/${answer.assignmentId}/regrade-settings`,
      headers: ta.auth,
      payload: { regradeWindowDays: 1, regradeRequestLimit: 1 },
    });
    expect(rules.statusCode).toBe(403);
  });
});

describe('AI re-check', () => {
  it('drafts a second look at only the disputed item, never changes the grade, and counts as an AI call', async () => {
    const answer = await gradedAnswer();
    const created = (await requestRegrade(answer, { rubricItemId: 'item-2', reason: 'Check it.' })).json().request;
    const recheck = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/regrade-requests/${created._id}/ai-recheck`,
        headers: world.instructor.auth,
      });
    // The three calls below count in the same minute window (fixed, by the clock): a real minute
    // turning between them would open a fresh window and let the third through.
    stoppedAtMs = Date.now();
    onTestFinished(() => {
      stoppedAtMs = null;
    });
    const first = await recheck();
    expect(first.statusCode).toBe(200);
    const draft = first.json().request.aiRecheck;
    // Judged against item-2 alone: out of its 4 points, and only comments on it (or general ones).
    expect(draft).toMatchObject({ points: 4, grader: { kind: 'builtin' } });
    expect(draft.score).toBeGreaterThanOrEqual(0);
    expect(draft.score).toBeLessThanOrEqual(4);
    for (const comment of draft.comments) expect([null, 'item-2']).toContain(comment.rubricItemId);
    expect(first.json().request).toMatchObject({ status: 'open', currentGrade: 7 });
    expect((await readReport(answer)).json().grade).toBe(7);

    // The user's per-minute AI limit is 2 in this file: the second call passes, the third is refused.
    expect((await recheck()).statusCode).toBe(200);
    const limited = await recheck();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    const student = await t.app.inject({
      method: 'POST',
      url: `/api/regrade-requests/${created._id}/ai-recheck`,
      headers: answer.student.auth,
    });
    expect(student.statusCode).toBe(403);
  });
});
