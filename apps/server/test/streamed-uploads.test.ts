import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, questions, submissions } from '../src/db/schema.ts';
import { sweepOrphanFiles } from '../src/services/sweep-orphan-files.ts';
import { localBlobPath, type FileStorage, type ListedBlob, type StoredStream } from '../src/storage/file-storage.ts';
import { createCourseWorld, fetchFile, type CourseWorld } from './support/course-fixtures.ts';
import { makePdf, putBytes } from './support/files.ts';
import { multipart, pdfPart } from './support/multipart.ts';
import { startS3Server, type S3TestServer } from './support/s3-server.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Uploads go from the request to the storage as streams (decision 0082): each file of a multipart
 * request is written to a temporary file in DATA_DIR/incoming as it arrives, checked there, and
 * the storage's put reads a stream of it; a file over the limit is cut off by the multipart parser
 * and leaves no object, no row and no temporary file. Downloads stream from the storage. On S3
 * (s3rver on loopback) and on local disk. And the orphan sweep covers local disk too.
 */

/** Delegates every call to the app's real storage, and notes what `put` was given and whether a whole-file read happened. */
class RecordingStorage implements FileStorage {
  readonly puts: { isStream: boolean; size: number; waitingUploads: number[] }[] = [];
  wholeReads = 0;

  constructor(
    private readonly inner: FileStorage,
    private readonly incomingDir: string,
  ) {}

  get description(): string {
    return this.inner.description;
  }
  get location() {
    return this.inner.location;
  }
  async put(body: Readable, size: number): Promise<string> {
    // What waits in the incoming folder while the storage reads: the upload as a file of its full size.
    const waiting = await fs.readdir(this.incomingDir);
    const waitingUploads = await Promise.all(
      waiting.map(async (name) => (await fs.stat(path.join(this.incomingDir, name))).size),
    );
    this.puts.push({ isStream: body instanceof Readable && !Buffer.isBuffer(body), size, waitingUploads });
    return this.inner.put(body, size);
  }
  putAt(storageKey: string, body: Readable, size: number): Promise<void> {
    return this.inner.putAt(storageKey, body, size);
  }
  get(storageKey: string): Promise<Buffer> {
    this.wholeReads += 1;
    return this.inner.get(storageKey);
  }
  open(storageKey: string): Promise<StoredStream> {
    return this.inner.open(storageKey);
  }
  delete(storageKey: string): Promise<void> {
    return this.inner.delete(storageKey);
  }
  exists(storageKey: string): Promise<boolean> {
    return this.inner.exists(storageKey);
  }
  list(): AsyncIterable<ListedBlob> {
    return this.inner.list();
  }
  check(): Promise<void> {
    return this.inner.check();
  }
}

/** Bytes a PDF check accepts (header, end marker) and pdf-lib's scan finds nothing active in: `size` bytes in all. */
function pdfShapedBytes(size: number): Buffer {
  const head = Buffer.from('%PDF-1.7\n%');
  const tail = Buffer.from('\n%%EOF\n');
  const body = Buffer.from(
    randomBytes(size)
      .toString('base64')
      .slice(0, size - head.length - tail.length),
  );
  return Buffer.concat([head, body, tail]);
}

/** Every file under `dir`, relative (s3rver's folder, DATA_DIR/files, DATA_DIR/incoming). */
async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string) => {
    for (const entry of await fs.readdir(current, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else found.push(path.relative(dir, full));
    }
  };
  await walk(dir);
  return found.sort();
}

const storages: [
  string,
  () => Promise<{ env: Record<string, string>; blobsDir: (t: TestApp) => string; close(): Promise<void> }>,
][] = [
  ['local disk', async () => ({ env: {}, blobsDir: (t) => t.config.filesDir, close: async () => {} })],
  [
    'S3 (s3rver)',
    async () => {
      const server: S3TestServer = await startS3Server();
      return {
        env: server.env,
        blobsDir: () => path.join(server.directory, server.bucket),
        close: () => server.close(),
      };
    },
  ],
];

