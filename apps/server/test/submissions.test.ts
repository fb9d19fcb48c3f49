import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionForStaff, QuestionForStudent } from '@gradewise/shared/contracts/questions';
import { SubmissionVersionsOutput } from '@gradewise/shared/contracts/submissions';
import { expectJson } from './support/expect-json.ts';
import { count, eq } from 'drizzle-orm';
import { files, submissions } from '../src/db/schema.ts';
import { newId } from '../src/lib/ids.ts';
import { insertQuestion } from '../src/models/questions.ts';
import { storeFilesThen } from '../src/services/store-files.ts';
import { checkPdf } from '../src/storage/file-content.ts';
import { bytesInMemory } from '../src/storage/upload-bytes.ts';
import {
  addStudents,
  createAssignment,
  createCourseWorld,
  createQuestion,
  fetchFile,
  submitAnswer,
  type CourseWorld,
} from './support/course-fixtures.ts';
import { makePdf } from './support/files.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { multipart, pdfPart, type FormValue } from './support/multipart.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let world: CourseWorld;
let classmate: TestUser;
let outsider: TestUser;
let otherInstructor: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  world = await createCourseWorld(t.app);
  classmate = await registerUser(t.app, { name: 'Cleo Classmate' });
  outsider = await registerUser(t.app);
  otherInstructor = await registerUser(t.app, { role: 'instructor' });
  await addStudents(t.app, world.instructor, world.course._id, [classmate.email]);
});
afterAll(async () => {
  await t?.close();
});

/** The assignment and question an answer goes to: only their ids are read. */
interface Target {
  assignment: { _id: string };
  question: { _id: string };
}

const questionUrl = (w: Target) => `/api/assignments/${w.assignment._id}/questions/${w.question._id}`;

async function postForm(user: TestUser, url: string, parts: Record<string, FormValue | undefined>) {
  const form = await multipart(parts);
  return t.app.inject({ method: 'POST', url, headers: { ...user.auth, ...form.headers }, payload: form.payload });
}
const detail = (user: TestUser, w: Target = world) =>
  t.app.inject({ method: 'GET', url: `${questionUrl(w)}?includeSubmissions=1`, headers: user.auth });

async function blobCount(): Promise<number> {
  const walk = async (dir: string): Promise<number> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    let total = 0;
    for (const entry of entries) total += entry.isDirectory() ? await walk(path.join(dir, entry.name)) : 1;
    return total;
  };
  return walk(t.config.filesDir);
}

/** A fresh question in the world's course, so version counts start from zero. */
async function freshQuestion(deadline: string | null = null) {
  const assignment = await createAssignment(t.app, world.instructor, world.course._id, { deadline });
  const question = await createQuestion(t.app, world.instructor, assignment._id);
  return { assignment, question };
}

