#!/usr/bin/env node
// The server's costs of issue 11, each printed beside a reference measured in the same run:
//
//   - server CPU per authenticated GET /api/courses (20 courses), read from the server process
//     itself (/proc/PID/stat: every thread, PGlite's included), against a bare Fastify hello world
//     run the same way in the same Node: on a busy machine the ratio holds where times do not;
//   - p99 latency of GET /api/courses at a fixed 500 req/s (open loop, up to 100 connections; and as
//     autocannon's overallRate loads it, in bursts), for
//     the instructor and for a student enrolled in the same 20 courses;
//   - idle RSS of the server process after the load (and of its npm parent), and again once the
//     server has had a quiet minute (an idle PDF-reading thread ends after EXTRACTION_IDLE_MS, 1 min),
//     each split into anonymous memory (the process's own) and file-backed pages (shared);
//   - `npm start` to the first HTTP answer, with the build current (a first start builds).
//
//   npm run bench -- server                      # this checkout
//   node bench/server.mjs --root /path/to/other  # another checkout (e.g. main before a change)
//   node bench/server.mjs --quick                # fewer requests
//   node bench/server.mjs --postgres             # also on a fresh database of DATABASE_URL's server
//
// The PGlite server runs on a temporary data directory, with the default logging.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import {
  cpuPerRequest as cpuPerRequestOf,
  createTemporaryDatabase,
  fixedRateLatency,
  loadAverage,
  readBenchArgs,
  rssMb,
  rssPartsMb,
  spawnTracked,
  startBareFastify,
  stop,
} from './_server-measure.mjs';

/* global fetch, FormData */

const { quick, root } = readBenchArgs();
const postgresFlag = process.argv.includes('--postgres');
if (postgresFlag && !process.env.DATABASE_URL) {
  console.error('--postgres needs DATABASE_URL (a PostgreSQL server where it may create a database).');
  process.exit(2);
}
const REQUESTS = quick ? 1000 : 3000;
// --quick: half the warm-up and measured CPU of a full run (_server-measure.mjs).
const QUICK_CPU = quick ? { warmMs: 750, measureMs: 1500 } : {};

console.log(`checkout: ${root}`);
console.log(`load average at start: ${loadAverage()} (${os.availableParallelism()} cores)`);

// ------------------------------------------------------------------ reference: bare Fastify
const bare = await startBareFastify(root);
const bareCpu = await cpuPerRequest(bare.pid, `${bare.base}/`, {});
await stop(bare);
console.log(`bare Fastify hello world: ${bareCpu.toFixed(3)} ms CPU per request`);

// ------------------------------------------------------------------ Gradewise on PGlite
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-bench-server-'));
process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
// BENCH_PORT: a port of one's own on a machine shared with other benchmarks.
const port = Number(process.env.BENCH_PORT) || 3900 + Math.floor(Math.random() * 90);
const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', AUTH_RATE_LIMIT: '100000' };
for (const name of ['DATABASE_URL', 'LOG_LEVEL', 'LOG_REQUESTS', 'AI_PROVIDER']) delete env[name];
const base = `http://127.0.0.1:${port}`;
const coursesUrl = `${base}/api/courses`;

// A first start builds whatever is not current, and creates the database; the second is measured.
let server = await startGradewise(env, base);
await stop(server);
server = await startGradewise(env, base);
const startMs = server.startMs;
console.log(`npm start to first answer (build current): ${(startMs / 1000).toFixed(2)} s`);

const { headers, studentHeaders } = await seedCourses();
const { instructorCpu: coursesCpu, studentCpu } = await coursesCpuRounds(server.pid, headers, studentHeaders);
console.log(
  `GET /api/courses: ${coursesCpu.toFixed(3)} ms CPU per request = ${(coursesCpu / bareCpu).toFixed(1)} x bare Fastify (median of 3)`,
);
console.log(
  `GET /api/courses as a student: ${studentCpu.toFixed(3)} ms CPU per request = ${(studentCpu / bareCpu).toFixed(1)} x bare Fastify (median of 3)`,
);

const fixed = await fixedRate('instructor', headers);
const fixedStudent = await fixedRate('student', studentHeaders);

await sleep(5000);
const rss = rssMb(server.pid);
const parentsRss = server.npmPid ? rssMb(server.npmPid) : 0;
console.log(
  `idle RSS: server ${rss.toFixed(0)} MB (${describeParts(server.pid)}), npm parent ${parentsRss.toFixed(0)} MB`,
);
// A PDF thread (none here unless the server warms one at start) ends after a quiet minute.
await sleep(Math.max(0, server.answeredAt + 65_000 - performance.now()));
const quietRss = rssMb(server.pid);
console.log(`idle RSS after a quiet minute: server ${quietRss.toFixed(0)} MB (${describeParts(server.pid)})`);
await stop(server);

