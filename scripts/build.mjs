#!/usr/bin/env node
// Builds what changed since the last build, and nothing else:
//   - the server (apps/server/src and packages/shared/src) compiled to JavaScript with tsc, into
//     apps/server/dist and packages/shared/dist, which `npm start` runs with plain `node`;
//   - the web app (apps/web) built with Vite into apps/web/dist.
// Each part's sources are hashed (paths, sizes and contents: cheap, ~2 MB); the hash of the last
// successful build is kept in node_modules/.cache/gradewise/, so a build is done once per change.
//
//   node scripts/build.mjs            # both parts, each only if its sources changed
//   node scripts/build.mjs web        # the web app only (npm run demo)
//   node scripts/build.mjs --force    # build again whatever the stamps say
//   node scripts/build.mjs --verbose  # the tools' whole output on a terminal too
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampDir = path.join(root, 'node_modules', '.cache', 'gradewise');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** Each part: what its build reads, what it must produce, and how to build it. */
const PARTS = {
  server: {
    sources: [
      'apps/server/src',
      'apps/server/tsconfig.build.json',
      'apps/server/package.json',
      'packages/shared/src',
      'packages/shared/tsconfig.build.json',
      'packages/shared/package.json',
      'tsconfig.base.json',
    ],
    output: 'apps/server/dist/main.js',
    build: buildServer,
  },
  web: {
    // The web app bundles the shared contracts too.
    sources: ['apps/web', 'packages/shared/src', 'tsconfig.base.json'],
    skip: ['apps/web/dist', 'apps/web/node_modules'],
    output: 'apps/web/dist/index.html',
    build: () => run('npm', ['run', 'build', '--workspace', '@gradewise/web']),
  },
};

const args = process.argv.slice(2);
// On a terminal a person reads one line per part (issue 29 part 7): the tools' output is kept and
// shown whole only if a step fails. Piped or with LOG_FORMAT=json (a log collector), all of it.
const quiet = Boolean(process.stdout.isTTY) && process.env.LOG_FORMAT !== 'json' && !args.includes('--verbose');
const force = args.includes('--force');
const asked = args.filter((arg) => !arg.startsWith('-'));
for (const name of asked) {
  if (!(name in PARTS)) fail(`Unknown part "${name}": use ${Object.keys(PARTS).join(' or ')}.`);
}

for (const name of asked.length > 0 ? asked : Object.keys(PARTS)) {
  const part = PARTS[name];
  const hash = hashSources(part.sources, part.skip ?? []);
  const stampFile = path.join(stampDir, `${name}.hash`);
  const isCurrent = !force && readOrEmpty(stampFile) === hash && fs.existsSync(path.join(root, part.output));
  if (isCurrent) continue;
  const started = Date.now();
  if (quiet) process.stdout.write(`Building the ${name} (its sources changed since the last build)… `);
  else console.log(`Building the ${name} (its sources changed since the last build)…`);
  part.build();
  if (quiet) process.stdout.write(`done in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  fs.mkdirSync(stampDir, { recursive: true });
  fs.writeFileSync(stampFile, hash);
}

function buildServer() {
  for (const dir of ['packages/shared/dist', 'apps/server/dist']) {
    fs.rmSync(path.join(root, dir), { recursive: true, force: true });
  }
  run(process.execPath, [tsc, '-p', 'packages/shared/tsconfig.build.json']);
  run(process.execPath, [tsc, '-p', 'apps/server/tsconfig.build.json']);
  // Files the server reads beside its modules (migrations, the built-in grader's data sets).
  copyNonTypeScript(path.join(root, 'apps/server/src'), path.join(root, 'apps/server/dist'));
}

function copyNonTypeScript(from, to) {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyNonTypeScript(source, target);
    else if (!entry.name.endsWith('.ts')) {
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(source, target);
    }
  }
}

function hashSources(sources, skip) {
  const hash = createHash('sha256');
  const visit = (relative) => {
    if (skip.includes(relative)) return;
    const absolute = path.join(root, relative);
    let stat;
    try {
      stat = fs.statSync(absolute);
    } catch {
      return; // absent: nothing to hash
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(absolute).sort()) visit(path.posix.join(relative, name));
      return;
    }
    hash.update(`${relative}\0${stat.size}\0`);
    hash.update(fs.readFileSync(absolute));
  };
  for (const source of sources) visit(source);
  return hash.digest('hex');
}

function run(command, commandArgs) {
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status === 0) return;
  if (quiet) {
    process.stdout.write('failed\n');
    process.stdout.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
  }
  fail(`${command} ${commandArgs.join(' ')} failed.`);
}

function readOrEmpty(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
