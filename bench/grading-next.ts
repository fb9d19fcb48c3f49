/**
 * The next answer at once (issue 29 part 4, decision 0079): on a question of 300 answers, the time
 * from a click on Next in the review queue to the next answer's suggestion drawn, warm, with the
 * answers read ahead and without (today's way: the screen reads when it opens), measured in one
 * run on one machine, alternating; then Lighthouse mobile on that question's grading screen, both
 * ways.
 *
 *   npm run build -w @gradewise/web && npx tsx bench/grading-next.ts [--rounds 4] [--steps 5] [--runs 1] [--read-ms 2000] [--quick]
 *   npx tsx bench/grading-next.ts --lighthouse-only [--runs 3] [--save DIR] [--before DIST]
 *
 * --save writes each Lighthouse run's report (JSON) into DIR, to read what the score is made of.
 *
 * --before DIST (with --lighthouse-only): an A/B on one seeded class. DIST is another build of the
 * web app (a copy of an earlier checkout's apps/web/dist); both builds' hashed assets are served
 * from one temporary folder, and the served index.html switches between the two before each run,
 * alternating, so both are measured on the same 300 answers at the same load (decision 0099).
 *
 * `--lighthouse-only` skips the Next timings and today's way: only Lighthouse on the screen as it
 * ships (read ahead), which is what a change to the screen's first paint needs measured.
 *
 * The server is bench/_question-page-server.ts with BENCH_SERVE_WEB=1: PGlite in a temporary data
 * directory, a class of 300 seeded through the API (each answer suggested by the built-in grader,
 * a third graded), and the built web app. The browser is Debian's Chromium, as bench/lighthouse.ts
 * starts it. The switch is the app's `noPrefetch` local-storage key (lib/browser-storage.ts): set,
 * nothing is read ahead and the route starts no read. "Drawn" is the first animation frame in which
 * the next student's name is in the title bar and the review comments' heading is on the page.
 * Warm: the app's code is loaded and the server has answered every route once; each round opens
 * the queue afresh, then clicks Next `--steps` times, each after `--read-ms` (2000) with the answer
 * on screen, as a grader reads it first: the time in which the next answers are read ahead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import type { Page } from 'puppeteer-core';
import { hostCpuIndexLine } from './_lighthouse-host.ts';
import { argument, launchMeasuringBrowser, median } from './_measuring-browser.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const lighthouseOnly = process.argv.includes('--lighthouse-only');
const rounds = Number(argument('--rounds') ?? (quick ? 2 : 4));
const steps = Number(argument('--steps') ?? (quick ? 3 : 5));
const lighthouseRuns = Number(argument('--runs') ?? 1);
const readMs = Number(argument('--read-ms') ?? 2000);
const saveDir = argument('--save');
const beforeDist = argument('--before');
const PREFETCH_OFF_KEY = 'noPrefetch';

if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html')))
  throw new Error('The web app is not built: run "npm run build -w @gradewise/web" first.');

interface QueueItem {
  submissionId: string;
  student: { name: string };
  status: string;
}

if (beforeDist && !lighthouseOnly) throw new Error('--before is an A/B of Lighthouse runs: add --lighthouse-only.');
if (beforeDist && !fs.existsSync(path.join(beforeDist, 'index.html')))
  throw new Error(`--before ${beforeDist}: no index.html there (a built apps/web/dist is expected).`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-bench-next-'));
// With --before, the folder the server serves: both builds' files, and the index of the build measured.
const servedDir = beforeDist ? servedBuilds(beforeDist) : undefined;
console.log(`load average at start: ${loadAverage()} (${os.availableParallelism()} cores)`);
console.log('seeding 300 answers through the API (a minute or more on a busy machine)...');
const server = await startSeededServer();
let browser: Awaited<ReturnType<typeof launchMeasuringBrowser>> | undefined;
try {
  const { questionUrl, token } = server.ready;
  const base = new URL(questionUrl).origin;
  const apiQuestion = new URL(questionUrl).pathname;
  const screenBase = apiQuestion.replace(/^\/api/, '');
  const queue = await getJson<{ items: QueueItem[] }>(`${base}${apiQuestion}/review-queue`, token);
  // Answers with a suggestion and no grade: what a reviewer walks with Next.
  const toReview = queue.items.filter((item) => item.status === 'needs-review');
  const needed = lighthouseOnly ? 1 : rounds * 2 * (steps + 1) + 2;
  if (toReview.length < needed)
    throw new Error(`${toReview.length} answers to review; ${needed} are needed for these rounds.`);
  console.log(`queue: ${queue.items.length} answers, ${toReview.length} with a suggestion to review`);

  browser = await launchMeasuringBrowser();
  const { page } = browser;
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(`${base}/about`, { waitUntil: 'load' });
  await page.evaluate((value) => {
    window.localStorage.setItem('token', value);
    window.localStorage.setItem('seenDemo', 'true');
  }, token);

  // Each round starts at an answer of its own, further down the queue, so no round opens an answer
  // an earlier one read or read ahead. The first round is a warm-up and is not counted.
  const times: Record<'today' | 'ahead', number[]> = { today: [], ahead: [] };
  let cursor = 0;
  for (let round = 0; round <= (lighthouseOnly ? -1 : rounds); round += 1) {
    for (const mode of ['today', 'ahead'] as const) {
      const start = queue.items.indexOf(toReview[cursor]!);
      cursor += steps + 1;
      const measured = await walk(page, base, screenBase, queue.items, start, mode);
      if (round > 0) times[mode].push(...measured);
      else console.log(`warm-up (${mode}): ${measured.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    }
  }
  const today = median(times.today);
  const ahead = median(times.ahead);
  if (!lighthouseOnly)
    console.log(`\nNext to the next answer's suggestion drawn, warm, ${times.today.length} clicks each (median, p90):`);
  if (!lighthouseOnly)
    console.log(
      `  today's way (read on opening): ${today.toFixed(1)} ms, ${percentile(times.today, 0.9).toFixed(1)} ms`,
    );
  if (!lighthouseOnly)
    console.log(
      `  read ahead:                    ${ahead.toFixed(1)} ms, ${percentile(times.ahead, 0.9).toFixed(1)} ms`,
    );
  if (!lighthouseOnly)
    console.log(`  ratio read ahead / today: ${(ahead / today).toFixed(3)} (goal: read ahead <= 100 ms)`);

  // Lighthouse mobile on the grading screen of an answer to review, in the queue, as a first visit.
  const target = toReview[cursor]!;
  const screenUrl = `${base}${screenBase}/grade/${target.submissionId}?queue=1`;
  const scores: Record<LighthouseMode, number[]> = { today: [], ahead: [], before: [] };
  const hostIndexes: number[] = [];
  const lighthouseModes: LighthouseMode[] = !lighthouseOnly
    ? ['today', 'ahead']
    : beforeDist
      ? ['before', 'ahead']
      : ['ahead'];
  for (let run = 0; run < lighthouseRuns; run += 1) {
    for (const mode of lighthouseModes) {
      if (servedDir) serveIndexOf(servedDir, mode === 'before' ? 'before' : 'after');
      const result = await firstVisit(page, base, mode === 'today' ? 'today' : 'ahead', screenUrl);
      const score = result.lhr.categories.performance!.score!;
      scores[mode].push(score);
      if (saveDir) {
        fs.mkdirSync(saveDir, { recursive: true });
        fs.writeFileSync(path.join(saveDir, `grading-${mode}-${run + 1}.json`), JSON.stringify(result.lhr));
      }
      const audits = result.lhr.audits;
      const hostIndex = result.lhr.environment.benchmarkIndex;
      hostIndexes.push(hostIndex);
      console.log(
        `Lighthouse (${mode}) run ${run + 1}: ${score.toFixed(2)} (FCP ${audits['first-contentful-paint']?.displayValue},` +
          ` LCP ${audits['largest-contentful-paint']?.displayValue}, TBT ${audits['total-blocking-time']?.displayValue},` +
          ` CLS ${audits['cumulative-layout-shift']?.displayValue}; host CPU index ${hostIndex.toFixed(0)})`,
      );
      if (lighthouseOnly)
        console.log(`  largest paint: ${largestPaintElement(audits['largest-contentful-paint-element'])}`);
    }
  }
  console.log(
    `\nLighthouse mobile performance, grading screen of a 300-answer question (median of ${lighthouseRuns}):` +
      (beforeDist
        ? ` before (${beforeDist}) ${median(scores.before).toFixed(2)}, this build ${median(scores.ahead).toFixed(2)} (goal >= 0.9)`
        : ` today's way ${lighthouseOnly ? 'not measured' : median(scores.today).toFixed(2)}, read ahead ${median(scores.ahead).toFixed(2)} (goal >= 0.9)`),
  );
  console.log(`load average at end: ${loadAverage()}; ${hostCpuIndexLine(hostIndexes)}`);
} finally {
  await browser?.close();
  await stopServer(server.child);
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (servedDir) fs.rmSync(servedDir, { recursive: true, force: true });
}

/** 'before': the --before build, read ahead as it ships; 'ahead': this build as it ships; 'today': this build, nothing read ahead. */
type LighthouseMode = 'today' | 'ahead' | 'before';

