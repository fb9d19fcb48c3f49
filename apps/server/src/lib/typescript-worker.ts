import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread that runs a .ts module, the way the server runs its own code: through tsx. On
 * Node 20, tsx's `--import tsx` hooks apply to the main thread only (neither inherited nor
 * re-registered by a worker, whatever its execArgv), so the thread starts from a two-line module
 * that registers tsx's ESM hooks itself (tsx's documented `register()` API) and then imports the
 * script. This works the same under `npm start`, `npx tsx`, `node --import tsx` and vitest. The
 * worker gets no execArgv of the parent, so on newer Node versions, where workers can inherit the
 * `--import tsx` flag, the hooks are still registered exactly once.
 */

export function startTypeScriptWorker(script: URL, options: Omit<WorkerOptions, 'eval' | 'execArgv'> = {}): Worker {
  // Resolved here (the ES module build, as an absolute URL): a data: URL module cannot resolve bare
  // names. Only when a worker starts: vitest's global setup imports this module but cannot resolve.
  const TSX_REGISTER = import.meta.resolve('tsx/esm/api');
  const bootstrap = [
    `import { register } from ${JSON.stringify(TSX_REGISTER)};`,
    'register();',
    `await import(${JSON.stringify(script.href)});`,
  ].join('\n');
  // A data: URL is always an ES module (top-level await), with every specifier absolute.
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), { ...options, execArgv: [] });
}
