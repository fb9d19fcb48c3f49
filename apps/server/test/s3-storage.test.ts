import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import fs from 'node:fs/promises';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, submissions } from '../src/db/schema.ts';
import { AppError } from '../src/lib/errors.ts';
import { moveFilesToS3 } from '../src/services/move-files-to-s3.ts';
import { loadConfig } from '../src/config.ts';
import { storeFilesThen } from '../src/services/store-files.ts';
import { sweepOrphanFiles } from '../src/services/sweep-orphan-files.ts';
import { LocalDiskStorage, localBlobPath } from '../src/storage/file-storage.ts';
import { openFileStorage } from '../src/storage/open-file-storage.ts';
import { S3Storage, objectKey } from '../src/storage/s3-storage.ts';
import { bytesInMemory } from '../src/storage/upload-bytes.ts';
import { createCourseWorld, fetchFile, type CourseWorld } from './support/course-fixtures.ts';
import { makePdf, putBytes } from './support/files.ts';
import { multipart, pdfPart } from './support/multipart.ts';
import { startS3Server, S3RVER_KEY, type S3TestServer } from './support/s3-server.ts';
import { startServerProcess } from './support/server-process.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * S3-compatible file storage (storage/s3-storage.ts, decision 0071) against a real S3 protocol
 * server on loopback (s3rver), through the AWS SDK over HTTP and through the app's real routes:
 * the calls, the app on S3, and each fault the issue names (bucket missing, server unreachable,
 * wrong access key, object missing under a row, a write that fails after the object was put).
 */

const settingsOf = (server: S3TestServer, bucket = server.bucket) => ({
  bucket,
  endpoint: server.endpoint,
  region: 'us-east-1',
  accessKeyId: S3RVER_KEY,
  secretAccessKey: S3RVER_KEY,
  forcePathStyle: true,
});

/** The object as s3rver keeps it on its disk (what is really in the bucket, not what our code says). */
const objectOnServer = (server: S3TestServer, storageKey: string) =>
  path.join(server.directory, server.bucket, `${objectKey(storageKey)}._S3rver_object`);

