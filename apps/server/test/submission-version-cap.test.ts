import fs from 'node:fs/promises';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, submissions } from '../src/db/schema.ts';
import {
  addStudents,
  createCourseWorld,
  createQuestion,
  submitAnswer,
  type CourseWorld,
} from './support/course-fixtures.ts';
import { makePdf } from './support/files.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { multipart, pdfPart } from './support/multipart.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * MAX_SUBMISSION_VERSIONS caps the versions one student keeps for one question: the next upload
 * (by the student or by the instructor on their behalf) is a 409 with a sentence, and stores nothing.
 */

const CAP = 3;
let t: TestApp;
let world: CourseWorld;
let classmate: TestUser;

beforeAll(async () => {
  t = await createTestApp({ MAX_SUBMISSION_VERSIONS: String(CAP) });
  world = await createCourseWorld(t.app);
  classmate = await registerUser(t.app, { name: 'Cleo Classmate' });
  await addStudents(t.app, world.instructor, world.course._id, [classmate.email]);
});

afterAll(async () => {
  await t?.close();
});

const questionUrl = (question: { _id: string } = world.question) =>
  `/api/assignments/${world.assignment._id}/questions/${question._id}`;

async function upload(user: TestUser, url: string, parts: Parameters<typeof multipart>[0]) {
  const form = await multipart(parts);
  return t.app.inject({ method: 'POST', url, headers: { ...user.auth, ...form.headers }, payload: form.payload });
}

async function blobCount(): Promise<number> {
  const walk = async (dir: string): Promise<number> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    let total = 0;
    for (const entry of entries) total += entry.isDirectory() ? await walk(path.join(dir, entry.name)) : 1;
    return total;
  };
  return walk(t.config.filesDir);
}

async function versionsOf(student: TestUser, questionId = world.question._id): Promise<number> {
  const [row] = await t.ctx.db
    .select({ value: count() })
    .from(submissions)
    .where(and(eq(submissions.questionId, questionId), eq(submissions.studentId, student.id)));
  return Number(row?.value ?? 0);
}

describe('a cap on the versions one student submits for one question', () => {
  it(`accepts ${CAP} versions, then refuses the next with a 409 that says why, storing nothing`, async () => {
    for (let version = 1; version <= CAP; version += 1) {
      await submitAnswer(t.app, world.student, world.assignment._id, world.question._id, `Attempt ${version}`);
    }
    const [filesBefore] = await t.ctx.db.select({ value: count() }).from(files);
    const blobsBefore = await blobCount();

    const refused = await upload(world.student, `${questionUrl()}/submit`, {
      file: pdfPart(await makePdf('Attempt 4')),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'CONFLICT',
      message: `You have already submitted ${CAP} versions of this answer, the most allowed. Your latest version is kept; ask your instructor if you need to replace it.`,
    });
    expect(await versionsOf(world.student)).toBe(CAP);
    const [filesAfter] = await t.ctx.db.select({ value: count() }).from(files);
    expect(filesAfter!.value).toBe(filesBefore!.value);
    expect(await blobCount()).toBe(blobsBefore);
  });

  it("refuses the instructor's upload on the student's behalf too, naming the student", async () => {
    const refused = await upload(world.instructor, `${questionUrl()}/upload-submission`, {
      studentEmail: world.student.email,
      file: pdfPart(await makePdf('Paper copy')),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `Sam Student already has ${CAP} versions of this answer, the most allowed. Their latest version is kept.`,
    );
    expect(await versionsOf(world.student)).toBe(CAP);
  });

  it('counts per student and per question: a classmate and another question are not affected', async () => {
    const classmateUpload = await upload(classmate, `${questionUrl()}/submit`, {
      file: pdfPart(await makePdf('My answer')),
    });
    expect(classmateUpload.statusCode).toBe(201);
    const other = await createQuestion(t.app, world.instructor, world.assignment._id, { title: 'Question 2' });
    const otherUpload = await upload(world.student, `${questionUrl(other)}/submit`, {
      file: pdfPart(await makePdf('Question 2 answer')),
    });
    expect(otherUpload.statusCode).toBe(201);
  });

  it('holds when uploads race: never more than the cap', async () => {
    const racer = await registerUser(t.app, { name: 'Rae Racer' });
    await addStudents(t.app, world.instructor, world.course._id, [racer.email]);
    const pdf = await makePdf('Same answer, many clicks');
    const responses = await Promise.all(
      Array.from({ length: CAP + 3 }, () => upload(racer, `${questionUrl()}/submit`, { file: pdfPart(pdf) })),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(CAP);
    expect(statuses.filter((status) => status === 409)).toHaveLength(3);
    expect(await versionsOf(racer)).toBe(CAP);
  });
});
