#!/usr/bin/env node
// The question page of a big class (issue 11): server CPU per authenticated
// GET /api/assignments/:a/questions/:q?includeSubmissions=1 with 300 submissions (a third graded),
// and its p99 at a fixed 50 req/s, each beside references measured in the same run:
//
//   - bare Fastify hello world (what Fastify itself costs per request);
//   - bare Fastify sending the very body Gradewise answered (parsed once, sent with Fastify's
//     default JSON.stringify, no schema): the floor for a payload of that size.
//
// Server CPU is read from the server process itself (/proc/PID/stat, every thread, PGlite's
// included), so the ratios hold on a busy machine where times do not.
//
//   npm run bench -- question-page                      # this checkout
//   node bench/question-page.mjs --root /path/to/other  # another checkout (e.g. before a change)
//   node bench/question-page.mjs --quick                # fewer requests, a shorter fixed-rate run
//   node bench/question-page.mjs --students 100         # another class size
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/* global fetch */

const args = process.argv.slice(2);
const flag = (name) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
};
const quick = args.includes('--quick');
const root = path.resolve(flag('root') ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const STUDENTS = Number(flag('students') ?? 300);
const REQUESTS = quick ? 150 : 500;
const CLOCK_TICKS = 100; // USER_HZ on Linux
const children = new Set();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-bench-question-'));
process.on('exit', () => {
  // Each child leads its own process group (tsx runs the server in a node child of its own).
  for (const child of children) process.kill(-child.pid, 'SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

console.log(`checkout: ${root}`);
console.log(`load average at start: ${loadAverage()} (${os.availableParallelism()} cores)`);

// ------------------------------------------------------------------ Gradewise, seeded
console.log(`seeding ${STUDENTS} submissions through the API (a minute or more on a busy machine)...`);
const server = await startChild(
  path.join(root, 'node_modules/.bin/tsx'),
  [path.join(root, 'bench/_question-page-server.ts')],
  { DATA_DIR: dataDir, HOST: '127.0.0.1', AUTH_RATE_LIMIT: '100000', BENCH_STUDENTS: String(STUDENTS) },
  /READY (.*)/,
);
const { url, token } = JSON.parse(server.match[1]);
const headers = { authorization: `Bearer ${token}` };
const check = await fetch(url, { headers });
const body = await check.text();
const parsed = JSON.parse(body);
if (check.status !== 200 || parsed.submissions?.length !== STUDENTS)
  throw new Error(`the question page did not answer ${STUDENTS} submissions: ${check.status}`);
const bodyFile = path.join(dataDir, 'question-page.json');
fs.writeFileSync(bodyFile, body);
console.log(`question page: ${STUDENTS} submissions, ${(Buffer.byteLength(body) / 1024).toFixed(1)} KB of JSON`);

// ------------------------------------------------------------------ references
const fastifyUrl = new URL(`file://${path.join(root, 'node_modules/fastify/fastify.js')}`).href;
const bare = await startChild(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `import Fastify from ${JSON.stringify(fastifyUrl)};
import fs from 'node:fs';
const page = JSON.parse(fs.readFileSync(${JSON.stringify(bodyFile)}, 'utf8'));
const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
app.get('/page', async () => page);
await app.listen({ port: 0, host: '127.0.0.1' });
console.log('PORT ' + app.server.address().port);`,
  ],
  {},
  /PORT (\d+)/,
);
const bareBase = `http://127.0.0.1:${bare.match[1]}`;

// Interleaved: reference, Gradewise, reference again, so a change in the machine's load shows.
const helloCpu = await cpuPerRequest(bare.pid, `${bareBase}/`, {}, REQUESTS * 10);
const samePayloadCpu = await cpuPerRequest(bare.pid, `${bareBase}/page`, {}, REQUESTS);
const pageCpu = await cpuPerRequest(server.pid, url, headers, REQUESTS);
const samePayloadCpuAfter = await cpuPerRequest(bare.pid, `${bareBase}/page`, {}, REQUESTS);
const floor = (samePayloadCpu + samePayloadCpuAfter) / 2;
console.log(`bare Fastify hello world: ${helloCpu.toFixed(3)} ms CPU per request`);
console.log(
  `bare Fastify sending the same body: ${samePayloadCpu.toFixed(3)} ms, then ${samePayloadCpuAfter.toFixed(3)} ms CPU per request`,
);
console.log(
  `question page: ${pageCpu.toFixed(3)} ms CPU per request = ${(pageCpu / helloCpu).toFixed(1)} x hello world, ` +
    `${(pageCpu / floor).toFixed(2)} x the same body from bare Fastify`,
);

const fixed = await autocannon({
  url,
  headers,
  connections: 10,
  overallRate: 50,
  duration: quick ? 5 : 15,
  timeout: 120,
});
console.log(
  `question page at 50 req/s, 10 connections: p99 ${fixed.latency.p99} ms, p50 ${fixed.latency.p50} ms, ` +
    `${fixed.requests.total} requests, ${fixed.non2xx} non-2xx, ${fixed.errors} errors`,
);
console.log(`load average at end: ${loadAverage()}`);

console.log('\n| figure | value | reference |');
console.log('|---|---|---|');
console.log(
  `| server CPU per question page, ${STUDENTS} submissions, PGlite | ${pageCpu.toFixed(2)} ms = ${(pageCpu / helloCpu).toFixed(0)} x hello world, ${(pageCpu / floor).toFixed(2)} x same body | hello world ${helloCpu.toFixed(3)} ms, same body ${floor.toFixed(3)} ms |`,
);
console.log(`| p99 at 50 req/s | ${fixed.latency.p99} ms | goal 100 ms |`);
await stop(server);
process.exit(0);

// ------------------------------------------------------------------ helpers

/**
 * Server CPU (all threads) per request over a fixed number of requests, 4 connections, after a
 * warm-up. The timeout is long: on a busy machine a slow page must be measured, not dropped.
 */
async function cpuPerRequest(pid, target, requestHeaders, amount) {
  const load = { url: target, headers: requestHeaders, connections: 4, timeout: 120 };
  await autocannon({ ...load, amount: Math.max(20, amount / 5) });
  const before = cpuTicks(pid);
  const result = await autocannon({ ...load, amount });
  const ticks = cpuTicks(pid) - before;
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return ((ticks / CLOCK_TICKS) * 1000) / amount;
}

function cpuTicks(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

/** Starts a child; resolves when a line of its stdout matches `ready`, with the pid of the node process doing the work. */
async function startChild(program, programArgs, extraEnv, ready) {
  const env = { ...process.env, ...extraEnv };
  for (const name of ['DATABASE_URL', 'LOG_LEVEL', 'LOG_REQUESTS', 'AI_PROVIDER']) delete env[name];
  const child = spawn(program, programArgs, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  children.add(child);
  let output = '';
  const match = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
      const found = ready.exec(output);
      if (found) resolve(found);
    });
    child.on('exit', (code) => reject(new Error(`${path.basename(program)} exited (${code}) before it was ready`)));
  });
  return { child, match, pid: workerPid(child.pid) };
}

/** tsx runs the script in a node child of its own: the deepest node descendant is the one to measure. */
function workerPid(rootPid) {
  let pid = rootPid;
  for (;;) {
    const next = fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(' '))
      .filter(Boolean)
      .map(Number)
      .find((candidate) => /(^|\/)node\0/.test(fs.readFileSync(`/proc/${candidate}/cmdline`, 'utf8')));
    if (next === undefined) return pid;
    pid = next;
  }
}

async function stop(running) {
  const done = new Promise((resolve) => running.child.on('exit', resolve));
  process.kill(-running.child.pid, 'SIGTERM');
  await done;
  children.delete(running.child);
}
