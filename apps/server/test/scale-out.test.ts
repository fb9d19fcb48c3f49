import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import { MIGRATIONS_DIR, migrateDatabase, openPostgres } from '../src/db/client.ts';
import { JobQueue } from '../src/jobs/job-queue.ts';
import { JOB_DEFINITIONS } from '../src/job-registry.ts';
import { createLogger } from '../src/lib/logger.ts';
import { buildTextPdf } from '../src/demo/pdf-documents.ts';
import { FAKE_MODEL_ID, startFakeLlmServer, type FakeLlmServer } from './support/fake-llm-server.ts';
import { withDatabase } from './support/global-setup.ts';
import { multipart, pdfPart, type FormValue } from './support/multipart.ts';
import { startS3Server } from './support/s3-server.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';

/**
 * Several processes on one database, as an operator runs them: started at the same moment on a
 * fresh database, and a worker killed (SIGKILL) in the middle of a job while another worker lives.
 * Real child processes (main.ts, worker.ts), a fake OpenAI-compatible model on loopback, and a
 * fresh database per test. Every wait is on observable state (a log line, a model request, a row)
 * with a deadline; the only bound on time is the 60-second recovery promise, as a deadline.
 *
 * On PostgreSQL (server-postgres project) that is the scale-out setup. The embedded database
 * (server-pglite project) is one process by design: there, processes started together on one data
 * directory must leave exactly one running and refuse the others with a clear message.
 */

/** Starting a child (tsx compiling the server) takes tens of seconds on a loaded 2-core machine. */
const SCENARIO_LIMIT_MS = 600_000;
/** What docs/scale-out.md ("Jobs: what survives a crash") promises: a killed worker's job finishes on another worker within a minute. */
const RECOVERY_DEADLINE_MS = 60_000;

const isPostgres = process.env.TEST_DATABASE === 'postgres';

const started: ServerProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

