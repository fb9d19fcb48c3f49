import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { Access } from '../src/http/access.ts';
import { insertHandoff, upsertContext } from '../src/models/lti.ts';
import { insertGradingBatch } from '../src/models/grading-batches.ts';
import {
  addStudents,
  addTa,
  createCourse,
  createCourseWorld,
  submitAnswer,
  type CourseWorld,
} from './support/course-fixtures.ts';
import { makePdf, makeWorkbook } from './support/files.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { multipart, pdfPart } from './support/multipart.ts';
import { currentGradeId } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Who may call what: every /api route x every kind of caller, with the status each one gets.
 * The table is the authorization contract of the API; it fails when a registered route has no row,
 * so a new route cannot ship without its row.
 *
 * To add a route: add one row below with
 * - `route`: method and URL exactly as registered (e.g. 'POST /api/assignments/:assignmentId/questions/:questionId/grade/:submissionId');
 * - `access`: the route's config.access (checked against the registered route);
 * - `request`: builds a *valid* request from the fixture (ids, body), so the status reflects only who calls;
 * - `expect`: the status for each caller (the presets below cover the usual patterns).
 * HEAD routes that Fastify adds for each GET are covered by the GET row.
 */
type Caller = 'anonymous' | 'enrolledStudent' | 'otherStudent' | 'owner' | 'ta' | 'otherInstructor' | 'otherTa';
const CALLERS: Caller[] = ['anonymous', 'enrolledStudent', 'otherStudent', 'owner', 'ta', 'otherInstructor', 'otherTa'];

interface Fixture {
  world: CourseWorld;
  /** A student enrolled in another course (of the other instructor), not in the world's course. */
  otherStudent: TestUser;
  /** An instructor who owns another course. */
  otherInstructor: TestUser;
  /** A teaching assistant of the world's course (an instructor account with a staff seat). */
  ta: TestUser;
  /** A teaching assistant of the other instructor's course: staff elsewhere, a stranger here. */
  otherTa: TestUser;
  /** The enrolled student's submission to the world's question. */
  submission: any;
  /** Unique suffixes, so repeated creating requests never collide. */
  unique(): string;
}

interface MatrixRow {
  route: string;
  access: Access;
  request(fixture: Fixture): InjectOptions | Promise<InjectOptions>;
  expect: Record<Caller, number>;
  /**
   * Routes that end sessions (logout, sign out everywhere): each caller calls with a token of a
   * fresh login, and gets a new one afterwards, so the rows after it still have live tokens.
   */
  freshSession?: boolean;
}

// Presets: the usual shapes of the table.
const everyone = (status: number): Record<Caller, number> => ({
  anonymous: status,
  enrolledStudent: status,
  otherStudent: status,
  owner: status,
  ta: status,
  otherInstructor: status,
  otherTa: status,
});
const everyoneSignedIn = (status: number): Record<Caller, number> => ({ ...everyone(status), anonymous: 401 });
/** Readable by the course's owner, its TAs and its enrolled students; anything in the course is 404 to the rest. */
const courseMembers = (status = 200): Record<Caller, number> => ({
  anonymous: 401,
  enrolledStudent: status,
  otherStudent: 404,
  owner: status,
  ta: status,
  otherInstructor: 404,
  otherTa: 404,
});
/**
 * Owner-only ("manage") actions on 'instructor' routes: students are turned away by role (403), a
 * TA by the course policy (403: they see the course but may not manage it), other instructors and
 * other courses' TAs cannot see the course (404).
 */
const ownerOnly = (status: number): Record<Caller, number> => ({
  anonymous: 401,
  enrolledStudent: 403,
  otherStudent: 403,
  owner: status,
  ta: 403,
  otherInstructor: 404,
  otherTa: 404,
});

/**
 * Owner-only actions on 'user' routes, decided by the course policy: an enrolled student or a TA
 * can see the question but not act (403); anyone outside the course cannot see it (404).
 */
const ownerOnlyInCourse = (status: number): Record<Caller, number> => ({
  anonymous: 401,
  enrolledStudent: 403,
  otherStudent: 404,
  owner: status,
  ta: 403,
  otherInstructor: 404,
  otherTa: 404,
});

/**
 * Grading actions on 'user' routes ("may grade"): the owner and the course's TAs; an enrolled
 * student is refused (403); anyone outside the course, a TA of another course included, gets 404.
 */
const gradersInCourse = (status: number): Record<Caller, number> => ({
  ...ownerOnlyInCourse(status),
  ta: status,
});

const questionPath = (f: Fixture) => `/api/assignments/${f.world.assignment._id}/questions/${f.world.question._id}`;

/** A Grade All batch of the fixture's question (a row, as Grade All writes it), for Stop and its spend. */
async function batchOf(f: Fixture): Promise<string> {
  const batch = await insertGradingBatch(t.ctx.db, {
    id: crypto.randomUUID(),
    questionId: f.world.question._id,
    requestedById: f.world.instructor.id,
    total: 0,
  });
  return batch.id;
}

/** The grade of the fixture's submission saved now (what a grading screen opened now starts from). */
const currentGradeOf = (f: Fixture) =>
  currentGradeId(t.app, f.world.instructor, {
    assignmentId: f.world.assignment._id,
    questionId: f.world.question._id,
    submissionId: f.submission._id,
  });

async function multipartRequest(
  method: 'POST',
  url: string,
  parts: Parameters<typeof multipart>[0],
): Promise<InjectOptions> {
  const form = await multipart(parts);
  return { method, url, headers: form.headers, payload: form.payload };
}

let answerGroup: Promise<{ from: string }> | undefined;

/**
 * For Apply to group: a graded answer with an alike, ungraded classmate's (both read by grading, so
 * they have text to group). Built once, through the API, the first time a row needs it.
 */
