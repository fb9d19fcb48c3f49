/**
 * "Try it in one minute" (issue 6): how long from `npm run demo` on an empty data directory until
 * the app answers, and then how long Grade All takes on each demo question with the built-in grader.
 *
 *   npx tsx bench/demo-first-minute.ts [--skip-build] [--questions car,sky,pendulum]
 *   BENCH_VERBOSE=1 npx tsx bench/demo-first-minute.ts      # also show what npm run demo prints
 *
 * It runs the real command a newcomer runs (`npm run demo`: build the web app, load the demo,
 * start the server) on a fresh temporary DATA_DIR with the default configuration (built-in grader,
 * GRADING_CONCURRENCY default), waits until GET / answers, then drives the app over HTTP as the demo
 * instructor does: log in, and per question `grade-all` (which drafts the rubric first, since the
 * demo questions have none) and `grade-all/progress?batchId=` until finished. `--skip-build` starts
 * `tsx apps/server/src/cli/demo.ts` directly (the web app must be built already).
 *
 * After stopping the server, it opens the data directory once more and reads where the time went
 * from rows the app writes anyway: rubric drafts (rubric_generations), and per grading run the
 * queue wait (pg-boss started_on), text extraction (file_extractions.created_at; OCR pages marked),
 * the grader's own time (grading_runs.latency_ms) and the rest.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openRuntime } from '../apps/server/src/boot.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { DEMO_QUESTIONS } from '../apps/server/src/demo/demo-content.ts';
import { DEMO_INSTRUCTOR } from '../apps/server/src/demo/load-demo.ts';
import { gradeSubmissionJob } from '../apps/server/src/services/run-grading.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** How often the script asks whether the server answers, and for progress (the web app asks every 2 s). */
const POLL_MS = 100;
/** Give up on a server that never answers, so the benchmark always ends. */
const START_TIMEOUT_MS = 10 * 60 * 1000;

interface Options {
  skipBuild: boolean;
  questionKeys: string[];
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: { 'skip-build': { type: 'boolean' }, questions: { type: 'string' }, quick: { type: 'boolean' } },
    // The runner passes the same flags to every benchmark; ignore the ones meant for the others.
    strict: false,
  });
  // The numeric question first: it is the one the tour and the browser journey grade.
  const all = ['car', 'sky', 'pendulum'];
  const keys = typeof values.questions === 'string' ? values.questions.split(',').map((key) => key.trim()) : all;
  const unknown = keys.filter((key) => !DEMO_QUESTIONS.some((question) => question.key === key));
  if (unknown.length > 0) {
    console.error(`Unknown demo question(s): ${unknown.join(', ')}. Known: ${all.join(', ')}.`);
    process.exit(2);
  }
  // --quick (from `npm run bench -- --quick`): the already-built web app, one question.
  return {
    skipBuild: values['skip-build'] === true || values.quick === true,
    questionKeys: values.quick ? ['car'] : keys,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (valueMs: number) => `${(valueMs / 1000).toFixed(1)} s`;
const line = (label: string, value: string) => console.log(`${label.padEnd(46)}${value}`);

/** The demo command in its own process group, so stopping it stops npm, tsx and the server alike. */
function startDemo(
  options: Options,
  env: NodeJS.ProcessEnv,
  marks: Map<string, number>,
  started: number,
): ChildProcess {
  const [command, args] = options.skipBuild
    ? [path.join(root, 'node_modules', '.bin', 'tsx'), ['apps/server/src/cli/demo.ts']]
    : ['npm', ['run', '--silent', 'demo']];
  const child = spawn(command, args, { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const watch = (text: string) => {
    const at = performance.now() - started;
    if (/built in [\d.]+m?s/.test(text) && !marks.has('built')) marks.set('built', at);
    if (/The demo course (is|was already) loaded/.test(text) && !marks.has('loaded')) marks.set('loaded', at);
  };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    watch(chunk);
    if (process.env.BENCH_VERBOSE) process.stdout.write(chunk);
  });
  // The build's warnings are noise here; they are shown only if the demo never comes up.
  const errors: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    errors.push(chunk);
    if (process.env.BENCH_VERBOSE) process.stderr.write(chunk);
  });
  child.once('exit', (code) => {
    if (code !== 0 && code !== null && !process.env.BENCH_VERBOSE) process.stderr.write(errors.join(''));
  });
  return child;
}

async function stopDemo(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  // Stopped on purpose: whatever it says on the way out is not a failure to report.
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  await exited;
  // npm may leave before the server it started has closed the database: wait for the whole group.
  for (;;) {
    try {
      process.kill(-child.pid, 0);
    } catch {
      return;
    }
    await wait(POLL_MS);
  }
}

