#!/usr/bin/env node
// The question page of a big class (issue 11): server CPU per authenticated
// GET /api/assignments/:a/questions/:q?includeSubmissions=1 with 300 submissions (a third graded),
// and its p99 at a fixed 50 req/s, three times: as the web screen asks for it (the table's first
// page, &offset=0&limit=25, decision 0042), the whole list (the spec's API, still read by the rubric
// screens) and the grading screen's read of its one submission (&submissionId=, decision 0046), each
// beside references measured in the same run:
//
//   - bare Fastify hello world (what Fastify itself costs per request);
//   - bare Fastify sending the very body Gradewise answered (parsed once, sent with Fastify's
//     default JSON.stringify, no schema): the floor for a payload of that size.
//
// The first page and the whole list are measured once more as a browser asks for them
// (Accept-Encoding: br, so the answer's compression counts too; the other figures, like the
// references, go uncompressed).
// The whole list is measured once more right after a change to the class, which a server that
// keeps the serialised list between changes (decision 0065) must read afresh.
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
  cpuPerStep,
  fixedRateLatency,
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
// --quick: half the warm-up and measured CPU of a full run (_server-measure.mjs).
const QUICK_CPU = quick ? { warmMs: 750, measureMs: 1500 } : {};
// The web question page's first request: DEFAULT_SUBMISSIONS_PAGE_SIZE in
// apps/web/src/features/questions/api/questions-api.ts.
const PAGE_SIZE = 25;
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

// Two requests: the one the web's question page makes (the first page of the table, decision 0042)
// and the whole list (the spec's includeSubmissions=1, still answered for API clients). A checkout
// without paging ignores limit/offset and answers the whole list: its screen asked for that.
const fullUrl = url;
const pageUrl = `${url}&offset=0&limit=${PAGE_SIZE}`;
const full = await readBody(fullUrl, STUDENTS);
const page = await readBody(pageUrl);
const isPaged = Boolean(page.parsed.submissionsPage);
// The grading screen's read (decision 0046): the question with its one submission. A checkout
// without it ignores submissionId and answers the whole list: its grading screen read that.
const gradingUrl = `${url}&submissionId=${full.parsed.submissions[Math.floor(STUDENTS / 2)]._id}`;
const grading = await readBody(gradingUrl);
const isNarrowed = grading.parsed.submissions.length === 1;
if (isPaged && page.parsed.submissionsPage.total !== STUDENTS)
  throw new Error(`the first page says ${page.parsed.submissionsPage.total} submissions, not ${STUDENTS}`);
console.log(`whole list: ${STUDENTS} submissions, ${kb(full.body)} KB of JSON`);
console.log(
  isPaged
    ? `first page (what the web screen reads): ${page.parsed.submissions.length} submissions, ${kb(page.body)} KB of JSON`
    : 'this checkout does not page: its question page reads the whole list',
);
console.log(
  isNarrowed
    ? `grading screen's read: 1 submission, ${kb(grading.body)} KB of JSON`
    : 'this checkout has no submissionId: its grading screen reads the whole list',
);

// ------------------------------------------------------------------ references
const bareFull = await startBareFastify(root, { bodyFile: writeBody('whole-list.json', full.body) });
const barePage = isPaged ? await startBareFastify(root, { bodyFile: writeBody('first-page.json', page.body) }) : null;
const bareGrading = isNarrowed
  ? await startBareFastify(root, { bodyFile: writeBody('grading-screen.json', grading.body) })
  : null;

// Interleaved: reference, Gradewise, reference again, so a change in the machine's load shows.
const helloCpu = await cpuPerRequest(bareFull.pid, `${bareFull.base}/`, {}, REQUESTS * 10);
console.log(`bare Fastify hello world: ${helloCpu.toFixed(3)} ms CPU per request`);
const fullFigure = await measureAgainstSameBody('whole list', bareFull, fullUrl);
const pageFigure = barePage ? await measureAgainstSameBody('first page', barePage, pageUrl) : fullFigure;
// The same first page as a browser asks for it: with Accept-Encoding, so the server also compresses
// the answer (brotli), which the rows above leave out (autocannon sends no Accept-Encoding).
const BROWSER_HEADERS = { ...headers, 'accept-encoding': 'gzip, deflate, br, zstd' };
const pageAsBrowser = await cpuPerRequest(server.pid, pageUrl, BROWSER_HEADERS, REQUESTS);
console.log(
  `${isPaged ? 'first page' : 'whole list'} as a browser asks for it (compressed): ${pageAsBrowser.toFixed(3)} ms CPU per request`,
);
// The whole list as the rubric screens' browser asks for it.
const fullAsBrowser = await cpuPerRequest(server.pid, fullUrl, BROWSER_HEADERS, REQUESTS);
console.log(`whole list as a browser asks for it (compressed): ${fullAsBrowser.toFixed(3)} ms CPU per request`);
const gradingFigure = bareGrading
  ? await measureAgainstSameBody("grading screen's read", bareGrading, gradingUrl)
  : fullFigure;
