import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '../src/db/client.ts';
import { gradingRuns, rubricGenerations } from '../src/db/schema.ts';
import { buildTextPdf } from '../src/demo/pdf-documents.ts';
import { FAKE_MODEL_ID, startFakeLlmServer, type FakeLlmServer } from './support/fake-llm-server.ts';
import { multipart, pdfPart, type FormValue } from './support/multipart.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';

/**
 * The crash test: the real server as a child process on a temporary embedded data directory, an
 * OpenAI-compatible fake model on loopback, and SIGKILL in the middle of grading jobs. Each kill
 * is synchronised on state we can observe (the model received the request; the server logged that
 * the provider's answer is stored), never on time. After a restart on the same data directory the
 * job must finish by itself with exactly one run and one suggestion, and an answer already stored
 * must not be bought again.
 *
 * The embedded database is locked to one process, so this runs on PGlite only (the PostgreSQL
 * project runs it too, still on its own temporary PGlite directory: the scenario is the same).
 */

/**
 * A limit, not a timing: each step waits on observable state. Starting the child (tsx compiling
 * the server, PGlite creating its data directory) takes tens of seconds on a loaded 2-core machine.
 */
const SCENARIO_LIMIT_MS = 600_000;

let fake: FakeLlmServer;
let dataDir: string;
let server: ServerProcess | undefined;

const env = () => ({
  DATA_DIR: dataDir,
  // The child must use the embedded database even when the suite runs with DATABASE_URL set.
  DATABASE_URL: '',
  AI_PROVIDER: 'openai-compatible',
  AI_BASE_URL: fake.baseUrl,
  AI_MODEL: FAKE_MODEL_ID,
  AI_MAX_RETRIES: '0',
  GRADING_CONCURRENCY: '2',
});

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
  base: string;
  submissions: string[];
}

/** Everything through the real HTTP API of the child: accounts, course, question, rubric, two answers. */
async function buildWorld(): Promise<World> {
  // Registering answers no token (decision 0069): sign in next, as a person does.
  const register = async (name: string, role: 'student' | 'instructor') => {
    const email = `${name.toLowerCase()}@example.edu`;
    await expectOk(
      api('POST', '/api/auth/register', { json: { name, email, password: 'correct-horse-battery', role } }),
      201,
    );
    return expectOk(api('POST', '/api/auth/login', { json: { email, password: 'correct-horse-battery' } }));
  };
  const instructor = await register('Ada', 'instructor');
  const students = [await register('Sam', 'student'), await register('Cleo', 'student')];
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
  // A rubric of our own, so the only model calls are the grading calls this test counts.
  await expectOk(
    api('PATCH', `${base}/save-rubric`, {
      token: instructor.token,
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
  const submissions: string[] = [];
  for (const [index, student] of students.entries()) {
    const answer = await pdf(index === 0 ? 'h = g t^2 / 2 so t = 2 s.' : 'It takes about 2 seconds.');
    submissions.push(
      (await expectOk(api('POST', `${base}/submit`, { token: student.token, form: { file: pdfPart(answer) } }), 201))
        .submission._id,
    );
  }
  return { instructorToken: instructor.token, base, submissions };
}

/** Reads the child's database after it stopped (the data directory is locked while it runs). */
async function withDatabase<T>(read: (database: Database) => Promise<T>): Promise<T> {
  const database = await openPglite(path.join(dataDir, 'pglite'));
  try {
    return await read(database);
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  fake = await startFakeLlmServer();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gradewise-crash-'));
});

afterAll(async () => {
  await server?.kill();
  await fake?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('a server killed mid-job finishes the job after restart, with nothing lost or doubled', () => {
  let world: World;

  it(
    'killed while the model is answering: the job runs again after restart and succeeds once',
    async () => {
      server = await startServerProcess(env());
      world = await buildWorld();
      const [submissionId] = world.submissions as [string];

      fake.enqueue({ kind: 'hang' });
      const lost = api('POST', `${world.base}/grade/${submissionId}`, { token: world.instructorToken }).catch(
        (error: unknown) => error,
      );
      await fake.waitForChatRequests(1);
      await server.kill();
      // The request in flight died with the server.
      expect(await lost).toBeInstanceOf(Error);

      server = await startServerProcess(env());
      // The restarted server took the job back at boot; this call joins that run (or finds it done).
      const graded = await expectOk(
        api('POST', `${world.base}/grade/${submissionId}`, { token: world.instructorToken }),
      );
      expect(graded).toMatchObject({
        questionPoints: 10,
        isAlreadyGraded: false,
        grader: { kind: 'llm', provider: 'openai-compatible', model: FAKE_MODEL_ID },
      });
      expect(graded.gradingResult.comments.length).toBeGreaterThan(0);
      // One call lost with the killed process, one after the restart: nothing else.
      expect(fake.chatRequests()).toHaveLength(2);
    },
    SCENARIO_LIMIT_MS,
  );

  it(
    'killed after the model answered and the answer was stored: the restart finishes without paying again',
    async () => {
      await server!.stop();
      server = await startServerProcess({ ...env(), GRADEWISE_TEST_HOLD_AFTER_OUTPUT: '1' });
      const [, submissionId] = world.submissions as [string, string];
      const callsBefore = fake.chatRequests().length;

      const lost = api('POST', `${world.base}/grade/${submissionId}`, { token: world.instructorToken }).catch(
        (error: unknown) => error,
      );
      const held = await server.waitForLog((line) => line.testHook === 'hold-after-output');
      expect(fake.chatRequests()).toHaveLength(callsBefore + 1);
      await server.kill();
      expect(await lost).toBeInstanceOf(Error);

      server = await startServerProcess(env());
      const graded = await expectOk(
        api('POST', `${world.base}/grade/${submissionId}`, { token: world.instructorToken }),
      );
      expect(graded.gradingRunId).toBe(held.id);
      expect(graded.gradingResult.comments.length).toBeGreaterThan(0);
      expect(fake.chatRequests()).toHaveLength(callsBefore + 1);
      expect(await server.stop()).toBe(0);
      server = undefined;
    },
    SCENARIO_LIMIT_MS,
  );

  it(
    'left exactly one succeeded run with one stored answer per submission, and no job open',
    async () => {
      const { runs, openJobs, generations } = await withDatabase(async (database) => ({
        runs: await database.db.select().from(gradingRuns),
        generations: await database.db.select().from(rubricGenerations),
        openJobs: (
          await database.executeSql(
            `SELECT id, state FROM pgboss.job WHERE name = 'grade-submission' AND state IN ('created', 'retry', 'active')`,
            [],
          )
        ).rows,
      }));
      expect(generations).toEqual([]);
      expect(runs).toHaveLength(2);
      for (const submissionId of world.submissions) {
        const ofSubmission = runs.filter((run) => run.submissionId === submissionId);
        expect(ofSubmission).toHaveLength(1);
        expect(ofSubmission[0]).toMatchObject({
          status: 'succeeded',
          graderKind: 'llm',
          model: FAKE_MODEL_ID,
          rawOutput: expect.anything(),
        });
        expect((ofSubmission[0]!.comments as unknown[]).length).toBeGreaterThan(0);
        // Each run was claimed twice: once by the killed process, once after the restart.
        expect(ofSubmission[0]!.attempts).toBe(2);
      }
      expect(openJobs).toEqual([]);
      await withDatabase(async (database) => {
        const [run] = await database.db
          .select()
          .from(gradingRuns)
          .where(eq(gradingRuns.submissionId, world.submissions[0]!));
        expect(run!.finishedAt).not.toBeNull();
      });
    },
    SCENARIO_LIMIT_MS,
  );
});
