import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { computeFinalGrade } from '@gradewise/shared/final-grade';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, migrateDatabase, openPglite, openPostgres, type Database } from '../src/db/client.ts';
import { buildTextPdf } from '../src/demo/pdf-documents.ts';
import { restoreBackup } from '../src/services/restore-backup.ts';
import { writeBackup, type BackupManifest } from '../src/services/write-backup.ts';
import { LocalDiskStorage } from '../src/storage/file-storage.ts';
import { FAKE_MODEL_ID, startFakeLlmServer, type FakeLlmServer } from './support/fake-llm-server.ts';
import { withDatabase } from './support/global-setup.ts';
import { multipart, pdfPart, type FormValue } from './support/multipart.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';

/**
 * Backup and restore of a running server (decision 0070): the real server as a child process,
 * a world built through its HTTP API (accounts, a course, a question and answers as PDFs, AI
 * grades, a saved grade), then `npm run backup`'s program while an upload is half sent and a
 * grading request is in flight. The restored copy must hold exactly the snapshot: every file the
 * snapshot names, with its bytes, and not the upload that finished after it. A second backup of
 * the stopped server is restored by `npm run restore`'s program and compared with the source row
 * for row (every table, the migrations table too) and file for file.
 *
 * The PGlite project runs the embedded scenario; the PostgreSQL project (DATABASE_URL) runs the
 * same on fresh PostgreSQL databases, and restores the PostgreSQL backup into PGlite as well.
 * Each step waits on observable state (an exit, a response), never on time.
 */

const SCENARIO_LIMIT_MS = 600_000;
const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const onPostgres = process.env.TEST_DATABASE === 'postgres';

const temporaryDirs: string[] = [];
const createdDatabases: string[] = [];
let server: ServerProcess | undefined;
/** The AI provider, on loopback: a test holds a grading call open at the model while it backs up. */
let fake: FakeLlmServer;

const tempDir = async (name: string) => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `gw-${name}-`));
  temporaryDirs.push(dir);
  return dir;
};

