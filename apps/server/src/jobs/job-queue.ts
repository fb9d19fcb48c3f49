import { EventEmitter } from 'node:events';
import PgBoss from 'pg-boss';
import type { AppContext } from '../context.ts';
import { AppError } from '../lib/errors.ts';
import type { JobDefinition, JobFailure } from './job-definition.ts';

/**
 * pg-boss behind a small surface, on both backends: PGlite through the Database's `executeSql`
 * (multi-statement setup SQL goes to PGlite's exec), PostgreSQL through the same adapter over the
 * pool. See docs/decisions/0005-durable-jobs.md for the durability rules this class implements:
 *
 * - the work row in our own table is the truth users see; pg-boss only carries "please run row X";
 * - the pg-boss job id IS the row id (and its singletonKey), so re-sending a row never doubles work;
 * - at boot every unfinished row is re-sent, and in embedded mode jobs left 'active' by a dead
 *   process are made runnable at once;
 * - handlers are idempotent; a permanent failure (an AppError) or the last attempt marks the row
 *   failed, anything else is retried by pg-boss with backoff.
 */

export interface JobQueueOptions {
  /** Run workers in this process (false: an API-only process that only sends). */
  runWorkers: boolean;
  /** How long stop() lets running jobs finish before aborting them (they are retried later). */
  shutdownGraceMs?: number;
  /** Worker poll interval; local sends wake local workers at once anyway. */
  pollingIntervalSeconds?: number;
}

type AnyJobDefinition = JobDefinition<{ id: string }>;

const TERMINAL_JOB_STATES = new Set(['completed', 'failed', 'cancelled']);

