import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingEnrollments, users } from '../src/db/schema.ts';
import { insertGradingBatch } from '../src/models/grading-batches.ts';
import { addStudents, addTa, createAssignment, createCourse, createQuestion } from './support/course-fixtures.ts';
import { makePdf, makeWorkbook } from './support/files.ts';
import type { TestUser } from './support/http.ts';
import { multipart, pdfPart } from './support/multipart.ts';
import { currentGradeId, gradeWithAi, saveGrade, saveRubric } from './support/review-fixtures.ts';
import { linkIn, SmtpInbox } from './support/smtp-inbox.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Anonymity is one rule (issue 28): while an assignment is anonymous, nothing its staff can reach
 * names one of its students — no name, email or user id in any JSON answer, CSV export, header or
 * email — on every route of the app, walked by the owner and by a TA. The walk is driven by the
 * app's route list, like the authorization matrix: a route with no entry below fails the test, so
 * a new route is walked (or its exception written down) before it ships.
 *
 * Two kinds of exception, each checked for what it claims:
 * - `classList`: the course's class list (roster, invitations, work split by student). It belongs
 *   to the course, not to an assignment, and carries no answer or grade; its URL must not be an
 *   assignment's or a question's;
 * - `reveal`: the owner's explicit reveal of names (the grades CSV for a gradebook): named on
 *   purpose, and each time recorded, which the walk checks in GET .../identity-reveals.
 *
 * The app sends real email (a local SMTP server), so whatever a staff action mails is read too.
 */

type Caller = 'owner' | 'ta';
const CALLERS: Caller[] = ['owner', 'ta'];

interface World {
  owner: TestUser;
  ta: TestUser;
  students: TestUser[];
  courseId: string;
  assignmentId: string;
  questionId: string;
  /** The students' answers, in the order of `students`. */
  submissions: { _id: string; fileUrl: string }[];
  /** Open regrade requests, one per caller to resolve. */
  regradeRequests: Record<Caller, string>;
  unique(): string;
}

interface WalkEntry {
  route: string;
  request(world: World, caller: Caller): InjectOptions | Promise<InjectOptions>;
  expect: Record<Caller, number>;
  /** Course-level class list: named on purpose, not a surface of the assignment (reason). */
  classList?: string;
  /** The owner's explicit reveal of names: named, and recorded as a reveal. */
  reveal?: true;
  /** Ends the caller's session (logout): the caller logs in again around it. */
  freshSession?: true;
}

const both = (status: number): Record<Caller, number> => ({ owner: status, ta: status });
const ownerOnly = (status: number): Record<Caller, number> => ({ owner: status, ta: 403 });

const assignmentPath = (w: World) => `/api/assignments/${w.assignmentId}`;
const questionPath = (w: World) => `${assignmentPath(w)}/questions/${w.questionId}`;
const answerOf = (w: World, index: number) => w.submissions[index]!._id;
const target = (w: World, index: number) => ({
  assignmentId: w.assignmentId,
  questionId: w.questionId,
  submissionId: answerOf(w, index),
});

async function multipartRequest(url: string, parts: Parameters<typeof multipart>[0]): Promise<InjectOptions> {
  const form = await multipart(parts);
  return { method: 'POST', url, headers: form.headers, payload: form.payload };
}

// Names and addresses that cannot occur in anything else a response carries.
// The first and the last answer alike (a group to apply a grade to).
const CLASS = [
  { name: 'Zebulon Quimby', email: 'zebulon.quimby@school.test', answer: 'The answer is 4 because 2 + 2 = 4.' },
  { name: 'Philippa Vortigern', email: 'philippa.vortigern@school.test', answer: 'Two plus two is four.' },
  { name: 'Octavia Krumholtz', email: 'octavia.krumholtz@school.test', answer: 'It is 4 since 2 + 2 = 4.' },
  {
    name: 'Barnaby Fitzwilliam',
    email: 'barnaby.fitzwilliam@school.test',
    answer: 'The answer is 4 because 2 + 2 = 4.',
  },
];

const PUBLIC_URL = 'http://gradewise.test';
const PASSWORD = 'correct horse battery';
let inbox: SmtpInbox;
let t: TestApp;
let world: World;
/** Every student account of the course, also the ones made during the walk. */
const everyStudent: TestUser[] = [];

