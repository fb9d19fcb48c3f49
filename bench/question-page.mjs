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
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  cpuPerRequest as cpuPerRequestOf,
  loadAverage,
  readBenchArgs,
  startBareFastify,
  startChild,
  stop,
} from './_server-measure.mjs';

/* global fetch */

const { flag, quick, root } = readBenchArgs();
const STUDENTS = Number(flag('students') ?? 300);
const REQUESTS = quick ? 150 : 500;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-bench-question-'));
process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));

console.log(`checkout: ${root}`);
console.log(`load average at start: ${loadAverage()} (${os.availableParallelism()} cores)`);

// ------------------------------------------------------------------ Gradewise, seeded
console.log(`seeding ${STUDENTS} submissions through the API (a minute or more on a busy machine)...`);
const server = await startChild(
  root,
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
const bare = await startBareFastify(root, { bodyFile });
const bareBase = bare.base;

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

/** 4 connections: the page is heavy, and on a busy machine it must be measured, not time out. */
function cpuPerRequest(pid, target, requestHeaders, amount) {
  return cpuPerRequestOf(pid, target, requestHeaders, { amount, connections: 4, timeout: 120 });
}