describe('POST .../submit', () => {
  it('stores every upload as a new version; the student sees only their latest, the owner the latest per student', async () => {
    const q = await freshQuestion();
    const first = await submitAnswer(t.app, world.student, q.assignment._id, q.question._id, 'first try');
    const response = await postForm(world.student, `${questionUrl(q)}/submit`, {
      file: pdfPart(await makePdf('second try')),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      message: 'Submission successful!',
      submission: {
        _id: expect.any(String),
        file: expect.stringMatching(/^\/api\/files\//),
        isLate: false,
        version: 2,
        submittedAt: expect.any(String),
        student: { _id: world.student.id, name: 'Sam Student' },
        // Its text is read in the background from now on (no job workers in this file: it stays queued).
        extractionStatus: 'queued',
        extractionError: null,
      },
    });
    const second = response.json().submission;
    expect(first.version).toBe(1);
    await submitAnswer(t.app, classmate, q.assignment._id, q.question._id, 'classmate answer');

    const mine = (await detail(world.student, q)).json();
    expect(mine.submissions).toEqual([
      {
        ...second,
        grade: null,
        isAlreadyGraded: false,
        isGradeOnEarlierVersion: false,
        gradedVersion: null,
        canResubmit: true,
        // Nothing saved yet, so nothing is held back from the student (grade release, issue 12).
        gradeWithheld: false,
      },
    ]);
    expect(
      expectJson(await detail(classmate, q), 200, QuestionForStudent).submissions?.map((s) => s.student._id),
    ).toEqual([classmate.id]);

    const staffRows = expectJson(await detail(world.instructor, q), 200, QuestionForStaff).submissions ?? [];
    expect(staffRows.map((s) => [s.student.name, s.version, s.versions])).toEqual([
      ['Cleo Classmate', 1, 1],
      ['Sam Student', 2, 2],
    ]);
    expect(staffRows[1]).toMatchObject({
      _id: second._id,
      uploadedBy: { _id: world.student.id },
      student: { email: world.student.email },
    });

    // The latest version points at the second upload's file, not the first one's.
    const fileIdOf = (url: string) => url.split('?')[0]!.split('/').pop();
    expect(fileIdOf(staffRows[1]!.file)).toBe(fileIdOf(second.file));
    expect(fileIdOf(second.file)).not.toBe(fileIdOf(first.file));
    expect((await fetchFile(t.app, staffRows[1]!.file)).statusCode).toBe(200);
  });

  it('leaves submissions out unless includeSubmissions=1 (or true) is asked for', async () => {
    const plain = (
      await t.app.inject({ method: 'GET', url: questionUrl(world), headers: world.instructor.auth })
    ).json();
    expect(plain).not.toHaveProperty('submissions');
    const asked = (
      await t.app.inject({
        method: 'GET',
        url: `${questionUrl(world)}?includeSubmissions=true`,
        headers: world.instructor.auth,
      })
    ).json();
    expect(Array.isArray(asked.submissions)).toBe(true);
  });

  it('fixes isLate at submit time against the deadline', async () => {
    const past = await freshQuestion('2000-01-01T00:00:00Z');
    const future = await freshQuestion('2999-01-01T00:00:00Z');
    expect((await submitAnswer(t.app, world.student, past.assignment._id, past.question._id)).isLate).toBe(true);
    expect((await submitAnswer(t.app, world.student, future.assignment._id, future.question._id)).isLate).toBe(false);
    const [row] = await t.ctx.db.select().from(submissions).where(eq(submissions.questionId, past.question._id));
    expect(row!.isLate).toBe(true);
  });

  it('numbers concurrent uploads of one student without gaps or duplicates', async () => {
    const q = await freshQuestion();
    const results = await Promise.all(
      [1, 2, 3].map((n) => submitAnswer(t.app, world.student, q.assignment._id, q.question._id, `upload ${n}`)),
    );
    expect(results.map((s) => s.version).sort()).toEqual([1, 2, 3]);
  });

  it.each([[{}], [{ file: { content: Buffer.alloc(0), filename: '' } }]])(
    'asks for a PDF when none is sent (%j)',
    async (parts) => {
      const response = await postForm(world.student, `${questionUrl(world)}/submit`, parts);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'Please select a PDF to submit.', code: 'BAD_REQUEST' });
    },
  );

  it('refuses a text file renamed .pdf, an empty PDF part and a PNG, storing nothing', async () => {
    const before = (await t.ctx.db.select({ n: count() }).from(submissions))[0]!.n;
    const blobsBefore = await blobCount();
    for (const [content, message] of [
      [Buffer.from('I am plain text'), 'The file is not a valid PDF. Please choose a PDF file.'],
      [Buffer.alloc(0), 'The file is empty.'],
      [Buffer.from('89504e470d0a1a0a0000', 'hex'), 'The file is not a valid PDF. Please choose a PDF file.'],
    ] as const) {
      const response = await postForm(world.student, `${questionUrl(world)}/submit`, {
        file: pdfPart(content, 'answer.pdf'),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message, code: 'UNSUPPORTED_FILE' });
    }
    expect((await t.ctx.db.select({ n: count() }).from(submissions))[0]!.n).toBe(before);
    expect(await blobCount()).toBe(blobsBefore);
  });

  it('answers 404 to students outside the course and 403 to the owner', async () => {
    const parts = { file: pdfPart(await makePdf()) };
    for (const user of [outsider, otherInstructor]) {
      const response = await postForm(user, `${questionUrl(world)}/submit`, parts);
      expect(response.statusCode).toBe(404);
    }
    const asOwner = await postForm(world.instructor, `${questionUrl(world)}/submit`, parts);
    expect(asOwner.statusCode).toBe(403);
    expect(asOwner.json().message).toBe(
      'Only enrolled students submit answers. To add an answer for a student, use "Upload on Behalf of a Student".',
    );
  });
});

