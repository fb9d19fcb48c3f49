import { Worker, type WorkerOptions } from 'node:worker_threads';
import { startTypeScriptWorker } from './typescript-worker.ts';

/**
 * The URL of a module beside the caller, named without its extension: `.ts` when the caller runs
 * from TypeScript sources (tsx, vitest), `.js` when it runs compiled (`npm start`, apps/server/dist).
 */
export function siblingModule(name: string, callerUrl: string): URL {
  const extension = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${name}${extension}`, callerUrl);
}

/** A worker thread running `script`: through tsx for TypeScript, directly for compiled JavaScript. */
export function startModuleWorker(script: URL, options: Omit<WorkerOptions, 'eval' | 'execArgv'> = {}): Worker {
  if (script.pathname.endsWith('.ts')) return startTypeScriptWorker(script, options);
  return new Worker(script, options);
}
