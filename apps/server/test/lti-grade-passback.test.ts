import type { AddressInfo } from 'node:net';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GradePassbackOutput, HandoffOutput } from '@gradewise/shared/contracts/lti';
import { ltiScorePosts } from '../src/db/schema.ts';
import { createAssignment, createCourse, createQuestion, submitAnswer } from './support/course-fixtures.ts';
import { expectStatus, registerUser, type TestUser } from './support/http.ts';
import {
  ROLE,
  startTestPlatform,
  type AgsRequest,
  type LaunchSpec,
  type TestPlatform,
} from './support/lti-platform.ts';
import { questionPath, saveGrade } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * LTI Assignment and Grade Services (issue 32, decision 0076) against the project's own test
 * platform over real HTTP: the tool's real job queue posts the scores; the tests read what the
 * platform received — the token request, the line item it created or found, each score's exact
 * fields — including a failure retried, a permanent refusal shown with the LMS's words, a grade
 * under an open regrade request sent as PendingManual, and a changed grade sent again.
 */

let t: TestApp;
let lms: TestPlatform;
let tool: string;

const SCORE_MEDIA_TYPE = 'application/vnd.ims.lis.v1.score+json';
const SCOPES =
  'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem https://purl.imsglobal.org/spec/lti-ags/scope/score';

beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  tool = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  lms = await startTestPlatform();
  const registrant = await registerUser(t.app, { role: 'instructor', name: 'Rita Registrar' });
  const response = await fetch(`${tool}/api/lti/platforms`, {
    method: 'POST',
    headers: { ...registrant.auth, 'content-type': 'application/json' },
    body: JSON.stringify(lms.registration(['deployment-1'])),
  });
  expect(response.status).toBe(201);
  lms.setToolJwksUrl(`${tool}/api/lti/jwks`);
});
afterAll(async () => {
  await lms?.close();
  await t?.close();
});

/** A browser's launch, followed into the web app: the session and where it landed. */
async function launchAndSignIn(spec: LaunchSpec): Promise<HandoffOutput> {
  const hint = lms.nextLaunch(spec);
  const login = await fetch(lms.loginUrlFor(`${tool}/api/lti/login`, `${tool}/api/lti/launch`, hint), {
    redirect: 'manual',
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const form = await (await fetch(login.headers.get('location')!)).text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(form)?.[1] ?? '';
  const launched = await fetch(`${tool}/api/lti/launch`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ id_token: field('id_token'), state: field('state') }),
  });
  expect(launched.status, await launched.clone().text()).toBe(303);
  const code = launched.headers.get('location')!.split('#code=')[1]!;
  const response = await t.app.inject({ method: 'POST', url: '/api/lti/handoff', payload: { code } });
  return expectStatus<HandoffOutput>(response, 200, 'handoff');
}

const asUser = (handoff: HandoffOutput): TestUser =>
  ({
    ...handoff.user,
    id: handoff.user._id,
    auth: { authorization: `Bearer ${handoff.token}` },
  }) as unknown as TestUser;

let unique = 0;
interface LmsCourse {
  contextId: string;
  courseId: string;
  instructor: TestUser;
  student: TestUser;
  studentSub: string;
  assignmentId: string;
  questions: { id: string; points: number }[];
  submissions: string[];
}

/**
 * An LMS course that offers AGS, linked to a new Gradewise course by its instructor's first launch;
 * a learner launched into it; an assignment (two questions, 10 and 5 points) the learner answered.
 */
async function lmsCourse(options: { held?: boolean } = {}): Promise<LmsCourse> {
  unique += 1;
  const contextId = `ags-${unique}`;
  const context = { id: contextId, title: `LMS course ${unique}` };
  const instructorLaunch = await launchAndSignIn({
    sub: `teacher-${unique}`,
    name: 'Terry Teacher',
    roles: [ROLE.instructor],
    context,
    ags: {},
  });
  if (instructorLaunch.landing.kind !== 'link') throw new Error('expected a link offer');
  const instructor = asUser(instructorLaunch);
  const linked = await t.app.inject({
    method: 'POST',
    url: `/api/lti/contexts/${instructorLaunch.landing.contextId}/link`,
    headers: instructor.auth,
    payload: { create: true },
  });
  const { courseId } = expectStatus<{ courseId: string }>(linked, 200, 'link');
  const studentSub = `learner-${unique}`;
  const student = asUser(
    await launchAndSignIn({ sub: studentSub, name: 'Lee Learner', roles: [ROLE.learner], context, ags: {} }),
  );
  const assignment = await createAssignment(t.app, instructor, courseId, { title: `Lab ${unique}` });
  if (options.held) await setRelease(instructor, assignment._id, false);
  const questions = [];
  const submissions = [];
  for (const [index, points] of [10, 5].entries()) {
    const question = await createQuestion(t.app, instructor, assignment._id, {
      title: `Part ${index + 1}`,
      points: String(points),
    });
    questions.push({ id: question._id, points });
    submissions.push((await submitAnswer(t.app, student, assignment._id, question._id))._id);
  }
  return { contextId, courseId, instructor, student, studentSub, assignmentId: assignment._id, questions, submissions };
}

