import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { PGLITE_MESSAGE_LEVELS } from './session.ts';

/** A compiled WebAssembly.Module, named through PGlite: the server's TypeScript libraries do not declare WebAssembly. */
type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;

/**
 * How every PGlite of the server starts: its shared buffers, its message levels, and its
 * WebAssembly compiled once per thread.
 *
 * PostgreSQL's single-user backend writes the whole of its shared memory at start, so the 128 MB
 * of shared_buffers that initdb writes into postgresql.conf would be resident from the first
 * second, for databases of a few MB (a course of 300 students is under 20; decision 0043).
 * PGlite 0.5 takes the backend's command line as `startParams` (0.3 compiled it into its
 * WebAssembly, which decision 0043 rewrote in place); a command-line setting outranks
 * postgresql.conf. So each PGlite gets PGlite's own default parameters, then shared_buffers and
 * the message levels of db/pglite/session.ts (later `-c` settings win over earlier ones).
 *
 * shared_buffers sizes memory only: the data directory's files do not depend on it, so a data
 * directory or a dump made with either value opens with the other.
 *
 * The modules: PGlite compiles pglite.wasm (and, for a new database, initdb.wasm) at every `new
 * PGlite()` unless it is given them compiled; a process that opens several (the tests, the
 * upgrade of db/pglite/upgrade.ts) compiles each once.
 */

/** Enough for the pages a server touches (bench/README.md, server section); PGLITE_SHARED_BUFFERS_MB changes it. */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 16;

/** The bound PGLITE_SHARED_BUFFERS_MB has always had (decision 0043); a larger cache would be a tuning of its own. */
export const MAX_PGLITE_SHARED_BUFFERS_MB = 999;

/** The options of `new PGlite()` this module decides. */
export type PgliteStartOptions = Pick<PGliteOptions, 'pgliteWasmModule' | 'initdbWasmModule' | 'startParams'>;

let pgliteWasm: Promise<WasmModule> | undefined;
let initdbWasm: Promise<WasmModule> | undefined;

/**
 * The start options for a PGlite with `sharedBuffersMb` of shared buffers. `creates`: the
 * database will be created (in memory, or a data directory without PG_VERSION), so initdb's
 * module is compiled too; a server opening its existing data directory never loads it.
 */
export async function pgliteStartOptions(
  sharedBuffersMb: number = DEFAULT_PGLITE_SHARED_BUFFERS_MB,
  { creates }: { creates: boolean },
): Promise<PgliteStartOptions> {
  if (!Number.isInteger(sharedBuffersMb) || sharedBuffersMb < 1 || sharedBuffersMb > MAX_PGLITE_SHARED_BUFFERS_MB)
    throw new Error(`PGlite's shared buffers must be 1 to ${MAX_PGLITE_SHARED_BUFFERS_MB} MB, not ${sharedBuffersMb}.`);
  pgliteWasm ??= compile('pglite.wasm');
  if (creates) initdbWasm ??= compile('initdb.wasm');
  return {
    pgliteWasmModule: await pgliteWasm,
    initdbWasmModule: creates ? await initdbWasm : undefined,
    startParams: pgliteStartParams(sharedBuffersMb),
  };
}

/** PGlite's own default command line, then ours. */
export function pgliteStartParams(sharedBuffersMb: number): string[] {
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`, ...PGLITE_MESSAGE_LEVELS];
}

/** True when `dataDir` (undefined: in memory) holds no database yet, so opening it runs initdb. */
export function createsDatabase(dataDir: string | undefined): boolean {
  return dataDir === undefined || !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
}

/** Node's WebAssembly object, which the server's TypeScript libraries do not declare. */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } })
  .WebAssembly;

function compile(file: 'pglite.wasm' | 'initdb.wasm'): Promise<WasmModule> {
  return fs.promises.readFile(path.join(pgliteDist(), file)).then((bytes) => wasm.compile(bytes));
}

/** PGlite's dist directory, where PGlite itself loads its modules from. */
function pgliteDist(): string {
  return path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
}
