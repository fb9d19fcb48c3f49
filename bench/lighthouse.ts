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
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import type { CDPSession, Page } from 'puppeteer-core';
import { hostCpuIndexLine } from './_lighthouse-host.ts';
import {
  argument,
  launchMeasuringBrowser,
  median,
  setSession,
  startAppUnderTest,
  type Target,
} from './_measuring-browser.ts';

const scriptRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const saveDir = argument('--save');
const runs = Number(argument('--runs') ?? 1);

const app = await startAppUnderTest();
let browser: Awaited<ReturnType<typeof launchMeasuringBrowser>> | undefined;
try {
  browser = await launchMeasuringBrowser();
  const { page, cdp } = browser;

  const loadAtStart = os.loadavg();
  const rows: { name: string; performance: number[]; accessibility: number[] }[] = [];
  const hostIndexes: number[] = [];
  for (const target of app.targets) {
    const row = { name: target.name, performance: [] as number[], accessibility: [] as number[] };
    for (let run = 0; run < runs; run += 1) {
      const result = await measure(page, cdp, target, app.token);
      if (saveDir) {
        fs.mkdirSync(saveDir, { recursive: true });
        const file = `${target.name.replace(/[^a-z]+/g, '-').replace(/^-|-$/g, '') || 'home'}-${run + 1}.json`;
        fs.writeFileSync(path.join(saveDir, file), JSON.stringify(result.lhr));
      }
      const categories = result.lhr.categories;
      row.performance.push(categories.performance!.score ?? 0);
      row.accessibility.push(categories.accessibility!.score ?? 0);
      const audits = result.lhr.audits;
      hostIndexes.push(result.lhr.environment.benchmarkIndex);
      console.log(
        `${target.name} run ${run + 1}: performance ${fmt(categories.performance!.score)}, accessibility ${fmt(categories.accessibility!.score)}` +
          ` (FCP ${audits['first-contentful-paint']?.displayValue}, LCP ${audits['largest-contentful-paint']?.displayValue},` +
          ` TBT ${audits['total-blocking-time']?.displayValue}, CLS ${audits['cumulative-layout-shift']?.displayValue};` +
          ` host CPU index ${result.lhr.environment.benchmarkIndex.toFixed(0)})`,
      );
    }
    rows.push(row);
  }
  const loadAtEnd = os.loadavg();

  console.log(`\nbuild and server of ${app.repoRoot}`);
  console.log(
    `\nLighthouse ${lighthouseVersion()} mobile, ${runs} run(s) each, median; load average ` +
      `${loadAtStart.map((value) => value.toFixed(1)).join(' ')} at start, ` +
      `${loadAtEnd.map((value) => value.toFixed(1)).join(' ')} at end (1, 5, 15 min), ${os.cpus().length} cores`,
  );
  console.log(hostCpuIndexLine(hostIndexes));
  console.log('| page | performance | accessibility | goal |');
  console.log('|---|---|---|---|');
  for (const row of rows) {
    const goal = row.name === 'grading screen' ? '>= 0.8, 1.0' : '>= 0.9, 1.0';
    console.log(`| ${row.name} | ${fmt(median(row.performance))} | ${fmt(median(row.accessibility))} | ${goal} |`);
  }
} finally {
  await browser?.close();
  await app.stop();
}

/**
 * One Lighthouse run of a page as a first visit. On a busy machine Chromium sometimes records no
 * trace (NO_NAVSTART); such a run is repeated, up to three times, and said.
 */
async function measure(page: Page, cdp: CDPSession, target: Target, sessionToken: string) {
  for (let attempt = 1; ; attempt += 1) {
    await setSession(page, app.base, target.signedIn ? sessionToken : null);
    await cdp.send('Network.clearBrowserCache');
    const result = await lighthouse(
      `${app.base}${target.path}`,
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

function fmt(score: number | null): string {
  return score === null ? '–' : score.toFixed(2);
}

function lighthouseVersion(): string {
  const manifest = path.join(scriptRoot, 'node_modules/lighthouse/package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}