async function createEmptyDatabase(): Promise<string> {
  const name = `gradewise_backup_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  createdDatabases.push(name);
  return withDatabase(process.env.DATABASE_URL!, name);
}

beforeAll(async () => {
  fake = await startFakeLlmServer();
});

afterAll(async () => {
  await server?.kill();
  await fake?.close();
  for (const dir of temporaryDirs) await fs.rm(dir, { recursive: true, force: true });
  if (createdDatabases.length > 0) {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    for (const name of createdDatabases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
});

// ------------------------------------------------------------------ the server's API

async function api(
  method: string,
  url: string,
  options: { token?: string; json?: unknown; form?: Record<string, FormValue> } = {},
) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    const form = await multipart(options.form);
    Object.assign(headers, form.headers);
    body = new Uint8Array(form.payload);
  }
  const response = await fetch(`${server!.baseUrl}${url}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function expectOk<T = any>(promise: ReturnType<typeof api>, status = 200): Promise<T> {
  const response = await promise;
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as T;
}

const pdf = async (text: string) => Buffer.from(await buildTextPdf({ paragraphs: [text] }));

interface World {
  instructorToken: string;
  studentTokens: string[];
  base: string;
  submissions: string[];
}

async function buildWorld(): Promise<World> {
  const register = async (name: string, role: 'student' | 'instructor') => {
    const email = `${name.toLowerCase()}@example.edu`;
    await expectOk(
      api('POST', '/api/auth/register', { json: { name, email, password: 'correct-horse-battery', role } }),
      201,
    );
    return expectOk(api('POST', '/api/auth/login', { json: { email, password: 'correct-horse-battery' } }));
  };
  const instructor = await register('Ada', 'instructor');
  const students = [
    await register('Sam', 'student'),
    await register('Cleo', 'student'),
    await register('Rui', 'student'),
  ];
  const course = (
    await expectOk(api('POST', '/api/courses', { token: instructor.token, form: { title: 'Physics' } }), 201)
  ).course;
  await expectOk(
    api('POST', `/api/courses/${course._id}/add-students`, {
      token: instructor.token,
      json: { emails: students.map((s) => s.user.email) },
    }),
  );
  const assignment = (
    await expectOk(
      api('POST', '/api/assignments', { token: instructor.token, json: { title: 'Set 1', courseId: course._id } }),
      201,
    )
  ).assignment;
  const question = (
    await expectOk(
      api('POST', `/api/assignments/${assignment._id}/questions`, {
        token: instructor.token,
        form: {
          points: '10',
          questionFile: pdfPart(await pdf('A ball is dropped from 20 m. How long does it fall? Use g = 10 m/s^2.')),
          solutionFile: pdfPart(await pdf('t = sqrt(2 h / g) = 2 s.')),
        },
      }),
      201,
    )
  ).question;
  const base = `/api/assignments/${assignment._id}/questions/${question._id}`;
  const submissions: string[] = [];
  for (const [index, student] of students.slice(0, 2).entries()) {
    const answer = await pdf(index === 0 ? 'h = g t^2 / 2 so t = 2 s.' : 'It takes about 2 seconds.');
    submissions.push(
      (await expectOk(api('POST', `${base}/submit`, { token: student.token, form: { file: pdfPart(answer) } }), 201))
        .submission._id,
    );
  }
  // An AI suggestion (the built-in grader), saved as the instructor's grade.
  const graded = await expectOk(api('POST', `${base}/grade/${submissions[0]}`, { token: instructor.token }));
  await expectOk(
    api('POST', `${base}/save-grade/${submissions[0]}`, {
      token: instructor.token,
      json: {
        grade: computeFinalGrade(10, graded.gradingResult.comments),
        feedback: 'Well argued.',
        comments: graded.gradingResult.comments,
        expectedGradeId: graded.currentGradeId,
      },
    }),
  );
  return {
    instructorToken: instructor.token,
    studentTokens: students.map((s) => s.token as string),
    base,
    submissions,
  };
}

/** An upload whose body is sent in two halves: between them it is in flight, and cannot have committed. */
async function startHeldUpload(url: string, token: string, content: Buffer) {
  const form = await multipart({ file: pdfPart(content, 'late.pdf') });
  const { port } = new URL(server!.baseUrl);
  const request = http.request({
    host: '127.0.0.1',
    port: Number(port),
    method: 'POST',
    path: url,
    headers: { ...form.headers, 'content-length': form.payload.length, authorization: `Bearer ${token}` },
  });
  const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
    request.once('error', reject);
    request.once('response', (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (text += chunk));
      incoming.once('end', () => resolve({ status: incoming.statusCode!, body: text ? JSON.parse(text) : undefined }));
    });
  });
  const half = Math.floor(form.payload.length / 2);
  await new Promise<void>((resolve, reject) =>
    request.write(form.payload.subarray(0, half), (error) => (error ? reject(error) : resolve())),
  );
  return {
    finish: async () => {
      request.end(form.payload.subarray(half));
      return response;
    },
  };
}

// ------------------------------------------------------------------ the commands

