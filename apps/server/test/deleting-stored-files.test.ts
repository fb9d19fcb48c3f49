import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../src/db/schema.ts';
import { deleteCourses } from '../src/services/delete-courses.ts';
import { sweepOrphanFiles } from '../src/services/sweep-orphan-files.ts';
import { bucketOf } from '../src/storage/open-file-storage.ts';
import type { S3Storage } from '../src/storage/s3-storage.ts';
import {
  addStudents,
  createAssignment,
  createCourse,
  createQuestion,
  submitAnswer,
  type CourseWorld,
} from './support/course-fixtures.ts';
import { makePdf, tinyPng } from './support/files.ts';
import { registerUser } from './support/http.ts';
import { pdfPart } from './support/multipart.ts';
import { startS3Server, type S3TestServer } from './support/s3-server.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Deleting a course removes its stored files (decision 0081), on S3 (s3rver on loopback) and on
 * local disk: the rows go in one transaction, the objects after it commits, so no row ever names a
 * missing object; an object that cannot be removed then is left for the orphan sweep, which finds
 * it. Deleting an account keeps the files its courses keep (decision 0014: the work stays).
 */

/** The storage keys of what the storage really holds: s3rver's folder, or DATA_DIR/files. */
async function keysOnDisk(root: string, suffix: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name.endsWith(suffix)) found.push(entry.name.slice(0, entry.name.length - suffix.length));
    }
  };
  await walk(root);
  return found.sort();
}

async function fullCourse(t: TestApp, title: string): Promise<CourseWorld> {
  const instructor = await registerUser(t.app, { role: 'instructor', name: `Prof of ${title}` });
  const student = await registerUser(t.app, { role: 'student', name: `Student of ${title}` });
  const course = await createCourse(t.app, instructor, {
    title,
    courseImage: { content: tinyPng(), filename: 'cover.png', contentType: 'image/png' },
    syllabusFile: pdfPart(await makePdf(`Syllabus of ${title}`), 'syllabus.pdf'),
  });
  await addStudents(t.app, instructor, course._id, [student.email]);
  const assignment = await createAssignment(t.app, instructor, course._id);
  const question = await createQuestion(t.app, instructor, assignment._id);
  await submitAnswer(t.app, student, assignment._id, question._id, `The answer in ${title}.`);
  await submitAnswer(t.app, student, assignment._id, question._id, `A second version in ${title}.`);
  return { instructor, student, course, assignment, question };
}

const storages = [
  { name: 'on S3 (s3rver)', s3: true },
  { name: 'on local disk', s3: false },
];

describe.each(storages)('deleting a course $name', ({ s3 }) => {
  let server: S3TestServer | undefined;
  let t: TestApp;
  const held = async () =>
    s3
      ? keysOnDisk(path.join(server!.directory, server!.bucket), '._S3rver_object')
      : keysOnDisk(t.config.filesDir, '');
  const rowKeys = async () =>
    (await t.ctx.db.select({ storageKey: files.storageKey }).from(files)).map((row) => row.storageKey).sort();

  beforeAll(async () => {
    server = s3 ? await startS3Server() : undefined;
    t = await createTestApp(server?.env ?? {});
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  it("removes the course's rows and every object they named, and nothing of another course", async () => {
    const kept = await fullCourse(t, 'Kept course');
    const keptKeys = await rowKeys();
    const gone = await fullCourse(t, 'Deleted course');
    const allKeys = await rowKeys();
    // image, syllabus, question, solution, two submission versions
    expect(allKeys.length - keptKeys.length).toBe(6);
    expect(await held()).toEqual(allKeys);

    await deleteCourses(t.ctx, [gone.course._id]);

    expect(await rowKeys()).toEqual(keptKeys);
    expect(await held()).toEqual(keptKeys);
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${kept.course._id}`,
      headers: kept.instructor.auth,
    });
    expect(page.statusCode).toBe(200);
  });

  it('an account deleted keeps the files its course keeps (its graded work stays, decision 0014)', async () => {
    const world = await fullCourse(t, 'Course of a leaving student');
    const before = await rowKeys();
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/auth/delete-account',
      headers: world.student.auth,
      payload: { password: world.student.password },
    });
    expect(deleted.statusCode).toBe(200);
    expect(await rowKeys()).toEqual(before);
    expect(await held()).toEqual(before);
  });
});

describe('deleting a course while S3 cannot be reached', () => {
  let server: S3TestServer;
  let t: TestApp;

  beforeAll(async () => {
    server = await startS3Server();
    t = await createTestApp(server.env);
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  it('the rows go, no row names a missing object, and the orphan sweep removes the objects left behind', async () => {
    const world = await fullCourse(t, 'Deleted while S3 is down');
    const bucketDir = path.join(server.directory, server.bucket);
    const objects = await keysOnDisk(bucketDir, '._S3rver_object');
    expect(objects).toHaveLength(6);

    await server.stop();
    await deleteCourses(t.ctx, [world.course._id]);
    expect(await t.ctx.db.select({ id: files.id }).from(files)).toEqual([]);
    // Still there: the storage could not be reached.
    expect(await keysOnDisk(bucketDir, '._S3rver_object')).toEqual(objects);

    // The same server back on the same port and folder; the sweep (past its grace period) finds them.
    const port = Number(new URL(server.endpoint).port);
    const again = await startS3Server({ port, bucket: server.bucket, directory: server.directory });
    try {
      const bucket: S3Storage = bucketOf(t.ctx.storage)!;
      const swept = await sweepOrphanFiles(t.ctx.db, bucket, new Date(Date.now() + 60_000));
      expect(swept.deleted.sort()).toEqual(objects);
      expect(await keysOnDisk(bucketDir, '._S3rver_object')).toEqual([]);
      expect(await t.ctx.db.select({ id: files.id }).from(files).where(eq(files.kind, 'submission'))).toEqual([]);
    } finally {
      await again.stop();
    }
  });
});
