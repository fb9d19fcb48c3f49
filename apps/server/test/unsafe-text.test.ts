import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GradingOutput } from '@gradewise/shared/contracts/grading';
import { expectJson } from './support/expect-json.ts';
import { fileExtractions, gradingRuns, rubricGenerations, submissions } from '../src/db/schema.ts';
import { buildPdfWithNulInText } from '../src/demo/pdf-documents.ts';
import { MAX_JOB_STARTS } from '../src/services/job-work.ts';
import { createAssignment, createCourseWorld, submitAnswer, type CourseWorld } from './support/course-fixtures.ts';
import { makePdf, makeWorkbook, tinyPng } from './support/files.ts';
import { registerUser } from './support/http.ts';
import { multipart, pdfPart } from './support/multipart.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';
import { holdsUnstorableText, LONE_SURROGATE, NUL, poisoned } from './support/unsafe-text.ts';

/**
 * Text PostgreSQL refuses — NUL (22021 in text, 22P05 in jsonb) and lone surrogates — sent into
 * every text field of every route that takes text, and inside PDFs that are graded and drafted
 * into rubrics. Every answer is a 4xx or a success whose stored text is clean; never a 500.
 */

let t: TestApp;
let world: CourseWorld;

beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true });
  world = await createCourseWorld(t.app);
});

afterAll(async () => {
  await t?.close();
});

const base = () => `/api/assignments/${world.assignment._id}/questions/${world.question._id}`;

/** A 2xx whose body carries no unstorable text, or a 4xx with a message. Never a 5xx. */
function expectHandled(response: LightMyRequestResponse, what: string): void {
  if (response.statusCode >= 500) throw new Error(`${what}: ${response.statusCode} ${response.body}`);
  if (response.statusCode >= 400) {
    expect(response.json(), what).toMatchObject({ message: expect.any(String), code: expect.any(String) });
    return;
  }
  if (response.body) expect(holdsUnstorableText(response.json()), what).toBe(false);
}

function expectNoServerError(response: LightMyRequestResponse, what: string): void {
  if (response.statusCode >= 500) throw new Error(`${what}: ${response.statusCode} ${response.body}`);
}

async function sendForm(method: 'POST', url: string, auth: object, parts: Parameters<typeof multipart>[0]) {
  const form = await multipart(parts);
  return t.app.inject({ method, url, headers: { ...auth, ...form.headers }, payload: form.payload });
}