async function setRelease(instructor: TestUser, assignmentId: string, released: boolean): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/assignments/${assignmentId}/grade-release`,
    headers: instructor.auth,
    payload: { released },
  });
  expectStatus(response, 200, 'grade release');
}

/** Saves a grade on the student's answer to question `index`: its points minus the accepted deductions. */
function grade(course: LmsCourse, index: number, comments: Parameters<typeof saveGrade>[3] = []) {
  return saveGrade(
    t.app,
    course.instructor,
    {
      assignmentId: course.assignmentId,
      questionId: course.questions[index]!.id,
      submissionId: course.submissions[index]!,
      points: course.questions[index]!.points,
    },
    comments,
  );
}

/** Waits until no score post of the assignment is queued or running (the real queue, retries included). */
async function settled(assignmentId: string): Promise<void> {
  const done = await t.ctx.jobs!.waitFor(
    assignmentId,
    async () => {
      const [row] = await t.ctx.db
        .select({ n: count() })
        .from(ltiScorePosts)
        .where(and(eq(ltiScorePosts.assignmentId, assignmentId), inArray(ltiScorePosts.status, ['queued', 'running'])));
      return row!.n === 0 ? true : undefined;
    },
    { timeoutMs: 90_000, pollMs: 50 },
  );
  expect(done, 'score posts settled').toBe(true);
}

/** What the platform received for this LMS course's line items and scores. */
function received(course: LmsCourse): { lineItemRequests: AgsRequest[]; scores: AgsRequest[] } {
  const prefix = `/lineitems/${encodeURIComponent(course.contextId)}`;
  const mine = lms.agsRequests().filter((request) => request.path.startsWith(prefix));
  return {
    lineItemRequests: mine.filter((request) => !request.path.endsWith('/scores')),
    scores: mine.filter((request) => request.path.endsWith('/scores')),
  };
}

async function passback(course: LmsCourse, as: TestUser = course.instructor): Promise<GradePassbackOutput> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/assignments/${course.assignmentId}/lti-grade-passback`,
    headers: as.auth,
  });
  return expectStatus<GradePassbackOutput>(response, 200, 'grade passback');
}