export class JobQueueStoppedError extends AppError {
  constructor() {
    super(
      'UNAVAILABLE',
      503,
      'The server is restarting. Your request is saved and will finish after the restart; please try again in a minute.',
    );
  }
}

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, AnyJobDefinition>();
  private readonly workerIds = new Map<string, string[]>();
  private readonly inFlight = new Set<{ promise: Promise<unknown>; abort: AbortController }>();
  /** 'settled:<row id>' fires when this process finished (or finally failed) that row's job. */
  private readonly events = new EventEmitter();
  private isStopping = false;
  private isStarted = false;

  private constructor(
    private readonly ctx: AppContext,
    definitions: readonly AnyJobDefinition[],
    private readonly options: JobQueueOptions,
  ) {
    for (const definition of definitions) this.definitions.set(definition.name, definition);
    // Waiters come and go per request; many at once is normal, not a leak.
    this.events.setMaxListeners(0);
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => ctx.database.executeSql(text, values) },
      // Cron scheduling is unused: no clock-skew monitor, no schedule tables polling.
      schedule: false,
      supervise: true,
    });
    this.boss.on('error', (error) => ctx.log.error({ err: error }, 'job queue error'));
  }

  /**
   * Starts pg-boss (creating or migrating its schema), declares the queues, recovers unfinished work
   * and, when asked, starts the workers. Resolves once recovery has been sent.
   */
  static async start(
    ctx: AppContext,
    definitions: readonly AnyJobDefinition[],
    options: JobQueueOptions,
  ): Promise<JobQueue> {
    const queue = new JobQueue(ctx, definitions, options);
    await queue.boss.start();
    queue.isStarted = true;
    try {
      for (const definition of queue.definitions.values()) {
        const settings = {
          retryLimit: definition.retry.limit,
          retryDelay: definition.retry.delaySeconds,
          retryBackoff: definition.retry.backoff,
          expireInSeconds: definition.expireInSeconds,
        };
        // createQueue keeps the settings of an existing queue; updateQueue applies today's.
        await queue.boss.createQueue(definition.name, { name: definition.name, ...settings });
        await queue.boss.updateQueue(definition.name, { name: definition.name, ...settings });
      }
      if (ctx.database.kind === 'pglite') await queue.reviveJobsOfDeadProcess();
      await queue.resendUnfinishedWork();
      if (options.runWorkers) await queue.startWorkers();
    } catch (error) {
      await queue.boss.stop({ graceful: false, close: false }).catch(() => {});
      throw error;
    }
    return queue;
  }

  /**
   * Asks for a row's job to run. Call it after the transaction that inserted the row committed
   * (PGlite has one connection: sending inside the transaction would wait on itself). Safe to call
   * again for the same row: the job id is the row id, so a second send is a no-op while the job
   * exists, and a finished job is replaced only if the row is still unfinished (boot sweep).
   */
  async send(name: string, payload: { id: string }): Promise<void> {
    const definition = this.definitionOf(name);
    const data = definition.payload.parse(payload);
    await this.boss.send(name, data, { id: data.id, singletonKey: data.id });
    this.wakeLocalWorkers(name);
  }

  /**
   * Waits until `read` reports the row settled (a value other than undefined), checking at once,
   * whenever this process settles that row, and every `pollMs` (another process may run it).
   */
  async waitFor<T>(
    rowId: string,
    read: () => Promise<T | undefined>,
    options: { timeoutMs: number; pollMs?: number },
  ): Promise<T | undefined> {
    const deadline = Date.now() + options.timeoutMs;
    const pollMs = options.pollMs ?? 1000;
    for (;;) {
      const value = await read();
      if (value !== undefined) return value;
      if (this.isStopping) throw new JobQueueStoppedError();
      const remaining = deadline - Date.now();
      if (remaining <= 0) return undefined;
      await this.nextSignal(rowId, Math.min(pollMs, remaining));
    }
  }

  /**
   * Stops taking jobs, lets running ones finish for the grace period, then aborts the rest (pg-boss
   * retries them later; the boot sweep re-sends their rows), and stops pg-boss. Call before the
   * database closes. Waiting requests are released with a 503.
   */
  async stop(): Promise<void> {
    if (this.isStopping) return;
    this.isStopping = true;
    this.events.emit('stopping');
    if (!this.isStarted) return;
    for (const name of this.workerIds.keys()) await this.boss.offWork(name).catch(() => {});
    const graceMs = this.options.shutdownGraceMs ?? 15_000;
    const running = [...this.inFlight];
    if (running.length > 0) {
      this.ctx.log.info(`waiting up to ${graceMs} ms for ${running.length} running job(s)`);
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), graceMs);
      });
      const outcome = await Promise.race([Promise.allSettled(running.map((job) => job.promise)), graceOver]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        for (const job of this.inFlight) job.abort.abort(new Error('The server is shutting down.'));
        await Promise.allSettled([...this.inFlight].map((job) => job.promise));
      }
    }
    // Nothing of ours is running now: pg-boss's own grace wait would only slow the exit down.
    await this.boss
      .stop({ graceful: true, wait: true, timeout: 1000, close: false })
      .catch((error) => this.ctx.log.error({ err: error }, 'stopping the job queue failed'));
  }

  /** Jobs of this process's queues that pg-boss has not finished: for diagnostics and tests. */
  async countOpenJobs(name: string): Promise<number> {
    const { rows } = await this.ctx.database.executeSql(
      `SELECT count(*)::int AS count FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
      [name],
    );
    return Number(rows[0]?.count ?? 0);
  }

  // ------------------------------------------------------------------ recovery

  /**
   * Embedded mode only: a PGlite data directory is locked to one process, so a job pg-boss still
   * calls 'active' was taken by a process that died. Make it runnable now instead of waiting for
   * it to expire. (On PostgreSQL another live worker may own it: expiry handles dead ones there.)
   */
  private async reviveJobsOfDeadProcess(): Promise<void> {
    const names = [...this.definitions.keys()];
    const { rows } = await this.ctx.database.executeSql(
      `UPDATE pgboss.job SET state = 'retry', start_after = now() WHERE state = 'active' AND name = ANY($1::text[]) RETURNING id`,
      [names],
    );
    if (rows.length > 0) this.ctx.log.info(`made ${rows.length} job(s) of a stopped process runnable again`);
  }

  /**
   * Every row still queued or running gets a job: covers a crash between the row's commit and its
   * send, a job lost with the process, and a job pg-boss gave up on while our row was unfinished.
   */
  private async resendUnfinishedWork(): Promise<void> {
    let resent = 0;
    for (const definition of this.definitions.values()) {
      for (const id of await definition.listUnfinished(this.ctx)) {
        if (await this.ensureJobFor(definition, id)) resent += 1;
      }
    }
    if (resent > 0) this.ctx.log.info(`re-sent ${resent} unfinished job(s)`);
  }

  /** Sends the row's job unless a live one exists; replaces a finished one. True when sent. */
  private async ensureJobFor(definition: AnyJobDefinition, id: string): Promise<boolean> {
    const options = { id, singletonKey: id };
    if (await this.boss.send(definition.name, { id }, options)) return true;
    const job = await this.boss.getJobById(definition.name, id);
    if (job && !TERMINAL_JOB_STATES.has(job.state)) return false;
    // pg-boss finished a job whose row is unfinished (it expired, or its last retry was cut by a
    // crash): the row is the truth, so its work is asked for again.
    if (job) await this.boss.deleteJob(definition.name, id);
    return Boolean(await this.boss.send(definition.name, { id }, options));
  }

  // ------------------------------------------------------------------ workers

  private async startWorkers(): Promise<void> {
    for (const definition of this.definitions.values()) {
      const ids: string[] = [];
      // pg-boss 10 runs one batch per worker at a time: N workers of batch 1 = concurrency N.
      for (let slot = 0; slot < definition.concurrency(this.ctx.config); slot += 1) {
        let workerId = '';
        workerId = await this.boss.work<{ id: string }>(
          definition.name,
          { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2 },
          async ([job]) => {
            try {
              if (job) await this.runJob(definition, job);
            } finally {
              // pg-boss 10 sleeps out the rest of its polling interval after a job that finished
              // quickly, unless notified. With a class's worth of jobs waiting, that capped each slot
              // at one job per interval (bench/pipeline.ts measured it): having just finished a job,
              // the slot looks for the next one at once.
              if (job && workerId && !this.isStopping) this.boss.notifyWorker(workerId);
            }
          },
        );
        ids.push(workerId);
      }
      this.workerIds.set(definition.name, ids);
    }
  }

  private async runJob(definition: AnyJobDefinition, job: PgBoss.JobWithMetadata<{ id: string }>): Promise<void> {
    const parsed = definition.payload.safeParse(job.data);
    if (!parsed.success) {
      // Nothing to retry: a payload we cannot read will not become readable.
      this.ctx.log.error({ job: job.id, queue: definition.name }, 'job payload is invalid; dropped');
      return;
    }
    const payload = parsed.data;
    const abort = new AbortController();
    const attempt = { number: job.retryCount + 1, isLast: job.retryCount >= job.retryLimit, signal: abort.signal };
    const promise = (async () => {
      try {
        await definition.handle(this.ctx, payload, attempt);
      } catch (error) {
        if (abort.signal.aborted) throw error; // shutdown: leave the row unfinished, retried later
        const failure = describeFailure(error);
        const isFinal = failure.isPermanent || attempt.isLast;
        if (!failure.isPermanent) {
          this.ctx.log.error(
            { err: error, job: job.id, queue: definition.name, attempt: attempt.number },
            'job attempt failed',
          );
        }
        await definition.recordFailure(this.ctx, payload, failure, isFinal);
        if (!isFinal) throw error; // pg-boss retries with backoff
      }
      this.events.emit(`settled:${payload.id}`);
    })();
    const entry = { promise, abort };
    this.inFlight.add(entry);
    try {
      await promise;
    } finally {
      this.inFlight.delete(entry);
    }
  }

  private wakeLocalWorkers(name: string): void {
    for (const id of this.workerIds.get(name) ?? []) this.boss.notifyWorker(id);
  }

  private nextSignal(rowId: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const event = `settled:${rowId}`;
      const done = () => {
        clearTimeout(timer);
        this.events.off(event, done);
        this.events.off('stopping', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.events.on(event, done);
      this.events.on('stopping', done);
    });
  }

  private definitionOf(name: string): AnyJobDefinition {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`Unknown job: ${name}`);
    return definition;
  }
}

/** AppErrors are failures we understand and have a sentence for: retrying will not change them. */
function describeFailure(error: unknown): JobFailure {
  if (error instanceof AppError) return { code: error.code, message: error.message, isPermanent: true };
  return {
    code: 'INTERNAL',
    message: 'The job failed because of an internal error. Please try again.',
    isPermanent: false,
  };
}
