import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread that runs a .ts module, the way the server runs its own code: through tsx. On
 * Node 20, tsx's `--import tsx` hooks apply to the main thread only (neither inherited nor
 * re-registered by a worker, whatever its execArgv), so the thread starts from a module that
 * registers tsx's ESM hooks itself (tsx's documented `register()` API) and then imports the
 * script. This works the same under `npm start`, `npx tsx`, `node --import tsx` and vitest. The
 * worker gets no execArgv of the parent, so on newer Node versions, where workers can inherit the
 * `--import tsx` flag, the hooks are still registered exactly once.
 *
 * Only the TypeScript (tsx, vitest, the CLIs) takes this path; compiled JavaScript (`npm start`)
 * starts its threads with plain `new Worker`, which loads node_modules as Node does.
 */

/**
 * A load hook registered after tsx, so it runs first: a `.mjs` file under node_modules is plain
 * ES module JavaScript, loaded from disk as Node loads it, without tsx's pass over its source.
 * That pass cost an extraction thread about 1.2 s of CPU for pdf.js's two 1-2 MB modules on every
 * start (thread start 1.9 s of CPU, 0.65 s without it; decision 0103), the cost of every pool
 * thread the tests and the CLIs start, and which the compiled server never paid.
 */
const PLAIN_ESM_HOOK = [
  "import { readFile } from 'node:fs/promises';",
  'export async function load(url, context, nextLoad) {',
  "  if (url.startsWith('file:') && url.includes('/node_modules/') && url.endsWith('.mjs'))",
  "    return { format: 'module', source: await readFile(new URL(url)), shortCircuit: true };",
  '  return nextLoad(url, context);',
  '}',
].join('\n');

export function startTypeScriptWorker(script: URL, options: Omit<WorkerOptions, 'eval' | 'execArgv'> = {}): Worker {
  // Resolved here (the ES module build, as an absolute URL): a data: URL module cannot resolve bare
  // names. Only when a worker starts: vitest's global setup imports this module but cannot resolve.
  const TSX_REGISTER = import.meta.resolve('tsx/esm/api');
  const bootstrap = [
    "import { register as registerHooks } from 'node:module';",
    `import { register } from ${JSON.stringify(TSX_REGISTER)};`,
    'register();',
    `registerHooks(${JSON.stringify(dataUrl(PLAIN_ESM_HOOK))});`,
    `await import(${JSON.stringify(script.href)});`,
  ].join('\n');
  // A data: URL is always an ES module (top-level await), with every specifier absolute.
  return new Worker(new URL(dataUrl(bootstrap)), { ...options, execArgv: [] });
}

function dataUrl(source: string): string {
  return `data:text/javascript,${encodeURIComponent(source)}`;
}
