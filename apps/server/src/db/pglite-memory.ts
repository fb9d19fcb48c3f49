import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PGliteOptions } from '@electric-sql/pglite';

/** A compiled WebAssembly.Module, named through PGlite: the server's TypeScript libraries do not declare WebAssembly. */
type WasmModule = NonNullable<PGliteOptions['wasmModule']>;

/**
 * The embedded database's shared buffers, and the WebAssembly module that gives them to it.
 *
 * PGlite 0.3 starts PostgreSQL with arguments compiled into its WebAssembly, `-c
 * shared_buffers=128MB` among them, and its single-user backend writes the whole of its shared
 * memory at start: 128 MB of page cache resident from the first second, for databases of a few
 * MB (a course of 300 students is under 20). Command-line settings outrank postgresql.conf and
 * postgresql.auto.conf (the data directory's files cannot lower it), and 0.3 takes no start
 * parameters (0.5 does, but runs PostgreSQL 18, which cannot open our PostgreSQL 17 data
 * directories). So PGlite gets, through its documented `wasmModule` option, its own module
 * compiled from its own bytes with that one argument rewritten in place
 * (docs/decisions/0043-pglite-shared-buffers-and-idle-threads.md).
 *
 * shared_buffers sizes memory only: the data directory's files do not depend on it, so a data
 * directory or a dump made with either value opens with the other.
 */

/** Enough for the pages a server touches (bench/README.md, server section); PGLITE_SHARED_BUFFERS_MB changes it. */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 16;

/** The argument as PGlite 0.3.x compiles it: a C string in the module's data. */
const BUILT_IN_ARGUMENT = 'shared_buffers=128MB';
/** Rewritten in place, a value must fit in the built-in one's bytes: 1 to 999 MB. */
export const MAX_PGLITE_SHARED_BUFFERS_MB = 999;

export interface PgliteModule {
  /** For PGlite's `wasmModule` option; undefined: PGlite's own module (the argument was not found). */
  wasmModule: WasmModule | undefined;
  /** shared_buffers as PostgreSQL will run with it, in MB. */
  sharedBuffersMb: number;
}

const compiled = new Map<number, Promise<PgliteModule>>();

/**
 * PGlite's WebAssembly module with shared_buffers set to `sharedBuffersMb`, compiled once per
 * thread and value. A PGlite whose module no longer holds the argument (a new version) gets its
 * own module, and `sharedBuffersMb` says 128: the pglite-memory test fails on it.
 */
export function pgliteModule(sharedBuffersMb: number = DEFAULT_PGLITE_SHARED_BUFFERS_MB): Promise<PgliteModule> {
  if (!Number.isInteger(sharedBuffersMb) || sharedBuffersMb < 1 || sharedBuffersMb > MAX_PGLITE_SHARED_BUFFERS_MB)
    throw new Error(`PGlite's shared buffers must be 1 to ${MAX_PGLITE_SHARED_BUFFERS_MB} MB, not ${sharedBuffersMb}.`);
  let module = compiled.get(sharedBuffersMb);
  if (!module) {
    module = compileWithSharedBuffers(sharedBuffersMb);
    compiled.set(sharedBuffersMb, module);
  }
  return module;
}

async function compileWithSharedBuffers(sharedBuffersMb: number): Promise<PgliteModule> {
  const bytes = fs.readFileSync(pgliteWasmPath());
  const written = rewriteArgument(bytes, `shared_buffers=${sharedBuffersMb}MB`);
  if (!written) return { wasmModule: undefined, sharedBuffersMb: 128 };
  return { wasmModule: await wasm.compile(bytes), sharedBuffersMb };
}

/** Node's WebAssembly object, which the server's TypeScript libraries do not declare. */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } })
  .WebAssembly;

/**
 * Replaces the NUL-terminated built-in argument with `argument` (no longer than it), padding with
 * NULs; false when the built-in argument is not there exactly once.
 */
export function rewriteArgument(bytes: Uint8Array, argument: string): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const builtIn = Buffer.from(`\0${BUILT_IN_ARGUMENT}\0`);
  const at = buffer.indexOf(builtIn);
  if (at < 0 || buffer.indexOf(builtIn, at + 1) >= 0) return false;
  const replacement = Buffer.alloc(BUILT_IN_ARGUMENT.length);
  if (Buffer.byteLength(argument) > replacement.length)
    throw new Error(`"${argument}" is longer than the built-in argument.`);
  replacement.write(argument);
  replacement.copy(buffer, at + 1);
  return true;
}

/** pglite.wasm beside the package's entry point, where PGlite itself loads it from. */
function pgliteWasmPath(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return path.join(path.dirname(entry), 'pglite.wasm');
}
