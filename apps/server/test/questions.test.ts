import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssignmentDetail } from '@gradewise/shared/contracts/assignments';
import { count, eq } from 'drizzle-orm';
import { files, questions } from '../src/db/schema.ts';
import { addStudents, createAssignment, createCourse, createQuestion, fetchFile } from './support/course-fixtures.ts';
import { buildPdfShapedBytes } from '../src/demo/pdf-documents.ts';
import { makePdf } from './support/files.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { multipart, pdfPart, type FormValue } from './support/multipart.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let owner: TestUser;
let student: TestUser;
let outsider: TestUser;
let otherInstructor: TestUser;
let assignment: AssignmentDetail;
beforeAll(async () => {
  t = await createTestApp();
  owner = await registerUser(t.app, { role: 'instructor' });
  student = await registerUser(t.app);
  outsider = await registerUser(t.app);
  otherInstructor = await registerUser(t.app, { role: 'instructor' });
  const course = await createCourse(t.app, owner);
  await addStudents(t.app, owner, course._id, [student.email]);
  assignment = await createAssignment(t.app, owner, course._id, { title: 'Set 1' });
});
afterAll(async () => {
  await t?.close();
});

async function postQuestion(user: TestUser, assignmentId: string, parts: Record<string, FormValue | undefined>) {
  const form = await multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: `/api/assignments/${assignmentId}/questions`,
    headers: { ...user.auth, ...form.headers },
    payload: form.payload,
  });
}
const rowCounts = async () => ({
  questions: (await t.ctx.db.select({ n: count() }).from(questions))[0]!.n,
  files: (await t.ctx.db.select({ n: count() }).from(files))[0]!.n,
});

describe('POST /api/assignments/:assignmentId/questions', () => {
  it('creates a question with both PDFs and answers the staff view', async () => {
    const response = await postQuestion(owner, assignment._id, {
      title: 'Integrals',
      points: '7.5',
      questionFile: pdfPart(await makePdf('Integrate x^2')),
      solutionFile: pdfPart(await makePdf('x^3/3 + C')),
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      message: 'Question created successfully!',
      question: {
        title: 'Integrals',
        points: 7.5,
        viewer: 'staff',
        assignment: { _id: assignment._id, title: 'Set 1' },
      },
    });
    expect((await fetchFile(t.app, body.question.questionFile)).statusCode).toBe(200);
    expect((await fetchFile(t.app, body.question.solutionFile)).statusCode).toBe(200);
  });

  it('defaults points to 10 and the title to null, and the solution is optional', async () => {
    const response = await postQuestion(owner, assignment._id, { questionFile: pdfPart(await makePdf()) });
    expect(response.statusCode).toBe(201);
    expect(response.json().question).toMatchObject({ title: null, points: 10, solutionFile: null });
  });

  it.each([
    [{ points: 'abc' }, 'Points must be a number.'],
    [{ points: '0' }, 'Points must be greater than 0.'],
    [{ points: '-3' }, 'Points must be greater than 0.'],
    [{ points: '1001' }, 'Points must be at most 1000.'],
    [{ points: 'Infinity' }, 'Points must be a number.'],
    [{ title: 't'.repeat(201) }, 'The title must be at most 200 characters.'],
  ])('refuses fields %j with a 400 and stores nothing', async (fields, message) => {
    const before = await rowCounts();
    const response = await postQuestion(owner, assignment._id, { ...fields, questionFile: pdfPart(await makePdf()) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message, code: 'VALIDATION_FAILED' });
    expect(await rowCounts()).toEqual(before);
  });

  it('asks for the question PDF when it is missing or the input was left empty', async () => {
    for (const questionFile of [undefined, { content: Buffer.alloc(0), filename: '' }]) {
      const response = await postQuestion(owner, assignment._id, { title: 'No file', questionFile });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'Please select a Question PDF.', code: 'BAD_REQUEST' });
    }
  });

  it('refuses a text file renamed .pdf, and a bad solution file leaves no question file behind', async () => {
    const before = await rowCounts();
    const renamed = await postQuestion(owner, assignment._id, {
      questionFile: pdfPart(Buffer.from('hello, I am text'), 'question.pdf'),
    });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json()).toEqual({
      message: 'The question file is not a valid PDF. Please choose a PDF file.',
      code: 'UNSUPPORTED_FILE',
    });

    const badSolution = await postQuestion(owner, assignment._id, {
      questionFile: pdfPart(await makePdf()),
      solutionFile: pdfPart(Buffer.from('%PDF-1.7 but truncated'), 'solution.pdf'),
    });
    expect(badSolution.statusCode).toBe(400);
    expect(badSolution.json().message).toBe('The solution file is not a valid PDF. Please choose a PDF file.');
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses a PDF over the upload limit with a 413', async () => {
    const small = await createTestApp({ MAX_UPLOAD_MB: '1' });
    try {
      const prof = await registerUser(small.app, { role: 'instructor' });
      const course = await createCourse(small.app, prof);
      const homework = await createAssignment(small.app, prof, course._id);
      const form = await multipart({ questionFile: pdfPart(buildPdfShapedBytes(1024 * 1024 + 100)) });
      const response = await small.app.inject({
        method: 'POST',
        url: `/api/assignments/${homework._id}/questions`,
        headers: { ...prof.auth, ...form.headers },
        payload: form.payload,
      });
      expect(response.statusCode).toBe(413);
      expect((await small.ctx.db.select({ n: count() }).from(questions))[0]!.n).toBe(0);
    } finally {
      await small.close();
    }
  });

  it('is for the owning instructor only: student 403, other instructor 404, unknown assignment 404', async () => {
    const parts = { questionFile: pdfPart(await makePdf()) };
    expect((await postQuestion(student, assignment._id, parts)).statusCode).toBe(403);
    const other = await postQuestion(otherInstructor, assignment._id, parts);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ message: 'Assignment not found.', code: 'NOT_FOUND' });
    expect((await postQuestion(owner, 'nope', parts)).statusCode).toBe(404);
  });
});