describe('LTI grade passback', () => {
  it('sends nothing while the grades are held; on release creates the line item and posts the exact score', async () => {
    const course = await lmsCourse({ held: true });
    await grade(course, 0, [
      { text: 'The sum is right but stated late.', pointsDeducted: 2, accepted: true },
      { text: 'A draft note the instructor declined.', pointsDeducted: 1, accepted: false },
    ]);
    await grade(course, 1);
    await settled(course.assignmentId);
    // Held: not a single request for this course reached the LMS.
    expect(received(course)).toEqual({ lineItemRequests: [], scores: [] });
    expect((await passback(course)).rows).toEqual([
      expect.objectContaining({ state: 'nothing-released', scoreGiven: null, lmsCourse: `LMS course ${unique}` }),
    ]);

    const tokensBefore = lms.tokenRequests().length;
    await setRelease(course.instructor, course.assignmentId, true);
    await settled(course.assignmentId);

    // The access token: client credentials with a client assertion the platform verified, both AGS scopes.
    const token = lms.tokenRequests().slice(tokensBefore).at(-1)!;
    expect(token).toMatchObject({ grantType: 'client_credentials', scope: SCOPES, error: null });
    const { lineItemRequests, scores } = received(course);
    const lineItemsUrl = lms.lineItemsUrlOf(course.contextId);
    // Looked for the assignment's line item by resource_id, found none, created it.
    expect(lineItemRequests.map((request) => [request.method, request.path, request.status])).toEqual([
      ['GET', `/lineitems/${course.contextId}?resource_id=${course.assignmentId}`, 200],
      ['POST', `/lineitems/${course.contextId}`, 201],
    ]);
    expect(lineItemRequests[0]!.accept).toBe('application/vnd.ims.lis.v2.lineitemcontainer+json');
    expect(lineItemRequests[1]!.contentType).toBe('application/vnd.ims.lis.v2.lineitem+json');
    expect(lms.lineItems(course.contextId)).toEqual([
      {
        id: `${lineItemsUrl}/1`,
        scoreMaximum: 15,
        label: `Lab ${unique}`,
        resourceId: course.assignmentId,
        tag: 'gradewise',
      },
    ]);
    expect(scores).toHaveLength(1);
    const score = scores[0]!;
    expect(score).toMatchObject({
      method: 'POST',
      path: `/lineitems/${course.contextId}/1/scores`,
      contentType: SCORE_MEDIA_TYPE,
      status: 204,
    });
    expect(score.authorization).toMatch(/^Bearer [0-9a-f]{32}$/);
    expect(score.body).toEqual({
      userId: course.studentSub,
      scoreGiven: 13,
      scoreMaximum: 15,
      comment: 'Part 1: The sum is right but stated late.',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      activityProgress: 'Completed',
      gradingProgress: 'FullyGraded',
    });
    expect((await passback(course)).rows).toEqual([
      expect.objectContaining({
        student: expect.objectContaining({ name: 'Lee Learner' }),
        state: 'sent',
        scoreGiven: 13,
        scoreMaximum: 15,
        gradingProgress: 'FullyGraded',
        message: null,
      }),
    ]);

    // Held again: a grade changed meanwhile is not sent.
    await setRelease(course.instructor, course.assignmentId, false);
    await grade(course, 1, [{ text: 'Units missing.', pointsDeducted: 1, accepted: true }]);
    await settled(course.assignmentId);
    expect(received(course).scores).toHaveLength(1);
  });

  it('sends a grade under an open regrade request as PendingManual, and the changed grade again', async () => {
    const course = await lmsCourse();
    await grade(course, 0, [{ text: 'Sign error.', pointsDeducted: 3, accepted: true }]);
    await settled(course.assignmentId);
    // Released on save (nothing holds it); one answer of two graded: Pending.
    expect(received(course).scores.map((score) => score.body)).toEqual([
      expect.objectContaining({ scoreGiven: 7, scoreMaximum: 15, gradingProgress: 'Pending' }),
    ]);
    await grade(course, 1);
    await settled(course.assignmentId);

    const opened = await t.app.inject({
      method: 'POST',
      url: `${questionPath(course.assignmentId, course.questions[0]!.id)}/regrade-requests`,
      headers: course.student.auth,
      payload: { submissionId: course.submissions[0], reason: 'The sign is right: see line 2.' },
    });
    const { request } = expectStatus<{ request: { _id: string } }>(opened, 201, 'open regrade');
    await settled(course.assignmentId);
    const resolved = await t.app.inject({
      method: 'POST',
      url: `/api/regrade-requests/${request._id}/resolve`,
      headers: course.instructor.auth,
      payload: { decision: 'accept', reply: 'You are right.', grade: 10 },
    });
    expectStatus(resolved, 200, 'resolve');
    await settled(course.assignmentId);

    const { scores, lineItemRequests } = received(course);
    expect(
      scores.map((score) => [score.body?.['scoreGiven'], score.body?.['gradingProgress'], score.body?.['userId']]),
    ).toEqual([
      [7, 'Pending', course.studentSub],
      [12, 'FullyGraded', course.studentSub],
      [12, 'PendingManual', course.studentSub],
      [15, 'FullyGraded', course.studentSub],
    ]);
    // Every post went to the one line item created by the first.
    expect(lineItemRequests.filter((item) => item.method === 'POST')).toHaveLength(1);
    expect(new Set(scores.map((score) => score.path))).toEqual(new Set([`/lineitems/${course.contextId}/1/scores`]));
    expect(scores.every((score) => score.status === 204)).toBe(true);
    const timestamps = scores.map((score) => Date.parse(String(score.body?.['timestamp'])));
    expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b));
    expect((await passback(course)).rows).toEqual([
      expect.objectContaining({ state: 'sent', scoreGiven: 15, gradingProgress: 'FullyGraded' }),
    ]);
  });

  it('retries a post the LMS failed, shows it pending with the LMS message, then sent', async () => {
    const course = await lmsCourse();
    lms.failNextScores(1, 503, 'Gradebook is busy, try later');
    await grade(course, 0);
    // The first try failed: the post waits for its retry, and the instructor reads why.
    const waiting = await t.ctx.jobs!.waitFor(
      course.assignmentId,
      async () => {
        const view = await passback(course);
        return view.rows[0]?.message ? view : undefined;
      },
      { timeoutMs: 30_000, pollMs: 50 },
    );
    expect(waiting?.rows).toEqual([
      expect.objectContaining({ state: 'pending', message: 'The LMS answered 503: Gradebook is busy, try later' }),
    ]);
    await settled(course.assignmentId);
    const { scores } = received(course);
    expect(scores.map((score) => score.status)).toEqual([503, 204]);
    expect(scores[1]!.body).toMatchObject({ userId: course.studentSub, scoreGiven: 10, gradingProgress: 'Pending' });
    expect((await passback(course)).rows).toEqual([
      expect.objectContaining({ state: 'sent', scoreGiven: 10, message: null }),
    ]);
  });

  it('fails a post the LMS refuses for good with its words, and the owner sends it again', async () => {
    const course = await lmsCourse();
    lms.failNextScores(1, 400, 'User learner is not enrolled in this line item');
    await grade(course, 0, [{ text: 'One step skipped.', pointsDeducted: 1, accepted: true }]);
    await settled(course.assignmentId);
    expect((await passback(course)).rows).toEqual([
      expect.objectContaining({
        state: 'failed',
        message: 'The LMS answered 400: User learner is not enrolled in this line item',
      }),
    ]);
    expect(received(course).scores.map((score) => score.status)).toEqual([400]);

    const again = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${course.assignmentId}/lti-grade-passback`,
      headers: course.instructor.auth,
    });
    expect(expectStatus<{ queued: number }>(again, 200, 'send again').queued).toBe(1);
    await settled(course.assignmentId);
    expect(received(course).scores.map((score) => score.status)).toEqual([400, 204]);
    expect((await passback(course)).rows).toEqual([expect.objectContaining({ state: 'sent', scoreGiven: 9 })]);
  });

  it('posts to the line item a launch of the deep-linked assignment names, creating none', async () => {
    const course = await lmsCourse({ held: true });
    const item = lms.addLineItem(course.contextId, { label: 'Lab (from the LMS)', scoreMaximum: 15 });
    await launchAndSignIn({
      sub: course.studentSub,
      name: 'Lee Learner',
      roles: [ROLE.learner],
      context: { id: course.contextId, title: `LMS course` },
      custom: { gradewise_assignment_id: course.assignmentId },
      ags: { lineitem: item.id },
    });
    await grade(course, 0);
    await grade(course, 1, [{ text: 'Units missing.', pointsDeducted: 1, accepted: true }]);
    // The held saves' posts finish first (each sends nothing), so the release's post is the one that sends.
    await settled(course.assignmentId);
    await setRelease(course.instructor, course.assignmentId, true);
    await settled(course.assignmentId);
    const { lineItemRequests, scores } = received(course);
    expect(lineItemRequests).toEqual([]);
    expect(scores.map((score) => [score.path, score.body?.['scoreGiven'], score.body?.['gradingProgress']])).toEqual([
      [`${new URL(item.id).pathname}/scores`, 14, 'FullyGraded'],
    ]);
  });

  it("shows the passback to the course's staff only; only the owner sends again", async () => {
    const course = await lmsCourse();
    const stranger = await registerUser(t.app, { role: 'instructor' });
    const url = `/api/assignments/${course.assignmentId}/lti-grade-passback`;
    expect((await t.app.inject({ method: 'GET', url, headers: course.student.auth })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url, headers: stranger.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url, headers: course.student.auth })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url, headers: stranger.auth })).statusCode).toBe(404);
    // While the assignment is anonymous its staff see a label, never the student's name or id.
    await grade(course, 0);
    await settled(course.assignmentId);
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${course.assignmentId}/anonymous-grading`,
      headers: course.instructor.auth,
      payload: { isAnonymous: true },
    });
    expectStatus(anonymous, 200, 'anonymous grading');
    const labelled = await passback(course);
    expect(labelled.rows).toEqual([
      expect.objectContaining({
        state: 'sent',
        student: { _id: expect.stringMatching(/^anonymous-\d+$/), name: expect.stringMatching(/^Student \d+$/) },
      }),
    ]);
    expect(JSON.stringify(labelled)).not.toContain('Lee Learner');
    expect(JSON.stringify(labelled)).not.toContain(course.student.id);
    // A course with no LMS behind it: an empty list, and nothing to send.
    const plain = await createAssignment(t.app, stranger, await ownCourse(stranger));
    const empty = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${plain._id}/lti-grade-passback`,
      headers: stranger.auth,
    });
    expect(expectStatus<GradePassbackOutput>(empty, 200, 'empty')).toEqual({ lmsCourses: [], rows: [] });
    const nothing = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${plain._id}/lti-grade-passback`,
      headers: stranger.auth,
    });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toBe('This course is not linked to an LMS course that takes grades (AGS).');
  });
});

async function ownCourse(instructor: TestUser): Promise<string> {
  return (await createCourse(t.app, instructor))._id;
}
