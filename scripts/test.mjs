#!/usr/bin/env node
// `npm test`: the whole suite — lint, types and the web build side by side; then Vitest (server on
// PGlite, and on PostgreSQL when DATABASE_URL is set; shared; web); then the Playwright journeys in
// Debian Chromium against the built app.
// Ends with each stage's outcome and duration, the whole run's, then one line
// "tests: N passed, N failed" summing both runners.
import { Buffer } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, 'test-results');
const unitResults = path.join(resultsDir, 'unit-results.json');
const e2eResults = path.join(resultsDir, 'e2e-results.json');
const runStarted = process.hrtime.bigint();

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  return result.status ?? 1;
}

/** Each stage's outcome and how long it took, printed together at the end. */
const stages = [];

/**
 * Runs one stage to its end. `together`: it runs beside other stages, so its output is kept and
 * printed whole when it ends (under its name) instead of interleaving with theirs.
 */
function stage(name, command, args, { together = false, watchErrors = false } = {}) {
  const started = process.hrtime.bigint();
  // Listed as it starts, so the summary keeps this order whichever stage ends first.
  const entry = { name, status: 1, ms: 0, crashLines: [], kernelSince: secondsSinceBoot() };
  stages.push(entry);
  return new Promise((resolve) => {
    const stdio = together ? ['ignore', 'pipe', 'pipe'] : watchErrors ? ['inherit', 'inherit', 'pipe'] : 'inherit';
    const child = spawn(command, args, { cwd: root, stdio });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    if (together) child.stderr?.on('data', (chunk) => output.push(chunk));
    else if (watchErrors) watchForCrashes(child.stderr, entry.crashLines);
    let failedToStart = null;
    child.on('error', (error) => {
      failedToStart = error;
    });
    child.on('close', (code) => {
      entry.ms = Number(process.hrtime.bigint() - started) / 1e6;
      entry.status = failedToStart ? 1 : (code ?? 1);
      if (together) {
        console.log(`\n── ${name}: ${[command, ...args].join(' ')}`);
        process.stdout.write(Buffer.concat(output).toString('utf8'));
        if (failedToStart) console.log(String(failedToStart));
      }
      resolve(entry.status);
    });
  });
}

// What the tests need from the system (Chromium) first: installed here when it can be, else one
// sentence saying what to run, not a stack trace.
if (run('node', ['scripts/check-chromium.mjs']) !== 0) process.exit(1);

// Lint and types first: the layer boundaries, import cycles, formatting (eslint.config.js) and the
// types of every workspace, tests included, are rules; a break of one fails the run like a test.
// They and the web build (which only the journeys use) each keep one core busy for under a minute,
// so they run side by side (decision 0083). The build is done before the unit tests start, so no
// server test ever meets a half-written apps/web/dist.
const [lintStatus, typeStatus, buildStatus] = await Promise.all([
  stage('lint', 'npm', ['run', 'lint'], { together: true }),
  stage('typecheck', 'npm', ['run', 'typecheck'], { together: true }),
  stage('build', 'npm', ['run', 'build', '--workspace', '@gradewise/web'], { together: true }),
]);

fs.mkdirSync(resultsDir, { recursive: true });
fs.rmSync(unitResults, { force: true });
fs.rmSync(e2eResults, { force: true });

const unitStatus = await stage(
  'unit',
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    '--reporter=./scripts/vitest-unfinished-files.mjs',
    `--outputFile.json=${unitResults}`,
  ],
  { watchErrors: true },
);
const e2eStatus = buildStatus === 0 ? await stage('e2e', 'npx', ['playwright', 'test']) : 1;

const unit = readJson(unitResults);
const e2e = readJson(e2eResults);
const passed = (unit?.numPassedTests ?? 0) + (e2e?.stats?.expected ?? 0) + (e2e?.stats?.flaky ?? 0);
const failed = (unit?.numFailedTests ?? 0) + (e2e?.stats?.unexpected ?? 0);
const skipped = (unit?.numPendingTests ?? 0) + (unit?.numTodoTests ?? 0) + (e2e?.stats?.skipped ?? 0);