function ensureAnswerGroup(f: Fixture): Promise<{ from: string }> {
  answerGroup ??= (async () => {
    const { world } = f;
    // Two new students: the world's student is graded by now and may not resubmit.
    const first = await registerUser(t.app, { name: 'Alike First' });
    const second = await registerUser(t.app, { name: 'Alike Second' });
    await addStudents(t.app, world.instructor, world.course._id, [first.email, second.email]);
    const text = 'The answer is 4 because 2 + 2 = 4.';
    const from = await submitAnswer(t.app, first, world.assignment._id, world.question._id, text);
    const alike = await submitAnswer(t.app, second, world.assignment._id, world.question._id, text);
    const base = questionPath(f);
    for (const submission of [from, alike]) {
      const graded = await t.app.inject({
        method: 'POST',
        url: `${base}/grade/${submission._id}`,
        headers: world.instructor.auth,
      });
      if (graded.statusCode !== 200) throw new Error(`grade failed: ${graded.body}`);
    }
    const saved = await t.app.inject({
      method: 'POST',
      url: `${base}/save-grade/${from._id}`,
      headers: world.instructor.auth,
      payload: { grade: 10, feedback: '', comments: [], expectedGradeId: null },
    });
    if (saved.statusCode !== 200) throw new Error(`save grade failed: ${saved.body}`);
    return { from: from._id };
  })();
  return answerGroup;
}

const regradeRequests = new Map<string, Promise<{ requestId: string }>>();

/**
 * For the staff regrade routes: an open regrade request (one per `key`, so resolving one leaves the
 * others open) on a fresh question with a rubric, answered by a new student and graded, through the API.
 */
function ensureRegradeRequest(f: Fixture, key: string): Promise<{ requestId: string }> {
  let made = regradeRequests.get(key);
  if (!made) {
    made = (async () => {
      const { world } = f;
      const student = await registerUser(t.app, { name: `Appealing ${key}` });
      await addStudents(t.app, world.instructor, world.course._id, [student.email]);
      const { question } = await gradedQuestionOf(f, student);
      const base = `/api/assignments/${world.assignment._id}/questions/${question._id}`;
      const created = await t.app.inject({
        method: 'POST',
        url: `${base}/regrade-requests`,
        headers: student.auth,
        payload: { submissionId: question.submissionId, reason: 'Please look again.' },
      });
      if (created.statusCode !== 201) throw new Error(`regrade request failed: ${created.body}`);
      return { requestId: created.json().request._id };
    })();
    regradeRequests.set(key, made);
  }
  return made;
}

/** A fresh question of the world's assignment with a rubric, answered by `student` and graded 10 / 10. */
async function gradedQuestionOf(
  f: Fixture,
  student: TestUser,
): Promise<{ question: { _id: string; submissionId: string } }> {
  const { world } = f;
  const form = await multipart({
    title: 'Appeal',
    points: '10',
    questionFile: pdfPart(await makePdf('What is 2 + 2?')),
  });
  const createdQuestion = await t.app.inject({
    method: 'POST',
    url: `/api/assignments/${world.assignment._id}/questions`,
    headers: { ...world.instructor.auth, ...form.headers },
    payload: form.payload,
  });
  if (createdQuestion.statusCode !== 201) throw new Error(`create question failed: ${createdQuestion.body}`);
  const questionId = createdQuestion.json().question._id as string;
  const base = `/api/assignments/${world.assignment._id}/questions/${questionId}`;
  const rubric = await t.app.inject({
    method: 'PATCH',
    url: `${base}/save-rubric`,
    headers: world.instructor.auth,
    payload: {
      questionText: 'What is 2 + 2?',
      solutionText: '4',
      items: [{ id: 'item-1', criterion: 'Says 4', points: 10 }],
    },
  });
  if (rubric.statusCode !== 200) throw new Error(`save rubric failed: ${rubric.body}`);
  const submission = await submitAnswer(t.app, student, world.assignment._id, questionId, 'It is 4.');
  const saved = await t.app.inject({
    method: 'POST',
    url: `${base}/save-grade/${submission._id}`,
    headers: world.instructor.auth,
    payload: { grade: 10, feedback: '', comments: [], expectedGradeId: null },
  });
  if (saved.statusCode !== 200) throw new Error(`save grade failed: ${saved.body}`);
  return { question: { _id: questionId, submissionId: submission._id } };
}

let modelCheck: Promise<string> | undefined;

/**
 * For the model-check routes: a saved grade on a question with a rubric (what a check samples),
 * and one check the owner started on the built-in grader, through the API, the first time a row needs it.
 */