describe('GET questions', () => {
  it('lists questions in creation order for the owner and enrolled students only', async () => {
    const fresh = await createAssignment(
      t.app,
      owner,
      (await t.app.inject({ method: 'GET', url: `/api/assignments/${assignment._id}`, headers: owner.auth })).json()
        .course._id,
    );
    const first = await createQuestion(t.app, owner, fresh._id, { title: 'First', points: '3' });
    const second = await createQuestion(t.app, owner, fresh._id, { title: 'Second', points: '4' });
    for (const user of [owner, student]) {
      const list = (
        await t.app.inject({ method: 'GET', url: `/api/assignments/${fresh._id}/questions`, headers: user.auth })
      ).json();
      expect(list).toEqual([
        { _id: first._id, title: 'First', points: 3, createdAt: expect.any(String) },
        { _id: second._id, title: 'Second', points: 4, createdAt: expect.any(String) },
      ]);
    }
    for (const user of [outsider, otherInstructor]) {
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/assignments/${fresh._id}/questions`, headers: user.auth }))
          .statusCode,
      ).toBe(404);
    }
  });

  it('gives the solution link to the owner only; the student view has no trace of it', async () => {
    const question = await createQuestion(t.app, owner, assignment._id, { title: 'With solution' });
    const [row] = await t.ctx.db.select().from(questions).where(eq(questions.id, question._id));
    const url = `/api/assignments/${assignment._id}/questions/${question._id}`;

    const staff = (await t.app.inject({ method: 'GET', url, headers: owner.auth })).json();
    expect(staff.viewer).toBe('staff');
    expect(staff.solutionFile).toContain(row!.solutionFileId);

    const seen = await t.app.inject({ method: 'GET', url, headers: student.auth });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).not.toHaveProperty('solutionFile');
    expect(seen.body).not.toContain(row!.solutionFileId);
    expect(seen.json()).toMatchObject({ viewer: 'student', title: 'With solution', points: 10 });
    expect((await fetchFile(t.app, seen.json().questionFile)).statusCode).toBe(200);
  });

  it('answers 404 for a question under another assignment, unknown ids, and callers outside the course', async () => {
    const question = await createQuestion(t.app, owner, assignment._id);
    const course = (
      await t.app.inject({ method: 'GET', url: `/api/assignments/${assignment._id}`, headers: owner.auth })
    ).json().course;
    const otherAssignment = await createAssignment(t.app, owner, course._id);
    const cases: [TestUser, string][] = [
      [owner, `/api/assignments/${otherAssignment._id}/questions/${question._id}`],
      [owner, `/api/assignments/${assignment._id}/questions/not-a-uuid`],
      [owner, `/api/assignments/${assignment._id}/questions/00000000-0000-4000-8000-000000000000`],
      [outsider, `/api/assignments/${assignment._id}/questions/${question._id}`],
      [otherInstructor, `/api/assignments/${assignment._id}/questions/${question._id}`],
    ];
    for (const [user, url] of cases) {
      const response = await t.app.inject({ method: 'GET', url, headers: user.auth });
      expect(response.statusCode, url).toBe(404);
    }
  });
});