describe('NUL and lone surrogates in every text field', () => {
  it('register and login: a poisoned name is stored clean; poisoned emails and passwords are answered, not crashed on', async () => {
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: poisoned('Ada Lovelace'),
        email: 'ada.nul@example.edu',
        password: 'correct-horse-battery',
        role: 'student',
      },
    });
    expect(registered.statusCode).toBe(201);
    expectHandled(registered, 'register with a poisoned name');
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'ada.nul@example.edu', password: 'correct-horse-battery' },
    });
    expect(signedIn.json().user.name).toBe('Ada Lovelace\ufffd');

    for (const email of [poisoned('grace@example.edu'), `grace${NUL}@example.edu`]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { name: 'Grace', email, password: 'correct-horse-battery', role: 'student' },
      });
      expect(response.statusCode).toBe(400);
      expectHandled(response, 'register with a poisoned email');
    }

    // A password is hashed, never stored as text: NUL in it is just a character and works both ways.
    const password = poisoned('correct-horse-battery');
    const withPassword = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Hopper', email: 'hopper@example.edu', password, role: 'student' },
    });
    expectHandled(withPassword, 'register with a poisoned password');
    if (withPassword.statusCode === 201) {
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'hopper@example.edu', password },
      });
      expect(login.statusCode).toBe(200);
    }

    for (const payload of [
      { email: poisoned('ada.nul@example.edu'), password: 'correct-horse-battery' },
      { email: 'ada.nul@example.edu', password: poisoned('correct-horse-battery') },
    ]) {
      const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
      expect([400, 401]).toContain(login.statusCode);
      expectHandled(login, 'login with poisoned credentials');
    }
  });

  it('a token with a valid signature and a subject that is not a user id answers 401', async () => {
    for (const subject of ['not-a-uuid', "1' OR '1'='1", `${NUL}`, LONE_SURROGATE, '']) {
      const token = await t.ctx.tokens.sign({ userId: subject, tokenVersion: 0 });
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/courses',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode, JSON.stringify(subject)).toBe(401);
      expect(response.json().code).toBe('UNAUTHENTICATED');
    }
  });

  it('courses: a poisoned title and file names are stored clean; poisoned rosters are answered', async () => {
    const created = await sendForm('POST', '/api/courses', world.instructor.auth, {
      title: poisoned('Chemistry'),
      courseImage: { content: tinyPng(), filename: poisoned('image.png'), contentType: 'image/png' },
      syllabusFile: pdfPart(await makePdf('Syllabus'), poisoned('syllabus.pdf')),
    });
    expect(created.statusCode).toBe(201);
    expectHandled(created, 'create course');
    const course = created.json().course;
    expect(course.title).toBe('Chemistry\ufffd');

    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${course._id}`,
      headers: world.instructor.auth,
    });
    expect(detail.statusCode).toBe(200);
    expectHandled(detail, 'course detail');

    const roster = await t.app.inject({
      method: 'POST',
      url: `/api/courses/${course._id}/add-students`,
      headers: world.instructor.auth,
      payload: { emails: [poisoned('kim@example.edu'), `lee${NUL}@example.edu`, 'ok@example.edu'] },
    });
    // The answer may quote the refused entries back (JSON escapes them); what is stored is checked below.
    expectNoServerError(roster, 'add students with poisoned emails');

    const workbook = makeWorkbook({
      Students: [['Email'], [poisoned('max@example.edu')], [`${NUL}`], ['noor@example.edu']],
    });
    const excel = await sendForm('POST', `/api/courses/${course._id}/add-students/excel`, world.instructor.auth, {
      excelFile: {
        content: workbook,
        filename: poisoned('roster.xlsx'),
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    });
    expectNoServerError(excel, 'add students from a poisoned spreadsheet');
    const roster2 = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${course._id}`,
      headers: world.instructor.auth,
    });
    expect(roster2.statusCode).toBe(200);
    expectHandled(roster2, 'course detail after poisoned rosters');

    const list = await t.app.inject({ method: 'GET', url: '/api/courses', headers: world.instructor.auth });
    expect(list.statusCode).toBe(200);
    expectHandled(list, 'course list');
  });

  it('assignments and questions: poisoned titles are stored clean; poisoned ids, dates, points and queries are 4xx', async () => {
    const assignment = await t.app.inject({
      method: 'POST',
      url: '/api/assignments',
      headers: world.instructor.auth,
      payload: { title: poisoned('Homework'), courseId: world.course._id, deadline: null },
    });
    expect(assignment.statusCode).toBe(201);
    expectHandled(assignment, 'create assignment');
    expect(assignment.json().assignment.title).not.toContain(NUL);

    for (const payload of [
      { title: 'Homework', courseId: poisoned(world.course._id), deadline: null },
      { title: 'Homework', courseId: world.course._id, deadline: poisoned('2030-01-01T00:00:00.000Z') },
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/assignments',
        headers: world.instructor.auth,
        payload,
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expectHandled(response, 'create assignment with poisoned fields');
    }

    for (const url of [
      '/api/assignments?courseId=%00',
      // A NUL and the UTF-8 bytes of a lone surrogate (invalid UTF-8) in a query.
      `/api/assignments?courseId=${world.course._id}%00%ED%A0%80`,
      '/api/assignments/%00',
      '/api/courses/%00',
      `/api/assignments/${world.assignment._id}/questions/%00`,
      `${base()}?includeSubmissions=%00`,
      `${base()}/grade-all/progress?batchId=%00`,
      `${base()}/review-queue`,
      `/api/assignments/%00/grades.csv`,
      `/api/files/%00?exp=%00&sig=%00`,
      `${base()}/grade/%00`,
    ]) {
      const method = url.includes('/grade/') ? 'POST' : 'GET';
      const response = await t.app.inject({ method, url, headers: world.instructor.auth });
      expectHandled(response, `${method} ${url}`);
    }

    const question = await sendForm(
      'POST',
      `/api/assignments/${world.assignment._id}/questions`,
      world.instructor.auth,
      {
        title: poisoned('Question on NUL'),
        points: '5',
        questionFile: pdfPart(await makePdf('What is 3 + 3?'), poisoned('question.pdf')),
        solutionFile: pdfPart(await makePdf('6'), poisoned('solution.pdf')),
      },
    );
    expect(question.statusCode).toBe(201);
    expectHandled(question, 'create question');
    expect(question.json().question.title).not.toContain(NUL);

    const badPoints = await sendForm(
      'POST',
      `/api/assignments/${world.assignment._id}/questions`,
      world.instructor.auth,
      {
        title: 'Q',
        points: `5${NUL}`,
        questionFile: pdfPart(await makePdf('What is 3 + 3?')),
      },
    );
    expect(badPoints.statusCode).toBe(400);
    expectHandled(badPoints, 'create question with poisoned points');
  });

  it('submissions, rubric, grade and rubric trial: poisoned texts are saved clean and read back clean', async () => {
    const submitted = await sendForm('POST', `${base()}/submit`, world.student.auth, {
      file: pdfPart(await makePdf('The answer is 4.'), poisoned('answer.pdf')),
    });
    expect(submitted.statusCode).toBe(201);
    expectHandled(submitted, 'submit');
    const submissionId = submitted.json().submission._id;

    const onBehalf = await sendForm('POST', `${base()}/upload-submission`, world.instructor.auth, {
      studentEmail: poisoned(world.student.email),
      file: pdfPart(await makePdf('The answer is 4.')),
    });
    expectHandled(onBehalf, 'upload on behalf with a poisoned email');

    const rubric = await t.app.inject({
      method: 'PATCH',
      url: `${base()}/save-rubric`,
      headers: world.instructor.auth,
      payload: {
        questionText: poisoned('What is 2 + 2?'),
        solutionText: poisoned('4'),
        items: [
          {
            id: poisoned('item-a'),
            criterion: poisoned('States the sum'),
            points: 6,
            guidance: poisoned('Full credit for 4'),
          },
          { criterion: poisoned('Shows the work'), points: 4, guidance: '' },
        ],
      },
    });
    expect(rubric.statusCode).toBe(200);
    expectHandled(rubric, 'save rubric');
    const items = rubric.json().autoRubric[0].items;
    expect(items[0].criterion).toBe('States the sum\ufffd');

    const graded = await t.app.inject({
      method: 'POST',
      url: `${base()}/grade/${submissionId}`,
      headers: world.instructor.auth,
    });
    expectHandled(graded, 'grade');
    const comments = expectJson(graded, 200, GradingOutput).gradingResult.comments;

    const saved = await t.app.inject({
      method: 'POST',
      url: `${base()}/save-grade/${submissionId}`,
      headers: world.instructor.auth,
      payload: {
        expectedGradeId: graded.json().currentGradeId,
        grade: 10,
        feedback: poisoned('Well done'),
        comments: [
          ...comments.map((comment) => ({ ...comment, pointsDeducted: 0, text: poisoned(comment.text || 'ok') })),
          {
            _id: poisoned('mine'),
            id: poisoned('mine'),
            text: poisoned('Nice'),
            pointsDeducted: 0,
            accepted: true,
            rubricItemId: poisoned('x'),
          },
        ],
      },
    });
    expect(saved.statusCode).toBe(200);
    expectHandled(saved, 'save grade');

    const report = await t.app.inject({
      method: 'GET',
      url: `${base()}/grade/${submissionId}/report`,
      headers: world.instructor.auth,
    });
    expectHandled(report, 'grading report');
    const detail = await t.app.inject({
      method: 'GET',
      url: `${base()}?includeSubmissions=1`,
      headers: world.instructor.auth,
    });
    expect(detail.statusCode).toBe(200);
    expectHandled(detail, 'question detail with submissions');

    const trial = await t.app.inject({
      method: 'POST',
      url: `${base()}/rubric-trial`,
      headers: world.instructor.auth,
      payload: {
        questionText: poisoned('What is 2 + 2?'),
        solutionText: poisoned('4'),
        items: [{ id: poisoned('t1'), criterion: poisoned('Sum'), points: 10, guidance: poisoned('g') }],
        sampleAnswer: poisoned('It is 4'),
        submissionIds: [poisoned(submissionId)],
      },
    });
    expectHandled(trial, 'rubric trial');

    // A JSON body written with the escapes themselves, as a hand-made client would send it.
    const raw = await t.app.inject({
      method: 'POST',
      url: '/api/assignments',
      headers: { ...world.instructor.auth, 'content-type': 'application/json' },
      payload: `{"title":"Raw\\u0000 \\ud800 escapes","courseId":"${world.course._id}","deadline":null}`,
    });
    expect(raw.statusCode).toBe(201);
    expectHandled(raw, 'raw JSON escapes');
  });
});