function ensureModelCheck(f: Fixture): Promise<string> {
  modelCheck ??= (async () => {
    await ensureRegradeRequest(f, 'model-check');
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${f.world.course._id}/ai-model-checks`,
      headers: f.world.instructor.auth,
      payload: { providerId: 'builtin' },
    });
    if (started.statusCode !== 200) throw new Error(`model check failed: ${started.body}`);
    return started.json().id as string;
  })();
  return modelCheck;
}

export const MATRIX: MatrixRow[] = [
  // ---- auth
  {
    route: 'POST /api/auth/register',
    access: 'public',
    request: (f) => ({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: 'New Person',
        email: `new-${f.unique()}@example.edu`,
        password: 'long-enough-password',
        role: 'student',
      },
    }),
    expect: everyone(201),
  },
  {
    route: 'POST /api/auth/login',
    access: 'public',
    request: (f) => ({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: f.world.student.email, password: f.world.student.password },
    }),
    expect: everyone(200),
  },
  {
    route: 'GET /api/auth/user',
    access: 'user',
    request: () => ({ method: 'GET', url: '/api/auth/user' }),
    expect: everyoneSignedIn(200),
  },
  {
    route: 'GET /api/auth/settings',
    access: 'public',
    request: () => ({ method: 'GET', url: '/api/auth/settings' }),
    expect: everyone(200),
  },
  {
    // No SMTP in this app: no link can be valid, so everyone reaches the handler and gets 400.
    route: 'POST /api/auth/verify-email',
    access: 'public',
    request: () => ({ method: 'POST', url: '/api/auth/verify-email', payload: { token: 'not-a-real-link' } }),
    expect: everyone(400),
  },
  {
    // Without SMTP password reset says it is not available (test/email-ownership.test.ts has it with SMTP).
    route: 'POST /api/auth/forgot-password',
    access: 'public',
    request: (f) => ({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: f.world.student.email } }),
    expect: everyone(503),
  },
  {
    route: 'POST /api/auth/reset-password',
    access: 'public',
    request: () => ({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: 'not-a-real-link', password: 'long-enough-password' },
    }),
    expect: everyone(503),
  },
  {
    route: 'POST /api/auth/logout',
    access: 'user',
    freshSession: true,
    request: () => ({ method: 'POST', url: '/api/auth/logout' }),
    expect: everyoneSignedIn(200),
  },
  {
    route: 'POST /api/auth/logout-everywhere',
    access: 'user',
    freshSession: true,
    request: () => ({ method: 'POST', url: '/api/auth/logout-everywhere' }),
    expect: everyoneSignedIn(200),
  },
  {
    // A wrong current password: every signed-in caller reaches the check (400) and nothing changes.
    route: 'POST /api/auth/change-password',
    access: 'user',
    request: () => ({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { currentPassword: 'not-my-password', newPassword: 'a brand new passphrase' },
    }),
    expect: everyoneSignedIn(400),
  },
  {
    route: 'POST /api/auth/delete-account',
    access: 'user',
    request: () => ({ method: 'POST', url: '/api/auth/delete-account', payload: { password: 'not-my-password' } }),
    expect: everyoneSignedIn(400),
  },

  // ---- courses and rosters
  {
    route: 'GET /api/courses',
    access: 'user',
    request: () => ({ method: 'GET', url: '/api/courses' }),
    expect: everyoneSignedIn(200),
  },
  {
    route: 'POST /api/courses',
    access: 'instructor',
    request: (f) => multipartRequest('POST', '/api/courses', { title: `Course ${f.unique()}` }),
    // A TA is an instructor account: they may create courses of their own.
    expect: {
      anonymous: 401,
      enrolledStudent: 403,
      otherStudent: 403,
      owner: 201,
      ta: 201,
      otherInstructor: 201,
      otherTa: 201,
    },
  },
  {
    route: 'GET /api/courses/:id',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.world.course._id}` }),
    expect: courseMembers(),
  },
  {
    // The caller's own invitations only: anyone signed in, nothing about anyone else.
    route: 'GET /api/invitations',
    access: 'user',
    request: () => ({ method: 'GET', url: '/api/invitations' }),
    expect: everyoneSignedIn(200),
  },
  {
    route: 'POST /api/courses/:id/add-students',
    access: 'instructor',
    request: (f) => ({
      method: 'POST',
      url: `/api/courses/${f.world.course._id}/add-students`,
      payload: { emails: [`invitee-${f.unique()}@example.edu`] },
    }),
    expect: ownerOnly(200),
  },
  {
    // Each call: a fresh invitation whose address has just registered (no SMTP), for the owner to confirm.
    route: 'POST /api/courses/:id/confirm-student',
    access: 'instructor',
    request: async (f) => {
      const email = `registrant-${f.unique()}@example.edu`;
      await addStudents(t.app, f.world.instructor, f.world.course._id, [email]);
      await registerUser(t.app, { email });
      return { method: 'POST', url: `/api/courses/${f.world.course._id}/confirm-student`, payload: { email } };
    },
    expect: ownerOnly(200),
  },
  {
    // Each call: a fresh invitation whose address someone has just registered, for the owner to decline.
    route: 'POST /api/courses/:id/decline-registrant',
    access: 'instructor',
    request: async (f) => {
      const email = `declined-${f.unique()}@example.edu`;
      await addStudents(t.app, f.world.instructor, f.world.course._id, [email]);
      await registerUser(t.app, { email });
      return { method: 'POST', url: `/api/courses/${f.world.course._id}/decline-registrant`, payload: { email } };
    },
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/courses/:id/add-students/excel',
    access: 'instructor',
    request: (f) =>
      multipartRequest('POST', `/api/courses/${f.world.course._id}/add-students/excel`, {
        excelFile: {
          content: makeWorkbook({ Roster: [['Email'], [`sheet-${f.unique()}@example.edu`]] }),
          filename: 'roster.xlsx',
        },
      }),
    expect: ownerOnly(200),
  },

  // ---- assignments
  {
    route: 'GET /api/assignments',
    access: 'user',
    request: () => ({ method: 'GET', url: '/api/assignments' }),
    expect: everyoneSignedIn(200),
  },
  {
    route: 'POST /api/assignments',
    access: 'instructor',
    request: (f) => ({
      method: 'POST',
      url: '/api/assignments',
      payload: { title: `Homework ${f.unique()}`, courseId: f.world.course._id },
    }),
    expect: ownerOnly(201),
  },
  {
    route: 'GET /api/assignments/:id',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.world.assignment._id}` }),
    expect: courseMembers(),
  },
  {
    route: 'PATCH /api/assignments/:id/settings',
    access: 'instructor',
    request: (f) => ({
      method: 'PATCH',
      url: `/api/assignments/${f.world.assignment._id}/settings`,
      payload: { allowsResubmission: false },
    }),
    // The assignment's rules are its owner's; a student is turned away by role, another instructor cannot see it.
    expect: ownerOnly(200),
  },
  {
    route: 'PUT /api/assignments/:id/anonymous-grading',
    access: 'instructor',
    request: (f) => ({
      method: 'PUT',
      url: `/api/assignments/${f.world.assignment._id}/anonymous-grading`,
      payload: { isAnonymous: false },
    }),
    // Anonymity is one of the assignment's rules: its owner's alone.
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/assignments/:id/identity-reveals',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.world.assignment._id}/identity-reveals` }),
    // Who saw names during anonymity is the course team's record (TAs too); students 403, strangers 404.
    expect: gradersInCourse(200),
  },

  // ---- questions
  {
    route: 'GET /api/assignments/:assignmentId/questions',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.world.assignment._id}/questions` }),
    expect: courseMembers(),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions',
    access: 'instructor',
    request: async (f) =>
      multipartRequest('POST', `/api/assignments/${f.world.assignment._id}/questions`, {
        title: 'Matrix question',
        points: '5',
        questionFile: pdfPart(await makePdf('Q')),
      }),
    expect: ownerOnly(201),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}?includeSubmissions=1` }),
    expect: courseMembers(),
  },

  // ---- grading report: before the submission rows, which add newer versions (a student reads only the report of their latest)
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/grade/:submissionId/report',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/grade/${f.submission._id}/report` }),
    // The submitting student reads their own report; a classmate or stranger cannot tell it exists.
    expect: courseMembers(),
  },

  // ---- submissions
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/submit',
    access: 'user',
    request: async (f) =>
      multipartRequest('POST', `${questionPath(f)}/submit`, { file: pdfPart(await makePdf('answer')) }),
    // The owner and TAs may see the question but submitting is a student's act: 403, not 404.
    expect: {
      anonymous: 401,
      enrolledStudent: 201,
      otherStudent: 404,
      owner: 403,
      ta: 403,
      otherInstructor: 404,
      otherTa: 404,
    },
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/upload-submission',
    access: 'instructor',
    request: async (f) =>
      multipartRequest('POST', `${questionPath(f)}/upload-submission`, {
        studentEmail: f.world.student.email,
        file: pdfPart(await makePdf('paper')),
      }),
    expect: ownerOnly(201),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/submissions/:submissionId/versions',
    access: 'instructor',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/submissions/${f.submission._id}/versions` }),
    // TAs grade, so they see the versions a grade may be about; a student is refused by role.
    expect: { ...ownerOnly(200), ta: 200 },
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/submissions/:submissionId/reopen',
    access: 'instructor',
    request: (f) => ({ method: 'POST', url: `${questionPath(f)}/submissions/${f.submission._id}/reopen` }),
    // Only the owner lets a student resubmit a graded answer; the student cannot reopen it themselves.
    expect: ownerOnly(200),
  },

  // ---- review loop: queue, rubric trial, grades CSV (owner only; access 'user', the course policy decides)
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/statistics',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/statistics` }),
    // Comparing graders and the AI is the course team's business (owner and TAs): students 403, strangers 404.
    expect: gradersInCourse(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/statistics',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.world.assignment._id}/statistics` }),
    expect: gradersInCourse(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/review-queue',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/review-queue` }),
    expect: gradersInCourse(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/rubric-trial',
    access: 'user',
    request: (f) => ({
      method: 'POST',
      url: `${questionPath(f)}/rubric-trial`,
      payload: {
        questionText: 'What is 2 + 2?',
        solutionText: '4',
        items: [{ criterion: 'Says 4', points: 10 }],
        sampleAnswer: 'It is 4.',
      },
    }),
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/grades.csv',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.world.assignment._id}/grades.csv` }),
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/grades.csv',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/grades.csv` }),
    expect: ownerOnlyInCourse(200),
  },

  // ---- accountable record: grade history, rubric versions, audit CSV (issue 12; staff of the course)
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/submissions/:submissionId/grade-history',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/submissions/${f.submission._id}/grade-history` }),
    // The student sees their grade in the report; the record of who changed what is the staff's (TAs too).
    expect: gradersInCourse(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/rubric-versions',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/rubric-versions` }),
    expect: gradersInCourse(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/audit.csv',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.world.assignment._id}/audit.csv` }),
    expect: gradersInCourse(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/audit.csv',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/audit.csv` }),
    expect: gradersInCourse(200),
  },

  // ---- grading engine (rubrics, AI grading as durable jobs, saved grades)
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/generate-rubric',
    access: 'user',
    request: (f) => ({ method: 'POST', url: `${questionPath(f)}/generate-rubric` }),
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'PATCH /api/assignments/:assignmentId/questions/:questionId/save-rubric',
    access: 'user',
    request: (f) => ({
      method: 'PATCH',
      url: `${questionPath(f)}/save-rubric`,
      payload: { questionText: 'What is 2 + 2?', solutionText: '4' },
    }),
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/grade/:submissionId',
    access: 'user',
    request: (f) => ({ method: 'POST', url: `${questionPath(f)}/grade/${f.submission._id}` }),
    expect: gradersInCourse(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/regrade/:submissionId',
    access: 'user',
    request: (f) => ({ method: 'POST', url: `${questionPath(f)}/regrade/${f.submission._id}` }),
    expect: gradersInCourse(200),
  },
  {
    // Each caller saves from the grade saved now, as a screen opened now would (so only who calls decides).
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/save-grade/:submissionId',
    access: 'user',
    request: async (f) => ({
      method: 'POST',
      url: `${questionPath(f)}/save-grade/${f.submission._id}`,
      payload: { grade: 10, feedback: '', comments: [], expectedGradeId: await currentGradeOf(f) },
    }),
    expect: gradersInCourse(200),
  },
  {
    // Each caller undoes a save the owner has just made: only its author may take a save back, so
    // the course's TA, who may grade, is refused it (403) like the enrolled student.
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/save-grade/:submissionId/undo',
    access: 'user',
    request: async (f) => {
      const saved = await t.app.inject({
        method: 'POST',
        url: `${questionPath(f)}/save-grade/${f.submission._id}`,
        headers: f.world.instructor.auth,
        payload: { grade: 10, feedback: '', comments: [], expectedGradeId: await currentGradeOf(f) },
      });
      if (saved.statusCode !== 200) throw new Error(`save grade failed: ${saved.body}`);
      return {
        method: 'POST',
        url: `${questionPath(f)}/save-grade/${f.submission._id}/undo`,
        payload: { gradeId: saved.json().grade._id },
      };
    },
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/grade-all',
    access: 'user',
    request: (f) => ({ method: 'POST', url: `${questionPath(f)}/grade-all` }),
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/grade-all/progress',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/grade-all/progress` }),
    expect: gradersInCourse(200),
  },

  // ---- issue 31: the course's AI provider, cost before and after, Stop
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/grade-all/estimate',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/grade-all/estimate` }),
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/grade-all/spend',
    access: 'user',
    request: async (f) => ({
      method: 'GET',
      url: `${questionPath(f)}/grade-all/spend?batchId=${await batchOf(f)}`,
    }),
    expect: gradersInCourse(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/grade-all/stop',
    access: 'user',
    request: async (f) => ({
      method: 'POST',
      url: `${questionPath(f)}/grade-all/stop`,
      payload: { batchId: await batchOf(f) },
    }),
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/submissions/:submissionId/ai-runs',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/submissions/${f.submission._id}/ai-runs` }),
    expect: gradersInCourse(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/resuggest/estimate',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/resuggest/estimate` }),
    expect: gradersInCourse(200),
  },
  {
    route: 'GET /api/courses/:id/ai-settings',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.world.course._id}/ai-settings` }),
    expect: gradersInCourse(200),
  },
  {
    route: 'PATCH /api/courses/:id/ai-settings',
    access: 'user',
    request: (f) => ({
      method: 'PATCH',
      url: `/api/courses/${f.world.course._id}/ai-settings`,
      payload: { confirmAbove: 2 },
    }),
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'GET /api/courses/:id/ai-reader',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.world.course._id}/ai-reader` }),
    expect: courseMembers(200),
  },
  {
    route: 'GET /api/assignments/:id/ai-spend',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.world.assignment._id}/ai-spend` }),
    expect: gradersInCourse(200),
  },
  {
    route: 'GET /api/courses/:id/ai-spend',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.world.course._id}/ai-spend` }),
    expect: gradersInCourse(200),
  },
  // ---- issue 31, item 5: a model check before switching (the owner runs it, staff read the history)
  {
    route: 'GET /api/courses/:id/ai-model-checks',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.world.course._id}/ai-model-checks` }),
    expect: gradersInCourse(200),
  },
  {
    route: 'GET /api/courses/:id/ai-model-checks/estimate',
    access: 'user',
    request: async (f) => {
      await ensureModelCheck(f);
      return { method: 'GET', url: `/api/courses/${f.world.course._id}/ai-model-checks/estimate?providerId=builtin` };
    },
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'POST /api/courses/:id/ai-model-checks',
    access: 'user',
    request: async (f) => {
      await ensureModelCheck(f);
      return {
        method: 'POST',
        url: `/api/courses/${f.world.course._id}/ai-model-checks`,
        payload: { providerId: 'builtin', sampleSize: 1 },
      };
    },
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'GET /api/courses/:id/ai-model-checks/:checkId',
    access: 'user',
    request: async (f) => ({
      method: 'GET',
      url: `/api/courses/${f.world.course._id}/ai-model-checks/${await ensureModelCheck(f)}`,
    }),
    expect: gradersInCourse(200),
  },

  // ---- AI spend: the limits left on the question's course (owner only)
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/ai-quota',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/ai-quota` }),
    expect: gradersInCourse(200),
  },

  // ---- learning from saved grades: suggestion summary and explicit re-suggest (owner only)
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/suggestion-summary',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/suggestion-summary` }),
    expect: gradersInCourse(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/resuggest',
    access: 'user',
    request: (f) => ({ method: 'POST', url: `${questionPath(f)}/resuggest`, payload: { answers: 1000 } }),
    expect: gradersInCourse(200),
  },

  // ---- answer groups (owner only; access 'user', the course policy decides; students never see groups)
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/answer-groups',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `${questionPath(f)}/answer-groups` }),
    expect: gradersInCourse(200),
  },
  {
    route: 'GET /api/assignments/:assignmentId/questions/:questionId/answer-groups/of/:submissionId',
    access: 'user',
    request: async (f) => ({
      method: 'GET',
      url: `${questionPath(f)}/answer-groups/of/${(await ensureAnswerGroup(f)).from}`,
    }),
    expect: gradersInCourse(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/answer-groups/apply',
    access: 'user',
    request: async (f) => ({
      method: 'POST',
      url: `${questionPath(f)}/answer-groups/apply`,
      payload: { fromSubmissionId: (await ensureAnswerGroup(f)).from },
    }),
    expect: gradersInCourse(200),
  },

  // ---- course staff (decision 0021): the owner adds and removes TAs; owner and TAs read the list
  {
    route: 'GET /api/courses/:id/staff',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.world.course._id}/staff` }),
    expect: gradersInCourse(200),
  },
  {
    // Each call names a fresh instructor account, so only who calls decides.
    route: 'POST /api/courses/:id/staff',
    access: 'instructor',
    request: async (f) => {
      const candidate = await registerUser(t.app, { role: 'instructor', email: `ta-${f.unique()}@example.edu` });
      return {
        method: 'POST',
        url: `/api/courses/${f.world.course._id}/staff`,
        payload: { email: candidate.email, role: 'ta' },
      };
    },
    expect: ownerOnly(201),
  },
  {
    // Each call: a fresh TA of the course, for the caller to remove (the fixture's own TA stays).
    route: 'DELETE /api/courses/:id/staff/:userId',
    access: 'instructor',
    request: async (f) => {
      const seat = await registerUser(t.app, { role: 'instructor', email: `seat-${f.unique()}@example.edu` });
      await addTa(t.app, f.world.instructor, f.world.course._id, seat);
      return { method: 'DELETE', url: `/api/courses/${f.world.course._id}/staff/${seat.id}` };
    },
    expect: ownerOnly(200),
  },

  // ---- work split and open answers (decision 0031): graders read, the owner splits
  {
    route: 'GET /api/courses/:id/work-split',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.world.course._id}/work-split` }),
    expect: gradersInCourse(200),
  },
  {
    // The same split each time (the TA grades the question), so only who calls decides.
    route: 'PUT /api/courses/:id/work-split/questions/:questionId',
    access: 'user',
    request: (f) => ({
      method: 'PUT',
      url: `/api/courses/${f.world.course._id}/work-split/questions/${f.world.question._id}`,
      payload: { graderIds: [] },
    }),
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'PUT /api/courses/:id/work-split/students',
    access: 'user',
    request: (f) => ({
      method: 'PUT',
      url: `/api/courses/${f.world.course._id}/work-split/students`,
      payload: { students: [{ studentId: f.world.student.id, graderId: null }] },
    }),
    expect: ownerOnlyInCourse(200),
  },
  {
    // Open or renew: the owner takes the lease, the TA is told the owner has it (still 200).
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/grade/:submissionId/lease',
    access: 'user',
    request: (f) => ({ method: 'POST', url: `${questionPath(f)}/grade/${f.submission._id}/lease` }),
    expect: gradersInCourse(200),
  },
  {
    route: 'DELETE /api/assignments/:assignmentId/questions/:questionId/grade/:submissionId/lease',
    access: 'user',
    request: (f) => ({ method: 'DELETE', url: `${questionPath(f)}/grade/${f.submission._id}/lease` }),
    expect: gradersInCourse(200),
  },

  // ---- release of grades and regrade requests (decision 0023)
  {
    route: 'POST /api/assignments/:id/grade-release',
    access: 'user',
    // Releasing what is not held changes nothing, so later rows still see every grade.
    request: (f) => ({
      method: 'POST',
      url: `/api/assignments/${f.world.assignment._id}/grade-release`,
      payload: { released: true },
    }),
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/grade-release',
    access: 'user',
    request: (f) => ({ method: 'POST', url: `${questionPath(f)}/grade-release`, payload: { released: true } }),
    expect: ownerOnlyInCourse(200),
  },
  // What the grader's comments may say of the expected answer (decision 0088): the owner's call.
  {
    route: 'PATCH /api/assignments/:assignmentId/questions/:questionId/feedback-settings',
    access: 'user',
    // The default (off), so the rows after it see the question as it was.
    request: (f) => ({
      method: 'PATCH',
      url: `${questionPath(f)}/feedback-settings`,
      payload: { showExpectedAnswer: false },
    }),
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'PATCH /api/assignments/:id/regrade-settings',
    access: 'user',
    request: (f) => ({
      method: 'PATCH',
      url: `/api/assignments/${f.world.assignment._id}/regrade-settings`,
      payload: { regradeWindowDays: 7, regradeRequestLimit: 50 },
    }),
    expect: ownerOnlyInCourse(200),
  },
  {
    route: 'POST /api/assignments/:assignmentId/questions/:questionId/regrade-requests',
    access: 'user',
    // Each caller asks about a fresh graded answer of the enrolled student: only that student may
    // (201); the owner and TAs see it but it is not theirs to appeal (403); outsiders cannot see it (404).
    request: async (f) => {
      const { question } = await gradedQuestionOf(f, f.world.student);
      return {
        method: 'POST',
        url: `/api/assignments/${f.world.assignment._id}/questions/${question._id}/regrade-requests`,
        payload: { submissionId: question.submissionId, reason: 'Please look again.' },
      };
    },
    expect: { ...ownerOnlyInCourse(403), enrolledStudent: 201 },
  },
  {
    route: 'GET /api/courses/:id/regrade-requests',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.world.course._id}/regrade-requests?status=all` }),
    expect: gradersInCourse(200),
  },
  {
    route: 'POST /api/regrade-requests/:id/resolve',
    access: 'user',
    request: async (f) => ({
      method: 'POST',
      // A fresh open request per caller: the owner's resolution would leave the TA nothing to resolve.
      url: `/api/regrade-requests/${(await ensureRegradeRequest(f, `resolve-${f.unique()}`)).requestId}/resolve`,
      payload: { decision: 'reject', reply: 'The grade stands.' },
    }),
    expect: gradersInCourse(200),
  },
  {
    route: 'POST /api/regrade-requests/:id/ai-recheck',
    access: 'user',
    request: async (f) => ({
      method: 'POST',
      url: `/api/regrade-requests/${(await ensureRegradeRequest(f, 'recheck')).requestId}/ai-recheck`,
    }),
    expect: gradersInCourse(200),
  },

  // ---- LTI 1.3 (issue 32, decision 0074): instructors register LMSs (each sees and removes their
  // own); the tool's JWKS, the login initiation, the launch and the handoff are public (the
  // platform's signed id_token, then a one-time code, is the credential)
  {
    route: 'GET /api/lti/jwks',
    access: 'public',
    request: () => ({ method: 'GET', url: '/api/lti/jwks' }),
    expect: everyone(200),
  },
  {
    route: 'GET /api/lti/tool',
    access: 'instructor',
    request: () => ({ method: 'GET', url: '/api/lti/tool' }),
    expect: anyInstructor(200),
  },
  {
    // Rotating the tool's key is for instructors who registered an LMS (here: the owner).
    route: 'POST /api/lti/keys/rotate',
    access: 'instructor',
    request: async (f) => {
      await ensureLtiPlatform(f);
      return { method: 'POST', url: '/api/lti/keys/rotate' };
    },
    expect: { ...anyInstructor(403), owner: 200 },
  },
  {
    route: 'GET /api/lti/platforms',
    access: 'instructor',
    request: () => ({ method: 'GET', url: '/api/lti/platforms' }),
    expect: anyInstructor(200),
  },
  {
    // Each call registers another issuer, so only who calls decides.
    route: 'POST /api/lti/platforms',
    access: 'instructor',
    request: (f) => ({ method: 'POST', url: '/api/lti/platforms', payload: ltiRegistration(f.unique()) }),
    expect: anyInstructor(201),
  },
  {
    route: 'POST /api/lti/platforms/:id/deployments',
    access: 'instructor',
    request: async (f) => ({
      method: 'POST',
      url: `/api/lti/platforms/${(await ensureLtiPlatform(f)).id}/deployments`,
      payload: { deploymentIds: [`deployment-${f.unique()}`] },
    }),
    expect: { ...anyInstructor(404), owner: 200 },
  },
  {
    // Each call: a fresh registration of the owner's, for the caller to remove.
    route: 'DELETE /api/lti/platforms/:id',
    access: 'instructor',
    request: async (f) => {
      const registered = await t.app.inject({
        method: 'POST',
        url: '/api/lti/platforms',
        headers: f.world.instructor.auth,
        payload: ltiRegistration(f.unique()),
      });
      if (registered.statusCode !== 201) throw new Error(`register LMS failed: ${registered.body}`);
      return { method: 'DELETE', url: `/api/lti/platforms/${registered.json()._id}` };
    },
    expect: { ...anyInstructor(404), owner: 200 },
  },
  {
    route: 'GET /api/lti/login',
    access: 'public',
    request: async (f) => ({ method: 'GET', url: `/api/lti/login?${new URLSearchParams(await ltiLogin(f))}` }),
    expect: everyone(302),
  },
  {
    route: 'POST /api/lti/login',
    access: 'public',
    request: async (f) => ({ method: 'POST', url: '/api/lti/login', payload: await ltiLogin(f) }),
    expect: everyone(302),
  },
  {
    // Without a platform's id_token every caller is refused alike (lti-launch.test.ts drives real launches).
    route: 'POST /api/lti/launch',
    access: 'public',
    request: () => ({ method: 'POST', url: '/api/lti/launch', payload: { state: 'none' } }),
    expect: everyone(400),
  },
  {
    route: 'POST /api/lti/handoff',
    access: 'public',
    request: () => ({ method: 'POST', url: '/api/lti/handoff', payload: { code: 'not-a-code' } }),
    expect: everyone(400),
  },
  {
    // The launch's link code is the permission (lti-account-link.test.ts drives real launches).
    route: 'POST /api/lti/account-link',
    access: 'public',
    request: () => ({
      method: 'POST',
      url: '/api/lti/account-link',
      payload: { code: 'not-a-code', email: 'nobody@example.edu', password: 'not-a-password' },
    }),
    expect: everyone(400),
  },
  {
    // Each call: a fresh LMS course whose first launch was the owner's; only they may link it.
    route: 'POST /api/lti/contexts/:id/link',
    access: 'instructor',
    request: async (f) => ({
      method: 'POST',
      url: `/api/lti/contexts/${await unlinkedLtiContext(f)}/link`,
      payload: { courseId: f.world.course._id },
    }),
    expect: { ...anyInstructor(404), owner: 200, ta: 404 },
  },
  {
    // Roster sync (NRPS) is the owner's; the fixture's course is in no LMS, so the owner is told
    // so (400) after everyone else was refused (lti-launch.test.ts syncs a real roster).
    route: 'POST /api/courses/:id/lti-roster-sync',
    access: 'user',
    request: (f) => ({ method: 'POST', url: `/api/courses/${f.world.course._id}/lti-roster-sync` }),
    expect: ownerOnlyInCourse(400),
  },
  {
    // The LMS courses linked to a course and their roster's state: the course's staff; the
    // fixture's course is linked to none (an empty list; lti-launch.test.ts reads a linked one).
    route: 'GET /api/courses/:id/lti-links',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/courses/${f.world.course._id}/lti-links` }),
    expect: gradersInCourse(200),
  },
  {
    // Where each student's score stands with the LMS (AGS): the course's staff; students 403,
    // strangers 404 (lti-grade-passback.test.ts reads real posts).
    route: 'GET /api/assignments/:id/lti-grade-passback',
    access: 'user',
    request: (f) => ({ method: 'GET', url: `/api/assignments/${f.world.assignment._id}/lti-grade-passback` }),
    expect: gradersInCourse(200),
  },
  {
    // Sending the grades again is the owner's; the fixture's course is in no LMS, so the owner is
    // told so (400) after everyone else was refused.
    route: 'POST /api/assignments/:id/lti-grade-passback',
    access: 'user',
    request: (f) => ({ method: 'POST', url: `/api/assignments/${f.world.assignment._id}/lti-grade-passback` }),
    expect: ownerOnlyInCourse(400),
  },
  {
    // The request's one-time code is the permission (it names the owner): each call a fresh one.
    route: 'POST /api/lti/deep-links',
    access: 'public',
    request: async (f) => ({
      method: 'POST',
      url: '/api/lti/deep-links',
      payload: { code: await ltiDeepLinkCode(f), assignmentId: f.world.assignment._id },
    }),
    expect: everyone(200),
  },

  // ---- files: the signed link is the permission, whoever holds it
  {
    route: 'GET /api/files/:fileId',
    access: 'signed-url',
    request: (f) => ({ method: 'GET', url: f.world.question.questionFile }),
    expect: everyone(200),
  },
];