/**
 * A temporary folder holding this build and the --before build side by side (hashed asset names do
 * not collide; a file both builds have is the same file), each build's index.html kept apart.
 */
function servedBuilds(before: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-bench-builds-'));
  fs.cpSync(before, dir, { recursive: true });
  fs.cpSync(path.join(root, 'apps/web/dist'), dir, { recursive: true });
  fs.copyFileSync(path.join(before, 'index.html'), path.join(dir, 'index-before.html'));
  fs.copyFileSync(path.join(root, 'apps/web/dist/index.html'), path.join(dir, 'index-after.html'));
  return dir;
}

/** The server reads index.html on every page request (static-site.ts): the next visit gets this build. */
function serveIndexOf(dir: string, build: 'before' | 'after'): void {
  fs.copyFileSync(path.join(dir, `index-${build}.html`), path.join(dir, 'index.html'));
}

/**
 * One Lighthouse run of the screen as a first visit (the browser's cache emptied). On a busy
 * machine Chromium sometimes records no trace (NO_NAVSTART); such a run is repeated, up to three
 * times, and said (as bench/lighthouse.ts does).
 */
async function firstVisit(page: Page, base: string, mode: 'today' | 'ahead', screenUrl: string) {
  for (let attempt = 1; ; attempt += 1) {
    await setMode(page, base, mode);
    await page.goto('about:blank');
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
    const result = await lighthouse(
      screenUrl,
      { logLevel: 'error', output: 'json', onlyCategories: ['performance'], disableStorageReset: true },
      undefined,
      page,
    );
    if (result && result.lhr.categories.performance?.score != null) return result;
    const reason = result?.lhr.runtimeError?.message ?? 'no result';
    if (attempt === 3) throw new Error(`Lighthouse gave no score: ${reason}`);
    console.log(`Lighthouse (${mode}): no score (${reason}), measuring again`);
  }
}

