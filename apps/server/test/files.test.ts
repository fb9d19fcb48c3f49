import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { files, questions } from '../src/db/schema.ts';
import { newId } from '../src/lib/ids.ts';
import { FileUrlSigner } from '../src/storage/file-url-signer.ts';
import { createCourseWorld, fetchFile, submitAnswer, type CourseWorld } from './support/course-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let world: CourseWorld;
let questionFileUrl: string;
let questionFileId: string;
beforeAll(async () => {
  t = await createTestApp();
  world = await createCourseWorld(t.app);
  questionFileUrl = world.question.questionFile;
  questionFileId = new URL(questionFileUrl, 'http://x').pathname.split('/').pop()!;
});
afterAll(async () => {
  await t?.close();
});

const withQuery = (url: string, change: (params: URLSearchParams) => void) => {
  const parsed = new URL(url, 'http://x');
  change(parsed.searchParams);
  return `${parsed.pathname}?${parsed.searchParams}`;
};

describe('GET /api/files/:fileId', () => {
  it('streams the file with its stored type, inline, nosniff, and a private cache lifetime', async () => {
    const response = await fetchFile(t.app, questionFileUrl);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('inline; filename="question.pdf"');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(String(response.headers['content-security-policy'])).toContain("default-src 'none'");
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('needs no Authorization header, and ignores one', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: questionFileUrl,
      headers: { authorization: 'Bearer nonsense' },
    });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    // The first character carries six whole bits of the signature: changing it always changes the
    // signature (the last one carries padding bits, so a change there can decode to the same bytes).
    [
      'a changed signature',
      (p: URLSearchParams) => {
        const sig = p.get('sig')!;
        p.set('sig', `${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`);
      },
    ],
    [
      'a later expiry with the old signature',
      (p: URLSearchParams) => p.set('exp', String(Number(p.get('exp')) + 3600)),
    ],
    ['no signature', (p: URLSearchParams) => p.delete('sig')],
    ['no expiry', (p: URLSearchParams) => p.delete('exp')],
    ['a non-numeric expiry', (p: URLSearchParams) => p.set('exp', 'soon')],
  ])('refuses %s with a 403', async (_label, change) => {
    const response = await fetchFile(t.app, withQuery(questionFileUrl, change));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'This file link is not valid.', code: 'FORBIDDEN' });
  });

  it('refuses a signature moved onto another file', async () => {
    const [row] = await t.ctx.db.select().from(questions).where(eq(questions.id, world.question._id));
    const solutionId = row!.solutionFileId!;
    const moved = questionFileUrl.replace(questionFileId, solutionId);
    expect((await fetchFile(t.app, moved)).statusCode).toBe(403);
  });

  it('refuses a link signed with another key', async () => {
    const forged = new FileUrlSigner(new TextEncoder().encode('another-secret-another-secret-another')).urlFor(
      questionFileId,
    );
    expect((await fetchFile(t.app, forged)).statusCode).toBe(403);
  });

  it('refuses an expired link with a 403 that says so', async () => {
    const past = Math.floor(Date.now() / 1000) - 1;
    const response = await fetchFile(t.app, t.ctx.fileUrls.urlWithExpiry(questionFileId, past));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: 'This file link has expired. Reload the page to get a new one.',
      code: 'FORBIDDEN',
    });
  });

  it('answers 404 for a non-UUID id, an unknown file (even correctly signed) and a missing blob', async () => {
    expect((await fetchFile(t.app, '/api/files/not-a-uuid?exp=1&sig=x')).statusCode).toBe(404);
    const unknown = await fetchFile(t.app, t.ctx.fileUrls.urlFor(newId()));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'File not found.', code: 'NOT_FOUND' });

    const submission = await submitAnswer(t.app, world.student, world.assignment._id, world.question._id);
    const fileId = new URL(submission.file, 'http://x').pathname.split('/').pop()!;
    const [row] = await t.ctx.db.select().from(files).where(eq(files.id, fileId));
    await t.ctx.storage.delete(row!.storageKey);
    expect((await fetchFile(t.app, submission.file)).statusCode).toBe(404);
  });
});

describe('FileUrlSigner', () => {
  const secret = new TextEncoder().encode('a-test-secret-of-enough-length-123456');

  it('issues links that live at least the ttl and stay the same within one step', () => {
    let now = Date.UTC(2030, 0, 1, 12, 0, 1);
    const signer = new FileUrlSigner(secret, { ttlSeconds: 3600, stepSeconds: 600, now: () => now });
    const first = signer.urlFor('f1');
    const exp = Number(new URL(first, 'http://x').searchParams.get('exp'));
    expect(exp * 1000).toBeGreaterThanOrEqual(now + 3600 * 1000);
    expect(exp * 1000).toBeLessThan(now + 4200 * 1000);
    now += 60_000;
    expect(signer.urlFor('f1')).toBe(first);
    expect(signer.urlFor('f2')).not.toBe(first.replace('f1', 'f2'));
  });

  it('checks signature first, then expiry, against its clock', () => {
    let now = Date.UTC(2030, 0, 1);
    const signer = new FileUrlSigner(secret, { ttlSeconds: 60, stepSeconds: 1, now: () => now });
    const params = new URL(signer.urlFor('file-a'), 'http://x').searchParams;
    const [exp, sig] = [params.get('exp')!, params.get('sig')!];
    expect(signer.check('file-a', exp, sig)).toBe('valid');
    expect(signer.check('file-b', exp, sig)).toBe('invalid');
    now += 61_000;
    expect(signer.check('file-a', exp, sig)).toBe('expired');
    expect(signer.check('file-a', exp, `${sig}x`)).toBe('invalid');
  });

  it('derives its key from the token secret: same secret, same links; another secret, other links', () => {
    const now = () => Date.UTC(2030, 0, 1);
    const a = new FileUrlSigner(secret, { now }).urlFor('f');
    const b = new FileUrlSigner(secret, { now }).urlFor('f');
    const c = new FileUrlSigner(new TextEncoder().encode('a-different-secret-of-enough-length-99'), { now }).urlFor(
      'f',
    );
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });
});
