/**
 * Lighthouse mobile performance and accessibility of `/`, `/login`, `/courses` and the grading
 * screen (issue 11), with Debian's Chromium, against the built app on a fresh data directory.
 *
 *   npm run build -w @gradewise/web && npx tsx bench/lighthouse.ts [--runs 3] [--root DIR] [--save DIR] [--only NAME]
 *
 * --root measures another checkout's build and server (a "before" worktree of main, built there),
 * with this script and this checkout's Lighthouse, so the two are measured the same way.
 * --save writes each run's Lighthouse report (JSON) into DIR, to read what a score is made of
 * (render-blocking resources, the request chain, layout-shift elements, main-thread work).
 * --only measures one page ('/', '/login', '/courses' or 'grading screen'), for a quick pair.
 *
 * The server is the browser journeys' (scripts/e2e-server.mjs): a temporary data directory holding
 * the demo course, whose instructor has a course, an assignment and submissions; one is graded here
 * before it is measured. `/` and `/login` are measured signed out, `/courses` and the grading screen
 * signed in (the token is put in localStorage, as the app does at login). Before every run the
 * browser's cache is emptied, so each is a first visit. Lighthouse's defaults otherwise: a Moto G
 * Power-sized screen, simulated slow 4G and a 4x slower CPU. Scores depend on the machine's load: the
 * load average is printed with them. Nothing is downloaded: lighthouse 12.8.2 and chrome-launcher
 * are devDependencies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer, { type CDPSession, type Page } from 'puppeteer-core';

const scriptRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(argument('--root') ?? scriptRoot);
const saveDir = argument('--save');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const DEMO_INSTRUCTOR = { email: 'instructor@demo.gradewise.local', password: 'gradewise-demo' };
const runs = Number(argument('--runs') ?? 1);
const only = argument('--only');

interface Target {
  name: string;
  path: string;
  signedIn: boolean;
}

if (!fs.existsSync(path.join(repoRoot, 'apps/web/dist/index.html')))
  throw new Error('The web app is not built: run "npm run build -w @gradewise/web" first.');

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = startServer(port);
let chrome: chromeLauncher.LaunchedChrome | undefined;
try {
  // Ten minutes: at load average 35 on two cores the server took over three to answer.
  await waitForAnswer(`${base}/`, 600_000);
  const token = await login();
  const gradingScreen = await gradingScreenPath(token);
  console.log(`grading screen: ${gradingScreen}`);
  const targets: Target[] = [
    { name: '/', path: '/', signedIn: false },
    { name: '/login', path: '/login', signedIn: false },
    { name: '/courses', path: '/courses', signedIn: true },
    { name: 'grading screen', path: gradingScreen, signedIn: true },
  ].filter((target) => !only || target.name === only);
  if (targets.length === 0)
    throw new Error(`--only takes '/', '/login', '/courses' or 'grading screen', not '${only}'.`);

  chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'],
  });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const page = await browser.newPage();
  const cdp = await page.createCDPSession();

  const loadAtStart = os.loadavg();
  const rows: { name: string; performance: number[]; accessibility: number[] }[] = [];
  for (const target of targets) {
    const row = { name: target.name, performance: [] as number[], accessibility: [] as number[] };
    for (let run = 0; run < runs; run += 1) {
      const result = await measure(page, cdp, target, token);
      if (saveDir) {
        fs.mkdirSync(saveDir, { recursive: true });
        const file = `${target.name.replace(/[^a-z]+/g, '-').replace(/^-|-$/g, '') || 'home'}-${run + 1}.json`;
        fs.writeFileSync(path.join(saveDir, file), JSON.stringify(result.lhr));
      }
      const categories = result.lhr.categories;
      row.performance.push(categories.performance!.score ?? 0);
      row.accessibility.push(categories.accessibility!.score ?? 0);
      const audits = result.lhr.audits;
      console.log(
        `${target.name} run ${run + 1}: performance ${fmt(categories.performance!.score)}, accessibility ${fmt(categories.accessibility!.score)}` +
          ` (FCP ${audits['first-contentful-paint']?.displayValue}, LCP ${audits['largest-contentful-paint']?.displayValue},` +
          ` TBT ${audits['total-blocking-time']?.displayValue}, CLS ${audits['cumulative-layout-shift']?.displayValue})`,
      );
    }
    rows.push(row);
  }
  await browser.disconnect();
  const loadAtEnd = os.loadavg();

  console.log(`\nbuild and server of ${repoRoot}`);
  console.log(
    `\nLighthouse ${lighthouseVersion()} mobile, ${runs} run(s) each, median; load average ` +
      `${loadAtStart.map((value) => value.toFixed(1)).join(' ')} at start, ` +
      `${loadAtEnd.map((value) => value.toFixed(1)).join(' ')} at end (1, 5, 15 min), ${os.cpus().length} cores`,
  );
  console.log('| page | performance | accessibility | goal |');
  console.log('|---|---|---|---|');
  for (const row of rows) {
    const goal = row.name === 'grading screen' ? '>= 0.8, 1.0' : '>= 0.9, 1.0';
    console.log(`| ${row.name} | ${fmt(median(row.performance))} | ${fmt(median(row.accessibility))} | ${goal} |`);
  }
} finally {
  await chrome?.kill();
  await stopServer(server);
}

/**
 * One Lighthouse run of a page as a first visit. On a busy machine Chromium sometimes records no
 * trace (NO_NAVSTART); such a run is repeated, up to three times, and said.
 */