async function runCli(
  script: 'backup' | 'restore',
  argument: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', `src/cli/${script}.ts`, argument], {
    cwd: SERVER_DIR,
    env: { ...process.env, LOG_LEVEL: 'silent', INIT_CWD: SERVER_DIR, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

async function expectCli(script: 'backup' | 'restore', argument: string, env: Record<string, string>) {
  const result = await runCli(script, argument, env);
  if (result.code !== 0) throw new Error(`${script} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

// ------------------------------------------------------------------ what is compared

/** Every row of every table of ours and of the migrations table, as each type's text, sorted. */
async function allRows(database: Database): Promise<Record<string, string[]>> {
  const { rows: tables } = await database.executeSql<{ name: string }>(
    `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND (n.nspname = 'public' OR (n.nspname = 'drizzle' AND c.relname = '__drizzle_migrations'))
      ORDER BY 1`,
  );
  const result: Record<string, string[]> = {};
  for (const { name } of tables) {
    const { rows } = await database.executeSql<{ row: string }>(`SELECT t::text AS row FROM ${name} t`);
    result[name] = rows.map((row) => row.row).sort();
  }
  return result;
}

/** Every stored blob under a files folder: its path there and its bytes (base64). */
async function allFiles(filesDir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  const entries = await fs.readdir(filesDir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    result[path.relative(filesDir, full)] = (await fs.readFile(full)).toString('base64');
  }
  return result;
}

async function withPglite<T>(dataDir: string, read: (database: Database) => Promise<T>): Promise<T> {
  const database = await openPglite(path.join(dataDir, 'pglite'));
  try {
    return await read(database);
  } finally {
    await database.close();
  }
}

async function withPostgres<T>(url: string, read: (database: Database) => Promise<T>): Promise<T> {
  // One connection, so the session's TimeZone holds for every read.
  const database = openPostgres(url, 1);
  try {
    await database.executeSql("SET TimeZone = 'UTC'");
    return await read(database);
  } finally {
    await database.close();
  }
}

const readManifest = async (dir: string) =>
  JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8')) as BackupManifest;

// ------------------------------------------------------------------ the scenario

interface Source {
  env: Record<string, string>;
  filesDir: string;
  read<T>(read: (database: Database) => Promise<T>): Promise<T>;
}

const aiEnv = () => ({
  AI_PROVIDER: 'openai-compatible',
  AI_BASE_URL: fake.baseUrl,
  AI_MODEL: FAKE_MODEL_ID,
  AI_MAX_RETRIES: '0',
});

async function embeddedSource(): Promise<Source> {
  const dataDir = await tempDir('src');
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: '', ...aiEnv() },
    filesDir: path.join(dataDir, 'files'),
    read: (read) => withPglite(dataDir, read),
  };
}

async function postgresSource(): Promise<Source> {
  const dataDir = await tempDir('src');
  const url = await createEmptyDatabase();
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url, ...aiEnv() },
    filesDir: path.join(dataDir, 'files'),
    read: (read) => withPostgres(url, read),
  };
}

describe(`backup and restore on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  let source: Source;
  let world: World;
  let midFlightBackup: string;
  let lateSubmissionId: string;
  let backupOutput: string;

  beforeAll(async () => {
    source = onPostgres ? await postgresSource() : await embeddedSource();
  });

  it(
    'backs up the running server while an upload is half sent and a grading request is in flight',
    async () => {
      server = await startServerProcess(source.env);
      world = await buildWorld();
      const late = await startHeldUpload(`${world.base}/submit`, world.studentTokens[2]!, await pdf('t = 2 s, late.'));
      // A grading call held at the model: its run is in progress while the backup is taken.
      let answerModel!: () => void;
      fake.enqueue({ kind: 'smart', until: new Promise<void>((resolve) => (answerModel = resolve)) });
      const calls = fake.chatRequests().length;
      const grading = api('POST', `${world.base}/grade/${world.submissions[1]}`, { token: world.instructorToken });
      await fake.waitForChatRequests(calls + 1);

      midFlightBackup = path.join(await tempDir('out'), 'mid-flight');
      backupOutput = await expectCli('backup', midFlightBackup, source.env);
      if (!onPostgres) expect(backupOutput).toContain('asking it to write the backup');

      answerModel();
      const uploaded = await late.finish();
      expect(uploaded.status).toBe(201);
      lateSubmissionId = uploaded.body.submission._id;
      expect((await grading).status).toBe(200);
      // Nothing is left of the half-written folder: OUT is the whole backup.
      expect(await fs.readdir(path.dirname(midFlightBackup))).toEqual(['mid-flight']);
    },
    SCENARIO_LIMIT_MS,
  );

  it(
    'the mid-flight backup restores whole: every file it names with its bytes, without the upload that finished after it',
    async () => {
      const manifest = await readManifest(midFlightBackup);
      const target = await tempDir('dst');
      const database = await openPglite(path.join(target, 'pglite'));
      try {
        const summary = await restoreBackup({ database, filesDir: path.join(target, 'files') }, midFlightBackup);
        expect(summary.files).toBe(manifest.files.length);
        // The world's files: two question PDFs and two answers; the late answer is not there.
        expect(manifest.files.length).toBe(4);
        const submissions = await database.executeSql<{ id: string }>('SELECT id::text AS id FROM submissions');
        expect(submissions.rows.map((row) => row.id).sort()).toEqual([...world.submissions].sort());
        expect(submissions.rows.map((row) => row.id)).not.toContain(lateSubmissionId);
        // The grading held at the model is in the snapshot as it was then: started, not finished.
        const runs = await database.executeSql<{ status: string }>(
          `SELECT status FROM grading_runs WHERE submission_id = '${world.submissions[1]}'`,
        );
        expect(runs.rows).toEqual([{ status: 'running' }]);
      } finally {
        await database.close();
      }
      // Every restored blob is byte for byte the one the server stored.
      const restored = await allFiles(path.join(target, 'files'));
      const stored = await allFiles(source.filesDir);
      expect(Object.keys(restored)).toHaveLength(4);
      for (const [name, bytes] of Object.entries(restored)) expect(stored[name]).toBe(bytes);
      // The stored files now include the late answer, which the backup rightly left out.
      expect(Object.keys(stored)).toHaveLength(5);
    },
    SCENARIO_LIMIT_MS,
  );

  it(
    'a backup of the stopped server, restored by npm run restore, equals the source in every row and every file',
    async () => {
      expect(await server!.stop()).toBe(0);
      server = undefined;
      const atRest = path.join(await tempDir('out'), 'at-rest');
      await expectCli('backup', atRest, source.env);

      const targetDir = await tempDir('dst');
      const targetEnv = {
        ...aiEnv(),
        DATA_DIR: targetDir,
        DATABASE_URL: onPostgres ? await createEmptyDatabase() : '',
      };
      const restoreOutput = await expectCli('restore', atRest, targetEnv);
      expect(restoreOutput).toContain('every file matches the manifest');

      const sourceRows = await source.read(allRows);
      const read = (database: Database) => allRows(database);
      const restoredRows = onPostgres
        ? await withPostgres(targetEnv.DATABASE_URL, read)
        : await withPglite(targetDir, read);
      expect(Object.keys(sourceRows).length).toBeGreaterThan(20);
      expect(sourceRows['public.submissions']).toHaveLength(3);
      expect(sourceRows['public.grades']!.length).toBeGreaterThan(0);
      expect(restoredRows).toEqual(sourceRows);
      expect(await allFiles(path.join(targetDir, 'files'))).toEqual(await allFiles(source.filesDir));

      // Restoring again into the same target is refused, naming why, and changes nothing.
      const again = await runCli('restore', atRest, targetEnv);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/is not empty/);

      // The restored target serves: a sign-in (tokens are not in backups) and the course's answers.
      server = await startServerProcess(targetEnv);
      const signedIn = await expectOk(
        api('POST', '/api/auth/login', { json: { email: 'ada@example.edu', password: 'correct-horse-battery' } }),
      );
      const courses = await expectOk(api('GET', '/api/courses', { token: signedIn.token }));
      expect(JSON.stringify(courses)).toContain('Physics');
      expect(await server.stop()).toBe(0);
      server = undefined;

      if (onPostgres) {
        // The same backup restores into the embedded database too, row for row.
        const embedded = await tempDir('dst');
        const database = await openPglite(path.join(embedded, 'pglite'));
        try {
          await restoreBackup({ database, filesDir: path.join(embedded, 'files') }, atRest);
          await database.executeSql("SET TimeZone = 'UTC'");
          expect(await allRows(database)).toEqual(sourceRows);
        } finally {
          await database.close();
        }
      }
    },
    SCENARIO_LIMIT_MS,
  );

  it(
    'a damaged backup is refused before anything is written, and a file missing from storage fails the backup',
    async () => {
      const damaged = path.join(await tempDir('out'), 'damaged');
      await fs.cp(midFlightBackup, damaged, { recursive: true });
      const manifest = await readManifest(damaged);
      const victim = path.join(damaged, manifest.files[0]!.path);
      const bytes = await fs.readFile(victim);
      bytes[bytes.length - 1] = bytes.at(-1)! ^ 0xff;
      await fs.writeFile(victim, bytes);
      const target = await tempDir('dst');
      const database = await openPglite(path.join(target, 'pglite'));
      try {
        await expect(restoreBackup({ database, filesDir: path.join(target, 'files') }, damaged)).rejects.toThrow(
          new RegExp(`file ${manifest.files[0]!.id} .* does not match the manifest`),
        );
        // Nothing was written: the database has no table.
        const tables = await database.executeSql(`SELECT 1 FROM pg_tables WHERE schemaname = 'public'`);
        expect(tables.rows).toHaveLength(0);

        // Now a database that names a blob its storage lost: the backup fails loudly and leaves nothing.
        await restoreBackup({ database, filesDir: path.join(target, 'files') }, midFlightBackup);
        const lost = manifest.files[1]!;
        await fs.rm(path.join(target, 'files', lost.storageKey.slice(0, 2), lost.storageKey));
        const out = path.join(await tempDir('out'), 'incomplete');
        await expect(
          writeBackup({ database, storage: new LocalDiskStorage(path.join(target, 'files')) }, out),
        ).rejects.toThrow(new RegExp(`file ${lost.id} \\(${lost.storageKey}\\) cannot be read`));
        expect(await fs.readdir(path.dirname(out))).toEqual([]);
      } finally {
        await database.close();
      }
    },
    SCENARIO_LIMIT_MS,
  );

  it(
    'a backup made at an older migration restores into this version, which upgrades it after loading; a newer one is refused',
    async () => {
      const journalPath = (folder: string) => path.join(folder, 'meta', '_journal.json');
      const journal = JSON.parse(await fs.readFile(journalPath(MIGRATIONS_DIR), 'utf8')) as { entries: unknown[] };
      const older = await tempDir('migrations');
      await fs.cp(MIGRATIONS_DIR, older, { recursive: true });
      await fs.writeFile(journalPath(older), JSON.stringify({ ...journal, entries: journal.entries.slice(0, -1) }));

      const out = path.join(await tempDir('out'), 'older');
      const source = await openPglite(undefined);
      try {
        await migrateDatabase(source, older);
        await source.executeSql(
          `INSERT INTO users (id, name, email, password_hash, role)
           VALUES ('00000000-0000-4000-8000-000000000001', 'Old', 'old@example.edu', 'x', 'instructor')`,
        );
        await writeBackup({ database: source, storage: new LocalDiskStorage(await tempDir('files')) }, out);
      } finally {
        await source.close();
      }
      expect((await readManifest(out)).migrations).toHaveLength(journal.entries.length - 1);

      const target = await tempDir('dst');
      const database = await openPglite(path.join(target, 'pglite'));
      try {
        const summary = await restoreBackup({ database, filesDir: path.join(target, 'files') }, out);
        expect(summary).toMatchObject({
          migrationsInBackup: journal.entries.length - 1,
          migrations: journal.entries.length,
        });
        const migrations = await database.executeSql('SELECT hash FROM drizzle.__drizzle_migrations');
        expect(migrations.rows).toHaveLength(journal.entries.length);
        const users = await database.executeSql<{ email: string }>('SELECT email FROM users');
        expect(users.rows).toEqual([{ email: 'old@example.edu' }]);
      } finally {
        await database.close();
      }

      // A backup from a version with a migration this one does not have is refused, writing nothing.
      const manifest = await readManifest(out);
      manifest.migrations.push({ hash: 'f'.repeat(64), createdAt: '0' }, { hash: 'e'.repeat(64), createdAt: '0' });
      await fs.writeFile(path.join(out, 'manifest.json'), JSON.stringify(manifest));
      const refusing = await tempDir('dst');
      const empty = await openPglite(path.join(refusing, 'pglite'));
      try {
        await expect(restoreBackup({ database: empty, filesDir: path.join(refusing, 'files') }, out)).rejects.toThrow(
          /a newer version made it/,
        );
        expect((await empty.executeSql(`SELECT 1 FROM pg_tables WHERE schemaname = 'public'`)).rows).toHaveLength(0);
      } finally {
        await empty.close();
      }
    },
    SCENARIO_LIMIT_MS,
  );
});