describe('PDFs whose text layer holds a NUL', () => {
  it('a student answer with a NUL is read, stored clean and graded', async () => {
    const student = await registerUser(t.app, { name: 'Nia Nul' });
    await t.app.inject({
      method: 'POST',
      url: `/api/courses/${world.course._id}/add-students`,
      headers: world.instructor.auth,
      payload: { emails: [student.email] },
    });
    const form = await multipart({ file: pdfPart(buildPdfWithNulInText('The answer', ' is 4.')) });
    const submitted = await t.app.inject({
      method: 'POST',
      url: `${base()}/submit`,
      headers: { ...student.auth, ...form.headers },
      payload: form.payload,
    });
    expect(submitted.statusCode).toBe(201);
    const submissionId = submitted.json().submission._id;

    const graded = await t.app.inject({
      method: 'POST',
      url: `${base()}/regrade/${submissionId}`,
      headers: world.instructor.auth,
    });
    expect(graded.statusCode).toBe(200);
    expect(graded.json().submissionText).toContain('The answer is 4.');
    expectHandled(graded, 'grade a PDF with a NUL');

    const [submission] = await t.ctx.db.select().from(submissions).where(eq(submissions.id, submissionId));
    const [extraction] = await t.ctx.db
      .select()
      .from(fileExtractions)
      .where(eq(fileExtractions.fileId, submission!.fileId));
    expect(extraction).toMatchObject({ status: 'succeeded' });
    expect(extraction!.text).toContain('The answer is 4.');
    expect(holdsUnstorableText(extraction)).toBe(false);
  });

  it('a question PDF with a NUL is drafted into a rubric', async () => {
    const assignment = await createAssignment(t.app, world.instructor, world.course._id, { title: 'NUL set' });
    const form = await multipart({
      title: 'NUL question',
      points: '10',
      questionFile: pdfPart(buildPdfWithNulInText('Compute', ' 2 + 2 and explain.')),
      solutionFile: pdfPart(buildPdfWithNulInText('2 + 2', ' = 4')),
    });
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment._id}/questions`,
      headers: { ...world.instructor.auth, ...form.headers },
      payload: form.payload,
    });
    expect(created.statusCode).toBe(201);
    const question = created.json().question;
    const drafted = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment._id}/questions/${question._id}/generate-rubric`,
      headers: world.instructor.auth,
    });
    expect(drafted.statusCode).toBe(200);
    expectHandled(drafted, 'generate a rubric from PDFs with a NUL');
    expect(drafted.json().autoRubric[0].questionText).toContain('Compute 2 + 2 and explain.');
  });
});

