/**
 * What the browser benchmarks (lighthouse.ts, main-thread.ts) share: the app under test (the
 * browser journeys' server, scripts/e2e-server.mjs, on a temporary data directory holding the demo
 * course, one of whose submissions is graded here), the pages measured, and Debian's Chromium
 * started the same way for both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import puppeteer, { type Page } from 'puppeteer-core';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const DEMO_INSTRUCTOR = { email: 'instructor@demo.gradewise.local', password: 'gradewise-demo' };

export interface Target {
  name: string;
  path: string;
  signedIn: boolean;
}

export interface AppUnderTest {
  /** The checkout whose build and server are measured: --root DIR, or this one. */
  repoRoot: string;
  base: string;
  /** The demo instructor's session token. */
  token: string;
  /** '/', '/login', '/courses' and the grading screen, or the one named by `only`. */
  targets: Target[];
  stop(): Promise<void>;
}

/**
 * Starts the app of the checkout measured (--root DIR, or this one; its web app built) and signs
 * the demo instructor in. --only NAME keeps one page.
 */
export async function startAppUnderTest(): Promise<AppUnderTest> {
  const thisCheckout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const repoRoot = path.resolve(argument('--root') ?? thisCheckout);
  if (!fs.existsSync(path.join(repoRoot, 'apps/web/dist/index.html')))
    throw new Error('The web app is not built: run "npm run build -w @gradewise/web" first.');
  const only = argument('--only');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer(repoRoot, port);
  try {
    // Ten minutes: at load average 35 on two cores the server took over three to answer.
    await waitForAnswer(`${base}/`, 600_000);
    const token = await login(base);
    const gradingScreen = await gradingScreenPath(base, token);
    console.log(`grading screen: ${gradingScreen}`);
    const targets: Target[] = [
      { name: '/', path: '/', signedIn: false },
      { name: '/login', path: '/login', signedIn: false },
      { name: '/courses', path: '/courses', signedIn: true },
      { name: 'grading screen', path: gradingScreen, signedIn: true },
    ].filter((target) => !only || target.name === only);
    if (targets.length === 0)
      throw new Error(`--only takes '/', '/login', '/courses' or 'grading screen', not '${only}'.`);
    return { repoRoot, base, token, targets, stop: () => stopServer(server) };
  } catch (error) {
    await stopServer(server);
    throw error;
  }
}

/**
 * Chromium 156's headless mode still builds the browser's own omnibox popup, a WebUI page
 * (chrome://omnibox-popup.top-chrome) in a renderer of its own, and builds it again around every
 * navigation: about 400 ms of CPU per page load measured from a trace, on a two-core machine that
 * also runs the server, beside the page being measured. It is the measuring browser's work, not the
 * page's; Lighthouse's simulation scales the page's observed task times, so it was counted against
 * the page. Turned off like the other background work chrome-launcher already turns off
 * (BENCH_KEEP_OMNIBOX_POPUP=1 keeps it, to compare).
 */
export const MEASURING_BROWSER_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-dev-shm-usage',
  ...(process.env.BENCH_KEEP_OMNIBOX_POPUP ? [] : ['--disable-features=WebUIOmniboxPopup']),
];

/** Debian's Chromium, headless, with the flags above, and one page to measure in. */
export async function launchMeasuringBrowser() {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: [...MEASURING_BROWSER_FLAGS] });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const page = await browser.newPage();
  const cdp = await page.createCDPSession();
  return {
    page,
    cdp,
    async close() {
      await browser.disconnect();
      await chrome.kill();
    },
  };
}

export function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The token of a signed-in person goes where the app keeps it; signed out, nothing is stored. */
export async function setSession(page: Page, base: string, token: string | null): Promise<void> {
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

async function login(base: string): Promise<string> {
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
async function gradingScreenPath(base: string, token: string): Promise<string> {
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
      // The demo's answers ship with no saved grade: a first save (decision 0069).
      expectedGradeId: null,
    });
  return `${questionPath}/grade/${submission._id}`;
}

function startServer(repoRoot: string, serverPort: number): ChildProcess {
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
