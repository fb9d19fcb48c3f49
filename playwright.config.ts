import { execFileSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';

/**
 * A port nobody is listening on, so runs started side by side (several people, one machine) do not
 * meet on one server. Chosen once and kept in the environment, which the test workers inherit.
 */
function pickFreePort(): string {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})";
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim();
}
process.env.E2E_PORT ||= pickFreePort();
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

/**
 * Browser journeys against the real server (API + built web app) on a fresh temporary data
 * directory. Chromium comes from Debian: Playwright's own browser download is not possible here.
 * `npm run test:e2e` checks for Chromium and builds the web app first.
 */
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-results.json' }]],
  outputDir: 'test-results/e2e-artifacts',
  use: {
    baseURL,
    browserName: 'chromium',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The app honours "reduce motion" (no MUI transitions), so a click never lands on a panel that
    // is still opening: an accordion mid-expansion moved the Apply to group button under the pointer.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node --import tsx scripts/e2e-server.mjs',
    url: `${baseURL}/`,
    env: { E2E_PORT: String(port) },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
