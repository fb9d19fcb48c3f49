/**
 * Grading pipeline overhead: how much longer than the model itself does grading a question take?
 *
 *   npx tsx bench/pipeline.ts [--n 300] [--latency 200] [--concurrency 8] [--quick] [--postgres]
 *
 * N students hand in a generated two-page answer (the course fixture builder the demo and tests
 * use). A fake OpenAI-compatible model on loopback answers every call after a fixed latency L; it
 * runs in a child process (bench/_fake-model.ts), as a remote model would, so that neither its CPU
 * nor its timers are counted as the server's or wait for the server's event loop. The
 * real runtime (openRuntime: migrations, pg-boss queue and its workers, GRADING_CONCURRENCY=C) runs
 * behind the real HTTP app on a temporary data directory, and the benchmark drives it the way an
 * instructor does: log in, generate the rubric, start grade-all, poll its progress until every run
 * is done. Everything the server does for a submission is inside the measured time: the queue,
 * reading the stored PDF, extracting its text, the model call, storing and interpreting the answer.
 *
 * The ratio printed is   wall time of grade-all / (N x L / C)
 * where N x L / C is what a perfect pipeline would take (C model calls always in flight, nothing
 * else costing time): 1.0 = no overhead beyond the model's own latency.
 *
 * The per-run breakdown (queue wait, extraction, model call, the rest) is read afterwards from the
 * rows the app writes anyway: pg-boss's job row (started_on), file_extractions.finished_at (the
 * text was stored; it is read from submission on, so a grading job waits for it only while it is
 * still being read), grading_runs.latency_ms and finished_at. Nothing in the app is changed.
 *
 * --postgres runs on a fresh temporary database created on the server of DATABASE_URL (dropped at
 * the end) instead of PGlite.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openRuntime, type Runtime } from '../apps/server/src/boot.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { buildCourseFixture } from '../apps/server/src/demo/course-fixture.ts';
import { buildApp } from '../apps/server/src/http/app.ts';
import { closeOcr } from '../apps/server/src/pdf/extract-text.ts';
import { gradeSubmissionJob } from '../apps/server/src/services/run-grading.ts';
import { FAKE_MODEL_ID } from '../apps/server/test/support/fake-llm-server.ts';
import { startFakeModelProcess, type FakeModelProcess } from './_fake-model.ts';
import { createTemporaryDatabase } from './_server-measure.mjs';

interface Options {
  n: number;
  latencyMs: number;
  concurrency: number;
  postgres: boolean;
}

const DEFAULTS = { n: 300, latencyMs: 200, concurrency: 8 };
const QUICK_N = 60;
/** How often the benchmark asks for progress, like the web app's progress bar would. */
const PROGRESS_POLL_MS = 100;
const INSTRUCTOR = {
  name: 'Bench Instructor',
  email: 'bench.instructor@bench.example',
  password: 'bench-instructor-password',
};

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      n: { type: 'string' },
      latency: { type: 'string' },
      concurrency: { type: 'string' },
      quick: { type: 'boolean' },
      postgres: { type: 'boolean' },
    },
    // The runner passes the same flags to every benchmark; ignore the ones meant for the others.
    strict: false,
  });
  const whole = (name: string, raw: unknown, fallback: number, min: number): number => {
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (typeof raw !== 'string' || !Number.isInteger(value) || value < min) {
      console.error(`--${name} must be a whole number of at least ${min} (got ${String(raw)}).`);
      process.exit(2);
    }
    return value;
  };
  const options = {
    n: whole('n', values.n, values.quick ? QUICK_N : DEFAULTS.n, 1),
    latencyMs: whole('latency', values.latency, DEFAULTS.latencyMs, 1),
    concurrency: whole('concurrency', values.concurrency, DEFAULTS.concurrency, 1),
    postgres: values.postgres === true,
  };
  if (options.concurrency > 64) {
    console.error('--concurrency must be at most 64 (the limit GRADING_CONCURRENCY accepts).');
    process.exit(2);
  }
  if (options.postgres && !process.env.DATABASE_URL) {
    console.error(
      '--postgres needs DATABASE_URL (postgres://user:password@host:port/database) pointing at a server where it may create a database.',
    );
    process.exit(2);
  }
  return options;
}

/** A throwaway database on the DATABASE_URL server, so the run never touches real data. */
class Api {
  private token = '';
  constructor(private readonly baseUrl: string) {}