describe('a job that never finishes is given up instead of crash-looping', () => {
  it(`a run started ${MAX_JOB_STARTS} times without finishing fails for good with a message for the instructor`, async () => {
    const student = await registerUser(t.app, { name: 'Poe Poison' });
    await t.app.inject({
      method: 'POST',
      url: `/api/courses/${world.course._id}/add-students`,
      headers: world.instructor.auth,
      payload: { emails: [student.email] },
    });
    const submission = await submitAnswer(t.app, student, world.assignment._id, world.question._id, 'Four.');
    // The state a crash-looping job leaves: a run still 'running', started MAX_JOB_STARTS times
    // (each start counted before the work, each try killed before it could record anything).
    const runId = crypto.randomUUID();
    await t.ctx.db.insert(gradingRuns).values({
      id: runId,
      submissionId: submission._id,
      status: 'running',
      graderKind: 'builtin',
      provider: 'builtin',
      model: 'builtin',
      promptVersion: 'pending',
      attempts: MAX_JOB_STARTS,
    });
    // Grading joins the run in flight and sends its job: its next start is one too many.
    const response = await t.app.inject({
      method: 'POST',
      url: `${base()}/grade/${submission._id}`,
      headers: world.instructor.auth,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 'UNPROCESSABLE' });
    expect(response.json().message).toContain(`started ${MAX_JOB_STARTS} times`);
    const [run] = await t.ctx.db.select().from(gradingRuns).where(eq(gradingRuns.id, runId));
    expect(run).toMatchObject({ status: 'failed', errorCode: 'UNPROCESSABLE', rawOutput: null });

    // Asking again is a fresh run that works: the give-up is per run, not per submission.
    const again = await t.app.inject({
      method: 'POST',
      url: `${base()}/grade/${submission._id}`,
      headers: world.instructor.auth,
    });
    expect(again.statusCode).toBe(200);
  });

  it('a rubric draft started too often fails the same way', async () => {
    const assignment = await createAssignment(t.app, world.instructor, world.course._id, { title: 'Poison set' });
    const form = await multipart({ points: '10', questionFile: pdfPart(await makePdf('What is 1 + 1?')) });
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment._id}/questions`,
      headers: { ...world.instructor.auth, ...form.headers },
      payload: form.payload,
    });
    const question = created.json().question;
    const generationId = crypto.randomUUID();
    await t.ctx.db.insert(rubricGenerations).values({
      id: generationId,
      questionId: question._id,
      status: 'running',
      graderKind: 'builtin',
      provider: 'builtin',
      model: 'builtin',
      promptVersion: 'pending',
      attempts: MAX_JOB_STARTS,
    });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${assignment._id}/questions/${question._id}/generate-rubric`,
      headers: world.instructor.auth,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toContain('Drafting this rubric was given up');
    const [generation] = await t.ctx.db.select().from(rubricGenerations).where(eq(rubricGenerations.id, generationId));
    expect(generation).toMatchObject({ status: 'failed', errorCode: 'UNPROCESSABLE' });
  });
});