// ---- LTI (issue 32): an LMS registered by the owner, and what a launch of theirs leaves behind

/** Any instructor account may call (a student account is refused by role). */
function anyInstructor(status: number): Record<Caller, number> {
  return { ...everyone(status), anonymous: 401, enrolledStudent: 403, otherStudent: 403 };
}

function ltiRegistration(suffix: string) {
  const lms = `https://lms-${suffix}.example.edu`;
  return {
    name: `LMS ${suffix}`,
    issuer: lms,
    clientId: `client-${suffix}`,
    deploymentIds: ['deployment-1'],
    authLoginUrl: `${lms}/auth`,
    authTokenUrl: `${lms}/token`,
    keysetUrl: `${lms}/jwks`,
  };
}

let ltiPlatform: Promise<{ id: string; issuer: string; clientId: string }> | undefined;
function ensureLtiPlatform(f: Fixture): Promise<{ id: string; issuer: string; clientId: string }> {
  ltiPlatform ??= (async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/lti/platforms',
      headers: f.world.instructor.auth,
      payload: ltiRegistration(`matrix-${f.unique()}`),
    });
    if (response.statusCode !== 201) throw new Error(`register LMS failed: ${response.body}`);
    const body = response.json();
    return { id: body._id, issuer: body.issuer, clientId: body.clientId };
  })();
  return ltiPlatform;
}