// The whole list right after a change. The figures above read a class where nothing changes
// between requests; a server that keeps the serialised list (decision 0065) answers those from
// what it kept. Here each read follows a change to the class (a grader opens an answer and closes
// it: two writes), so it is read afresh. Measured as (change + read) minus the change alone.
const leaseUrl = `${fullUrl.split('?')[0]}/grade/${full.parsed.submissions[0]._id}/lease`;
const change = async () => {
  for (const method of ['POST', 'DELETE']) {
    const response = await fetch(leaseUrl, { method, headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${method} ${leaseUrl}: ${response.status}`);
  }
};
const afterChangeSteps = quick ? 20 : 60;
const changeAndRead = await cpuPerStep(
  server.pid,
  async () => {
    await change();
    // Uncompressed, as the other whole-list figures and their references (fetch would ask for gzip).
    await (await fetch(fullUrl, { headers: { ...headers, 'accept-encoding': 'identity' } })).arrayBuffer();
  },
  { amount: afterChangeSteps, ...QUICK_CPU },
);
const changeAlone = await cpuPerStep(server.pid, change, { amount: afterChangeSteps * 4, ...QUICK_CPU });
const afterChange = changeAndRead - changeAlone;
console.log(
  `whole list right after a change: ${afterChange.toFixed(3)} ms CPU per request ` +
    `(change + read ${changeAndRead.toFixed(3)} ms, change alone ${changeAlone.toFixed(3)} ms)`,
);

const fullP99 = await fixedRate('whole list', fullUrl);
const pageP99 = isPaged ? await fixedRate('first page', pageUrl) : fullP99;
const gradingP99 = isNarrowed ? await fixedRate("grading screen's read", gradingUrl) : fullP99;
console.log(`load average at end: ${loadAverage()}`);

console.log(
  "\n| figure | question page as the web screen reads it | whole list (includeSubmissions=1) | grading screen's read |",
);
console.log('|---|---|---|---|');
console.log(
  `| request | ${isPaged ? `first page, limit=${PAGE_SIZE}` : 'whole list (no paging)'} | whole list | ` +
    `${isNarrowed ? 'one submission, submissionId=' : 'whole list (no submissionId)'} |`,
);
console.log(`| JSON | ${kb(page.body)} KB | ${kb(full.body)} KB | ${kb(grading.body)} KB |`);
console.log(`| server CPU per request, PGlite | ${cell(pageFigure)} | ${cell(fullFigure)} | ${cell(gradingFigure)} |`);
console.log(
  `| the same, as a browser asks (Accept-Encoding: br, answer compressed) | ${pageAsBrowser.toFixed(2)} ms | ${fullAsBrowser.toFixed(2)} ms | |`,
);
console.log(
  `| read right after a change to the class (nothing kept can answer it) | | ${afterChange.toFixed(2)} ms | |`,
);
console.log(
  `| p99 at a fixed 50 req/s, open loop (goal 100 ms) | ${pageP99.toFixed(1)} ms | ${fullP99.toFixed(1)} ms | ${gradingP99.toFixed(1)} ms |`,
);
console.log(`| bare Fastify hello world | ${helloCpu.toFixed(3)} ms | | |`);
await stop(server);
process.exit(0);

function cell({ cpu, floor }) {
  return `${cpu.toFixed(2)} ms = ${(cpu / helloCpu).toFixed(0)} x hello world, ${(cpu / floor).toFixed(2)} x same body (${floor.toFixed(3)} ms)`;
}

// ------------------------------------------------------------------ helpers

async function readBody(target, expectRows) {
  const response = await fetch(target, { headers });
  const body = await response.text();
  const parsed = JSON.parse(body);
  if (response.status !== 200 || (expectRows !== undefined && parsed.submissions?.length !== expectRows))
    throw new Error(`${target} did not answer ${expectRows ?? 'a page of'} submissions: ${response.status}`);
  return { body, parsed };
}

function writeBody(name, body) {
  const file = path.join(dataDir, name);
  fs.writeFileSync(file, body);
  return file;
}

function kb(body) {
  return (Buffer.byteLength(body) / 1024).toFixed(1);
}

/** The route's CPU per request between two runs of bare Fastify sending the very same body. */
async function measureAgainstSameBody(name, bare, target) {
  const before = await cpuPerRequest(bare.pid, `${bare.base}/page`, {}, REQUESTS);
  const cpu = await cpuPerRequest(server.pid, target, headers, REQUESTS);
  const after = await cpuPerRequest(bare.pid, `${bare.base}/page`, {}, REQUESTS);
  const floor = (before + after) / 2;
  console.log(
    `${name}: ${cpu.toFixed(3)} ms CPU per request = ${(cpu / floor).toFixed(2)} x the same body from bare Fastify ` +
      `(${before.toFixed(3)} ms, then ${after.toFixed(3)} ms)`,
  );
  return { cpu, floor };
}

/** p99 at a fixed 50 req/s, open loop over up to 10 connections (fixedRateLatency), and as autocannon loads it. */
async function fixedRate(name, target) {
  // The run before may have left requests in the server (autocannon stops without waiting for
  // them): one answered request here means they are done, and none is charged to this run.
  await readBody(target);
  const open = await fixedRateLatency(target, headers, { rate: 50, connections: 10, seconds: quick ? 5 : 15 });
  const bursts = await autocannon({
    url: target,
    headers,
    connections: 10,
    overallRate: 50,
    duration: quick ? 5 : 15,
    timeout: 120,
  });
  console.log(
    `${name} at a fixed 50 req/s (open loop, up to 10 connections): p99 ${open.p99.toFixed(1)} ms, p50 ${open.p50.toFixed(1)} ms, ` +
      `${open.requests} requests, ${open.non2xx} non-2xx, ${open.errors} errors; as autocannon's overallRate loads it ` +
      `(10 at once each second): p99 ${bursts.latency.p99} ms, p50 ${bursts.latency.p50} ms`,
  );
  return open.p99;
}

/** 4 connections: the page is heavy, and on a busy machine it must be measured, not time out. */
function cpuPerRequest(pid, target, requestHeaders, amount) {
  return cpuPerRequestOf(pid, target, requestHeaders, { amount, connections: 4, timeout: 120, ...QUICK_CPU });
}