console.log('');
for (const { name, status, ms } of stages) {
  console.log(`${`${name}:`.padEnd(11)}${status === 0 ? 'passed' : 'FAILED'}  ${duration(ms)}`);
}
if (buildStatus !== 0) console.log(`${'e2e:'.padEnd(11)}not run`);
// lint, typecheck and build overlap, so the whole run is less than the sum of the stages.
console.log(`${'total:'.padEnd(11)}${' '.repeat(8)}${duration(Number(process.hrtime.bigint() - runStarted) / 1e6)}`);
if (!unit) console.log('The unit test run wrote no results.');
if (lintStatus !== 0) console.log('Lint failed (npm run lint): see its output above.');
if (typeStatus !== 0) console.log('Type check failed (npm run typecheck): see its output above.');
if (buildStatus !== 0) console.log('The web app failed to build, so the browser tests did not run.');
else if (!e2e) console.log('The browser test run wrote no results.');
// CI keeps only the tail of the output, so the failed tests are named here, beside the count, and
// so is what a test process printed as it died: a worker that exits without a stack (a native
// crash, V8 out of memory) fails the stage with every test passed, and its last words are
// otherwise somewhere in the middle of the log.
for (const name of failedTestNames(unit, e2e)) console.log(`failed: ${name}`);
for (const { name, crashLines, kernelSince } of stages) {
  for (const line of crashLines) console.log(`${name}, a test process said: ${line}`);
  // A process killed by a signal says nothing itself: a native crash or the kernel's OOM killer is
  // only in the kernel's log. Both were seen as a bare "Worker exited unexpectedly" (stops 48, 51).
  if (crashLines.length > 0) {
    for (const line of kernelLinesSince(kernelSince)) console.log(`${name}, the kernel said: ${line}`);
  }
}
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);

const isGreen =
  lintStatus === 0 &&
  typeStatus === 0 &&
  unitStatus === 0 &&
  buildStatus === 0 &&
  e2eStatus === 0 &&
  unit &&
  e2e &&
  failed === 0;
process.exit(isGreen ? 0 : 1);

function failedTestNames(unitReport, e2eReport) {
  const names = [];
  for (const file of unitReport?.testResults ?? []) {
    const relative = path.relative(root, file.name);
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'failed') names.push(`${relative} › ${test.fullName}`);
    }
    // A file that fails before its tests run (an import error, a hook) reports no test as failed.
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed')) {
      names.push(`${relative} › ${file.message || 'the file failed to run'}`);
    }
  }
  const visit = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'unexpected') names.push(`${spec.file} › ${[...trail, spec.title].join(' › ')}`);
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...trail, child.title]);
  };
  for (const suite of e2eReport?.suites ?? []) visit(suite, []);
  return names;
}

/**
 * Passes a stage's standard error through as it comes, and keeps (at most 20 of) the lines that say
 * a process died: V8's fatal errors, a signal, Vitest's lost worker, an error no test caught.
 */
function watchForCrashes(stream, kept) {
  const crash =
    /FATAL ERROR|Fatal process out of memory|out of memory|Segmentation fault|SIGSEGV|SIGABRT|SIGKILL|Aborted|exited unexpectedly|never finished|ERR_IPC_CHANNEL_CLOSED/;
  // Vitest heads an error no test caught with "Unhandled Error(s)" and gives its message on a later line.
  const heading = /^Unhandled (Errors?|Rejections?)$|^Vitest caught|^This might cause/;
  let partial = '';
  let afterHeading = false;
  stream.on('data', (chunk) => {
    process.stderr.write(chunk);
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      // Colours and the box drawing around Vitest's headings are noise in a one-line summary.
      const plain = stripVTControlCharacters(line).replace(/⎯+/g, '').trim();
      if (!plain) continue;
      if (heading.test(plain)) {
        afterHeading = true;
        continue;
      }
      if ((afterHeading || crash.test(plain)) && kept.length < 20 && !kept.includes(plain)) kept.push(plain);
      afterHeading = false;
    }
  });
}

/** Seconds since the machine booted, the clock the kernel's log is stamped with (null off Linux). */
function secondsSinceBoot() {
  try {
    return Number.parseFloat(fs.readFileSync('/proc/uptime', 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The kernel's log lines after `since` that say a process was killed or crashed: a segfault (with
 * the library it was in), a trap, the OOM killer. At most 20; one line saying why when the log
 * cannot be read (dmesg missing or not permitted).
 */
function kernelLinesSince(since) {
  if (since === null) return [];
  const result = spawnSync('dmesg', [], { encoding: 'utf8' });
  if (result.status !== 0) return [`(its log could not be read: ${(result.stderr || String(result.error)).trim()})`];
  const crash = /segfault|general protection|trap|Out of memory|oom-kill|Killed process|killed by/i;
  return result.stdout
    .split('\n')
    .filter((line) => {
      const stamp = /^\[\s*(\d+\.\d+)\]/.exec(line);
      return stamp && Number.parseFloat(stamp[1]) >= since && crash.test(line);
    })
    .slice(0, 20);
}

/** 1h 02m 03s, 4m 05s, 12.3s. */
function duration(ms) {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const whole = Math.round(seconds);
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const pad = (n) => String(n).padStart(2, '0');
  return h > 0 ? `${h}h ${pad(m)}m ${pad(s)}s` : `${m}m ${pad(s)}s`;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