// ------------------------------------------------------------------ Gradewise on PostgreSQL
// --postgres: the same requests on a fresh database of DATABASE_URL's server. The CPU is the Node
// process's only (PostgreSQL's backends are other processes), as the figure is.
let postgres;
if (postgresFlag) {
  const database = await createTemporaryDatabase(process.env.DATABASE_URL);
  try {
    server = await startGradewise({ ...env, DATABASE_URL: database.url }, base);
    const seeded = await seedCourses();
    const { instructorCpu, studentCpu: studentOnPostgres } = await coursesCpuRounds(
      server.pid,
      seeded.headers,
      seeded.studentHeaders,
    );
    postgres = { instructorCpu, studentCpu: studentOnPostgres };
    console.log(
      `PostgreSQL, GET /api/courses (Node process only): instructor ${instructorCpu.toFixed(3)} ms = ` +
        `${(instructorCpu / bareCpu).toFixed(1)} x bare Fastify, student ${studentOnPostgres.toFixed(3)} ms`,
    );
    await stop(server);
  } finally {
    await database.drop();
  }
}
console.log(`load average at end: ${loadAverage()}`);

console.log('\n| figure | value | reference |');
console.log('|---|---|---|');
console.log(
  `| server CPU per GET /api/courses, 20 courses, PGlite | ${coursesCpu.toFixed(3)} ms (${(coursesCpu / bareCpu).toFixed(1)} x) | bare Fastify ${bareCpu.toFixed(3)} ms; goal 0.4 ms |`,
);
console.log(
  `| same, as a student enrolled in the 20 courses | ${studentCpu.toFixed(3)} ms (${(studentCpu / bareCpu).toFixed(1)} x) | bare Fastify ${bareCpu.toFixed(3)} ms |`,
);
if (postgres) {
  console.log(
    `| same on PostgreSQL (Node process only), instructor / student | ${postgres.instructorCpu.toFixed(3)} ms (${(postgres.instructorCpu / bareCpu).toFixed(1)} x) / ${postgres.studentCpu.toFixed(3)} ms | goal 0.25 ms |`,
  );
}
console.log(
  `| p99 at a fixed 500 req/s, open loop (instructor / student) | ${fixed.open.p99.toFixed(1)} ms / ${fixedStudent.open.p99.toFixed(1)} ms | goal 50 ms |`,
);
console.log(
  `| p99 as autocannon's overallRate 500 loads it, 100 at once each second (instructor / student) | ${fixed.bursts.p99} ms / ${fixedStudent.bursts.p99} ms | |`,
);
console.log(`| idle RSS (server process) | ${rss.toFixed(0)} MB (+${parentsRss.toFixed(0)} MB npm) | goal 300 MB |`);
console.log(`| idle RSS after a quiet minute | ${quietRss.toFixed(0)} MB | goal 300 MB |`);
console.log(`| npm start to first answer, build current | ${(startMs / 1000).toFixed(2)} s | goal 3 s |`);
process.exit(0);

// ------------------------------------------------------------------ helpers

function describeParts(pid) {
  const parts = rssPartsMb(pid);
  return `${parts.anonymous.toFixed(0)} MB anonymous, ${parts.file.toFixed(0)} MB file-backed`;
}

/** An instructor with 20 courses and a student enrolled in all of them; checks both lists; their headers. */
async function seedCourses() {
  const instructor = await register(base, 'instructor');
  const student = await register(base, 'student');
  for (let index = 0; index < 20; index += 1) {
    const courseId = await createCourse(base, instructor, `Course ${index + 1}`);
    await addStudent(base, instructor, courseId, student);
  }
  const seeded = {
    headers: { authorization: `Bearer ${instructor}` },
    studentHeaders: { authorization: `Bearer ${student.token}` },
  };
  for (const [who, requestHeaders] of [
    ['instructor', seeded.headers],
    ['student', seeded.studentHeaders],
  ]) {
    const check = await fetch(coursesUrl, { headers: requestHeaders });
    if (check.status !== 200 || (await check.json()).length !== 20)
      throw new Error(`GET /api/courses did not answer the ${who}'s 20 courses`);
  }
  return seeded;
}

/**
 * GET /api/courses at a fixed 500 req/s over up to 100 connections, open loop (fixedRateLatency:
 * the figure), then as autocannon's `overallRate` loads it (100 requests at once at the
 * start of every second), both printed; the open-loop result is returned.
 */
