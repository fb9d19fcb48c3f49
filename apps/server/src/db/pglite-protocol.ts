/**
 * Messages between the server's thread and the PGlite thread (db/pglite-thread.ts). Every request
 * carries an id; the thread answers each with the same id, either a value or an error.
 */

export interface PgliteThreadOptions {
  /** A data directory on disk; undefined with no `loadDataDirFrom`: in memory (tests). */
  dataDir?: string;
  /** In memory, starting from a `dumpDataDir()` archive written to this file (tests' template). */
  loadDataDirFrom?: string;
  /** PostgreSQL's shared_buffers in MB (db/pglite-memory.ts); undefined: the default there. */
  sharedBuffersMb?: number;
}

export type PgliteRequest =
  | {
      id: number;
      op: 'query';
      text: string;
      params: unknown[] | undefined;
      rowMode: 'array' | 'object' | undefined;
      /** Result types to leave as PostgreSQL's text (drizzle's parsers for dates and intervals). */
      textTypes: number[] | undefined;
      /** The open transaction to run in, or undefined for an ordinary query. */
      tx: number | undefined;
    }
  | { id: number; op: 'exec'; text: string; tx: number | undefined }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };

export type PgliteResponse =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };

/** A database error as plain data: its message and PostgreSQL's fields (code, detail, constraint…). */
export interface SerializedError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)) fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

export function deserializeError(serialized: SerializedError): Error {
  const error = new Error(serialized.message);
  error.name = serialized.name;
  Object.assign(error, serialized.fields);
  return error;
}
