/**
 * Main-thread CPU of a first visit to `/`, `/login`, `/courses` and the grading screen (issue 11),
 * read from a Chromium trace as each task's own thread time, so the figure holds on a busy machine
 * where Lighthouse's scores do not (they scale wall-clock task times, which another process's work
 * stretches).
 *
 *   npm run build -w @gradewise/web && npx tsx bench/main-thread.ts [--runs 3] [--root DIR] [--only NAME]
 *
 * Each run empties the browser's cache, loads the page without throttling on Lighthouse's mobile
 * screen (412 x 823 CSS px, device pixel ratio 1.75, touch: a phone's layout), waits until the network
 * has been idle for half a second and two seconds more, then sums over the page's renderer main
 * thread (the process the page was committed to; the browser's own renderers are not counted):
 * - **CPU**: every task's thread time;
 * - **blocking at 4x**: what Lighthouse's total blocking time would make of those tasks on its 4x
 *   slower CPU, Σ max(0, 4·t − 50 ms), over every task, before or after the first paint;
 * - **longest tasks** (over 12.5 ms, which 4x makes long).
 * The reference, measured in the same browser in the same run: the same document with its scripts
 * refused (index.html and its stylesheet alone: the page's first paint), so the ratio says how much
 * the app's JavaScript adds to what the browser spends on the document anyway.
 */
import os from 'node:os';
import type { CDPSession, HTTPRequest, Page } from 'puppeteer-core';
import {
  argument,
  launchMeasuringBrowser,
  median,
  setSession,
  startAppUnderTest,
  type Target,
} from './_measuring-browser.ts';

const runs = Number(argument('--runs') ?? 3);

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { url?: string; processId?: number } };
}

interface Visit {
  cpuMs: number;
  blockingMs: number;
  longTasksMs: number[];
}

const app = await startAppUnderTest();
let browser: Awaited<ReturnType<typeof launchMeasuringBrowser>> | undefined;
try {
  browser = await launchMeasuringBrowser();
  const { page, cdp } = browser;
  // Lighthouse's mobile screen: the grading screen, for one, lays out as tabs there.
  await page.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  const loadAtStart = os.loadavg();
  const rows: { name: string; cpu: number[]; blocking: number[] }[] = [];
  const reference: number[] = [];
  for (const target of app.targets) {
    const row = { name: target.name, cpu: [] as number[], blocking: [] as number[] };
    for (let run = 0; run < runs; run += 1) {
      // Interleaved: the reference is measured before every run of every page.
      reference.push(
        (await visit(page, cdp, { name: 'document alone', path: '/login', signedIn: false }, false)).cpuMs,
      );
      const result = await visit(page, cdp, target, true);
      row.cpu.push(result.cpuMs);
      row.blocking.push(result.blockingMs);
      console.log(
        `${target.name} run ${run + 1}: main-thread CPU ${result.cpuMs.toFixed(0)} ms, blocking at 4x ` +
          `${result.blockingMs.toFixed(0)} ms, tasks over 12.5 ms: ${result.longTasksMs.map((ms) => ms.toFixed(0)).join(', ') || 'none'}`,
      );
    }
    rows.push(row);
  }
  const loadAtEnd = os.loadavg();
  const referenceMs = median(reference);
  console.log(`\nbuild and server of ${app.repoRoot}`);
  console.log(
    `\nMain-thread CPU of a first visit, ${runs} run(s) each, median; load average ` +
      `${loadAtStart.map((value) => value.toFixed(1)).join(' ')} at start, ` +
      `${loadAtEnd.map((value) => value.toFixed(1)).join(' ')} at end (1, 5, 15 min), ${os.cpus().length} cores`,
  );
  console.log(
    `reference, the document with its scripts refused: ${referenceMs.toFixed(0)} ms (median of ${reference.length})`,
  );
  console.log('| page | main-thread CPU | x the document alone | blocking at 4x |');
  console.log('|---|---|---|---|');
  for (const row of rows) {
    const cpu = median(row.cpu);
    console.log(
      `| ${row.name} | ${cpu.toFixed(0)} ms | ${(cpu / referenceMs).toFixed(1)} x | ${median(row.blocking).toFixed(0)} ms |`,
    );
  }
} finally {
  await browser?.close();
  await app.stop();
}

/** One first visit, traced; withScripts false refuses every script (the reference). */
async function visit(page: Page, cdp: CDPSession, target: Target, withScripts: boolean): Promise<Visit> {
  await setSession(page, app.base, target.signedIn ? app.token : null);
  await cdp.send('Network.clearBrowserCache');
  const refuseScripts = (request: HTTPRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    if (request.resourceType() === 'script') void request.abort();
    else void request.continue();
  };
  if (!withScripts) {
    await page.setRequestInterception(true);
    page.on('request', refuseScripts);
  }
  try {
    await page.tracing.start({
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'],
    });
    await page.goto(`${app.base}${target.path}`, { waitUntil: 'networkidle0' });
    // Work the page does once its requests are answered (the last renders, idle-time loads).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const trace = await page.tracing.stop();
    const { traceEvents } = JSON.parse(Buffer.from(trace!).toString('utf8')) as { traceEvents: TraceEvent[] };
    return mainThreadWork(traceEvents);
  } finally {
    if (!withScripts) {
      page.off('request', refuseScripts);
      await page.setRequestInterception(false);
    }
  }
}

/** The page's renderer main thread: the process the browser committed the page's frame to. */
function mainThreadWork(events: TraceEvent[]): Visit {
  const commits = events.filter(
    (event) => event.name === 'FrameCommittedInBrowser' && event.args?.data?.url?.startsWith(app.base),
  );
  const pid = commits.at(-1)?.args?.data?.processId;
  const thread = events.find(
    (event) => event.name === 'thread_name' && event.pid === pid && event.args?.name === 'CrRendererMain',
  );
  if (pid === undefined || !thread) throw new Error('The trace has no renderer for the page.');
  const tasksMs = events
    .filter((event) => event.pid === pid && event.tid === thread.tid && event.ph === 'X' && event.name === 'RunTask')
    .map((event) => (event.tdur ?? 0) / 1000);
  return {
    cpuMs: tasksMs.reduce((sum, ms) => sum + ms, 0),
    blockingMs: tasksMs.reduce((sum, ms) => sum + Math.max(0, 4 * ms - 50), 0),
    longTasksMs: tasksMs.filter((ms) => ms > 12.5).sort((a, b) => b - a),
  };
}
