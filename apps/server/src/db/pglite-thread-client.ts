import type { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { siblingModule, startModuleWorker } from '../lib/module-worker.ts';
import {
  deserializeError,
  type PgliteRequest,
  type PgliteResponse,
  type PgliteThreadOptions,
} from './pglite-protocol.ts';
import { toStorableParameters } from './storable-text.ts';

const THREAD_SCRIPT = siblingModule('pglite-thread', import.meta.url);

type RequestBody = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, 'id'> : never) : never;

/** What drizzle's PGlite driver and our `executeSql` call on a PGlite or one of its transactions. */
export interface PgliteRunner {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Array<Results>>;
}

/**
 * PGlite on a thread of its own (db/pglite-thread.ts), seen from the server's thread as the small
 * part of PGlite's interface that drizzle and pg-boss use: `query`, `exec`, `transaction`. Every
 * parameter is cleaned here (db/storable-text.ts) before it leaves for the thread.
 *
 * Result parsers are functions and cannot cross threads: the only ones passed here are drizzle's,
 * which keep dates, timestamps and intervals as PostgreSQL's text, so their type ids are sent and
 * the thread applies "keep the text" to exactly those types.
 */
export class PgliteThreadClient implements PgliteRunner {
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  private failure: Error | undefined;
  private isClosed = false;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (response: PgliteResponse) => this.settle(response));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => {
      if (!this.isClosed) this.fail(new Error(`The database thread stopped unexpectedly (exit code ${code}).`));
    });
    // Idle, the thread must not keep the process alive; with a query in flight it must (see `request`).
    worker.unref();
  }

  /** Starts the thread and resolves once PGlite has opened its database (or rejects with why not). */
  static async open(options: PgliteThreadOptions): Promise<PgliteThreadClient> {
    const worker = startModuleWorker(THREAD_SCRIPT, { workerData: options });
    const client = new PgliteThreadClient(worker);
    try {
      await client.waitFor(0);
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    return client;
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.runQuery<T>(undefined, text, params, options);
  }

  exec(text: string): Promise<Array<Results>> {
    return this.request({ op: 'exec', text, tx: undefined }) as Promise<Array<Results>>;
  }

  /**
   * Runs `callback` in one PostgreSQL transaction: committed when it resolves, rolled back when it
   * throws. The thread holds PGlite's transaction lock meanwhile, so other queries wait, as in PGlite.
   */
  async transaction<T>(callback: (tx: PgliteRunner) => Promise<T>): Promise<T> {
    const txId = (await this.request({ op: 'begin' })) as number;
    let closed = false;
    // (drizzle rolls back by throwing from the callback: no rollback() is needed here.)
    const tx: PgliteRunner = {
      query: <R>(text: string, params?: unknown[], options?: QueryOptions) =>
        this.runQuery<R>(openTx(), text, params, options),
      exec: (text: string) => this.request({ op: 'exec', text, tx: openTx() }) as Promise<Array<Results>>,
    };
    const openTx = () => {
      if (closed) throw new Error('Transaction is closed');
      return txId;
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      closed = true;
      await this.request({ op: 'end', tx: txId, commit: false });
      throw error;
    }
    closed = true;
    await this.request({ op: 'end', tx: txId, commit: true });
    return result;
  }

  /** The whole database as a tar archive (the tests' template is made this way). */
  async dumpDataDir(): Promise<Uint8Array> {
    return (await this.request({ op: 'dump' })) as Uint8Array;
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    try {
      if (!this.failure) await this.request({ op: 'close' });
    } finally {
      this.isClosed = true;
      await this.worker.terminate();
    }
  }

  private runQuery<T>(
    tx: number | undefined,
    text: string,
    params: unknown[] | undefined,
    options: QueryOptions | undefined,
  ): Promise<Results<T>> {
    return this.request({
      op: 'query',
      text,
      params: toStorableParameters(params),
      rowMode: options?.rowMode,
      textTypes: options?.parsers ? Object.keys(options.parsers).map(Number) : undefined,
      tx,
    }) as Promise<Results<T>>;
  }

  private request(body: RequestBody): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.isClosed) return Promise.reject(new Error('The database is closed.'));
    const id = this.nextId++;
    const answer = this.waitFor(id);
    this.worker.postMessage({ ...body, id } as PgliteRequest);
    return answer;
  }

  private waitFor(id: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      // A query in flight keeps the process alive until it is answered.
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
    });
  }

  private settle(response: PgliteResponse): void {
    const waiter = this.pending.get(response.id);
    if (!waiter) return;
    this.pending.delete(response.id);
    if (this.pending.size === 0) this.worker.unref();
    if (response.ok) waiter.resolve(response.value);
    else waiter.reject(deserializeError(response.error));
  }

  /** The thread died: every waiting query and every later one fails with the reason. */
  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
    this.worker.unref();
  }
}