  async logIn(email: string, password: string): Promise<void> {
    const body = await this.call<{ token: string }>('POST', '/api/auth/login', { email, password });
    this.token = body.token;
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
  running: number;
  remaining: number;
  isFinished: boolean;
}

/** One grading run as the rows tell it; times in ms since the epoch. */
interface RunTimeline {
  status: string;
  attempts: number;
  latencyMs: number;
  queuedAt: number;
  startedAt: number;
  extractedAt: number;
  finishedAt: number;
}

async function readRunTimelines(runtime: Runtime, batchId: string): Promise<RunTimeline[]> {
  const epochMs = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;
  const { rows } = await runtime.ctx.database.executeSql(
    `SELECT r.status, r.attempts, r.latency_ms,
            ${epochMs('r.created_at')} AS queued_at,
            ${epochMs('j.started_on')} AS started_at,
            ${epochMs('GREATEST(j.started_on, fe.finished_at)')} AS extracted_at,
            ${epochMs('r.finished_at')} AS finished_at
       FROM grading_runs r
       JOIN submissions s ON s.id = r.submission_id
       LEFT JOIN file_extractions fe ON fe.file_id = s.file_id
       LEFT JOIN pgboss.job j ON j.id = r.id AND j.name = $2
      WHERE r.batch_id = $1`,
    [batchId, gradeSubmissionJob.name],
  );
  return rows.map((row) => ({
    status: String(row.status),
    attempts: Number(row.attempts),
    latencyMs: Number(row.latency_ms),
    queuedAt: Number(row.queued_at),
    startedAt: Number(row.started_at),
    extractedAt: Number(row.extracted_at),
    finishedAt: Number(row.finished_at),
  }));
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const mean = (values: number[]) => (values.length === 0 ? NaN : sum(values) / values.length);
function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
/** Total length of the union of intervals: wall time during which at least one was in progress. */
function unionLength(intervals: [number, number][]): number {
  const sorted = intervals.filter(([start, end]) => end > start).sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [currentStart, currentEnd] = sorted[0] ?? [0, 0];
  for (const [start, end] of sorted.slice(1)) {
    if (start > currentEnd) {
      total += currentEnd - currentStart;
      [currentStart, currentEnd] = [start, end];
    } else {
      currentEnd = Math.max(currentEnd, end);
    }
  }
  return total + (currentEnd - currentStart);
}

const ms = (value: number) => `${Math.round(value)} ms`;
const seconds = (valueMs: number) => `${(valueMs / 1000).toFixed(2)} s`;
const line = (label: string, value: string) => console.log(`${label.padEnd(44)}${value}`);
const stats = (values: number[]) =>
  `mean ${ms(mean(values))}, median ${ms(percentile(values, 50))}, p95 ${ms(percentile(values, 95))}`;

async function main(): Promise<number> {
  const options = readOptions();
  const { n, latencyMs, concurrency } = options;
  const problems: string[] = [];

  const fake: FakeModelProcess = await startFakeModelProcess(latencyMs);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gradewise-bench-pipeline-'));
  const database = options.postgres ? await createTemporaryDatabase(process.env.DATABASE_URL!) : undefined;
  let runtime: Runtime | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    // Only what this run needs: an AI configuration in the caller's environment must not leak in.
    const config = loadConfig({
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
      AI_PROVIDER: 'openai-compatible',
      AI_BASE_URL: fake.baseUrl,
      AI_MODEL: FAKE_MODEL_ID,
      GRADING_CONCURRENCY: String(concurrency),
      LOG_LEVEL: 'warn',
    });
    let started = performance.now();
    runtime = await openRuntime(config);
    app = await buildApp(runtime.ctx);
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const api = new Api(address);

    console.log(
      `Grading pipeline: ${n} two-page submissions, fake model latency ${latencyMs} ms, GRADING_CONCURRENCY ${concurrency}, ` +
        `${options.postgres ? 'PostgreSQL' : 'PGlite'}, ${os.cpus().length} cores, Node ${process.version}, ` +
        `load average ${os.loadavg()[0]!.toFixed(1)} at start.`,
    );
    line('startup (migrations, job queue, HTTP)', `${seconds(performance.now() - started)} (not measured below)`);

    started = performance.now();
    const fixture = await buildCourseFixture(runtime.ctx, {
      instructor: INSTRUCTOR,
      studentCount: n,
      studentPassword: 'bench-student-password',
      studentEmailDomain: 'bench.example',
      courseTitle: 'Pipeline benchmark',
      questionKeys: ['car'],
      isTwoPageAnswers: true,
    });
    const question = fixture.questions[0]!;
    line('setup (fixture: users, PDFs, rows)', `${seconds(performance.now() - started)} (not measured below)`);
    if (fixture.submissions.length !== n)
      problems.push(`the fixture made ${fixture.submissions.length} submissions, expected ${n}`);

    await api.logIn(INSTRUCTOR.email, INSTRUCTOR.password);
    const base = `/api/assignments/${fixture.assignmentId}/questions/${question.id}`;

    started = performance.now();
    await api.call('POST', `${base}/generate-rubric`);
    const rubricMs = performance.now() - started;
    const rubricCalls = (await fake.stats()).chatCalls;
    line('generate-rubric (2 PDFs + 1 model call)', `${ms(rubricMs)}, ${rubricCalls} model call(s)`);

    const fakeAtStart = await fake.stats();
    started = performance.now();
    const hrStart = process.hrtime.bigint() / 1000n;
    const cpuAtStart = process.cpuUsage();
    const loopAtStart = performance.eventLoopUtilization();
    const { batchId, queued } = await api.call<{ batchId: string | null; queued: number }>('POST', `${base}/grade-all`);
    const queuedMs = performance.now() - started;
    if (!batchId || queued !== n) throw new Error(`grade-all queued ${queued} runs (batch ${batchId}), expected ${n}`);
    let progress: Progress;
    for (;;) {
      progress = await api.call<Progress>('GET', `${base}/grade-all/progress?batchId=${batchId}`);
      if (progress.isFinished) break;
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS));
    }
    const wallMs = performance.now() - started;
    // For a --cpu-prof of this process: grade-all's samples lie between these (µs, the profile's clock).
    if (process.env.BENCH_PRINT_WINDOW)
      console.log(`grade-all window in µs: ${hrStart} ${process.hrtime.bigint() / 1000n}`);
    const cpu = process.cpuUsage(cpuAtStart);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const loopBusy = performance.eventLoopUtilization(loopAtStart).utilization;
    const fakeAtEnd = await fake.stats();