/** An account through the emailed link, as a person with the inbox makes one. */
async function signUp(name: string, email: string, role: 'student' | 'instructor'): Promise<TestUser> {
  const since = inbox.received.length;
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name, email, password: PASSWORD, role },
  });
  expect(registered.statusCode, registered.body).toBe(202);
  const link = linkIn(await inbox.nextFor(email, since), `${PUBLIC_URL}/verify-email?token=`);
  const verified = await t.app.inject({
    method: 'POST',
    url: '/api/auth/verify-email',
    payload: { token: new URL(link).searchParams.get('token') },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  const { token, user } = verified.json();
  const account = {
    id: user._id,
    name,
    email,
    password: PASSWORD,
    role,
    token,
    auth: { authorization: `Bearer ${token}` },
  };
  if (role === 'student') everyStudent.push(account);
  return account;
}

function callerUser(caller: Caller): TestUser {
  return caller === 'owner' ? world.owner : world.ta;
}

async function logInAgain(user: TestUser): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: user.password },
  });
  expect(response.statusCode, response.body).toBe(200);
  user.token = response.json().token;
  user.auth = { authorization: `Bearer ${user.token}` };
}

/** A fresh TA seat, for the removal route. */
async function freshSeat(w: World): Promise<TestUser> {
  const seat = await signUp('Seat Holder', `seat-${w.unique()}@school.test`, 'instructor');
  await addTa(t.app, w.owner, w.courseId, seat);
  return seat;
}

/** A Grade All batch of the question's (as the owner's Grade All records it), for its spend and its Stop. */
async function gradeAllBatch(w: World): Promise<string> {
  const batch = await insertGradingBatch(t.ctx.db, {
    id: crypto.randomUUID(),
    questionId: w.questionId,
    requestedById: w.owner.id,
    total: 0,
  });
  return batch.id;
}

/** A model check of the walk's course on the built-in grader, finished (its result is what the walk reads). */
async function finishedModelCheck(w: World): Promise<string> {
  const started = await t.app.inject({
    method: 'POST',
    url: `/api/courses/${w.courseId}/ai-model-checks`,
    headers: w.owner.auth,
    payload: { providerId: 'builtin' },
  });
  expect(started.statusCode, started.body).toBe(200);
  const id = started.json().id as string;
  const finished = await t.ctx.jobs!.waitFor(
    id,
    async () => {
      const read = await t.app.inject({
        method: 'GET',
        url: `/api/courses/${w.courseId}/ai-model-checks/${id}`,
        headers: w.owner.auth,
      });
      const check = read.json();
      return check.status === 'succeeded' || check.status === 'failed' ? check : undefined;
    },
    { timeoutMs: 60_000, pollMs: 100 },
  );
  expect(finished?.status).toBe('succeeded');
  return id;
}

