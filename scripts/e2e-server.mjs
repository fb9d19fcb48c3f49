import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Starts the real Gradewise server for the Playwright journeys, on a data directory created for
 * this run only (so each run starts from a database holding only the demo course) and removed when
 * the server exits.
 * Run as `node --import tsx scripts/e2e-server.mjs`: the server is TypeScript, loaded in this process.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webIndex = path.join(repoRoot, 'apps/web/dist/index.html');
if (!fs.existsSync(webIndex)) {
  console.error('The web app is not built: run "npm run build -w @gradewise/web" before the browser tests.');
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-e2e-'));
process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));

process.env.DATA_DIR = dataDir;
// The journeys run on the embedded default, whatever the shell says: CI exports DATABASE_URL for
// the server suite, and a shared PostgreSQL would carry rows from one run into the next.
delete process.env.DATABASE_URL;
for (const name of [
  'AI_PROVIDER',
  'AI_MODEL',
  'AI_BASE_URL',
  'AI_API_KEY',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'TOKEN_SECRET',
]) {
  delete process.env[name];
}
process.env.PORT = process.env.E2E_PORT || '3100';
process.env.HOST = '127.0.0.1';
// The journeys register and log in more often than a person would in a minute.
process.env.AUTH_RATE_LIMIT = '1000';
process.env.LOG_LEVEL = process.env.E2E_LOG_LEVEL || 'warn';

// The demo course (issue 6) is loaded first, through the same loader as `npm run demo`, so the
// journeys can grade realistic answers; the other journeys make their own users and courses beside it.
const { loadConfig } = await import(path.join(repoRoot, 'apps/server/src/config.ts'));
const { openRuntime } = await import(path.join(repoRoot, 'apps/server/src/boot.ts'));
const { loadDemo } = await import(path.join(repoRoot, 'apps/server/src/demo/load-demo.ts'));
const runtime = await openRuntime(loadConfig(), { jobs: 'send-only' });
try {
  await loadDemo(runtime.ctx);
} finally {
  // Release the database and its lock before the server opens them again.
  await runtime.shutdown();
}

await import(path.join(repoRoot, 'apps/server/src/main.ts'));