class Api {
  private token = '';
  constructor(private readonly baseUrl: string) {}

  async logIn(email: string, password: string): Promise<void> {
    this.token = (await this.call<{ token: string }>('POST', '/api/auth/login', { email, password })).token;
  }

  async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const response = await fetch(this.baseUrl + url, {
      method,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  }
}

interface Progress {
  batchId: string | null;
  total: number;
  done: number;
  failed: number;
  isFinished: boolean;
}

interface QuestionResult {
  key: string;
  title: string;
  batchId: string;
  total: number;
  done: number;
  failed: number;
  /** The grade-all request itself: drafting the rubric (a job it waits for), then queueing the runs. */
  requestMs: number;
  /** From the grade-all request to the first progress answer that says finished. */
  wallMs: number;
}

async function waitUntilAnswering(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`npm run demo exited with status ${child.exitCode} before the server answered`);
    try {
      const response = await fetch(`${baseUrl}/`);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await wait(POLL_MS);
  }
  throw new Error('the server did not answer within 10 minutes');
}

async function gradeQuestions(api: Api, keys: string[]): Promise<QuestionResult[]> {
  await api.logIn(DEMO_INSTRUCTOR.email, DEMO_INSTRUCTOR.password);
  const courses = await api.call<{ _id: string; isDemo?: boolean }[]>('GET', '/api/courses');
  const course = courses.find((candidate) => candidate.isDemo);
  if (!course) throw new Error('the demo instructor has no demo course');
  const assignments = await api.call<{ _id: string; course: string | { _id: string } }[]>('GET', '/api/assignments');
  const assignment = assignments.find(
    (candidate) => (typeof candidate.course === 'string' ? candidate.course : candidate.course._id) === course._id,
  );
  if (!assignment) throw new Error('the demo course has no assignment');
  const questions = await api.call<{ _id: string; title: string | null }[]>(
    'GET',
    `/api/assignments/${assignment._id}/questions`,
  );

  const results: QuestionResult[] = [];
  for (const key of keys) {
    const title = DEMO_QUESTIONS.find((question) => question.key === key)!.title;
    const question = questions.find((candidate) => candidate.title === title);
    if (!question) throw new Error(`the demo assignment has no question "${title}"`);
    const base = `/api/assignments/${assignment._id}/questions/${question._id}`;
    const started = performance.now();
    const { batchId } = await api.call<{ batchId: string | null; queued: number }>('POST', `${base}/grade-all`);
    const requestMs = performance.now() - started;
    if (!batchId) throw new Error(`grade-all on "${title}" found nothing to grade`);
    let progress: Progress;
    for (;;) {
      progress = await api.call<Progress>('GET', `${base}/grade-all/progress?batchId=${batchId}`);
      if (progress.isFinished) break;
      await wait(POLL_MS);
    }
    const wallMs = performance.now() - started;
    results.push({
      key,
      title,
      batchId,
      total: progress.total,
      done: progress.done,
      failed: progress.failed,
      requestMs,
      wallMs,
    });
    line(
      `  grade-all "${title}"`,
      `${seconds(wallMs)} (${progress.done} done, ${progress.failed} failed of ${progress.total})`,
    );
  }
  return results;
}