async function ltiLogin(f: Fixture): Promise<Record<string, string>> {
  const platform = await ensureLtiPlatform(f);
  // inject's requests reach the tool as http://localhost:80.
  return {
    iss: platform.issuer,
    client_id: platform.clientId,
    login_hint: 'someone',
    target_link_uri: 'http://localhost:80/api/lti/launch',
  };
}

async function unlinkedLtiContext(f: Fixture): Promise<string> {
  const platform = await ensureLtiPlatform(f);
  const context = await upsertContext(t.ctx.db, {
    id: crypto.randomUUID(),
    platformId: platform.id,
    deploymentId: 'deployment-1',
    contextId: `context-${f.unique()}`,
    title: 'LMS course',
    linkableById: f.world.instructor.id,
  });
  return context.id;
}

async function ltiDeepLinkCode(f: Fixture): Promise<string> {
  const platform = await ensureLtiPlatform(f);
  const code = `deep-link-${f.unique()}`;
  await insertHandoff(
    t.ctx.db,
    {
      codeHash: createHash('sha256').update(code).digest('base64url'),
      userId: f.world.instructor.id,
      landing: {
        kind: 'deep-link-request',
        platformId: platform.id,
        contextId: await unlinkedLtiContext(f),
        deploymentId: 'deployment-1',
        returnUrl: 'https://lms.example.edu/return',
        data: null,
        courseId: f.world.course._id,
      },
      expiresAt: new Date(Date.now() + 60_000),
    },
    new Date(),
  );
  return code;
}

