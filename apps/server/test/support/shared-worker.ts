import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, vi } from 'vitest';

/**
 * The PGlite server project runs its files in shared workers (`isolate: false` in vitest.config.ts,
 * decision 0098): a worker imports `src/` once and runs file after file with it, so what a module
 * keeps at module level lives on into the next file. Each file still builds its own app, database,
 * data directory and ports; module-level caches are keyed by those or by the texts themselves
 * (decision 0094's audit). What a test sets for the whole process is undone here.
 *
 * This module is the server projects' setup file: it runs before each file, and its `afterAll`
 * after each file's own (on PostgreSQL, a process per file, the reset changes nothing).
 */

/**
 * Test files that change settings a module keeps for the process (the shared PDF extraction pool's
 * threads, memory and CPU budgets; the sentence model's kept embeddings). Each runs as in a
 * process of its own: on modules loaded afresh, with no pool or thread an earlier file started;
 * and after it the worker's modules are loaded afresh again, so the next file meets the defaults
 * production runs with.
 * test/shared-worker.test.ts fails when a file calls one of those setters without being listed.
 */
export const FILES_THAT_CHANGE_PROCESS_STATE = ['test/file-extraction.test.ts'];

/** The calls that change such a setting. */
export const PROCESS_STATE_SETTERS = ['configureExtractionPool', 'keepEmbeddings', 'rememberEmbeddings'];

const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The pool with its threads closed, then every module new. */
async function freshModules() {
  const { closeExtractionPool } = await import('../../src/pdf/extraction-pool.ts');
  await closeExtractionPool({ abort: true });
  vi.resetModules();
}

// This setup file is evaluated before each test file is imported, so this runs before the file's
// own top-level calls (file-extraction configures the pool there).
const changesProcessState = FILES_THAT_CHANGE_PROCESS_STATE.includes(
  path.relative(SERVER, expect.getState().testPath ?? ''),
);
if (changesProcessState) await freshModules();

afterAll(async () => {
  if (changesProcessState) await freshModules();
});
