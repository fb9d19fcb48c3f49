#!/usr/bin/env node
// `npm run bench`: every benchmark script in bench/ in sequence, each in its own tsx process, with
// its output shown as it runs; a summary at the end; exit status 1 if any of them failed.
//
//   npm run bench                         # all of them, full size
//   npm run bench -- --quick              # all of them, shorter runs
//   npm run bench -- pipeline --n 100     # only bench/pipeline.*, with its own flags
//
// Words without a leading dash select benchmarks by file name (without the extension); everything
// else is passed to every selected script unchanged, and each script reads the flags it knows.
// Benchmarks are the top-level .ts/.mjs/.js files of bench/ (names starting with "_" are helpers).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = path.join(root, 'bench');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
/** Known benchmarks run in this order (cheap to expensive); any other script runs after them. */
const ORDER = ['extraction', 'grader-agreement', 'pipeline'];
/** A benchmark that runs longer than this is stopped and counted as failed, so the run always ends. */
const TIMEOUT_MS = 20 * 60 * 1000;

const args = process.argv.slice(2);
const names = args.filter((arg) => !arg.startsWith('-') && !isFlagValue(arg));
const flags = args.filter((arg) => !names.includes(arg));

/** `--n 100`: "100" belongs to the flag before it, it is not a benchmark name. */
function isFlagValue(arg) {
  const index = args.indexOf(arg);
  return index > 0 && args[index - 1].startsWith('--') && !args[index - 1].includes('=') && /^[\d.]+$/.test(arg);
}

const scripts = fs
  .readdirSync(benchDir)
  .filter((file) => /\.(ts|mjs|js)$/.test(file) && !file.endsWith('.d.ts') && !file.startsWith('_'))
  .map((file) => ({ file, name: file.replace(/\.(ts|mjs|js)$/, '') }))
  .filter(({ name }) => names.length === 0 || names.includes(name))
  .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));

function rank(name) {
  const index = ORDER.indexOf(name);
  return index < 0 ? ORDER.length : index;
}

if (!fs.existsSync(tsx)) {
  console.error('tsx is not installed (node_modules/.bin/tsx); run npm install first.');
  process.exit(1);
}
const unknown = names.filter((name) => !scripts.some((script) => script.name === name));
if (unknown.length > 0 || scripts.length === 0) {
  const available = fs.readdirSync(benchDir).filter((file) => /\.(ts|mjs|js)$/.test(file) && !file.startsWith('_'));
  console.error(
    `No benchmark named ${unknown.join(', ') || '(any)'} in bench/. Available: ${available.join(', ') || 'none'}.`,
  );
  process.exit(1);
}

let current;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // Stop the one benchmark we started (it cleans up its temporary files), then leave.
    current?.kill(signal);
    process.exit(130);
  });
}

const results = [];
const startedAll = Date.now();
for (const { file, name } of scripts) {
  console.log(`\n=== ${name}  (tsx bench/${file}${flags.length ? ` ${flags.join(' ')}` : ''})\n`);
  const started = Date.now();
  const status = await run(path.join('bench', file), flags);
  results.push({ name, status, seconds: (Date.now() - started) / 1000 });
}

console.log('\n=== benchmarks');
for (const { name, status, seconds } of results) {
  const verdict =
    status === 0 ? 'ok' : status === 'timeout' ? `stopped after ${TIMEOUT_MS / 60000} min` : `FAILED (exit ${status})`;
  console.log(`${name.padEnd(20)}${verdict.padEnd(28)}${seconds.toFixed(1).padStart(8)} s`);
}
console.log(`total${' '.repeat(43)}${((Date.now() - startedAll) / 1000).toFixed(1).padStart(8)} s`);
process.exit(results.every((result) => result.status === 0) ? 0 : 1);

function run(script, scriptArgs) {
  return new Promise((resolve) => {
    const child = spawn(tsx, [script, ...scriptArgs], { cwd: root, stdio: 'inherit' });
    current = child;
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      resolve('timeout');
    }, TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      console.error(`Could not start bench/${script}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      current = undefined;
      resolve(code ?? (signal ? `signal ${signal}` : 1));
    });
  });
}