let t: TestApp;
let fixture: Fixture;
let tokens: Record<Caller, Record<string, string>>;

beforeAll(async () => {
  // With the job queue: the grading routes wait for their jobs.
  t = await createTestApp({}, { withJobs: true });
  const world = await createCourseWorld(t.app);
  const otherInstructor = await registerUser(t.app, { role: 'instructor' });
  const otherStudent = await registerUser(t.app);
  // The "others" have a course of their own, so they are real users of the product, just not of this course.
  const otherCourse = await createCourse(t.app, otherInstructor, { title: 'Elsewhere' });
  await addStudents(t.app, otherInstructor, otherCourse._id, [otherStudent.email]);
  // A TA here, and a TA of the other course (who must be a stranger here).
  const ta = await registerUser(t.app, { role: 'instructor', name: 'Tess Assistant' });
  const otherTa = await registerUser(t.app, { role: 'instructor', name: 'Otto Elsewhere' });
  await addTa(t.app, world.instructor, world.course._id, ta);
  await addTa(t.app, otherInstructor, otherCourse._id, otherTa);
  const submission = await submitAnswer(t.app, world.student, world.assignment._id, world.question._id);
  let counter = 0;
  fixture = {
    world,
    otherStudent,
    otherInstructor,
    ta,
    otherTa,
    submission,
    unique: () => `${Date.now()}-${(counter += 1)}`,
  };
  tokens = {
    anonymous: {},
    enrolledStudent: world.student.auth,
    otherStudent: otherStudent.auth,
    owner: world.instructor.auth,
    ta: ta.auth,
    otherInstructor: otherInstructor.auth,
    otherTa: otherTa.auth,
  };
});
afterAll(async () => {
  await t?.close();
});

