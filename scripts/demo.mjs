#!/usr/bin/env node
// `npm run demo`: builds the web app quietly (one line on success, the whole output only when the
// build fails), then loads the demo course and starts the app (apps/server/src/cli/demo.ts), whose
// console shows the URL and the sign-ins and, after that, only warnings and errors.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const startedAt = Date.now();
// Built only when its sources changed since the last build (scripts/build.mjs).
const build = spawnSync(process.execPath, ['scripts/build.mjs', 'web'], {
  cwd: repoRoot,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
if (build.status !== 0) {
  process.stdout.write(build.stdout ?? '');
  process.stderr.write(build.stderr ?? '');
  console.error(`Building the web app failed${build.error ? `: ${build.error.message}` : ''}.`);
  process.exit(build.status ?? 1);
}
console.log(`Web app ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s.`);

// The demo console is for the sign-ins: the server logs warnings and errors only, unless the
// person running it asked for more.
const env = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/demo.ts', ...process.argv.slice(2)], {
  cwd: repoRoot,
  env,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
