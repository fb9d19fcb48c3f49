import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/errors.ts';
import { S3Storage } from '../src/storage/s3-storage.ts';
import { putBytes } from './support/files.ts';
import { startS3Server, S3RVER_KEY, type S3TestServer } from './support/s3-server.ts';
import { startServerProcess } from './support/server-process.ts';

/**
 * Wrong S3 credentials say which variable is wrong (issue 30, "Bad input and faults"; decision
 * 0081). s3rver alone accepts any SigV4 signature, so these run against s3rver behind a front that
 * checks signatures as S3 does (support/s3-signature-check.ts); the first test shows that front
 * lets correctly signed requests of every kind the storage sends through.
 */

const settingsOf = (server: S3TestServer, secretAccessKey = S3RVER_KEY) => ({
  bucket: server.bucket,
  endpoint: server.endpoint,
  region: 'us-east-1',
  accessKeyId: S3RVER_KEY,
  secretAccessKey,
  forcePathStyle: true,
});

describe('S3 credentials, with signatures checked', () => {
  let server: S3TestServer;

  beforeAll(async () => {
    server = await startS3Server({ checkSignatures: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the right secret: every call the storage makes is signed correctly and passes', async () => {
    const storage = new S3Storage(settingsOf(server));
    try {
      await storage.check();
      const key = await putBytes(storage, Buffer.from('%PDF-1.7 signed'));
      expect(await storage.get(key)).toEqual(Buffer.from('%PDF-1.7 signed'));
      expect(await storage.exists(key)).toBe(true);
      const listed: string[] = [];
      for await (const item of storage.list()) listed.push(item.storageKey);
      expect(listed).toContain(key);
      await storage.delete(key);
      expect(await storage.exists(key)).toBe(false);
      expect(server.signatures!.refused).toBe(0);
      expect(server.signatures!.passed).toBeGreaterThanOrEqual(7);
    } finally {
      storage.close();
    }
  });

  it('a wrong secret: a 503 sentence naming S3_SECRET_ACCESS_KEY', async () => {
    const wrong = new S3Storage(settingsOf(server, 'not-the-secret'));
    try {
      const error = await wrong.check().then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(503);
      expect((error as AppError).message).toContain(
        'the secret key does not match the access key (check S3_SECRET_ACCESS_KEY)',
      );
      expect(server.signatures!.refused).toBeGreaterThan(0);
    } finally {
      wrong.close();
    }
  });

  it('a process started with a wrong secret says so at start, and is not ready', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gradewise-s3-secret-'));
    const child = await startServerProcess({
      ...server.env,
      S3_SECRET_ACCESS_KEY: 'not-the-secret',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
    });
    try {
      const said = await child.waitForLog(
        (line) => typeof line.msg === 'string' && line.msg.startsWith('File storage is not available'),
      );
      expect(said.msg).toContain('check S3_SECRET_ACCESS_KEY');
      const ready = await fetch(`${child.baseUrl}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { storage: string }).storage).toContain('check S3_SECRET_ACCESS_KEY');
      expect((await fetch(`${child.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      expect(await child.stop()).toBe(0);
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