/** Opens the queue at items[start], then clicks Next `steps` times; returns each click's time. */
async function walk(
  page: Page,
  base: string,
  screenBase: string,
  items: QueueItem[],
  start: number,
  mode: 'today' | 'ahead',
): Promise<number[]> {
  await setMode(page, base, mode);
  await page.goto(`${base}${screenBase}/grade/${items[start]!.submissionId}?queue=1`, { waitUntil: 'load' });
  await waitForAnswer(page, items[start]!.student.name);
  const measured: number[] = [];
  for (let step = 1; step <= steps; step += 1) {
    // A grader reads the answer before Next: the time in which the next ones are read ahead.
    await new Promise((resolve) => setTimeout(resolve, readMs));
    const next = items[start + step]!;
    measured.push(await clickNextUntilDrawn(page, next.student.name));
  }
  return measured;
}

async function setMode(page: Page, base: string, mode: 'today' | 'ahead'): Promise<void> {
  if (!page.url().startsWith(base)) await page.goto(`${base}/about`, { waitUntil: 'load' });
  await page.evaluate(
    (key, off) => (off ? window.localStorage.setItem(key, 'true') : window.localStorage.removeItem(key)),
    PREFETCH_OFF_KEY,
    mode === 'today',
  );
}

/**
 * In the page: the click, then every animation frame until the next answer's suggestion is there.
 * Sent as source text: tsx's compiled functions call a helper (__name) the page does not have.
 */
async function clickNextUntilDrawn(page: Page, studentName: string): Promise<number> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const name = ${JSON.stringify(studentName)};
    const drawn = () =>
      (document.getElementById('grade-dialog-title')?.parentElement?.textContent ?? '').includes(name) &&
      document.getElementById('review-comments-heading') !== null;
    const next = [...document.querySelectorAll('[role="navigation"][aria-label="Review queue"] button')].find(
      (button) => button.textContent.trim() === 'Next',
    );
    if (!next) return reject(new Error('No Next button'));
    const started = performance.now();
    next.click();
    const check = () => {
      if (drawn()) resolve(performance.now() - started);
      else if (performance.now() - started > 120000) reject(new Error(name + "'s answer was not drawn"));
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })`) as Promise<number>;
}

/** The answer of `name` is on screen with its suggestion (the same test as above, for waitForFunction). */
async function waitForAnswer(page: Page, studentName: string): Promise<void> {
  await page.waitForFunction(
    `(document.getElementById('grade-dialog-title')?.parentElement?.textContent ?? '').includes(${JSON.stringify(studentName)}) &&
      document.getElementById('review-comments-heading') !== null`,
    { timeout: 120_000, polling: 'raf' },
  );
}

/** The largest paint's element as Lighthouse names it (its HTML snippet), to see what to draw sooner. */
function largestPaintElement(audit: { details?: unknown } | undefined): string {
  const found = /"snippet":"((?:[^"\\]|\\.)*)"/.exec(JSON.stringify(audit?.details ?? {}));
  return found ? JSON.parse(`"${found[1]}"`).slice(0, 160) : 'not reported';
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

async function getJson<T>(url: string, token: string): Promise<T> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
}

async function startSeededServer(): Promise<{ child: ChildProcess; ready: { questionUrl: string; token: string } }> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'bench/_question-page-server.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      AUTH_RATE_LIMIT: '100000',
      BENCH_STUDENTS: '300',
      BENCH_SERVE_WEB: '1',
      ...(servedDir ? { BENCH_WEB_DIST: servedDir } : {}),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /READY (.*)/.exec(buffered);
      if (match) resolve(JSON.parse(match[1]!) as { url: string; token: string });
    });
    child.once('exit', (code) => reject(new Error(`The seeded server exited with ${code} before it was ready.`)));
  });
  return { child, ready: { questionUrl: ready.url.split('?')[0]!, token: ready.token } };
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