const WALK: WalkEntry[] = [
  // ---- accounts: the caller's own, never a student's
  {
    route: 'POST /api/auth/register',
    request: (w) => ({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Newcomer', email: `newcomer-${w.unique()}@school.test`, password: PASSWORD },
    }),
    expect: both(202),
  },
  {
    route: 'POST /api/auth/login',
    request: (_w, caller) => ({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: callerUser(caller).email, password: PASSWORD },
    }),
    expect: both(200),
  },
  { route: 'GET /api/auth/user', request: () => ({ method: 'GET', url: '/api/auth/user' }), expect: both(200) },
  { route: 'GET /api/auth/settings', request: () => ({ method: 'GET', url: '/api/auth/settings' }), expect: both(200) },
  {
    route: 'POST /api/auth/verify-email',
    request: () => ({ method: 'POST', url: '/api/auth/verify-email', payload: { token: 'not-a-real-link' } }),
    expect: both(400),
  },
  {
    route: 'POST /api/auth/forgot-password',
    request: (_w, caller) => ({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: callerUser(caller).email },
    }),
    expect: both(200),
  },
  {
    route: 'POST /api/auth/reset-password',
    request: () => ({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: 'not-a-real-link', password: 'a brand new passphrase' },
    }),
    expect: both(400),
  },
  {
    route: 'POST /api/auth/change-password',
    request: () => ({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { currentPassword: 'not-my-password', newPassword: 'a brand new passphrase' },
    }),
    expect: both(400),
  },
  {
    route: 'POST /api/auth/delete-account',
    request: () => ({ method: 'POST', url: '/api/auth/delete-account', payload: { password: 'not-my-password' } }),
    expect: both(400),
  },

  // ---- the course and its class list
  { route: 'GET /api/courses', request: () => ({ method: 'GET', url: '/api/courses' }), expect: both(200) },
  {
    route: 'POST /api/courses',
    request: (w) => multipartRequest('/api/courses', { title: `Elsewhere ${w.unique()}` }),
    expect: both(201),
  },
  {
    route: 'GET /api/courses/:id',
    classList: 'the roster: who takes the course, with no answer or grade',
    request: (w) => ({ method: 'GET', url: `/api/courses/${w.courseId}` }),
    expect: both(200),
  },
  {
    route: 'POST /api/courses/:id/add-students',
    classList: 'adding people to the roster names them back',
    request: (w) => ({
      method: 'POST',
      url: `/api/courses/${w.courseId}/add-students`,
      payload: { emails: [`invitee-${w.unique()}@school.test`] },
    }),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/courses/:id/confirm-student',
    classList: 'confirming a registrant of the roster names them back',
    request: async (w) => {
      // An account registered before its invitation could attach (what the owner confirms).
      const registrant = await signUp('Late Registrant', `registrant-${w.unique()}@school.test`, 'student');
      await t.ctx.db
        .insert(pendingEnrollments)
        .values({ courseId: w.courseId, email: registrant.email, invitedById: w.owner.id });
      return {
        method: 'POST',
        url: `/api/courses/${w.courseId}/confirm-student`,
        payload: { email: registrant.email },
      };
    },
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/courses/:id/decline-registrant',
    classList: 'declining a registrant of the roster names them back',
    request: async (w) => {
      // Someone registered an invited address before email was set up (never proved); the owner
      // says they are not the student invited.
      const registrant = await signUp('Not The Student', `squatter-${w.unique()}@school.test`, 'student');
      await t.ctx.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, registrant.id));
      await t.ctx.db
        .insert(pendingEnrollments)
        .values({ courseId: w.courseId, email: registrant.email, invitedById: w.owner.id });
      return {
        method: 'POST',
        url: `/api/courses/${w.courseId}/decline-registrant`,
        payload: { email: registrant.email },
      };
    },
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/courses/:id/add-students/excel',
    classList: 'adding people to the roster names them back',
    request: (w) =>
      multipartRequest(`/api/courses/${w.courseId}/add-students/excel`, {
        excelFile: {
          content: makeWorkbook({ Roster: [['Email'], [`sheet-${w.unique()}@school.test`]] }),
          filename: 'roster.xlsx',
        },
      }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/courses/:id/staff',
    request: (w) => ({ method: 'GET', url: `/api/courses/${w.courseId}/staff` }),
    expect: both(200),
  },
  {
    route: 'POST /api/courses/:id/staff',
    request: async (w) => {
      const candidate = await signUp('Tia Candidate', `ta-${w.unique()}@school.test`, 'instructor');
      return {
        method: 'POST',
        url: `/api/courses/${w.courseId}/staff`,
        payload: { email: candidate.email, role: 'ta' },
      };
    },
    expect: ownerOnly(201),
  },
  {
    route: 'DELETE /api/courses/:id/staff/:userId',
    request: async (w) => ({ method: 'DELETE', url: `/api/courses/${w.courseId}/staff/${(await freshSeat(w)).id}` }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/courses/:id/work-split',
    classList: 'the work split lists the roster by name beside each grader (course-wide, no answers)',
    request: (w) => ({ method: 'GET', url: `/api/courses/${w.courseId}/work-split` }),
    expect: both(200),
  },
  {
    route: 'PUT /api/courses/:id/work-split/questions/:questionId',
    classList: 'answers with the work split, which lists the roster',
    request: (w) => ({
      method: 'PUT',
      url: `/api/courses/${w.courseId}/work-split/questions/${w.questionId}`,
      payload: { graderIds: [] },
    }),
    expect: ownerOnly(200),
  },
  {
    route: 'PUT /api/courses/:id/work-split/students',
    classList: 'answers with the work split, which lists the roster',
    request: (w) => ({
      method: 'PUT',
      url: `/api/courses/${w.courseId}/work-split/students`,
      payload: { students: [{ studentId: w.students[0]!.id, graderId: null }] },
    }),
    expect: ownerOnly(200),
  },

  // ---- the assignment
  {
    route: 'GET /api/assignments',
    request: (w) => ({ method: 'GET', url: `/api/assignments?courseId=${w.courseId}` }),
    expect: both(200),
  },
  {
    route: 'POST /api/assignments',
    request: (w) => ({
      method: 'POST',
      url: '/api/assignments',
      payload: { title: `Another ${w.unique()}`, courseId: w.courseId },
    }),
    expect: ownerOnly(201),
  },
  { route: 'GET /api/assignments/:id', request: (w) => ({ method: 'GET', url: assignmentPath(w) }), expect: both(200) },
  {
    route: 'PATCH /api/assignments/:id/settings',
    request: (w) => ({ method: 'PATCH', url: `${assignmentPath(w)}/settings`, payload: { allowsResubmission: true } }),
    expect: ownerOnly(200),
  },
  {
    // Kept on: turning it off is a reveal of its own (anonymous-grading.test.ts).
    route: 'PUT /api/assignments/:id/anonymous-grading',
    request: (w) => ({ method: 'PUT', url: `${assignmentPath(w)}/anonymous-grading`, payload: { isAnonymous: true } }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/assignments/:id/identity-reveals',
    request: (w) => ({ method: 'GET', url: `${assignmentPath(w)}/identity-reveals` }),
    expect: both(200),
  },
  {
    // Releasing what is not held changes nothing: the assignment stays anonymous for the walk.
    route: 'POST /api/assignments/:id/grade-release',
    request: (w) => ({ method: 'POST', url: `${assignmentPath(w)}/grade-release`, payload: { released: true } }),
    expect: ownerOnly(200),
  },
  {
    route: 'PATCH /api/assignments/:id/regrade-settings',
    request: (w) => ({
      method: 'PATCH',
      url: `${assignmentPath(w)}/regrade-settings`,
      payload: { regradeWindowDays: 7, regradeRequestLimit: 5 },
    }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/statistics',
    request: (w) => ({ method: 'GET', url: `${assignmentPath(w)}/statistics` }),
    expect: both(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/audit.csv',
    request: (w) => ({ method: 'GET', url: `${assignmentPath(w)}/audit.csv` }),
    expect: both(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/grades.csv',
    reveal: true,
    request: (w) => ({ method: 'GET', url: `${assignmentPath(w)}/grades.csv` }),
    expect: ownerOnly(200),
  },

  // ---- questions and answers
  {
    route: 'GET /api/assignments/:assignmentId/questions',
    request: (w) => ({ method: 'GET', url: `${assignmentPath(w)}/questions` }),
    expect: both(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions',
    request: async (w) =>
      multipartRequest(`${assignmentPath(w)}/questions`, {
        title: 'Walk question',
        points: '5',
        questionFile: pdfPart(await makePdf('Q')),
      }),
    expect: ownerOnly(201),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}?includeSubmissions=1` }),
    expect: both(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/grade/:submissionId/report',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/grade/${answerOf(w, 0)}/report` }),
    expect: both(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/submit',
    request: async (w) => multipartRequest(`${questionPath(w)}/submit`, { file: pdfPart(await makePdf('answer')) }),
    expect: both(403),
  },
  {
    // The owner names the student by email; the answer shows the label.
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/upload-submission',
    request: async (w) =>
      multipartRequest(`${questionPath(w)}/upload-submission`, {
        studentEmail: w.students[2]!.email,
        file: pdfPart(await makePdf('A paper answer: 4.')),
      }),
    expect: ownerOnly(201),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/submissions/:submissionId/versions',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/submissions/${answerOf(w, 0)}/versions` }),
    expect: both(200),
  },
  {
    route: 'GET /api/files/:fileId',
    request: (w) => ({ method: 'GET', url: w.submissions[0]!.fileUrl }),
    expect: both(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/statistics',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/statistics` }),
    expect: both(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/review-queue',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/review-queue` }),
    expect: both(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/rubric-trial',
    request: (w) => ({
      method: 'POST',
      url: `${questionPath(w)}/rubric-trial`,
      payload: {
        questionText: 'What is 2 + 2?',
        solutionText: '2 + 2 = 4',
        items: [{ criterion: 'Gives the value 4', points: 10 }],
        submissionIds: w.submissions.slice(0, 3).map((submission) => submission._id),
      },
    }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/grades.csv',
    reveal: true,
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/grades.csv` }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/submissions/:submissionId/grade-history',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/submissions/${answerOf(w, 0)}/grade-history` }),
    expect: both(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/rubric-versions',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/rubric-versions` }),
    expect: both(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/audit.csv',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/audit.csv` }),
    expect: both(200),
  },

  // ---- grading
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/grade/:submissionId',
    request: (w) => ({ method: 'POST', url: `${questionPath(w)}/grade/${answerOf(w, 1)}` }),
    expect: both(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/regrade/:submissionId',
    request: (w) => ({ method: 'POST', url: `${questionPath(w)}/regrade/${answerOf(w, 2)}` }),
    expect: both(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/save-grade/:submissionId',
    request: async (w) => ({
      method: 'POST',
      url: `${questionPath(w)}/save-grade/${answerOf(w, 0)}`,
      payload: {
        grade: 10,
        feedback: '',
        comments: [],
        expectedGradeId: await currentGradeId(t.app, w.owner, target(w, 0)),
      },
    }),
    expect: both(200),
  },
  {
    // Each caller undoes a save the owner has just made: only its author may (the TA is refused).
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/save-grade/:submissionId/undo',
    request: async (w) => {
      const saved = await saveGrade(t.app, w.owner, { ...target(w, 0), points: 10 });
      return {
        method: 'POST',
        url: `${questionPath(w)}/save-grade/${answerOf(w, 0)}/undo`,
        payload: { gradeId: saved._id },
      };
    },
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/grade/:submissionId/lease',
    request: (w) => ({ method: 'POST', url: `${questionPath(w)}/grade/${answerOf(w, 1)}/lease` }),
    expect: both(200),
  },
  {
    route: 'DELETE /api/assignments/:assignmentId/questions/:questionId/grade/:submissionId/lease',
    request: (w) => ({ method: 'DELETE', url: `${questionPath(w)}/grade/${answerOf(w, 1)}/lease` }),
    expect: both(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/ai-quota',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/ai-quota` }),
    expect: both(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/suggestion-summary',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/suggestion-summary` }),
    expect: both(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/resuggest',
    request: (w) => ({ method: 'POST', url: `${questionPath(w)}/resuggest`, payload: { answers: 1000 } }),
    expect: both(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/answer-groups',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/answer-groups` }),
    expect: both(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/answer-groups/of/:submissionId',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/answer-groups/of/${answerOf(w, 0)}` }),
    expect: both(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/answer-groups/apply',
    request: (w) => ({
      method: 'POST',
      url: `${questionPath(w)}/answer-groups/apply`,
      payload: { fromSubmissionId: answerOf(w, 0) },
    }),
    expect: both(200),
  },

  // ---- regrade requests (the course's queue spans its assignments)
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/regrade-requests',
    request: (w) => ({
      method: 'POST',
      url: `${questionPath(w)}/regrade-requests`,
      payload: { submissionId: answerOf(w, 0), reason: 'Please look again.' },
    }),
    // Asking for a regrade is the student's own act.
    expect: both(403),
  },
  {
    route: 'GET /api/courses/:id/regrade-requests',
    request: (w) => ({ method: 'GET', url: `/api/courses/${w.courseId}/regrade-requests?status=all` }),
    expect: both(200),
  },
  {
    route: 'POST /api/regrade-requests/:id/ai-recheck',
    request: (w, caller) => ({ method: 'POST', url: `/api/regrade-requests/${w.regradeRequests[caller]}/ai-recheck` }),
    expect: both(200),
  },
  {
    route: 'POST /api/regrade-requests/:id/resolve',
    request: (w, caller) => ({
      method: 'POST',
      url: `/api/regrade-requests/${w.regradeRequests[caller]}/resolve`,
      payload: { decision: 'reject', reply: 'The grade stands.' },
    }),
    expect: both(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/grade-release',
    request: (w) => ({ method: 'POST', url: `${questionPath(w)}/grade-release`, payload: { released: true } }),
    expect: ownerOnly(200),
  },
  {
    // Decision 0088: turning on the expected answer queues a refresh of the suggestions; its answer names no one.
    route: 'PATCH /api/assignments/:assignmentId/questions/:questionId/feedback-settings',
    request: (w) => ({
      method: 'PATCH',
      url: `${questionPath(w)}/feedback-settings`,
      payload: { showExpectedAnswer: true },
    }),
    expect: ownerOnly(200),
  },

  // ---- last: work that rewrites the rubric and the grades, and the ends of sessions
  {
    route: 'PATCH /api/assignments/:assignmentId/questions/:questionId/save-rubric',
    request: (w) => ({
      method: 'PATCH',
      url: `${questionPath(w)}/save-rubric`,
      payload: {
        questionText: 'What is 2 + 2?',
        solutionText: '2 + 2 = 4',
        items: [
          { id: 'item-value', criterion: 'Gives the value 4', points: 5 },
          { id: 'item-why', criterion: 'Explains the addition', points: 5 },
        ],
      },
    }),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/generate-rubric',
    request: (w) => ({ method: 'POST', url: `${questionPath(w)}/generate-rubric` }),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/submissions/:submissionId/reopen',
    request: (w) => ({ method: 'POST', url: `${questionPath(w)}/submissions/${answerOf(w, 0)}/reopen` }),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/grade-all',
    request: (w) => ({ method: 'POST', url: `${questionPath(w)}/grade-all` }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/grade-all/progress',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/grade-all/progress` }),
    expect: both(200),
  },
  {
    route: 'POST /api/auth/logout',
    freshSession: true,
    request: () => ({ method: 'POST', url: '/api/auth/logout' }),
    expect: both(200),
  },
  {
    route: 'POST /api/auth/logout-everywhere',
    freshSession: true,
    request: () => ({ method: 'POST', url: '/api/auth/logout-everywhere' }),
    expect: both(200),
  },

  // ---- issue 29: a student's own pending invitations (staff have none)
  { route: 'GET /api/invitations', request: () => ({ method: 'GET', url: '/api/invitations' }), expect: both(200) },

  // ---- issue 31: the course's AI provider and what AI costs; amounts and runs, never names
  {
    route: 'GET /api/courses/:id/ai-settings',
    request: (w) => ({ method: 'GET', url: `/api/courses/${w.courseId}/ai-settings` }),
    expect: both(200),
  },
  {
    route: 'PATCH /api/courses/:id/ai-settings',
    request: (w) => ({ method: 'PATCH', url: `/api/courses/${w.courseId}/ai-settings`, payload: { confirmAbove: 2 } }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/courses/:id/ai-reader',
    request: (w) => ({ method: 'GET', url: `/api/courses/${w.courseId}/ai-reader` }),
    expect: both(200),
  },
  {
    route: 'GET /api/courses/:id/ai-spend',
    request: (w) => ({ method: 'GET', url: `/api/courses/${w.courseId}/ai-spend` }),
    expect: both(200),
  },
  {
    route: 'GET /api/assignments/:id/ai-spend',
    request: (w) => ({ method: 'GET', url: `${assignmentPath(w)}/ai-spend` }),
    expect: both(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/grade-all/estimate',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/grade-all/estimate` }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/grade-all/spend',
    request: async (w) => ({
      method: 'GET',
      url: `${questionPath(w)}/grade-all/spend?batchId=${await gradeAllBatch(w)}`,
    }),
    expect: both(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/grade-all/stop',
    request: async (w) => ({
      method: 'POST',
      url: `${questionPath(w)}/grade-all/stop`,
      payload: { batchId: await gradeAllBatch(w) },
    }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/submissions/:submissionId/ai-runs',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/submissions/${answerOf(w, 0)}/ai-runs` }),
    expect: both(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/resuggest/estimate',
    request: (w) => ({ method: 'GET', url: `${questionPath(w)}/resuggest/estimate` }),
    expect: both(200),
  },
  // ---- issue 31, item 5: model checks name answers by their place in the sample, never a student
  {
    route: 'GET /api/courses/:id/ai-model-checks/estimate',
    request: (w) => ({ method: 'GET', url: `/api/courses/${w.courseId}/ai-model-checks/estimate?providerId=builtin` }),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/courses/:id/ai-model-checks',
    request: (w) => ({
      method: 'POST',
      url: `/api/courses/${w.courseId}/ai-model-checks`,
      payload: { providerId: 'builtin' },
    }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/courses/:id/ai-model-checks/:checkId',
    request: async (w) => ({
      method: 'GET',
      url: `/api/courses/${w.courseId}/ai-model-checks/${await finishedModelCheck(w)}`,
    }),
    expect: both(200),
  },
  {
    route: 'GET /api/courses/:id/ai-model-checks',
    request: (w) => ({ method: 'GET', url: `/api/courses/${w.courseId}/ai-model-checks` }),
    expect: both(200),
  },

  // ---- issue 32: LTI. Registrations, keys and launches name no student of the course; a launch
  // without a platform's id_token is refused alike (lti-launch.test.ts drives real launches)
  { route: 'GET /api/lti/jwks', request: () => ({ method: 'GET', url: '/api/lti/jwks' }), expect: both(200) },
  { route: 'GET /api/lti/tool', request: () => ({ method: 'GET', url: '/api/lti/tool' }), expect: both(200) },
  {
    route: 'POST /api/lti/keys/rotate',
    request: () => ({ method: 'POST', url: '/api/lti/keys/rotate' }),
    expect: both(403),
  },
  { route: 'GET /api/lti/platforms', request: () => ({ method: 'GET', url: '/api/lti/platforms' }), expect: both(200) },
  {
    route: 'POST /api/lti/platforms',
    request: (w) => {
      const lms = `https://lms-${w.unique()}.example.edu`;
      return {
        method: 'POST',
        url: '/api/lti/platforms',
        payload: {
          name: 'An LMS',
          issuer: lms,
          clientId: `client-${w.unique()}`,
          deploymentIds: ['deployment-1'],
          authLoginUrl: `${lms}/auth`,
          authTokenUrl: `${lms}/token`,
          keysetUrl: `${lms}/jwks`,
        },
      };
    },
    expect: both(201),
  },
  {
    route: 'POST /api/lti/platforms/:id/deployments',
    request: () => ({
      method: 'POST',
      url: '/api/lti/platforms/00000000-0000-4000-8000-000000000000/deployments',
      payload: { deploymentIds: ['deployment-2'] },
    }),
    expect: both(404),
  },
  {
    route: 'DELETE /api/lti/platforms/:id',
    request: () => ({ method: 'DELETE', url: '/api/lti/platforms/00000000-0000-4000-8000-000000000000' }),
    expect: both(404),
  },
  { route: 'GET /api/lti/login', request: () => ({ method: 'GET', url: '/api/lti/login' }), expect: both(400) },
  {
    route: 'POST /api/lti/login',
    request: () => ({ method: 'POST', url: '/api/lti/login', payload: {} }),
    expect: both(400),
  },
  {
    route: 'POST /api/lti/launch',
    request: () => ({ method: 'POST', url: '/api/lti/launch', payload: { state: 'none' } }),
    expect: both(400),
  },
  {
    route: 'POST /api/lti/handoff',
    request: () => ({ method: 'POST', url: '/api/lti/handoff', payload: { code: 'not-a-code' } }),
    expect: both(400),
  },
  {
    route: 'POST /api/lti/account-link',
    request: () => ({
      method: 'POST',
      url: '/api/lti/account-link',
      payload: { code: 'not-a-code', email: 'nobody@example.edu', password: 'not-a-password' },
    }),
    expect: both(400),
  },
  {
    route: 'POST /api/lti/contexts/:id/link',
    request: (w) => ({
      method: 'POST',
      url: '/api/lti/contexts/00000000-0000-4000-8000-000000000000/link',
      payload: { courseId: w.courseId },
    }),
    expect: both(404),
  },
  {
    route: 'POST /api/courses/:id/lti-roster-sync',
    request: (w) => ({ method: 'POST', url: `/api/courses/${w.courseId}/lti-roster-sync` }),
    expect: ownerOnly(400),
  },
  {
    route: 'GET /api/courses/:id/lti-links',
    request: (w) => ({ method: 'GET', url: `/api/courses/${w.courseId}/lti-links` }),
    expect: both(200),
  },
  {
    // No LMS behind the walk's course: an empty list (lti-grade-passback.test.ts shows labels on real posts).
    route: 'GET /api/assignments/:id/lti-grade-passback',
    request: (w) => ({ method: 'GET', url: `${assignmentPath(w)}/lti-grade-passback` }),
    expect: both(200),
  },
  {
    route: 'POST /api/assignments/:id/lti-grade-passback',
    request: (w) => ({ method: 'POST', url: `${assignmentPath(w)}/lti-grade-passback` }),
    expect: ownerOnly(400),
  },
  {
    route: 'POST /api/lti/deep-links',
    request: (w) => ({
      method: 'POST',
      url: '/api/lti/deep-links',
      payload: { code: 'not-a-code', assignmentId: w.assignmentId },
    }),
    expect: both(400),
  },
];

beforeAll(async () => {
  inbox = await SmtpInbox.start();
  t = await createTestApp(
    { SMTP_URL: inbox.url, MAIL_FROM: 'Gradewise <grading@school.test>', PUBLIC_URL },
    {
      withJobs: true,
    },
  );
  const owner = await signUp('Prof Walker', 'prof.walker@school.test', 'instructor');
  const ta = await signUp('Tomas Assistant', 'tomas.assistant@school.test', 'instructor');
  const students: TestUser[] = [];
  for (const person of CLASS) students.push(await signUp(person.name, person.email, 'student'));
  const course = await createCourse(t.app, owner, { title: 'Walked course' });
  await addStudents(
    t.app,
    owner,
    course._id,
    students.map((student) => student.email),
  );
  await addTa(t.app, owner, course._id, ta);
  const assignment = await createAssignment(t.app, owner, course._id, { title: 'Walked homework' });
  const question = await createQuestion(t.app, owner, assignment._id, { title: 'Sum' });
  const at = { assignmentId: assignment._id, questionId: question._id };
  await saveRubric(t.app, owner, at, {
    questionText: 'What is 2 + 2?',
    solutionText: '2 + 2 = 4',
    items: [
      { id: 'item-value', criterion: 'Gives the value 4', points: 6 },
      { id: 'item-why', criterion: 'Explains the addition', points: 4 },
    ],
  });
  const submissions: World['submissions'] = [];
  for (const [index, student] of students.entries()) {
    const form = await multipart({ file: pdfPart(await makePdf(CLASS[index]!.answer)) });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment._id}/questions/${question._id}/submit`,
      headers: { ...student.auth, ...form.headers },
      payload: form.payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    const submission = response.json().submission;
    submissions.push({ _id: submission._id, fileUrl: submission.file });
  }
  // Two answers graded and saved (each open to a regrade request), two suggested only.
  for (const index of [0, 1]) {
    await gradeWithAi(t.app, owner, { ...at, submissionId: submissions[index]!._id });
    await saveGrade(t.app, owner, { ...at, submissionId: submissions[index]!._id, points: 10 }, [
      { text: 'No explanation.', pointsDeducted: 4, accepted: true, rubricItemId: 'item-why' },
    ]);
  }
  for (const index of [2, 3]) await gradeWithAi(t.app, owner, { ...at, submissionId: submissions[index]!._id });
  const requests = [];
  for (const index of [0, 1]) {
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment._id}/questions/${question._id}/regrade-requests`,
      headers: students[index]!.auth,
      payload: { submissionId: submissions[index]!._id, reason: 'I did explain it on the second line.' },
    });
    expect(created.statusCode, created.body).toBe(201);
    requests.push(created.json().request._id as string);
  }
  const anonymous = await t.app.inject({
    method: 'PUT',
    url: `/api/assignments/${assignment._id}/anonymous-grading`,
    headers: owner.auth,
    payload: { isAnonymous: true },
  });
  expect(anonymous.statusCode, anonymous.body).toBe(200);
  let counter = 0;
  world = {
    owner,
    ta,
    students,
    courseId: course._id,
    assignmentId: assignment._id,
    questionId: question._id,
    submissions,
    regradeRequests: { owner: requests[0]!, ta: requests[1]! },
    unique: () => `${Date.now()}-${(counter += 1)}`,
  };
});

afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

/** Every name, email and user id of a student of the course (the walk adds some as it goes). */
function leaksOf(text: string): string[] {
  const lower = text.toLowerCase();
  return everyStudent
    .flatMap((student) => [student.name, student.email, student.id])
    .filter((identifier) => lower.includes(identifier.toLowerCase()));
}

function everythingIn(response: LightMyRequestResponse): string {
  return `${JSON.stringify(response.headers)}\n${response.rawPayload.toString('latin1')}\n${response.body}`;
}

describe('anonymity is one rule: every route staff reach of an anonymous assignment', () => {
  it('has exactly one entry for every registered /api route', () => {
    const registered = t.app.apiRoutes
      .filter((route) => route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url}`);
    const walked = WALK.map((entry) => entry.route);
    expect({
      missing: registered.filter((route) => !walked.includes(route)),
      stale: walked.filter((route) => !registered.includes(route)),
      duplicated: walked.filter((route, index) => walked.indexOf(route) !== index),
    }).toEqual({ missing: [], stale: [], duplicated: [] });
  });

  it("class lists are the course's, never an assignment's or a question's", () => {
    for (const entry of WALK.filter((candidate) => candidate.classList)) {
      expect(entry.route, entry.classList).toMatch(/^[A-Z]+ \/api\/courses\/:id(\/|$)/);
    }
  });

  it('no answer, export, header or email carries a student name, email or user id; the reveals are recorded', async () => {
    const mailSince = inbox.received.length;
    const statuses: Record<string, Record<Caller, number>> = {};
    const leaks: Record<string, string[]> = {};
    for (const entry of WALK) {
      statuses[entry.route] = { owner: 0, ta: 0 };
      for (const caller of CALLERS) {
        const user = callerUser(caller);
        const request = await entry.request(world, caller);
        if (entry.freshSession) await logInAgain(user);
        const revealsBefore = entry.reveal && caller === 'owner' ? await revealCount() : 0;
        const response = await t.app.inject({ ...request, headers: { ...(request.headers ?? {}), ...user.auth } });
        if (entry.freshSession) await logInAgain(user);
        statuses[entry.route]![caller] = response.statusCode;
        const found = leaksOf(everythingIn(response));
        if (entry.reveal && caller === 'owner' && response.statusCode === 200) {
          // Named on purpose (a gradebook needs names), and recorded each time.
          expect(found.length, `${entry.route}: the reveal names the class`).toBeGreaterThan(0);
          expect(await revealCount(), `${entry.route}: recorded`).toBe(revealsBefore + 1);
        } else if (!entry.classList && found.length > 0) {
          leaks[`${caller} ${entry.route}`] = found;
        }
      }
    }
    expect(leaks).toEqual({});
    expect(statuses).toEqual(Object.fromEntries(WALK.map((entry) => [entry.route, entry.expect])));

    // Whatever the walk mailed to anyone but a student about themself (sign-ups of new staff,
    // resets of the callers' own passwords) names no student.
    const studentAddresses = new Set(everyStudent.map((student) => student.email));
    const mailed = inbox.received
      .slice(mailSince)
      .filter((mail) => !mail.to.every((address) => studentAddresses.has(address)));
    expect(mailed.length).toBeGreaterThan(0);
    for (const mail of mailed) expect(leaksOf(`${mail.to.join(' ')}\n${mail.subject}\n${mail.text}`)).toEqual([]);
  });
});

async function revealCount(): Promise<number> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/assignments/${world.assignmentId}/identity-reveals`,
    headers: world.owner.auth,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().reveals.length;
}