async function logInAgain(caller: Exclude<Caller, 'anonymous'>): Promise<Record<string, string>> {
  const user = {
    enrolledStudent: fixture.world.student,
    otherStudent: fixture.otherStudent,
    owner: fixture.world.instructor,
    ta: fixture.ta,
    otherInstructor: fixture.otherInstructor,
    otherTa: fixture.otherTa,
  }[caller];
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: user.password },
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  // The fixture's own copies too: later rows build requests with them (e.g. ensureAnswerGroup).
  user.token = response.json().token;
  user.auth = { authorization: `Bearer ${user.token}` };
  return user.auth;
}

describe('authorization matrix', () => {
  it('has exactly one row for every registered /api route, with the access the route declares', () => {
    const registered = t.app.apiRoutes.filter((route) => route.method !== 'HEAD');
    const declared = new Map(registered.map((route) => [`${route.method} ${route.url}`, route.access]));
    const rows = MATRIX.map((row) => row.route);
    const missing = [...declared.keys()].filter((route) => !rows.includes(route));
    const stale = rows.filter((route) => !declared.has(route));
    const duplicated = rows.filter((route, index) => rows.indexOf(route) !== index);
    expect({ missing, stale, duplicated }).toEqual({ missing: [], stale: [], duplicated: [] });
    for (const row of MATRIX)
      expect(`${row.route} -> ${declared.get(row.route)}`).toBe(`${row.route} -> ${row.access}`);
    // HEAD twins only exist for GET routes that have a row.
    for (const head of t.app.apiRoutes.filter((route) => route.method === 'HEAD'))
      expect(declared.has(`GET ${head.url}`)).toBe(true);
  });

  it.each(MATRIX.map((row) => [row.route, row] as const))('%s', async (_route, row) => {
    const actual = {} as Record<Caller, number>;
    for (const caller of CALLERS) {
      const request = await row.request(fixture);
      if (row.freshSession && caller !== 'anonymous') tokens[caller] = await logInAgain(caller);
      const response = await t.app.inject({ ...request, headers: { ...(request.headers ?? {}), ...tokens[caller] } });
      if (row.freshSession && caller !== 'anonymous') tokens[caller] = await logInAgain(caller);
      actual[caller] = response.statusCode;
      if (response.statusCode >= 400) {
        // Every refusal is the one JSON error shape, never a stack or an HTML page.
        expect(Object.keys(response.json()).sort()).toEqual(expect.arrayContaining(['code', 'message']));
      }
    }
    expect(actual).toEqual(row.expect);
  });
});
