import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type ParserOptions, type Transaction } from '@electric-sql/pglite';
import { createsDatabase, pgliteStartOptions } from './pglite-memory.ts';
import { PgliteStatements } from './pglite-statements.ts';
import {
  serializeError,
  type PgliteRequest,
  type PgliteResponse,
  type PgliteThreadOptions,
} from './pglite-protocol.ts';

/**
 * The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs here, so
 * its query execution and result parsing, most of an API request's cost, no longer share the
 * event loop with HTTP (docs/decisions/0019-pglite-thread-and-compiled-start.md). The thread
 * only executes what the server's thread asks (db/pglite-thread-client.ts); it keeps no state but
 * the database and the transactions the server has open.
 */

const options = workerData as PgliteThreadOptions;
const port = parentPort!;

const pg = options.loadDataDirFrom
  ? new PGlite({
      loadDataDir: new Blob([fs.readFileSync(options.loadDataDirFrom)]),
      ...(await pgliteStartOptions(options.sharedBuffersMb, { creates: false })),
    })
  : new PGlite({
      dataDir: options.dataDir,
      ...(await pgliteStartOptions(options.sharedBuffersMb, { creates: createsDatabase(options.dataDir) })),
    });

/** Every query runs as a named statement (db/pglite-statements.ts). */
const statements = new PgliteStatements(pg);

/** Open transactions: PGlite's own `transaction()` callbacks, held open until the server ends them. */
const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void; settled: Promise<void> }>();
let nextTransaction = 1;

/** Identity parsers per list of type ids (the same few lists come again and again). */
const parserCache = new Map<string, ParserOptions>();
function textParsers(types: number[] | undefined): ParserOptions | undefined {
  if (!types || types.length === 0) return undefined;
  const key = types.join(',');
  let parsers = parserCache.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(types.map((type) => [type, (value: string) => value]));
    parserCache.set(key, parsers);
  }
  return parsers;
}

function runnerOf(tx: number | undefined): PGlite | Transaction {
  if (tx === undefined) return pg;
  const open = transactions.get(tx);
  if (!open) throw new Error('The transaction has already ended.');
  return open.tx;
}

/**
 * Opens a transaction through PGlite's `transaction()`, so PGlite's own lock keeps every other
 * query waiting until it ends, exactly as in one thread. Resolves with its id once BEGIN ran.
 */
function begin(): Promise<number> {
  const id = nextTransaction++;
  return new Promise<number>((resolveBegun, rejectBegun) => {
    let isBegun = false;
    const settled = pg
      .transaction(
        (tx) =>
          new Promise<void>((resolve, reject) => {
            isBegun = true;
            transactions.set(id, {
              tx,
              end: (commit) => (commit ? resolve() : reject(new RollbackRequested())),
              settled,
            });
            resolveBegun(id);
          }),
      )
      .then(
        () => undefined,
        (error: unknown) => {
          if (!isBegun) rejectBegun(error);
          if (!(error instanceof RollbackRequested)) throw error;
        },
      )
      .finally(() => transactions.delete(id));
    // The server learns of a failed COMMIT through `end`; this copy must not be an unhandled rejection.
    settled.catch(() => {});
  });
}

async function end(id: number, commit: boolean): Promise<void> {
  const open = transactions.get(id);
  if (!open) throw new Error('The transaction has already ended.');
  open.end(commit);
  await open.settled;
}

class RollbackRequested extends Error {}

async function handle(request: PgliteRequest): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const runner = runnerOf(request.tx);
      if (runner !== pg && (runner as Transaction).closed) throw new Error('Transaction is closed');
      const result = await statements.query(
        request.text,
        request.params,
        { rowMode: request.rowMode, parsers: textParsers(request.textTypes) },
        runner !== pg,
      );
      const { rows, fields, affectedRows, command, rowCount } = result;
      return { rows, fields, affectedRows, command, rowCount };
    }
    case 'exec': {
      const results = await runnerOf(request.tx).exec(request.text);
      return results.map(({ rows, fields, affectedRows, command, rowCount }) => ({
        rows,
        fields,
        affectedRows,
        command,
        rowCount,
      }));
    }
    case 'begin':
      return begin();
    case 'end':
      return end(request.tx, request.commit);
    case 'dump': {
      const dump = await pg.dumpDataDir('none');
      return new Uint8Array(await dump.arrayBuffer());
    }
    case 'close':
      await pg.close();
      return undefined;
  }
}

port.on('message', (request: PgliteRequest) => {
  handle(request).then(
    (value) => {
      const response: PgliteResponse = { id: request.id, ok: true, value };
      port.postMessage(response);
    },
    (error: unknown) => {
      const response: PgliteResponse = { id: request.id, ok: false, error: serializeError(error) };
      port.postMessage(response);
    },
  );
});

// Ready (or failed to open): the server waits for this first message before sending queries.
pg.waitReady.then(
  () => port.postMessage({ id: 0, ok: true, value: 'ready' } satisfies PgliteResponse),
  (error: unknown) => port.postMessage({ id: 0, ok: false, error: serializeError(error) } satisfies PgliteResponse),
);