async function objectsOnServer(server: S3TestServer): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name.endsWith('._S3rver_object')) found.push(entry.name.replace('._S3rver_object', ''));
    }
  };
  await walk(path.join(server.directory, server.bucket));
  return found.sort();
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('S3Storage against s3rver', () => {
  let server: S3TestServer;
  let storage: S3Storage;

  beforeAll(async () => {
    server = await startS3Server();
    storage = new S3Storage(settingsOf(server));
  });
  afterAll(async () => {
    storage?.close();
    await server?.close();
  });

  it('puts, gets, streams, tells existence and deletes', async () => {
    const content = Buffer.from(`%PDF-1.7 ${'x'.repeat(300_000)}`);
    const key = await storage.put(Readable.from([content]), content.length);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(await fs.readFile(objectOnServer(server, key))).toEqual(content);
    expect(await storage.get(key)).toEqual(content);
    const stream = await storage.open(key);
    expect(stream.size).toBe(content.length);
    const chunks: Buffer[] = [];
    for await (const chunk of stream.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(content);
    expect(await storage.exists(key)).toBe(true);
    await storage.check();

    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    await expect(fs.access(objectOnServer(server, key))).rejects.toThrow();
    // A second delete is no error, as on disk.
    await storage.delete(key);
    // A missing object is the missing-blob error every storage throws (the file route's 404).
    expect(await rejection(storage.get(key))).toMatchObject({ code: 'ENOENT' });
  });

  it('lists what the bucket holds', async () => {
    const keys = [await putBytes(storage, Buffer.from('one')), await putBytes(storage, Buffer.from('two'))];
    const listed: string[] = [];
    for await (const item of storage.list()) listed.push(item.storageKey);
    expect(listed).toEqual(expect.arrayContaining(keys));
  });

  it('a missing bucket: a 503 sentence naming S3_BUCKET', async () => {
    const absent = new S3Storage(settingsOf(server, 'no-such-bucket'));
    try {
      const error = await rejection(absent.check());
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(503);
      expect(error.message).toContain('S3 bucket "no-such-bucket"');
      expect(error.message).toContain('the bucket does not exist (check S3_BUCKET');
      expect((await rejection(putBytes(absent, Buffer.from('x')))).message).toContain('check S3_BUCKET');
    } finally {
      absent.close();
    }
  });

  it('an access key the server does not know: the sentence names S3_ACCESS_KEY_ID', async () => {
    const wrong = new S3Storage({ ...settingsOf(server), accessKeyId: 'NOT-A-KEY' });
    try {
      const error = await rejection(wrong.check());
      expect((error as AppError).status).toBe(503);
      expect(error.message).toContain('check S3_ACCESS_KEY_ID');
    } finally {
      wrong.close();
    }
  });
});

describe('the app with its files on S3', () => {
  let server: S3TestServer;
  let t: TestApp;
  let world: CourseWorld;

  beforeAll(async () => {
    server = await startS3Server();
    t = await createTestApp(server.env);
    world = await createCourseWorld(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  const submit = async (text: string) => {
    const form = await multipart({ file: pdfPart(await makePdf(text)) });
    return t.app.inject({
      method: 'POST',
      url: `/api/assignments/${world.assignment._id}/questions/${world.question._id}/submit`,
      headers: { ...world.student.auth, ...form.headers },
      payload: form.payload,
    });
  };
  const fileCount = async () => (await t.ctx.db.select({ n: count() }).from(files))[0]!.n;
  const submissionCount = async () => (await t.ctx.db.select({ n: count() }).from(submissions))[0]!.n;

  it('an upload goes to the bucket (not the data directory) and its signed link serves the same bytes', async () => {
    const pdf = await makePdf('Velocity is distance over time.');
    const form = await multipart({ file: pdfPart(pdf) });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${world.assignment._id}/questions/${world.question._id}/submit`,
      headers: { ...world.student.auth, ...form.headers },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(201);
    const submission = response.json().submission;
    const [row] = await t.ctx.db
      .select({ storageKey: files.storageKey, sha256: files.sha256 })
      .from(files)
      .innerJoin(submissions, eq(submissions.fileId, files.id))
      .where(eq(submissions.id, submission._id));
    expect(await fs.readFile(objectOnServer(server, row!.storageKey))).toEqual(pdf);
    expect(row!.sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    await expect(fs.access(t.config.filesDir)).rejects.toThrow();

    const download = await fetchFile(t.app, submission.file);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-length']).toBe(String(pdf.length));
    expect(download.rawPayload).toEqual(pdf);

    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json()).toEqual({ ready: true, database: 'ok', storage: 'ok' });
    expect(ready.statusCode).toBe(200);
  });

  it('an object missing under its row: a clear 404, not a 500', async () => {
    const response = await submit('An answer whose object goes missing.');
    expect(response.statusCode).toBe(201);
    const submission = response.json().submission;
    const [row] = await t.ctx.db
      .select({ storageKey: files.storageKey })
      .from(files)
      .innerJoin(submissions, eq(submissions.fileId, files.id))
      .where(eq(submissions.id, submission._id));
    await fs.rm(objectOnServer(server, row!.storageKey));
    const download = await fetchFile(t.app, submission.file);
    expect(download.statusCode).toBe(404);
    expect(download.json()).toEqual({ message: 'File not found.', code: 'NOT_FOUND' });
  });

  it('a write that fails after the object was put: the object is deleted, no row is left', async () => {
    const before = await objectsOnServer(server);
    const filesBefore = await fileCount();
    const pdf = await makePdf('Never stored.');
    const error = await rejection(
      storeFilesThen(
        t.ctx,
        [
          {
            kind: 'submission',
            bytes: bytesInMemory(pdf),
            mimeType: 'application/pdf',
            sha256: createHash('sha256').update(pdf).digest('hex'),
            originalName: 'answer.pdf',
          },
        ],
        world.student.id,
        async () => {
          throw new Error('the write after the object failed');
        },
      ),
    );
    expect(error.message).toBe('the write after the object failed');
    expect(await objectsOnServer(server)).toEqual(before);
    expect(await fileCount()).toBe(filesBefore);
  });

  it('storage unreachable: readiness fails naming S3_ENDPOINT, an upload is a 503 that writes nothing, a download a 503', async () => {
    const existing = await submit('Stored while the storage was up.');
    expect(existing.statusCode).toBe(201);
    const filesBefore = await fileCount();
    const submissionsBefore = await submissionCount();
    await server.stop();

    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ ready: false, database: 'ok' });
    expect(ready.json().storage).toContain('the storage server cannot be reached');
    expect(ready.json().storage).toContain('check S3_ENDPOINT');
    // Alive all the same: the process answers, the storage does not.
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    const refused = await submit('Sent while the storage is down.');
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: 'UNAVAILABLE' });
    expect(refused.json().message).toContain('File storage is not available');
    expect(await fileCount()).toBe(filesBefore);
    expect(await submissionCount()).toBe(submissionsBefore);

    const download = await fetchFile(t.app, existing.json().submission.file);
    expect(download.statusCode).toBe(503);
    expect(download.json().message).toContain('File storage is not available');
  });
});

describe('the app pointed at a bucket that does not exist', () => {
  let server: S3TestServer;
  let t: TestApp;

  beforeAll(async () => {
    server = await startS3Server();
    t = await createTestApp({ ...server.env, S3_BUCKET: 'missing-bucket' });
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  it('readiness fails and says so; creating a course with a file is a 503 that writes nothing', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().storage).toContain('S3 bucket "missing-bucket"');
    expect(ready.json().storage).toContain('the bucket does not exist (check S3_BUCKET');

    const { registerUser } = await import('./support/http.ts');
    const instructor = await registerUser(t.app, { role: 'instructor' });
    const form = await multipart({ title: 'Optics', syllabusFile: pdfPart(await makePdf('Syllabus')) });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/courses',
      headers: { ...instructor.auth, ...form.headers },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toContain('check S3_BUCKET');
    expect((await t.ctx.db.select({ n: count() }).from(files))[0]!.n).toBe(0);
  });
});

describe('moving an installation from local disk to S3 (npm run files:to-s3)', () => {
  let server: S3TestServer;
  let t: TestApp;
  let world: CourseWorld;
  let bucket: S3Storage;

  beforeAll(async () => {
    server = await startS3Server();
    bucket = new S3Storage(settingsOf(server));
    t = await createTestApp();
    world = await createCourseWorld(t.app);
  });
  afterAll(async () => {
    bucket?.close();
    await t?.close();
    await server?.close();
  });

  const locations = async () =>
    (await t.ctx.db.select({ id: files.id, location: files.location, storageKey: files.storageKey }).from(files)).sort(
      (a, b) => a.id.localeCompare(b.id),
    );

  it('copies and verifies every file, switches each row after its copy, never leaves a file unreadable, and copies nothing twice', async () => {
    const pdf = await makePdf('Stored on the local disk before the move.');
    const form = await multipart({ file: pdfPart(pdf) });
    const submitted = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${world.assignment._id}/questions/${world.question._id}/submit`,
      headers: { ...world.student.auth, ...form.headers },
      payload: form.payload,
    });
    expect(submitted.statusCode).toBe(201);
    const link = submitted.json().submission.file as string;
    const before = await locations();
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(before.every((row) => row.location === 'local')).toBe(true);

    // The operator sets S3_* and restarts: files not moved yet still open (from the disk).
    const local = new LocalDiskStorage(t.config.filesDir);
    t.ctx.storage = openFileStorage({ s3: settingsOf(server), filesDir: t.config.filesDir });
    expect((await fetchFile(t.app, link)).rawPayload).toEqual(pdf);

    const first = await moveFilesToS3(t.ctx.db, local, bucket);
    expect(first).toEqual({ moved: before.length, problems: [] });
    const after = await locations();
    expect(after.every((row) => row.location === 's3')).toBe(true);
    // Same keys, same bytes, in the bucket as the S3 server holds them.
    expect(after.map((row) => row.storageKey).sort()).toEqual(await objectsOnServer(server));
    for (const row of after) {
      expect(await fs.readFile(objectOnServer(server, row.storageKey))).toEqual(
        await fs.readFile(localBlobPath(t.config.filesDir, row.storageKey)),
      );
    }

    // A second run finds nothing to copy.
    expect(await moveFilesToS3(t.ctx.db, local, bucket)).toEqual({ moved: 0, problems: [] });

    // With the local disk gone, every file opens from the bucket.
    await fs.rm(t.config.filesDir, { recursive: true });
    const download = await fetchFile(t.app, link);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload).toEqual(pdf);
  });

  it('a blob on disk that is not the file its row names is not moved, and says so', async () => {
    t.ctx.storage = new LocalDiskStorage(t.config.filesDir);
    const pdf = await makePdf('Damaged on disk before the move.');
    const form = await multipart({ file: pdfPart(pdf) });
    const submitted = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${world.assignment._id}/questions/${world.question._id}/submit`,
      headers: { ...world.student.auth, ...form.headers },
      payload: form.payload,
    });
    expect(submitted.statusCode).toBe(201);
    const [row] = (await locations()).filter((candidate) => candidate.location === 'local');
    await fs.writeFile(localBlobPath(t.config.filesDir, row!.storageKey), 'not the uploaded bytes');

    const summary = await moveFilesToS3(t.ctx.db, new LocalDiskStorage(t.config.filesDir), bucket);
    expect(summary.moved).toBe(0);
    expect(summary.problems).toEqual([
      { fileId: row!.id, reason: expect.stringContaining('is not the file the row names') },
    ]);
    expect((await locations()).find((candidate) => candidate.id === row!.id)!.location).toBe('local');
    expect(await objectsOnServer(server)).not.toContain(row!.storageKey);
  });
});

describe('the orphan sweep', () => {
  let server: S3TestServer;
  let t: TestApp;

  beforeAll(async () => {
    server = await startS3Server();
    t = await createTestApp(server.env);
    await createCourseWorld(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  it('removes objects no row names once past the grace period, and never an object a row names', async () => {
    const bucket = new S3Storage(settingsOf(server));
    try {
      const referenced = (await t.ctx.db.select({ storageKey: files.storageKey }).from(files)).map(
        (row) => row.storageKey,
      );
      expect(referenced.length).toBeGreaterThan(0);
      // What a process killed between the object and its row leaves behind.
      const orphan = await putBytes(bucket, Buffer.from('an upload whose row never committed'));

      // Within the grace period (the default: an hour), nothing is touched.
      expect(await sweepOrphanFiles(t.ctx.db, bucket)).toEqual({ deleted: [], leftovers: 0 });
      expect(await objectsOnServer(server)).toContain(orphan);

      // Past it (every object counts as older than a minute from now), the orphan alone goes.
      expect(await sweepOrphanFiles(t.ctx.db, bucket, new Date(Date.now() + 60_000))).toEqual({
        deleted: [orphan],
        leftovers: 0,
      });
      expect(await objectsOnServer(server)).toEqual([...referenced].sort());
    } finally {
      bucket.close();
    }
  });
});

describe('S3 settings a process is started with', () => {
  it('the configuration names the missing variable', () => {
    expect(() => loadConfig({ S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'key' })).toThrow(
      /S3_SECRET_ACCESS_KEY: is required with the other S3 key/,
    );
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      /S3_BUCKET: is required with S3_ENDPOINT/,
    );
    expect(() => loadConfig({ S3_BUCKET: 'Not_A_Bucket' })).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(loadConfig({ S3_BUCKET: 'files', S3_ENDPOINT: 'http://127.0.0.1:9000' }).s3).toMatchObject({
      bucket: 'files',
      forcePathStyle: true,
      region: 'us-east-1',
    });
    expect(loadConfig({}).s3).toBeUndefined();
  });

  it('a real server with an access key the storage does not know says which variable is wrong, and is not ready', async () => {
    const server = await startS3Server();
    const dataDir = await fs.mkdtemp(path.join(server.directory, '..', 'gradewise-s3-process-'));
    const child = await startServerProcess({
      ...server.env,
      S3_ACCESS_KEY_ID: 'NOT-A-KEY',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
    });
    try {
      const said = await child.waitForLog(
        (line) => typeof line.msg === 'string' && line.msg.startsWith('File storage is not available'),
      );
      expect(said.msg).toContain('check S3_ACCESS_KEY_ID');
      const ready = await fetch(`${child.baseUrl}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { storage: string }).storage).toContain('check S3_ACCESS_KEY_ID');
      expect((await fetch(`${child.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      expect(await child.stop()).toBe(0);
      await server.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