async function start(env: Record<string, string>, kind: 'server' | 'worker' = 'server'): Promise<ServerProcess> {
  const child = await startServerProcess(env, { kind });
  started.push(child);
  return child;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => child.kill()));
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function temporaryDirectory(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gradewise-scale-'));
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

/** An empty PostgreSQL database of this test's own (the server is shared by parallel test runs). */
async function freshDatabase(): Promise<string> {
  const name = `gradewise_scale_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const dropper = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  });
  return withDatabase(process.env.DATABASE_URL!, name);
}

async function query<T = any>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

async function api(
  server: ServerProcess,
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
  const response = await fetch(`${server.baseUrl}${url}`, { method, headers, body });
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

/** Through the real HTTP API: an instructor, a course with one student, a question with a rubric, one answer. */
async function buildWorld(server: ServerProcess) {
  // Registering answers no token (decision 0069): sign in next, as a person does.
  const register = async (name: string, role: 'student' | 'instructor') => {
    const email = `${name.toLowerCase()}@example.edu`;
    await expectOk(
      api(server, 'POST', '/api/auth/register', { json: { name, email, password: 'correct-horse-battery', role } }),
      201,
    );
    return expectOk(api(server, 'POST', '/api/auth/login', { json: { email, password: 'correct-horse-battery' } }));
  };
  const instructor = await register('Ada', 'instructor');
  const student = await register('Sam', 'student');
  const token = instructor.token as string;
  const course = (await expectOk(api(server, 'POST', '/api/courses', { token, form: { title: 'Physics' } }), 201))
    .course;
  await expectOk(
    api(server, 'POST', `/api/courses/${course._id}/add-students`, { token, json: { emails: [student.user.email] } }),
  );
  const assignment = (
    await expectOk(
      api(server, 'POST', '/api/assignments', { token, json: { title: 'Set 1', courseId: course._id } }),
      201,
    )
  ).assignment;
  const question = (
    await expectOk(
      api(server, 'POST', `/api/assignments/${assignment._id}/questions`, {
        token,
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
  // A rubric of our own, so the only model calls are the grading calls this test counts.
  await expectOk(
    api(server, 'PATCH', `${base}/save-rubric`, {
      token,
      json: {
        questionText: 'A ball is dropped from 20 m. How long does it fall?',
        solutionText: 't = sqrt(2 h / g) = 2 s.',
        items: [
          { id: 'method', criterion: 'Uses h = g t^2 / 2', points: 5 },
          { id: 'result', criterion: 'Finds t = 2 s', points: 5 },
        ],
      },
    }),
  );
  const submission = (
    await expectOk(
      api(server, 'POST', `${base}/submit`, {
        token: student.token,
        form: { file: pdfPart(await pdf('h = g t^2 / 2 so t = 2 s.')) },
      }),
      201,
    )
  ).submission;
  return { token, base, submissionId: submission._id as string };
}

if (isPostgres) {
  describe('several processes on one PostgreSQL database', () => {
    let fake: FakeLlmServer;

    beforeAll(async () => {
      fake = await startFakeLlmServer();
    });

    afterAll(async () => {
      await fake?.close();
    });

    it(
      'six processes setting up one fresh database at the same moment all succeed (no deadlock)',
      async () => {
        const url = await freshDatabase();
        const config = loadConfig({ DATABASE_URL: url, DATA_DIR: await temporaryDirectory(), LOG_LEVEL: 'silent' });
        // What each process does at boot, minus HTTP: migrate, start pg-boss, declare the queues,
        // re-send unfinished work, start workers (half of them, like API-only processes beside workers).
        // Each has its own pool, as separate processes would. Unserialised, this deadlocked in most rounds.
        const outcomes = await Promise.allSettled(
          Array.from({ length: 6 }, async (_, index) => {
            const database = openPostgres(url, 4);
            cleanups.push(() => database.close());
            await migrateDatabase(database);
            const ctx = { config, database, db: database.db, log: createLogger('silent') } as unknown as AppContext;
            const queue = await JobQueue.start(ctx, JOB_DEFINITIONS, { runWorkers: index % 2 === 0 });
            cleanups.push(() => queue.stop());
          }),
        );
        expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
        const journal = JSON.parse(await fs.readFile(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'));
        expect(await query(url, `SELECT hash FROM drizzle.__drizzle_migrations`)).toHaveLength(journal.entries.length);
        expect((await query(url, `SELECT name FROM pgboss.queue ORDER BY name`)).map((row) => row.name)).toEqual(
          JOB_DEFINITIONS.map((definition) => definition.name).sort(),
        );
      },
      SCENARIO_LIMIT_MS,
    );

    it(
      'six real processes (servers, API-only servers, workers) started together on a fresh database all come up',
      async () => {
        const url = await freshDatabase();
        // One shared data directory (uploaded files, and the token secret the first process creates).
        const env = { DATABASE_URL: url, DATA_DIR: await temporaryDirectory() };
        const processes = await Promise.all([
          start(env),
          start(env),
          start({ ...env, JOB_WORKERS: 'off' }),
          start({ ...env, JOB_WORKERS: 'off' }),
          start(env, 'worker'),
          start(env, 'worker'),
        ]);
        const [first, second, apiOnly] = processes;
        // They serve one application: a token from one is honoured by the others.
        await expectOk(
          api(first, 'POST', '/api/auth/register', {
            json: { name: 'Ada', email: 'ada@example.edu', password: 'correct-horse-battery', role: 'instructor' },
          }),
          201,
        );
        const account = await expectOk(
          api(first, 'POST', '/api/auth/login', {
            json: { email: 'ada@example.edu', password: 'correct-horse-battery' },
          }),
        );
        for (const server of [second, apiOnly]) {
          const me = await expectOk(api(server, 'GET', '/api/auth/user', { token: account.token }));
          expect(me.email).toBe('ada@example.edu');
        }
        // SIGTERM: each one stops cleanly.
        expect(await Promise.all(started.splice(0).map((child) => child.stop()))).toEqual([0, 0, 0, 0, 0, 0]);
      },
      SCENARIO_LIMIT_MS,
    );

    it(
      'a worker killed mid-job: another worker finishes the job within a minute and the waiting request gets the grade',
      async () => {
        fake.reset();
        const url = await freshDatabase();
        const env = {
          DATABASE_URL: url,
          DATA_DIR: await temporaryDirectory(),
          AI_PROVIDER: 'openai-compatible',
          AI_BASE_URL: fake.baseUrl,
          AI_MODEL: FAKE_MODEL_ID,
          AI_MAX_RETRIES: '0',
        };
        const apiServer = await start({ ...env, JOB_WORKERS: 'off' });
        const doomed = await start(env, 'worker');
        const world = await buildWorld(apiServer);

        // The only worker takes the job and the model never answers it.
        fake.enqueue({ kind: 'hang' });
        const waiting = api(apiServer, 'POST', `${world.base}/grade/${world.submissionId}`, { token: world.token });
        await fake.waitForChatRequests(1);
        const survivor = await start(env, 'worker');
        await doomed.kill();
        const killedAt = Date.now();
        const [run] = await query(url, `SELECT id, status, attempts FROM grading_runs WHERE submission_id = $1`, [
          world.submissionId,
        ]);
        expect(run).toMatchObject({ status: 'running', attempts: 1 });

        // Watch the row (the truth users see), with the promised bound as the deadline.
        let status = 'running';
        while (status !== 'succeeded' && Date.now() - killedAt < RECOVERY_DEADLINE_MS) {
          await new Promise((resolve) => setTimeout(resolve, 250)); // polling interval, not a synchronisation
          const [row] = await query<{ status: string }>(url, `SELECT status FROM grading_runs WHERE id = $1`, [run.id]);
          status = row!.status;
        }
        const recoveredAfterMs = Date.now() - killedAt;
        console.info(`killed worker's job finished by another worker ${recoveredAfterMs} ms after the kill`);
        expect(status).toBe('succeeded');

        // The instructor's request, still waiting on the API process, is answered with the grade.
        const graded = await expectOk(waiting);
        expect(graded).toMatchObject({
          gradingRunId: run.id,
          grader: { kind: 'llm', provider: 'openai-compatible', model: FAKE_MODEL_ID },
        });
        // The surviving worker took the job back, ran it once, and nothing else was bought.
        expect(
          survivor.logs.some(
            (line) =>
              typeof line.msg === 'string' &&
              line.msg.startsWith('handed back') &&
              JSON.stringify(line.jobs).includes(run.id),
          ),
        ).toBe(true);
        expect(fake.chatRequests()).toHaveLength(2);
        const runs = await query(url, `SELECT status, attempts FROM grading_runs WHERE submission_id = $1`, [
          world.submissionId,
        ]);
        expect(runs).toEqual([{ status: 'succeeded', attempts: 2 }]);
      },
      SCENARIO_LIMIT_MS,
    );

    it(
      'a worker stopped with SIGTERM while its job hangs hands the job back within SHUTDOWN_TIMEOUT_MS and exits 0; another worker finishes it',
      async () => {
        fake.reset();
        const url = await freshDatabase();
        const env = {
          DATABASE_URL: url,
          DATA_DIR: await temporaryDirectory(),
          AI_PROVIDER: 'openai-compatible',
          AI_BASE_URL: fake.baseUrl,
          AI_MODEL: FAKE_MODEL_ID,
          AI_MAX_RETRIES: '0',
          // Running jobs get three quarters of it (shutdown.ts, decision 0081).
          SHUTDOWN_TIMEOUT_MS: '4000',
        };
        const apiServer = await start({ ...env, JOB_WORKERS: 'off' });
        const stopping = await start(env, 'worker');
        const world = await buildWorld(apiServer);

        fake.enqueue({ kind: 'hang' });
        const waiting = api(apiServer, 'POST', `${world.base}/grade/${world.submissionId}`, { token: world.token });
        await fake.waitForChatRequests(1);
        // The model never answers: the job is aborted at the end of its share and handed back, and
        // the process stops by itself within its bound (exit 0, not the bound's exit 1).
        expect(await stopping.stop()).toBe(0);
        const said = (text: string) =>
          stopping.logs.some((line) => typeof line.msg === 'string' && line.msg.startsWith(text));
        expect(said('waiting up to 3000 ms for 1 running job(s)')).toBe(true);
        expect(said('stopping took longer')).toBe(false);

        // Handed back, not lost: the next worker takes it, and the instructor's request gets the grade.
        await start(env, 'worker');
        const graded = await expectOk(waiting);
        expect(graded).toMatchObject({ grader: { kind: 'llm', provider: 'openai-compatible', model: FAKE_MODEL_ID } });
        expect(fake.chatRequests()).toHaveLength(2);
      },
      SCENARIO_LIMIT_MS,
    );

    it(
      'two API servers with no shared disk, one worker, one PostgreSQL and one S3: the journey alternates between them, a server killed mid-upload loses nothing, the sign-in limit holds across both',
      async () => {
        fake.reset();
        const s3 = await startS3Server();
        cleanups.push(() => s3.close());
        const url = await freshDatabase();
        // What an operator sets on every machine: the database, the bucket, one token secret. No
        // DATA_DIR is shared: each process gets its own.
        const shared = {
          DATABASE_URL: url,
          TOKEN_SECRET: randomBytes(32).toString('hex'),
          AUTH_RATE_LIMIT: '8',
          AI_PROVIDER: 'openai-compatible',
          AI_BASE_URL: fake.baseUrl,
          AI_MODEL: FAKE_MODEL_ID,
          ...s3.env,
        };
        const own = async (extra: Record<string, string> = {}) => ({
          ...shared,
          DATA_DIR: await temporaryDirectory(),
          ...extra,
        });
        const [first, second] = await Promise.all([
          start(await own({ JOB_WORKERS: 'off', LOG_REQUESTS: 'true' })),
          start(await own({ JOB_WORKERS: 'off' })),
        ]);
        await start(await own(), 'worker');
        for (const server of [first, second]) {
          expect(await expectOk(api(server, 'GET', '/readyz'))).toEqual({ ready: true, database: 'ok', storage: 'ok' });
        }
        const register = async (server: ServerProcess, name: string, role: 'student' | 'instructor') => {
          const email = `${name.toLowerCase()}@example.edu`;
          const password = 'correct-horse-battery';
          await expectOk(api(server, 'POST', '/api/auth/register', { json: { name, email, password, role } }), 201);
          // Signed in on the other server.
          const other = server === first ? second : first;
          return expectOk(api(other, 'POST', '/api/auth/login', { json: { email, password } }));
        };

        // Registered on one, the course created on the other.
        const instructor = await register(first, 'Ada', 'instructor');
        const sam = await register(second, 'Sam', 'student');
        const kim = await register(first, 'Kim', 'student');
        const token = instructor.token as string;
        const course = (await expectOk(api(second, 'POST', '/api/courses', { token, form: { title: 'Physics' } }), 201))
          .course;
        await expectOk(
          api(first, 'POST', `/api/courses/${course._id}/add-students`, {
            token,
            json: { emails: [sam.user.email, kim.user.email] },
          }),
        );
        const assignment = (
          await expectOk(
            api(second, 'POST', '/api/assignments', { token, json: { title: 'Set 1', courseId: course._id } }),
            201,
          )
        ).assignment;
        const question = (
          await expectOk(
            api(first, 'POST', `/api/assignments/${assignment._id}/questions`, {
              token,
              form: {
                points: '10',
                questionFile: pdfPart(await pdf('A ball is dropped from 20 m. How long does it fall? g = 10 m/s^2.')),
                solutionFile: pdfPart(await pdf('t = sqrt(2 h / g) = 2 s.')),
              },
            }),
            201,
          )
        ).question;
        const base = `/api/assignments/${assignment._id}/questions/${question._id}`;
        await expectOk(
          api(second, 'PATCH', `${base}/save-rubric`, {
            token,
            json: {
              questionText: 'A ball is dropped from 20 m. How long does it fall?',
              solutionText: 't = sqrt(2 h / g) = 2 s.',
              items: [
                { id: 'method', criterion: 'Uses h = g t^2 / 2', points: 5 },
                { id: 'result', criterion: 'Finds t = 2 s', points: 5 },
              ],
            },
          }),
        );

        // Sam's PDF goes in through the first server and opens from the second.
        const samPdf = await pdf('h = g t^2 / 2 so t = 2 s.');
        const samSubmission = (
          await expectOk(
            api(first, 'POST', `${base}/submit`, { token: sam.token, form: { file: pdfPart(samPdf) } }),
            201,
          )
        ).submission;
        const opened = await fetch(`${second.baseUrl}${samSubmission.file}`);
        expect(opened.status).toBe(200);
        expect(Buffer.from(await opened.arrayBuffer())).toEqual(samPdf);

        // Kim's upload: the first server is killed (SIGKILL) while its body is arriving.
        const rowsBefore = await query(url, `SELECT id FROM files ORDER BY id`);
        const kimPdf = await pdf('t = 2 s because 20 = 5 t^2.');
        const form = await multipart({ file: pdfPart(kimPdf) });
        const payload = Buffer.from(form.payload);
        const upload = http.request(`${first.baseUrl}${base}/submit`, {
          method: 'POST',
          headers: { ...form.headers, authorization: `Bearer ${kim.token}`, 'content-length': String(payload.length) },
        });
        const uploadEnded = new Promise<string>((resolve) => {
          upload.on('error', (error) => resolve(`error: ${error.message}`));
          upload.on('response', (response) => resolve(`answered ${response.statusCode}`));
        });
        upload.write(payload.subarray(0, Math.floor(payload.length / 2)));
        await first.waitForLog(
          (line) => line.msg === 'incoming request' && JSON.stringify(line.req ?? '').includes('/submit'),
        );
        await first.kill();
        expect(await uploadEnded).toMatch(/^error: /);
        // Nothing half written: no new row, and the bucket holds exactly the objects the rows name.
        expect(await query(url, `SELECT id FROM files ORDER BY id`)).toEqual(rowsBefore);
        expect(await query(url, `SELECT id FROM submissions WHERE student_id = $1`, [kim.user._id])).toEqual([]);
        const objects = async () => {
          const found: string[] = [];
          const walk = async (dir: string) => {
            for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
              if (entry.isDirectory()) await walk(path.join(dir, entry.name));
              else if (entry.name.endsWith('._S3rver_object')) found.push(path.join(dir, entry.name));
            }
          };
          await walk(path.join(s3.directory, s3.bucket));
          return found;
        };
        const everyRowHasItsObject = async () => {
          const rows = await query<{ storage_key: string; sha256: string; size_bytes: number; location: string }>(
            url,
            `SELECT storage_key, sha256, size_bytes, location FROM files`,
          );
          const stored = new Map(
            await Promise.all(
              (await objects()).map(async (file) => {
                const bytes = await fs.readFile(file);
                return [
                  path.basename(file).replace('._S3rver_object', ''),
                  { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length },
                ] as const;
              }),
            ),
          );
          for (const row of rows) {
            expect(row.location).toBe('s3');
            expect(stored.get(row.storage_key)).toEqual({ sha256: row.sha256, size: row.size_bytes });
          }
          expect(stored.size).toBe(rows.length);
        };
        await everyRowHasItsObject();

        // Kim sends it again through the second server: it is stored whole.
        const kimSubmission = (
          await expectOk(
            api(second, 'POST', `${base}/submit`, { token: kim.token, form: { file: pdfPart(kimPdf) } }),
            201,
          )
        ).submission;
        await everyRowHasItsObject();

        // A replacement for the killed server (its own empty disk) joins; Grade All asked on it is
        // done by the worker, and its progress read on the other server.
        const third = await start(await own({ JOB_WORKERS: 'off' }));
        const gradeAll = await expectOk(api(third, 'POST', `${base}/grade-all`, { token, json: {} }));
        expect(gradeAll.queued).toBe(2);
        const deadline = Date.now() + RECOVERY_DEADLINE_MS;
        let progress = await expectOk(api(second, 'GET', `${base}/grade-all/progress`, { token }));
        while (!progress.isFinished && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 250)); // polling interval, not a synchronisation
          progress = await expectOk(api(second, 'GET', `${base}/grade-all/progress`, { token }));
        }
        expect(progress).toMatchObject({ total: 2, done: 2, failed: 0, isFinished: true });

        // The grading report, read on the other server, links the answer's file, which opens there too.
        const report = await expectOk(api(second, 'GET', `${base}/grade/${kimSubmission._id}/report`, { token }));
        const link = /\/api\/files\/[^"]+/.exec(JSON.stringify(report))?.[0];
        expect(link).toBeDefined();
        const reportFile = await fetch(`${third.baseUrl}${link}`);
        expect(reportFile.status).toBe(200);
        expect(Buffer.from(await reportFile.arrayBuffer())).toEqual(kimPdf);

        // The sign-in limit (8 a minute per client and route) counts across both servers. The journey's
        // sign-ins may or may not share the current window (it can run past a minute): the window is
        // ended in the database, the clock every process counts on, so the count starts at 0.
        await query(url, `DELETE FROM request_limit_counters WHERE key LIKE 'POST /api/auth/login %'`);
        const attempts: number[] = [];
        for (let index = 0; attempts.at(-1) !== 429 && index < 20; index += 1) {
          const server = index % 2 === 0 ? second : third;
          const response = await api(server, 'POST', '/api/auth/login', {
            json: { email: `nobody${index}@example.edu`, password: 'not-the-password' },
          });
          attempts.push(response.status);
        }
        expect(attempts).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429]);
        const refusedOnOther = await fetch(`${(attempts.length % 2 === 0 ? second : third).baseUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'someone@example.edu', password: 'not-the-password' }),
        });
        expect(refusedOnOther.status).toBe(429);
        expect(Number(refusedOnOther.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      },
      SCENARIO_LIMIT_MS,
    );
  });
} else {
  describe('several processes on one embedded data directory', () => {
    it(
      'six processes started together: exactly one runs, the others refuse with a clear message',
      async () => {
        const env = { DATA_DIR: await temporaryDirectory(), DATABASE_URL: '' };
        const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => start(env)));
        const running = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
        expect(running).toHaveLength(1);
        for (const outcome of refused) {
          expect(String((outcome as PromiseRejectedResult).reason)).toContain('is already using the data directory');
        }
        // The one that runs works, and stops cleanly.
        const [server] = started as [ServerProcess];
        await expectOk(
          api(server, 'POST', '/api/auth/register', {
            json: { name: 'Ada', email: 'ada@example.edu', password: 'correct-horse-battery', role: 'instructor' },
          }),
          201,
        );
        expect(await started.splice(0)[0]!.stop()).toBe(0);
      },
      SCENARIO_LIMIT_MS,
    );
  });
}
