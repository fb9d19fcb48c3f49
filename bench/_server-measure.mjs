// What bench/server.mjs and bench/question-page.mjs share: their command line, the server CPU of
// a process read from /proc (every thread, PGlite's included, so ratios hold on a busy machine
// where times do not), and starting and stopping the processes they measure.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** `--name value` flags, `--quick`, and `--root` (the checkout to measure; this one by default). */
export function readBenchArgs(argv = process.argv.slice(2)) {
  const flag = (name) => {
    const index = argv.indexOf(`--${name}`);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const root = path.resolve(flag('root') ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  return { flag, quick: argv.includes('--quick'), root };
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/**
 * Server CPU (all threads of `pid`) per request. The process is warmed first (a fifth of `amount`
 * requests, then more until it has spent `warmMs` of CPU), then measured over `amount` requests
 * and more, doubling, until the measured CPU reaches `measureMs`. Why: the CPU clock ticks every
 * 10 ms, and a cold JIT dominates short runs. A bare Fastify hello world measured over 1,000
 * requests cost 0.110 ms per request here, and over 50,000 warm ones 0.013 ms (the 0.014).
 * A long `timeout` keeps a slow answer on a busy machine measured instead of dropped.
 */
export async function cpuPerRequest(
  pid,
  url,
  requestHeaders,
  { amount, connections, timeout, warmMs = 1500, measureMs = 3000 },
) {
  const load = { url, headers: requestHeaders, connections, ...(timeout ? { timeout } : {}) };
  const run = async (requests) => {
    const result = await autocannon({ ...load, amount: requests });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  };
  return cpuPerUnit(pid, run, { amount, warmMs, measureMs });
}

/**
 * Server CPU (ms) per call of `step`, an async function that makes requests one after another
 * (for what autocannon cannot load: a request that must follow a write). Warmed and measured as
 * `cpuPerRequest` is, over at least `amount` steps.
 */
export async function cpuPerStep(pid, step, { amount, warmMs = 1500, measureMs = 3000 }) {
  const run = async (steps) => {
    for (let index = 0; index < steps; index += 1) await step();
  };
  return cpuPerUnit(pid, run, { amount, warmMs, measureMs });
}

/** `run(n)` does n units of work; warmed until `warmMs` of CPU, then measured until `measureMs`. */
async function cpuPerUnit(pid, run, { amount, warmMs, measureMs }) {
  const warmStart = cpuTicks(pid);
  let warmBatch = Math.max(20, Math.round(amount / 5));
  for (;;) {
    await run(warmBatch);
    if (ticksToMs(cpuTicks(pid) - warmStart) >= warmMs) break;
    warmBatch *= 2;
  }
  const before = cpuTicks(pid);
  let measured = 0;
  let batch = amount;
  for (;;) {
    await run(batch);
    measured += batch;
    if (ticksToMs(cpuTicks(pid) - before) >= measureMs) break;
    batch = measured; // doubling: a cheap route reaches measureMs in a few batches
  }
  return ticksToMs(cpuTicks(pid) - before) / measured;
}

const ticksToMs = (ticks) => (ticks / CLOCK_TICKS) * 1000;

function cpuTicks(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

export function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

/**
 * What the RSS is made of: anonymous memory (heaps, WebAssembly memory, thread stacks: the
 * process's own) and file-backed pages (the node binary, native addons: shared with every other
 * process that maps the same files, and the first the kernel reclaims).
 */
export function rssPartsMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { anonymous: field('RssAnon'), file: field('RssFile') + field('RssShmem') };
}

// Every child leads its own process group (npm and tsx run the server in a node child of their
// own), so the whole group goes when the bench exits, however it exits.
const children = new Set();
process.on('exit', () => {
  for (const child of children) process.kill(-child.pid, 'SIGKILL');
});

/** Spawns `program` as the leader of a process group that is killed when the bench exits. */
export function spawnTracked(program, programArgs, options) {
  const child = spawn(program, programArgs, { ...options, detached: true });
  children.add(child);
  return child;
}

/**
 * Starts a child in `root` without the settings that would change what is measured; resolves when
 * a line of its stdout matches `ready`, with the pid of the node process doing the work.
 */
export async function startChild(root, program, programArgs, extraEnv, ready) {
  const env = { ...process.env, ...extraEnv };
  for (const name of ['DATABASE_URL', 'LOG_LEVEL', 'LOG_REQUESTS', 'AI_PROVIDER']) delete env[name];
  const child = spawnTracked(program, programArgs, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
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

/**
 * Bare Fastify from `root`'s node_modules, in a Node of its own: `/` answers hello world and, given
 * `bodyFile`, `/page` answers that JSON (parsed once, sent with Fastify's default serialiser).
 */
export async function startBareFastify(root, { bodyFile } = {}) {
  const fastifyUrl = new URL(`file://${path.join(root, 'node_modules/fastify/fastify.js')}`).href;
  const source = [
    `import Fastify from ${JSON.stringify(fastifyUrl)};`,
    `import fs from 'node:fs';`,
    `const app = Fastify();`,
    `app.get('/', async () => ({ hello: 'world' }));`,
    ...(bodyFile
      ? [
          `const page = JSON.parse(fs.readFileSync(${JSON.stringify(bodyFile)}, 'utf8'));`,
          `app.get('/page', async () => page);`,
        ]
      : []),
    `await app.listen({ port: 0, host: '127.0.0.1' });`,
    `console.log('PORT ' + app.server.address().port);`,
  ].join('\n');
  const running = await startChild(root, process.execPath, ['--input-type=module', '-e', source], {}, /PORT (\d+)/);
  return { ...running, base: `http://127.0.0.1:${running.match[1]}` };
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

/** Stops a child started here (its whole process group) and waits for it to exit. */
export async function stop(running) {
  const done = new Promise((resolve) => running.child.on('exit', resolve));
  process.kill(-running.child.pid, 'SIGTERM');
  await done;
  children.delete(running.child);
}

/**
 * A new, empty database on the PostgreSQL server of `serverUrl` (DATABASE_URL), for one run: its
 * URL, and `drop()` to remove it (with FORCE: a killed server may still hold connections).
 */
export async function createTemporaryDatabase(serverUrl) {
  const name = `gradewise_bench_${randomBytes(6).toString('hex')}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * Latency at a fixed arrival rate, open loop, as wrk2 measures it: request i is due at
 * start + i / rate and sent when due over up to `connections` keep-alive connections, and its
 * latency counts from when it was due, so a server that stalls is charged for every request it
 * kept waiting (no coordinated omission). autocannon's `overallRate` is not a fixed rate: each of
 * its connections sends its share back to back at the start of every second (100 connections:
 * 100 requests at once), and it then fills its histogram with made-up samples at 1 ms intervals.
 * Both are printed by the benchmarks; this one is the "fixed 500 req/s".
 */
export async function fixedRateLatency(url, requestHeaders, { rate, connections, seconds }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * seconds);
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  const start = performance.now() + 20;
  await new Promise((resolve) => {
    let sent = 0;
    let finished = 0;
    const finish = () => {
      finished += 1;
      if (finished === total) resolve();
    };
    const sendDue = () => {
      const now = performance.now();
      while (sent < total && start + (sent * 1000) / rate <= now) {
        const due = start + (sent * 1000) / rate;
        sent += 1;
        const request = http.get(url, { agent, headers: requestHeaders }, (response) => {
          if (response.statusCode < 200 || response.statusCode >= 300) non2xx += 1;
          response.resume();
          response.on('end', () => {
            latencies.push(performance.now() - due);
            finish();
          });
        });
        request.on('error', () => {
          errors += 1;
          finish();
        });
      }
      // A timer's 1 ms granularity may send a request up to a millisecond late: charged to the server.
      if (sent < total) setTimeout(sendDue, 0);
    };
    sendDue();
  });
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (share) => latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), max: latencies.at(-1) ?? NaN, requests: latencies.length, non2xx, errors };
}