    const idealMs = (n * latencyMs) / concurrency;
    const ratio = wallMs / idealMs;
    const gradingCalls = fakeAtEnd.chatCalls - rubricCalls;
    const runs = await readRunTimelines(runtime, batchId);
    const succeeded = runs.filter((run) => run.status === 'succeeded');
    if (progress.failed > 0) problems.push(`${progress.failed} run(s) failed`);
    if (succeeded.length !== n) problems.push(`${succeeded.length} of ${n} runs succeeded`);
    if (gradingCalls !== n) problems.push(`the fake model received ${gradingCalls} grading calls for ${n} submissions`);
    const attempts = sum(runs.map((run) => run.attempts));
    if (attempts !== n) problems.push(`${attempts} attempts for ${n} runs (retries happened)`);

    console.log('');
    line('PIPELINE RATIO wall / (N x L / C)', ratio.toFixed(2));
    line('wall time of grade-all (request to done)', seconds(wallMs));
    line('ideal N x L / C', `${seconds(idealMs)} (N=${n}, L=${latencyMs} ms, C=${concurrency})`);
    line('overhead per submission, wall', `${ms((wallMs - idealMs) / n)} ((wall - ideal) / N)`);
    line('overhead per submission, worker slot', `${ms((wallMs * concurrency) / n - latencyMs)} (wall x C / N - L)`);
    line(
      'throughput',
      `${(n / (wallMs / 1000)).toFixed(2)} submissions/s (ideal ${((concurrency * 1000) / latencyMs).toFixed(2)})`,
    );
    line('grade-all request itself (queues N runs)', ms(queuedMs));
    line(
      'model calls received by the fake',
      `${rubricCalls + gradingCalls} = ${rubricCalls} rubric + ${gradingCalls} grading (N = ${n})`,
    );
    line('runs succeeded / attempts', `${succeeded.length} / ${attempts}`);
    // GRADING_CONCURRENCY is the process's bound on grader calls in flight (decision 0041).
    const mostInFlight = fakeAtEnd.mostInFlight;
    if (mostInFlight > concurrency)
      problems.push(`the fake model had ${mostInFlight} calls in flight at once (C = ${concurrency})`);
    line('most model calls in flight at once', `${mostInFlight} (C = ${concurrency}, the bound)`);
    // This process holds the app, PGlite (WebAssembly, on the same thread), the
    // workers and this script's progress polling; the fake model is another process. Its CPU per
    // submission is the cost that does not depend on how loaded the machine is.
    line(
      'server process CPU during grade-all',
      `${seconds(cpuMs)} = ${ms(cpuMs / n)} per submission, ${((100 * cpuMs) / wallMs).toFixed(0)}% of one core`,
    );
    const fakeCpuMs = fakeAtEnd.cpuMs - fakeAtStart.cpuMs;
    line('fake model process CPU (not the server)', `${seconds(fakeCpuMs)} = ${ms(fakeCpuMs / n)} per submission`);
    line('event loop busy during grade-all', `${(100 * loopBusy).toFixed(0)}%`);
    line('load average (1 min) at the end', `${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);

    // Per-run breakdown from the rows. Run start = pg-boss's started_on (the worker took the job);
    // "extraction" runs from there until the extracted text was stored, so it includes claiming
    // the run and reading the PDF from storage (a few ms).
    const timed = succeeded.filter((run) => [run.startedAt, run.extractedAt, run.finishedAt].every(Number.isFinite));
    if (timed.length > 0) {
      const extraction = timed.map((run) => run.extractedAt - run.startedAt);
      const model = timed.map((run) => run.latencyMs);
      const rest = timed.map((run) => run.finishedAt - run.extractedAt - run.latencyMs);
      const busy = timed.map((run) => run.finishedAt - run.startedAt);
      const queueWait = timed.map((run) => run.startedAt - run.queuedAt);
      const batchSpan = Math.max(...timed.map((run) => run.finishedAt)) - Math.min(...timed.map((run) => run.queuedAt));
      const extractionWall = unionLength(timed.map((run) => [run.startedAt, run.extractedAt]));
      const modelWall = unionLength(timed.map((run) => [run.finishedAt - run.latencyMs, run.finishedAt]));
      console.log('');
      console.log(`Per run, from the rows (${timed.length} runs):`);
      line('  queue wait (queued -> worker took it)', stats(queueWait));
      line('  extraction (taken -> text stored)', stats(extraction));
      line('  model call (latency_ms the app recorded)', `${stats(model)} (L = ${latencyMs} ms)`);
      line('  the rest (slot wait, store, finish)', stats(rest));
      line('  job busy (taken -> finished)', stats(busy));
      line(
        '  call slot utilisation',
        `${((100 * sum(model)) / (concurrency * wallMs)).toFixed(0)}% (sum of model calls / (C x wall))`,
      );
      line(
        '  job busy / (C x wall)',
        `${((100 * sum(busy)) / (concurrency * wallMs)).toFixed(0)}% (was "slot utilisation" while C jobs ran)`,
      );
      line(
        '  wall with any extraction in progress',
        `${seconds(extractionWall)} = ${((100 * extractionWall) / batchSpan).toFixed(0)}% of the batch's ${seconds(batchSpan)}`,
      );
      line(
        '  wall with any model call in flight',
        `${seconds(modelWall)} = ${((100 * modelWall) / batchSpan).toFixed(0)}% of the batch`,
      );
      // The fake's share of each call (its own timer's lateness included) as it saw it; the rest of
      // the app's latency_ms is the client side: prompt, SDK, sockets, reply parsing, the loop.
      const fakeSide = fakeAtEnd.insideFakeMs.slice(rubricCalls).filter(Number.isFinite);
      line(
        '  model call, inside the fake',
        `${stats(fakeSide)} (received -> answer written; the app's latency_ms minus this is its client side)`,
      );
      line(
        '  extraction, summed over runs',
        `${seconds(sum(extraction))} (${((100 * sum(extraction)) / sum(busy)).toFixed(0)}% of slot busy time)`,
      );
    } else {
      console.log('No run timelines could be read from the rows (pg-boss job rows missing?).');
    }

    if (problems.length > 0) {
      console.log('');
      for (const problem of problems) console.log(`PROBLEM: ${problem}`);
      return 1;
    }
    return 0;
  } finally {
    await app?.close().catch(() => {});
    await runtime?.shutdown();
    await closeOcr().catch(() => {});
    await fake.close();
    await database?.drop().catch((error) => console.error('Dropping the temporary database failed:', error));
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

// Exit explicitly: a library timer left behind must not keep `npm run bench` waiting.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('The pipeline benchmark failed:', error);
    process.exit(1);
  },
);