describe('POST .../upload-submission', () => {
  const upload = (user: TestUser, parts: Record<string, FormValue | undefined>, w: Target = world) =>
    postForm(user, `${questionUrl(w)}/upload-submission`, parts);

  it('adds a version for an enrolled student, uploaded by the instructor', async () => {
    const q = await freshQuestion();
    await submitAnswer(t.app, world.student, q.assignment._id, q.question._id);
    const response = await upload(
      world.instructor,
      { studentEmail: ` ${world.student.email.toUpperCase()} `, file: pdfPart(await makePdf('paper copy')) },
      q,
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      message: 'Uploaded on behalf of the student!',
      submission: {
        version: 2,
        versions: 2,
        student: { _id: world.student.id },
        uploadedBy: { _id: world.instructor.id, name: 'Prof Ada' },
      },
    });
    const seen = (await detail(world.student, q)).json().submissions;
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ _id: response.json().submission._id, version: 2 });
    expect(seen[0]).not.toHaveProperty('uploadedBy');
  });

  it.each([
    [{ studentEmail: 'x@example.edu' }, 'Please select a PDF to upload.', 'BAD_REQUEST'],
    [{ withFile: true }, "Please enter the student's email.", 'VALIDATION_FAILED'],
    [{ withFile: true, studentEmail: '   ' }, "Please enter the student's email.", 'VALIDATION_FAILED'],
    [{ withFile: true, studentEmail: 'not an email' }, 'Please enter a valid email address.', 'VALIDATION_FAILED'],
  ])(
    'refuses %j with a clear 400',
    async ({ withFile, studentEmail }: { withFile?: boolean; studentEmail?: string }, message, code) => {
      const response = await upload(world.instructor, {
        studentEmail,
        file: withFile ? pdfPart(await makePdf()) : undefined,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message, code });
    },
  );

  it('refuses emails that are not enrolled students, saying why', async () => {
    await addStudents(t.app, world.instructor, world.course._id, ['invited.only@example.edu']);
    const cases: [string, string][] = [
      [outsider.email, `No student with the email ${outsider.email} is enrolled in this course.`],
      ['nobody@example.edu', 'No student with the email nobody@example.edu is enrolled in this course.'],
      [world.instructor.email, `No student with the email ${world.instructor.email} is enrolled in this course.`],
      [
        'invited.only@example.edu',
        'invited.only@example.edu is invited to this course but has not registered yet, so nothing can be submitted for them.',
      ],
    ];
    const before = (await t.ctx.db.select({ n: count() }).from(submissions))[0]!.n;
    for (const [studentEmail, message] of cases) {
      const response = await upload(world.instructor, { studentEmail, file: pdfPart(await makePdf()) });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message, code: 'BAD_REQUEST' });
    }
    expect((await t.ctx.db.select({ n: count() }).from(submissions))[0]!.n).toBe(before);
  });

  it('is for the owning instructor only: student 403, other instructor 404', async () => {
    const parts = { studentEmail: world.student.email, file: pdfPart(await makePdf()) };
    expect((await upload(world.student, parts)).statusCode).toBe(403);
    expect((await upload(otherInstructor, parts)).statusCode).toBe(404);
  });
});

describe('GET .../submissions/:submissionId/versions', () => {
  it('lists every version of that student, newest first, for the owner', async () => {
    const q = await freshQuestion();
    const v1 = await submitAnswer(t.app, world.student, q.assignment._id, q.question._id, 'v1');
    const v2 = await submitAnswer(t.app, world.student, q.assignment._id, q.question._id, 'v2');
    await submitAnswer(t.app, classmate, q.assignment._id, q.question._id, 'not theirs');
    // Any version's id reaches the whole history.
    const response = await t.app.inject({
      method: 'GET',
      url: `${questionUrl(q)}/submissions/${v1._id}/versions`,
      headers: world.instructor.auth,
    });
    const body = expectJson(response, 200, SubmissionVersionsOutput);
    expect(body.student).toEqual({ _id: world.student.id, name: 'Sam Student', email: world.student.email });
    expect(body.versions.map((v) => [v._id, v.version])).toEqual([
      [v2._id, 2],
      [v1._id, 1],
    ]);
    const oldFile = await fetchFile(t.app, body.versions[1]!.file);
    expect(oldFile.statusCode).toBe(200);
    expect(oldFile.headers['content-type']).toBe('application/pdf');
  });

  it('refuses students (403), other instructors (404), and ids from elsewhere (404)', async () => {
    const q = await freshQuestion();
    const own = await submitAnswer(t.app, world.student, q.assignment._id, q.question._id);
    const url = `${questionUrl(q)}/submissions/${own._id}/versions`;
    expect((await t.app.inject({ method: 'GET', url, headers: world.student.auth })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url, headers: otherInstructor.auth })).statusCode).toBe(404);
    for (const wrong of [
      `${questionUrl(world)}/submissions/${own._id}/versions`,
      `${questionUrl(q)}/submissions/xyz/versions`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url: wrong, headers: world.instructor.auth });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }
  });
});

describe('storing files is all or nothing', () => {
  it('removes the blob and the file row when the rows written with it fail', async () => {
    const filesBefore = (await t.ctx.db.select({ n: count() }).from(files))[0]!.n;
    const blobsBefore = await blobCount();
    const pdf = await checkPdf('question', bytesInMemory(await makePdf()), 'q.pdf');
    // A real database failure inside the transaction: the assignment does not exist (foreign key).
    const attempt = storeFilesThen(t.ctx, [pdf], world.instructor.id, (tx, [stored]) =>
      insertQuestion(tx, { id: newId(), assignmentId: newId(), title: null, points: 1, questionFileId: stored!.id }),
    );
    await expect(attempt).rejects.toThrow();
    expect((await t.ctx.db.select({ n: count() }).from(files))[0]!.n).toBe(filesBefore);
    expect(await blobCount()).toBe(blobsBefore);
  });
});
