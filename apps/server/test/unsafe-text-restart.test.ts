import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/client.ts';
import { fileExtractions, gradingRuns } from '../src/db/schema.ts';
import { buildPdfWithNulInText, buildTextPdf } from '../src/demo/pdf-documents.ts';
import { MAX_JOB_STARTS } from '../src/services/job-work.ts';
import { FAKE_MODEL_ID, startFakeLlmServer, type FakeLlmServer } from './support/fake-llm-server.ts';
import { multipart, pdfPart, type FormValue } from './support/multipart.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';
import { holdsUnstorableText } from './support/unsafe-text.ts';

/**
 * The real server as a child process, fed PDFs whose text layer holds a NUL (the input that used
 * to insert 22021-failing text, make pg-boss fail on its own JSON error (22P05) and kill the
 * process, again at every restart). The rubric is drafted and the answer graded with the server
 * up; a kill while that grading job is in flight and a restart must finish the job, not crash.
 * Synchronised on observable state only (the model received the request), never on time.
 */

const SCENARIO_LIMIT_MS = 600_000;

let fake: FakeLlmServer;
let dataDir: string;
let server: ServerProcess | undefined;
/** What the first scenario built, for the second. */
let world: { instructorToken: string; base: string; courseId: string };

const env = () => ({
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  AI_PROVIDER: 'openai-compatible',
  AI_BASE_URL: fake.baseUrl,
  AI_MODEL: FAKE_MODEL_ID,
  AI_MAX_RETRIES: '0',
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

beforeAll(async () => {
  fake = await startFakeLlmServer();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gradewise-nul-'));
});

// A scenario that failed half-way leaves its server up; the next one must not meet its data-dir lock.
afterEach(async () => {
  await server?.kill();
  server = undefined;
});

afterAll(async () => {
  await server?.kill();
  await fake?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('PDFs with a NUL in their text layer, on the real server', () => {
  it(
    'drafts a rubric and grades the answer, survives a kill mid-grading, and finishes after the restart',
    async () => {
      server = await startServerProcess(env());
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
          json: { emails: students.map((student) => student.user.email) },
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
              questionFile: pdfPart(buildPdfWithNulInText('A ball falls 20 m.', ' How long does it take?')),
              solutionFile: pdfPart(buildPdfWithNulInText('t = sqrt(2 h / g)', ' = 2 s')),
            },
          }),
          201,
        )
      ).question;
      const base = `/api/assignments/${assignment._id}/questions/${question._id}`;

      const drafted = await expectOk(api('POST', `${base}/generate-rubric`, { token: instructor.token }));
      expect(drafted.autoRubric[0].questionText).toContain('A ball falls 20 m. How long does it take?');
      expect(holdsUnstorableText(drafted)).toBe(false);

      const submissionIds: string[] = [];
      for (const [index, student] of students.entries()) {
        const answer =
          index === 0
            ? buildPdfWithNulInText('h = g t^2 / 2', ' so t = 2 s.')
            : Buffer.from(await buildTextPdf({ paragraphs: ['About 2 s.'] }));
        submissionIds.push(
          (
            await expectOk(
              api('POST', `${base}/submit`, { token: student.token, form: { file: pdfPart(answer) } }),
              201,
            )
          ).submission._id,
        );
      }
      const [nulSubmission] = submissionIds as [string];

      // Graded with the server up: the NUL answer is read, stored and graded.
      const graded = await expectOk(api('POST', `${base}/grade/${nulSubmission}`, { token: instructor.token }));
      expect(graded.submissionText).toContain('h = g t^2 / 2 so t = 2 s.');
      expect(holdsUnstorableText(graded)).toBe(false);

      // A regrade in flight when the process is killed: its job is taken up again at boot.
      fake.enqueue({ kind: 'hang' });
      const calls = fake.chatRequests().length;
      const lost = api('POST', `${base}/regrade/${nulSubmission}`, { token: instructor.token }).catch(
        (error: unknown) => error,
      );
      await fake.waitForChatRequests(calls + 1);
      await server.kill();
      expect(await lost).toBeInstanceOf(Error);

      server = await startServerProcess(env());
      const regraded = await expectOk(api('POST', `${base}/regrade/${nulSubmission}`, { token: instructor.token }));
      expect(regraded.gradingResult.comments.length).toBeGreaterThan(0);
      // Still up and answering after the job it resumed.
      const again = await expectOk(api('POST', `${base}/grade/${submissionIds[1]}`, { token: instructor.token }));
      expect(again.questionPoints).toBe(10);
      expect(server.child.exitCode).toBeNull();
      expect(await server.stop()).toBe(0);
      server = undefined;

      const database = await openPglite(path.join(dataDir, 'pglite'));
      try {
        const extractions = await database.db.select().from(fileExtractions);
        expect(extractions.length).toBeGreaterThanOrEqual(4);
        expect(extractions.every((row) => row.status === 'succeeded')).toBe(true);
        expect(holdsUnstorableText(extractions)).toBe(false);
        const runs = await database.db.select().from(gradingRuns);
        expect(runs.every((run) => run.status === 'succeeded')).toBe(true);
      } finally {
        await database.close();
      }
      world = { instructorToken: instructor.token, base, courseId: course._id };
    },
    SCENARIO_LIMIT_MS,
  );

  it(
    `a job that kills its server at every start is given up at start ${MAX_JOB_STARTS + 1}, and the server stays up`,
    async () => {
      // A "poison" job: the model never answers, and the server is killed while it waits, as a
      // crash inside the job would. Every restart sends the job again; each start is counted.
      server = await startServerProcess(env());
      await expectOk(
        api('POST', '/api/auth/register', {
          json: { name: 'Poe', email: 'poe@example.edu', password: 'correct-horse-battery', role: 'student' },
        }),
        201,
      );
      const student = await expectOk(
        api('POST', '/api/auth/login', { json: { email: 'poe@example.edu', password: 'correct-horse-battery' } }),
      );
      await expectOk(
        api('POST', `/api/courses/${world.courseId}/add-students`, {
          token: world.instructorToken,
          json: { emails: [student.user.email] },
        }),
      );
      const answer = Buffer.from(await buildTextPdf({ paragraphs: ['It takes 2 s.'] }));
      const submissionId = (
        await expectOk(
          api('POST', `${world.base}/submit`, { token: student.token, form: { file: pdfPart(answer) } }),
          201,
        )
      ).submission._id;

      fake.setDefaultBehaviour({ kind: 'hang' });
      try {
        let calls = fake.chatRequests().length;
        void api('POST', `${world.base}/grade/${submissionId}`, { token: world.instructorToken }).catch(() => {});
        for (let start = 1; start <= MAX_JOB_STARTS; start += 1) {
          // Start `start` of the job reached the model: kill the server under it.
          await fake.waitForChatRequests(calls + 1);
          calls = fake.chatRequests().length;
          await server.kill();
          server = await startServerProcess(env());
        }
        const givenUp = await server.waitForLog((line) => line.msg === 'work given up after too many starts');
        expect(givenUp).toMatchObject({ job: 'grading', starts: MAX_JOB_STARTS });
        // The last start asked the model nothing, and the server is up and answering.
        expect(fake.chatRequests()).toHaveLength(calls);
        const courses = await expectOk(api('GET', '/api/courses', { token: world.instructorToken }));
        expect(courses.length).toBeGreaterThan(0);
        expect(await server.stop()).toBe(0);
        server = undefined;
      } finally {
        fake.setDefaultBehaviour({ kind: 'smart' });
      }

      const database = await openPglite(path.join(dataDir, 'pglite'));
      try {
        const [run] = await database.db.select().from(gradingRuns).where(eq(gradingRuns.submissionId, submissionId));
        expect(run).toMatchObject({ status: 'failed', errorCode: 'UNPROCESSABLE', attempts: MAX_JOB_STARTS + 1 });
        expect(run!.error).toContain(`It was started ${MAX_JOB_STARTS} times`);
      } finally {
        await database.close();
      }
    },
    SCENARIO_LIMIT_MS,
  );
});