async function measure(page: Page, cdp: CDPSession, target: Target, sessionToken: string) {
  for (let attempt = 1; ; attempt += 1) {
    await setSession(page, target.signedIn ? sessionToken : null);
    await cdp.send('Network.clearBrowserCache');
    const result = await lighthouse(
      `${base}${target.path}`,
      {
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance', 'accessibility'],
        // The session lives in localStorage; the cache is emptied above instead.
        disableStorageReset: true,
      },
      undefined,
      page,
    );
    const categories = result?.lhr.categories;
    if (result && categories?.performance?.score != null && categories.accessibility?.score != null) return result;
    const reason = result?.lhr.runtimeError?.message ?? 'no result';
    if (attempt === 3) throw new Error(`Lighthouse gave no scores for ${target.path}: ${reason}`);
    console.log(`${target.name}: no scores (${reason}), measuring again`);
  }
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function fmt(score: number | null): string {
  return score === null ? '–' : score.toFixed(2);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function lighthouseVersion(): string {
  const manifest = path.join(scriptRoot, 'node_modules/lighthouse/package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** The token of a signed-in person goes where the app keeps it; signed out, nothing is stored. */
async function setSession(page: Page, token: string | null): Promise<void> {
  await page.goto(`${base}/about`, { waitUntil: 'load' });
  await page.evaluate((value) => {
    window.localStorage.clear();
    if (value) {
      window.localStorage.setItem('token', value);
      // The demo has been seen: /courses shows the list instead of sending the instructor to /demo.
      window.localStorage.setItem('seenDemo', 'true');
    }
  }, token);
  await page.goto('about:blank');
}

async function login(): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_INSTRUCTOR),
  });
  if (response.status !== 200) throw new Error(`login: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/**
 * The grading screen of a graded submission of the demo course. The demo ships its answers
 * ungraded, so the first one is graded first, full marks and no comments, as the instructor would.
 */
async function gradingScreenPath(token: string): Promise<string> {
  const call = async <T>(method: 'GET' | 'POST', apiPath: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}/api${apiPath}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (response.status !== 200) throw new Error(`${method} ${apiPath}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const [assignment] = await call<{ _id: string }[]>('GET', '/assignments');
  if (!assignment) throw new Error('The demo instructor has no assignment.');
  const [question] = await call<{ _id: string; points: number }[]>('GET', `/assignments/${assignment._id}/questions`);
  if (!question) throw new Error('The demo assignment has no question.');
  const questionPath = `/assignments/${assignment._id}/questions/${question._id}`;
  const { submissions } = await call<{ submissions: { _id: string; isAlreadyGraded: boolean }[] }>(
    'GET',
    `${questionPath}?includeSubmissions=1`,
  );
  const submission = submissions.find((candidate) => candidate.isAlreadyGraded) ?? submissions[0];
  if (!submission) throw new Error('The demo question has no submission.');
  if (!submission.isAlreadyGraded)
    await call('POST', `${questionPath}/save-grade/${submission._id}`, {
      grade: question.points,
      feedback: '',
      comments: [],
    });
  return `${questionPath}/grade/${submission._id}`;
}

function startServer(serverPort: number): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/e2e-server.mjs'], {
    cwd: repoRoot,
    env: { ...process.env, E2E_PORT: String(serverPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', (code) => {
    if (code) console.error(`The server exited with ${code}.`);
  });
  return child;
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function waitForAnswer(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`No answer from ${url} within ${timeoutMs / 1000} s.`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: chosen } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(chosen));
    });
  });
}