describe.each(storages)('uploads stream to the storage: %s', (_name, startStorage) => {
  let storage: Awaited<ReturnType<typeof startStorage>>;
  let t: TestApp;
  let world: CourseWorld;
  let recorder: RecordingStorage;
  let appStorage: FileStorage;

  beforeAll(async () => {
    storage = await startStorage();
    t = await createTestApp({ ...storage.env, MAX_UPLOAD_MB: '4' });
    world = await createCourseWorld(t.app);
    appStorage = t.ctx.storage;
    recorder = new RecordingStorage(appStorage, t.config.incomingDir);
    t.ctx.storage = recorder;
  });
  afterAll(async () => {
    // The app's own storage back, so closing the app releases its S3 client.
    if (t) t.ctx.storage = appStorage;
    await t?.close();
    await storage?.close();
  });

  const fileCount = async () => (await t.ctx.db.select({ n: count() }).from(files))[0]!.n;

  it('a 3 MB answer reaches the storage as a stream of its waiting file, and its link streams it back', async () => {
    recorder.puts.length = 0;
    recorder.wholeReads = 0;
    const pdf = pdfShapedBytes(3 * 1024 * 1024);
    const form = await multipart({ file: pdfPart(pdf) });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${world.assignment._id}/questions/${world.question._id}/submit`,
      headers: { ...world.student.auth, ...form.headers },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(201);
    // The storage was handed a stream, not a buffer, while the upload waited on disk whole.
    expect(recorder.puts).toEqual([{ isStream: true, size: pdf.length, waitingUploads: [pdf.length] }]);
    // The request's temporary file is gone once it is answered.
    expect(await filesUnder(t.config.incomingDir)).toEqual([]);

    const submission = response.json().submission;
    const [row] = await t.ctx.db
      .select({ storageKey: files.storageKey, sha256: files.sha256, sizeBytes: files.sizeBytes })
      .from(files)
      .innerJoin(submissions, eq(submissions.fileId, files.id))
      .where(eq(submissions.id, submission._id));
    expect(row!.sizeBytes).toBe(pdf.length);
    expect(row!.sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    expect((await filesUnder(storage.blobsDir(t))).some((name) => name.includes(row!.storageKey))).toBe(true);

    const download = await fetchFile(t.app, submission.file);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-length']).toBe(String(pdf.length));
    expect(download.rawPayload.equals(pdf)).toBe(true);
    // Neither the upload nor the download read the stored file whole.
    expect(recorder.wholeReads).toBe(0);
  });

  it('a file over the limit: the 413 names the limit, and no object, row or temporary file is left', async () => {
    recorder.puts.length = 0;
    const blobsBefore = await filesUnder(storage.blobsDir(t));
    const filesBefore = await fileCount();
    const questionsBefore = (await t.ctx.db.select({ n: count() }).from(questions))[0]!.n;
    // The question PDF is fine and arrives first; the solution after it is over the limit.
    const form = await multipart({
      questionFile: pdfPart(await makePdf('Question 9'), 'question.pdf'),
      solutionFile: pdfPart(pdfShapedBytes(4 * 1024 * 1024 + 100), 'solution.pdf'),
    });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${world.assignment._id}/questions`,
      headers: { ...world.instructor.auth, ...form.headers },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      message: 'The upload is too large. Each file may be at most 4 MB.',
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(recorder.puts).toEqual([]);
    expect(await filesUnder(t.config.incomingDir)).toEqual([]);
    expect(await filesUnder(storage.blobsDir(t))).toEqual(blobsBefore);
    expect(await fileCount()).toBe(filesBefore);
    expect((await t.ctx.db.select({ n: count() }).from(questions))[0]!.n).toBe(questionsBefore);
  });

  it('a refused file (a PDF that runs JavaScript, a text file named .pdf) leaves no object, row or temporary file', async () => {
    recorder.puts.length = 0;
    const blobsBefore = await filesUnder(storage.blobsDir(t));
    const filesBefore = await fileCount();
    const hostile = Buffer.from('%PDF-1.7\n1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert(1)) >>\n%%EOF\n');
    for (const [content, message] of [
      [hostile, /^"answer\.pdf" contains JavaScript/],
      [Buffer.from('just text'), /^The file is not a valid PDF\./],
    ] as const) {
      const form = await multipart({ file: pdfPart(content) });
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/assignments/${world.assignment._id}/questions/${world.question._id}/submit`,
        headers: { ...world.student.auth, ...form.headers },
        payload: form.payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect(recorder.puts).toEqual([]);
    expect(await filesUnder(t.config.incomingDir)).toEqual([]);
    expect(await filesUnder(storage.blobsDir(t))).toEqual(blobsBefore);
    expect(await fileCount()).toBe(filesBefore);
  });
});

describe('the orphan sweep on local disk', () => {
  let t: TestApp;
  let world: CourseWorld;

  beforeAll(async () => {
    t = await createTestApp();
    world = await createCourseWorld(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('removes blobs no row names, partial writes and waiting uploads past the grace period, and keeps every named blob', async () => {
    const form = await multipart({ file: pdfPart(await makePdf('Kept: a row names it.')) });
    const submitted = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${world.assignment._id}/questions/${world.question._id}/submit`,
      headers: { ...world.student.auth, ...form.headers },
      payload: form.payload,
    });
    expect(submitted.statusCode).toBe(201);
    const named = (await t.ctx.db.select({ storageKey: files.storageKey }).from(files)).map((row) => row.storageKey);
    // What a process killed at each step leaves: a blob whose row never committed, a put cut off
    // half written, an upload still waiting in the incoming folder.
    const orphan = await putBytes(t.ctx.storage, Buffer.from('an upload whose row never committed'));
    const partial = `${localBlobPath(t.config.filesDir, orphan)}.1a2b3c4d.tmp`;
    await fs.writeFile(partial, 'half a file');
    await fs.mkdir(t.config.incomingDir, { recursive: true });
    const waiting = path.join(t.config.incomingDir, `${'c'.repeat(32)}.upload`);
    await fs.writeFile(waiting, 'an upload whose request never ended');

    // Within the grace period (an hour), nothing is touched.
    expect(await sweepOrphanFiles(t.ctx.db, t.ctx.storage, undefined, t.config.incomingDir)).toEqual({
      deleted: [],
      leftovers: 0,
    });
    await fs.access(partial);
    await fs.access(waiting);
    expect(await t.ctx.storage.exists(orphan)).toBe(true);

    // Past it, the orphan, the partial write and the waiting upload go; every named blob stays.
    const swept = await sweepOrphanFiles(t.ctx.db, t.ctx.storage, new Date(Date.now() + 60_000), t.config.incomingDir);
    expect(swept).toEqual({ deleted: [orphan], leftovers: 2 });
    expect(await t.ctx.storage.exists(orphan)).toBe(false);
    await expect(fs.access(partial)).rejects.toThrow();
    await expect(fs.access(waiting)).rejects.toThrow();
    for (const key of named) expect(await t.ctx.storage.exists(key)).toBe(true);
    const download = await fetchFile(t.app, submitted.json().submission.file);
    expect(download.statusCode).toBe(200);
  });
});
