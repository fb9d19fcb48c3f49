import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/client.ts';
import { writeBackup, type BackupManifest } from '../src/services/write-backup.ts';
import { createCourseWorld, submitAnswer } from './support/course-fixtures.ts';
import { startS3Server, type S3TestServer } from './support/s3-server.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * `npm run restore` with S3_BUCKET set (decision 0082): the files of a backup (made here from an
 * installation on local disk) go to the bucket of a real S3 server on loopback (s3rver), each read
 * back and checked against the manifest, and the restored rows say the files are in the bucket.
 * A bucket that already holds files is refused, as a non-empty folder is.
 */

/** Each step spawns `npm run restore`'s program: seconds on an idle machine, minutes on a busy one. */
const STEP_LIMIT_MS = 600_000;
const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function runRestore(
  backupDir: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/restore.ts', backupDir], {
    cwd: SERVER_DIR,
    env: { ...process.env, LOG_LEVEL: 'silent', INIT_CWD: SERVER_DIR, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

/** What s3rver holds, read from its own folder: storage key → bytes. */
async function objectsOnServer(server: S3TestServer): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  const walk = async (dir: string) => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name.endsWith('._S3rver_object'))
        found.set(entry.name.replace('._S3rver_object', ''), await fs.readFile(full));
    }
  };
  await walk(path.join(server.directory, server.bucket));
  return found;
}

describe('npm run restore into S3', () => {
  const temporary: string[] = [];
  const tempDir = async (name: string) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), `gw-${name}-`));
    temporary.push(dir);
    return dir;
  };
  let server: S3TestServer;
  let source: TestApp;
  let backupDir: string;
  let manifest: BackupManifest;

  beforeAll(async () => {
    server = await startS3Server();
    source = await createTestApp();
    const world = await createCourseWorld(source.app);
    await submitAnswer(source.app, world.student, world.assignment._id, world.question._id, 'v = d / t');
    backupDir = path.join(await tempDir('backup'), 'out');
    await writeBackup({ database: source.ctx.database, storage: source.ctx.storage }, backupDir);
    manifest = JSON.parse(await fs.readFile(path.join(backupDir, 'manifest.json'), 'utf8')) as BackupManifest;
  });
  afterAll(async () => {
    await source?.close();
    await server?.close();
    for (const dir of temporary) await fs.rm(dir, { recursive: true, force: true });
  });

  it(
    'writes every file to the bucket, each matching the manifest, and the rows say they are there',
    async () => {
      // The course's question PDF and solution, and the answer.
      expect(manifest.files.length).toBe(3);
      const target = await tempDir('target');
      const restored = await runRestore(backupDir, { ...server.env, DATA_DIR: target });
      // (Its stderr carries the AWS SDK's note about Node 20, decision 0071.)
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain(`files (${manifest.files.reduce((sum, file) => sum + file.bytes, 0)} bytes)`);
      expect(restored.stdout).toContain(`in the S3 bucket "${server.bucket}"`);

      const objects = await objectsOnServer(server);
      expect([...objects.keys()].sort()).toEqual(manifest.files.map((file) => file.storageKey).sort());
      for (const file of manifest.files) {
        const bytes = objects.get(file.storageKey)!;
        expect(bytes.length).toBe(file.bytes);
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(file.sha256);
      }
      // Nothing went to the target's disk: the bucket is where the server will read them.
      expect(await fs.readdir(path.join(target, 'files')).catch(() => [])).toEqual([]);

      const database = await openPglite(path.join(target, 'pglite'));
      try {
        const rows = await database.executeSql<{ storage_key: string; location: string }>(
          'SELECT storage_key, location FROM files ORDER BY storage_key',
        );
        expect(rows.rows).toEqual(
          manifest.files
            .map((file) => ({ storage_key: file.storageKey, location: 's3' }))
            .sort((a, b) => a.storage_key.localeCompare(b.storage_key)),
        );
      } finally {
        await database.close();
      }
    },
    STEP_LIMIT_MS,
  );

  it(
    'a bucket that already holds files is refused, naming it, and nothing changes',
    async () => {
      const before = await objectsOnServer(server);
      expect(before.size).toBeGreaterThan(0);
      const target = await tempDir('target');
      const again = await runRestore(backupDir, { ...server.env, DATA_DIR: target });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(
        `The S3 bucket "${server.bucket}" at ${server.endpoint} already holds stored files`,
      );
      const after = await objectsOnServer(server);
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      // The embedded target was left empty for another try.
      expect(await fs.readdir(target)).toEqual([]);
    },
    STEP_LIMIT_MS,
  );
});