async function fixedRate(who, requestHeaders) {
  // Requests a run before left in the server (autocannon stops without waiting) are done once one
  // more is answered: none of them is charged to this run.
  await fetch(coursesUrl, { headers: requestHeaders }).then((response) => response.arrayBuffer());
  const open = await fixedRateLatency(coursesUrl, requestHeaders, {
    rate: 500,
    connections: 100,
    seconds: quick ? 5 : 10,
  });
  if (open.non2xx > 0 || open.errors > 0) throw new Error(`fixed rate: ${open.non2xx} non-2xx, ${open.errors} errors`);
  console.log(
    `GET /api/courses as the ${who} at a fixed 500 req/s (open loop, up to 100 connections): p99 ${open.p99.toFixed(1)} ms, ` +
      `p50 ${open.p50.toFixed(1)} ms, max ${open.max.toFixed(1)} ms, ${open.requests} requests`,
  );
  const bursts = await autocannon({
    url: coursesUrl,
    headers: requestHeaders,
    connections: 100,
    overallRate: 500,
    duration: quick ? 5 : 10,
  });
  console.log(
    `  the same load as autocannon's overallRate (100 at once each second): p99 ${bursts.latency.p99} ms, p50 ${bursts.latency.p50} ms, ` +
      `${bursts.requests.total} requests, ${bursts.non2xx} non-2xx, ${bursts.errors} errors`,
  );
  return { open, bursts: bursts.latency };
}

/**
 * The instructor's and the student's CPU per request, three interleaved rounds, the median of each:
 * work the server does on its own after the seeding (planner statistics, the job queue's upkeep)
 * is counted in whichever measurement it falls into, and a single round showed it (0.43 and 0.79 ms
 * for the same build).
 */
async function coursesCpuRounds(pid, instructorHeaders, studentHeadersOfRun) {
  const instructor = [];
  const student = [];
  for (let round = 0; round < 3; round += 1) {
    instructor.push(await cpuPerRequest(pid, coursesUrl, instructorHeaders));
    student.push(await cpuPerRequest(pid, coursesUrl, studentHeadersOfRun));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[1];
  console.log(
    `GET /api/courses CPU per request, three rounds: instructor ${instructor.map((v) => v.toFixed(3)).join(', ')} ms; ` +
      `student ${student.map((v) => v.toFixed(3)).join(', ')} ms`,
  );
  return { instructorCpu: median(instructor), studentCpu: median(student) };
}

/** Server CPU (all threads) per request over a fixed number of requests, 10 connections. */
function cpuPerRequest(pid, url, requestHeaders) {
  return cpuPerRequestOf(pid, url, requestHeaders, { amount: REQUESTS, connections: 10, ...QUICK_CPU });
}

/** `npm start` in the checkout; resolves at the first HTTP answer, with the node server's pid. */
async function startGradewise(environment, url) {
  const started = performance.now();
  const child = spawnTracked('npm', ['start'], { cwd: root, env: environment, stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = false;
  child.on('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error('npm start exited before answering');
    try {
      await fetch(`${url}/api/courses`);
      break;
    } catch {
      await sleep(25);
    }
  }
  const answeredAt = performance.now();
  const startMs = answeredAt - started;
  const pid = serverPid(child.pid);
  return { child, pid, npmPid: child.pid, startMs, answeredAt };
}

/** The descendant of `npm start` that runs the server (the node process with main in its command line). */
function serverPid(rootPid) {
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift();
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const [program = '', firstArgument = ''] = cmdline.split('\0');
    // node running main (not npm, not the shell, not tsx's launcher, whose node child runs main).
    const isServer =
      /(^|\/)node$/.test(program) && /main\.(js|ts)/.test(cmdline) && !/\.bin\/tsx|tsx\/dist\/cli/.test(firstArgument);
    if (pid !== rootPid && isServer) return pid;
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const list = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (list) queue.push(...list.split(' ').map(Number));
    }
  }
  throw new Error('server process not found');
}

/**
 * Registers an account, then signs in (registration answers no token, decision 0069); an
 * instructor is returned as its token, a student as { token, email }.
 */
async function register(url, role) {
  const credentials = { email: `bench-${role}-${Date.now()}@example.edu`, password: 'bench-password-1' };
  const response = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: role === 'student' ? 'Bench Student' : 'Bench Instructor', role, ...credentials }),
  });
  if (response.status !== 201) throw new Error(`register: ${response.status} ${await response.text()}`);
  const loggedIn = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (loggedIn.status !== 200) throw new Error(`log in after registering: ${loggedIn.status} ${await loggedIn.text()}`);
  const body = await loggedIn.json();
  return role === 'student' ? { token: body.token, email: body.user.email } : body.token;
}

/** Enrols an already registered student (enrolled at once, no invitation). */
async function addStudent(url, token, courseId, who) {
  const response = await fetch(`${url}/api/courses/${courseId}/add-students`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ emails: [who.email] }),
  });
  if (response.status !== 200) throw new Error(`add student: ${response.status} ${await response.text()}`);
}

async function createCourse(url, token, title) {
  const form = new FormData();
  form.append('title', title);
  const response = await fetch(`${url}/api/courses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (response.status !== 201) throw new Error(`create course: ${response.status} ${await response.text()}`);
  return (await response.json()).course._id;
}