/** Where the time of each batch went, from the rows; printed per question. */
async function explainFromRows(dataDir: string, results: QuestionResult[]): Promise<void> {
  const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), { jobs: 'send-only' });
  const epochMs = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;
  try {
    for (const result of results) {
      const { rows: drafts } = await runtime.ctx.database.executeSql(
        `SELECT ${epochMs('g.created_at')} AS queued_at, ${epochMs('g.finished_at')} AS finished_at, g.latency_ms
           FROM rubric_generations g JOIN questions q ON q.id = g.question_id
          WHERE q.title = $1 ORDER BY g.created_at LIMIT 1`,
        [result.title],
      );
      const { rows } = await runtime.ctx.database.executeSql(
        `SELECT r.status, r.latency_ms, r.error,
                ${epochMs('r.created_at')} AS queued_at,
                ${epochMs('j.started_on')} AS started_at,
                ${epochMs('fe.created_at')} AS extracted_at,
                ${epochMs('r.finished_at')} AS finished_at,
                fe.pages::text AS pages
           FROM grading_runs r
           JOIN submissions s ON s.id = r.submission_id
           LEFT JOIN file_extractions fe ON fe.file_id = s.file_id
           LEFT JOIN pgboss.job j ON j.id = r.id AND j.name = $2
          WHERE r.batch_id = $1
          ORDER BY j.started_on`,
        [result.batchId, gradeSubmissionJob.name],
      );
      console.log(`\n"${result.title}": ${seconds(result.wallMs)} from the grade-all request to done`);
      const draft = drafts[0];
      if (draft) {
        line(
          '  rubric draft (job, queued -> finished)',
          `${seconds(Number(draft.finished_at) - Number(draft.queued_at))} (grader itself ${Number(draft.latency_ms)} ms)`,
        );
      }
      line('  grade-all request (rubric draft + queueing)', seconds(result.requestMs));
      const firstQueued = Math.min(...rows.map((row) => Number(row.queued_at)));
      console.log('  per run, in the order the workers took them (ms after the runs were queued):');
      console.log(
        `    ${'taken'.padStart(7)} ${'extract'.padStart(8)} ${'grader'.padStart(7)} ${'rest'.padStart(6)} ${'done'.padStart(7)}  text`,
      );
      for (const row of rows) {
        const startedAt = Number(row.started_at);
        const extractedAt = Number(row.extracted_at);
        const finishedAt = Number(row.finished_at);
        const latency = Number(row.latency_ms);
        const pages = JSON.parse(String(row.pages ?? '[]')) as { method?: string }[];
        const how =
          row.status !== 'succeeded'
            ? `${row.status}: ${row.error}`
            : pages.some((page) => page.method === 'ocr')
              ? 'OCR'
              : 'text layer';
        const cell = (value: number, width: number) =>
          Number.isFinite(value) ? String(Math.round(value)).padStart(width) : '-'.padStart(width);
        console.log(
          `    ${cell(startedAt - firstQueued, 7)} ${cell(extractedAt - startedAt, 8)} ${cell(latency, 7)} ${cell(finishedAt - extractedAt - latency, 6)} ${cell(finishedAt - firstQueued, 7)}  ${how}`,
        );
      }
    }
  } finally {
    await runtime.shutdown();
  }
}

async function main(): Promise<number> {
  const options = readOptions();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gradewise-bench-demo-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // The default configuration, whatever the caller's shell holds: embedded PGlite, built-in grader.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  for (const name of [
    'DATABASE_URL',
    'AI_PROVIDER',
    'AI_MODEL',
    'AI_BASE_URL',
    'AI_API_KEY',
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'GRADING_CONCURRENCY',
    'JOB_WORKERS',
  ]) {
    delete env[name];
  }
  console.log(
    `Demo first minute: ${options.skipBuild ? 'tsx apps/server/src/cli/demo.ts (web app already built)' : 'npm run demo'} on an empty DATA_DIR, ` +
      `built-in grader, ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)} at start.`,
  );

  const marks = new Map<string, number>();
  const started = performance.now();
  const child = startDemo(options, env, marks, started);
  let results: QuestionResult[] = [];
  try {
    await waitUntilAnswering(baseUrl, child);
    const readyMs = performance.now() - started;
    const built = marks.get('built');
    const loaded = marks.get('loaded');
    if (built !== undefined) line('  web app built (vite)', `at ${seconds(built)}`);
    if (loaded !== undefined)
      line(
        '  demo loaded (users, PDFs, rows)',
        `at ${seconds(loaded)}${built !== undefined ? ` (${seconds(loaded - built)} after the build)` : ''}`,
      );
    line(
      '  server answers GET /',
      `at ${seconds(readyMs)}${loaded !== undefined ? ` (${seconds(readyMs - loaded)} after loading)` : ''}`,
    );

    results = await gradeQuestions(new Api(baseUrl), options.questionKeys);
    const first = results[0]!;
    const loadMs = readyMs - (built ?? 0);
    console.log('');
    line(
      'FIRST MINUTE: load + start + first question',
      `${seconds(loadMs + first.wallMs)} (${seconds(loadMs)} + ${seconds(first.wallMs)} "${first.title}")`,
    );
    if (built !== undefined) line('  with the web build first', seconds(readyMs + first.wallMs));
    line('load average (1 min) at the end', `${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
  } finally {
    await stopDemo(child);
  }
  try {
    if (results.length > 0) await explainFromRows(dataDir, results);
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
  const failed = results.reduce((total, result) => total + result.failed, 0);
  if (failed > 0) {
    console.log(`\nPROBLEM: ${failed} grading run(s) failed`);
    return 1;
  }
  return 0;
}

// Exit explicitly: a library timer left behind must not keep `npm run bench` waiting.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('The demo benchmark failed:', error);
    process.exit(1);
  },
);
