import { randomUUID } from 'node:crypto';
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
 * - every worker holds a lease on each job it runs and renews it every few seconds; every worker
 *   hands back to the queue the jobs whose lease went quiet (a dead worker's), so on PostgreSQL
 *   a killed worker's jobs run again within a minute instead of after pg-boss's 15-minute expiry;
 * - queue setup (pg-boss's schema and queues) runs under the database's setup lock, so any number
 *   of processes may start together;
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
  /** Lease timing (tests shorten it); DEFAULT_LEASE_TIMING otherwise. */
  lease?: LeaseTiming;
}

/**
 * How a worker shows it is alive. Recovery of a dead worker's job takes at most
 * `staleAfterSeconds + sweepSeconds` plus one polling interval (2 s) before another worker starts
 * it: 42 s with the defaults. A live worker is never mistaken for a dead one unless it cannot
 * renew its leases for `staleAfterSeconds` (database unreachable, or its event loop blocked),
 * six renewals in a row with the defaults.
 */
export interface LeaseTiming {
  /** How often a worker renews the leases of the jobs it runs. */
  heartbeatSeconds: number;
  /** A lease not renewed for this long marks its job as a dead worker's. */
  staleAfterSeconds: number;
  /** How often each worker process looks for dead workers' jobs. */
  sweepSeconds: number;
}

export const DEFAULT_LEASE_TIMING: LeaseTiming = { heartbeatSeconds: 5, staleAfterSeconds: 30, sweepSeconds: 10 };

type AnyJobDefinition = JobDefinition<{ id: string }>;

/** Jobs per INSERT in `sendMany`: bounds one statement's JSON parameter (about 100 bytes a job). */
const SEND_MANY_CHUNK = 500;

const TERMINAL_JOB_STATES = new Set(['completed', 'failed', 'cancelled']);

export class JobQueueStoppedError extends AppError {
  constructor() {
    super(
      'UNAVAILABLE',
      'The server is restarting. Your request is saved and will finish after the restart; please try again in a minute.',
    );
  }
}

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, AnyJobDefinition>();
  /** This process's workers, per queue. */
  private readonly workers = new Map<string, WorkerSlot[]>();
  /** Per queue, the worker the next wake-up starts from: wake-ups go round the workers. */
  private readonly wakeCursors = new Map<string, number>();
  /** pg-boss's queries in flight (trackBossQuery). */
  private readonly bossQueries = new Set<Promise<unknown>>();
  private readonly inFlight = new Set<InFlightJob>();
  /** This process's identity in job_leases. */
  private readonly workerId = randomUUID();
  private readonly lease: LeaseTiming;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private isSweeping = false;
  private isRenewing = false;
  /** Renewals and sweeps under way: stop() waits for them before the database closes. */
  private readonly leaseWork = new Set<Promise<void>>();
  /** 'settled:<row id>' fires when this process finished (or finally failed) that row's job. */
  private readonly events = new EventEmitter();
  private isStopping = false;
  private isStarted = false;

  private constructor(
    private readonly ctx: AppContext,
    definitions: readonly AnyJobDefinition[],
    private readonly options: JobQueueOptions,
  ) {
    for (const definition of definitions) {
      // One queue per name: a second definition would silently replace the first one's handler.
      if (this.definitions.has(definition.name)) throw new Error(`Two jobs are named ${definition.name}`);
      this.definitions.set(definition.name, definition);
    }
    this.lease = options.lease ?? DEFAULT_LEASE_TIMING;
    // Waiters come and go per request; many at once is normal, not a leak.
    this.events.setMaxListeners(0);
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => this.trackBossQuery(ctx.database.executeSql(text, values)) },
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
    try {
      // Creating pg-boss's schema and its queues (a partition table and foreign keys per queue) in
      // two processes at once deadlocks on PostgreSQL: one process at a time.
      await ctx.database.withSetupLock(async () => {
        await queue.boss.start();
        queue.isStarted = true;
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
      });
      if (ctx.database.kind === 'pglite') await queue.reviveJobsOfDeadProcess();
      await queue.resendUnfinishedWork();
      if (options.runWorkers) {
        await queue.startWorkers();
        queue.startLeaseTimers();
      }
    } catch (error) {
      await queue.stopLeaseTimers();
      if (queue.isStarted) await queue.boss.stop({ graceful: false, close: false }).catch(() => {});
      throw error;
    }
    return queue;
  }

  /**
   * Asks for a row's job to run. Call it after the transaction that inserted the row committed
   * (PGlite has one connection: sending inside the transaction would wait on itself). Safe to call
   * again for the same row: the job id is the row id, so a second send is a no-op while the job
   * exists, and a finished job is replaced only if the row is still unfinished (boot sweep).
   * The job is named by its definition, so a payload of another shape does not compile; a job
   * this queue was not started with is refused.
   */
  async send<Payload extends { id: string }>(job: JobDefinition<Payload>, payload: NoInfer<Payload>): Promise<void> {
    const definition = this.definitionOf(job.name);
    const data = definition.payload.parse(payload);
    await this.boss.send(definition.name, data, { id: data.id, singletonKey: data.id });
    this.wakeOnceVisible(definition.name, 1);
  }

  /**
   * `send` for many rows of one job at once (Grade All sends a class's worth): one INSERT per
   * SEND_MANY_CHUNK jobs (pg-boss's `insert`) instead of one per job, the same job rows (the
   * queue's retry and expiry settings, the row id as job id and singletonKey, an existing job
   * left alone), then as many idle workers woken as jobs were sent.
   */
  async sendMany<Payload extends { id: string }>(
    job: JobDefinition<Payload>,
    payloads: readonly NoInfer<Payload>[],
  ): Promise<void> {
    const definition = this.definitionOf(job.name);
    // Every payload is checked before any job is sent, as `send` checks its one.
    const data = payloads.map((payload) => definition.payload.parse(payload));
    for (let start = 0; start < data.length; start += SEND_MANY_CHUNK) {
      const chunk = data.slice(start, start + SEND_MANY_CHUNK);
      await this.boss.insert(
        chunk.map((item) => ({ name: definition.name, data: item, id: item.id, singletonKey: item.id })),
      );
      this.wakeOnceVisible(definition.name, chunk.length);
    }
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
    // No more sweeping; leases are still renewed while running jobs finish their grace period.
    clearInterval(this.sweepTimer);
    for (const name of this.workers.keys()) await this.boss.offWork(name).catch(() => {});
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
    await this.stopLeaseTimers();
    // Nothing of ours is running now: pg-boss's own grace wait would only slow the exit down.
    await this.boss
      .stop({ graceful: true, wait: true, timeout: 1000, close: false })
      .catch((error) => this.ctx.log.error({ err: error }, 'stopping the job queue failed'));
    await this.settleBossQueries();
    // Our jobs are finished or handed back (aborted ones wait for their retry): nothing to guard.
    await this.ctx.database
      .executeSql(`DELETE FROM job_leases WHERE worker_id = $1`, [this.workerId])
      .catch((error) => this.ctx.log.warn({ err: error }, 'releasing job leases failed'));
  }

  /**
   * pg-boss writes a job's outcome (complete, fail) without awaiting it, after our handler
   * returned, so its stop() can resolve with that write still to run. The database then closed
   * under it: "Cannot use a pool after calling end on the pool", an unhandled rejection that ended
   * the process (a server-postgres test worker, this session). Every query pg-boss makes goes
   * through here, and stop() waits for the ones in flight, so none outlives the queue.
   */
  private trackBossQuery<T>(query: Promise<T>): Promise<T> {
    this.bossQueries.add(query);
    const forget = () => this.bossQueries.delete(query);
    query.then(forget, forget);
    return query;
  }

  private async settleBossQueries(): Promise<void> {
    // A settled write can be followed by another (a fail that archives): wait until none is left.
    while (this.bossQueries.size > 0) await Promise.allSettled([...this.bossQueries]);
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
   * it to expire. (On PostgreSQL another live worker may own it: the lease sweep finds dead ones.)
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

  // ------------------------------------------------------------------ leases

  private startLeaseTimers(): void {
    // A worker starting after another died takes its jobs back now, not after a sweep interval.
    this.track(this.sweepDeadWorkersJobs());
    // unref: a pending renewal or sweep must never keep a stopping process alive.
    this.heartbeatTimer = setInterval(() => this.track(this.renewLeases()), this.lease.heartbeatSeconds * 1000).unref();
    this.sweepTimer = setInterval(
      () => this.track(this.sweepDeadWorkersJobs()),
      this.lease.sweepSeconds * 1000,
    ).unref();
  }

  private async stopLeaseTimers(): Promise<void> {
    clearInterval(this.heartbeatTimer);
    clearInterval(this.sweepTimer);
    await Promise.all(this.leaseWork);
  }

  /** Both kinds of lease work catch their own errors: tracking only waits for them. */
  private track(work: Promise<void>): void {
    this.leaseWork.add(work);
    void work.finally(() => this.leaseWork.delete(work));
  }

  /**
   * Takes the lease of a job pg-boss just handed to this process (a lease left by an earlier run of
   * the same job, whose worker died, is taken over).
   */
  private async takeLease(queueName: string, jobId: string): Promise<void> {
    await this.ctx.database.executeSql(
      `INSERT INTO job_leases (queue_name, job_id, worker_id, started_at, heartbeat_at)
       VALUES ($1, $2, $3, now(), now())
       ON CONFLICT (queue_name, job_id)
       DO UPDATE SET worker_id = excluded.worker_id, started_at = now(), heartbeat_at = now()`,
      [queueName, jobId, this.workerId],
    );
  }

  /** The heartbeat: one statement renews every lease of the jobs this process is running. */
  private async renewLeases(): Promise<void> {
    if (this.isRenewing || this.inFlight.size === 0) return;
    this.isRenewing = true;
    const jobIds = [...this.inFlight].map((job) => job.jobId);
    try {
      const { rows } = await this.ctx.database.executeSql<{ job_id: string }>(
        `UPDATE job_leases SET heartbeat_at = now() WHERE worker_id = $1 AND job_id = ANY($2::uuid[]) RETURNING job_id`,
        [this.workerId, jobIds],
      );
      const renewed = new Set(rows.map((row) => row.job_id));
      for (const job of this.inFlight) {
        if (!renewed.has(job.jobId) && jobIds.includes(job.jobId) && !job.isLeaseLost) {
          // Another worker took this job back while we could not renew (see LeaseTiming): it may
          // now run twice; the row's claim and status-guarded finish keep the result single.
          job.isLeaseLost = true;
          this.ctx.log.warn(
            { job: job.jobId, queue: job.queueName },
            'job lease lost: another worker took the job over',
          );
        }
      }
    } catch (error) {
      this.ctx.log.warn({ err: error }, 'renewing job leases failed; trying again at the next heartbeat');
    } finally {
      this.isRenewing = false;
    }
  }

  /**
   * Hands back to the queue every job pg-boss calls 'active' whose worker stopped renewing its
   * lease (or never took one: it died right after the fetch), then forgets leases of jobs that are
   * no longer active. Runs in every worker process; SKIP LOCKED lets two sweepers share the work.
   * The job goes back as 'retry', runnable at once; pg-boss counts the next start as a retry.
   */
  private async sweepDeadWorkersJobs(): Promise<void> {
    if (this.isSweeping || this.isStopping) return;
    this.isSweeping = true;
    const names = [...this.definitions.keys()];
    try {
      const { rows } = await this.ctx.database.executeSql<{ name: string; id: string }>(
        `WITH stale AS (
           SELECT j.name, j.id
           FROM pgboss.job j
           LEFT JOIN job_leases l ON l.queue_name = j.name AND l.job_id = j.id
           WHERE j.name = ANY($1::text[])
             AND j.state = 'active'
             AND GREATEST(j.started_on, l.heartbeat_at) < now() - make_interval(secs => $2)
           FOR UPDATE OF j SKIP LOCKED
         ), revived AS (
           UPDATE pgboss.job j SET state = 'retry', start_after = now()
           FROM stale
           WHERE j.name = stale.name AND j.id = stale.id AND j.state = 'active'
           RETURNING j.name, j.id
         ), released AS (
           DELETE FROM job_leases l USING revived r WHERE l.queue_name = r.name AND l.job_id = r.id
         )
         SELECT name, id FROM revived`,
        [names, this.lease.staleAfterSeconds],
      );
      if (rows.length > 0) {
        this.ctx.log.warn(
          { jobs: rows.map((row) => ({ queue: row.name, id: row.id })) },
          `handed back ${rows.length} job(s) of a worker that stopped renewing its lease`,
        );
        for (const name of new Set(rows.map((row) => row.name))) {
          this.wakeOnceVisible(name, rows.filter((row) => row.name === name).length);
        }
      }
      // A finished job's lease is kept until it is stale (it covers pg-boss's completion write,
      // which lands after our handler returned); then it has no use.
      await this.ctx.database.executeSql(
        `DELETE FROM job_leases l
         WHERE l.queue_name = ANY($1::text[])
           AND l.heartbeat_at < now() - make_interval(secs => $2)
           AND NOT EXISTS (
             SELECT 1 FROM pgboss.job j WHERE j.name = l.queue_name AND j.id = l.job_id AND j.state = 'active'
           )`,
        [names, this.lease.staleAfterSeconds],
      );
    } catch (error) {
      this.ctx.log.warn({ err: error }, 'looking for jobs of dead workers failed; trying again later');
    } finally {
      this.isSweeping = false;
    }
  }

  // ------------------------------------------------------------------ workers

  private async startWorkers(): Promise<void> {
    for (const definition of this.definitions.values()) {
      const slots: WorkerSlot[] = [];
      // pg-boss 10 runs one batch per worker at a time: N workers of batch 1 = concurrency N.
      for (let index = 0; index < definition.concurrency(this.ctx.config); index += 1) {
        const slot: WorkerSlot = { id: '', isBusy: false };
        slot.id = await this.boss.work<{ id: string }>(
          definition.name,
          { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2 },
          async ([job]) => {
            slot.isBusy = true;
            try {
              if (job) await this.runJob(definition, job);
            } finally {
              slot.isBusy = false;
              // pg-boss 10 sleeps out the rest of its polling interval after a job that finished
              // quickly, unless notified. With a class's worth of jobs waiting, that capped each slot
              // at one job per interval (bench/pipeline.ts measured it): having just finished a job,
              // the slot looks for the next one at once.
              if (job && slot.id && !this.isStopping) this.boss.notifyWorker(slot.id);
            }
          },
        );
        slots.push(slot);
      }
      this.workers.set(definition.name, slots);
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
    // Before any work: a job whose worker dies from here on is found by the sweepers.
    await this.takeLease(definition.name, job.id);
    const abort = new AbortController();
    const attempt = { number: job.retryCount + 1, isLast: job.retryCount >= job.retryLimit, signal: abort.signal };
    const promise = (async () => {
      try {
        await definition.handle(this.ctx, payload, attempt);
      } catch (error) {
        // Stopped (shutdown): leave the row unfinished, it runs again later.
        if (abort.signal.aborted) throw new JobAttemptError('The job was stopped before it finished.');
        const failure = describeFailure(error);
        const isFinal = failure.isPermanent || attempt.isLast;
        if (!failure.isPermanent) {
          this.ctx.log.error(
            { err: error, job: job.id, queue: definition.name, attempt: attempt.number },
            'job attempt failed',
          );
        }
        try {
          await definition.recordFailure(this.ctx, payload, failure, isFinal);
        } catch (recordError) {
          // The row stays unfinished: pg-boss retries, the boot sweep re-sends, the start count ends it.
          this.ctx.log.error(
            { err: recordError, job: job.id, queue: definition.name },
            'recording a job failure failed',
          );
          throw new JobAttemptError('The job failed and its failure could not be recorded.');
        }
        if (!isFinal) throw new JobAttemptError(failure.message); // pg-boss retries with backoff
      }
      this.events.emit(`settled:${payload.id}`);
    })();
    const entry: InFlightJob = { promise, abort, queueName: definition.name, jobId: job.id, isLeaseLost: false };
    this.inFlight.add(entry);
    try {
      await promise;
    } finally {
      this.inFlight.delete(entry);
    }
  }

  /**
   * Wakes idle workers for jobs written just now, once a fetch can see them. pg-boss fetches only
   * jobs with `start_after < now()`, and a job's start_after is the clock when it was written.
   * PGlite's clock counts whole milliseconds (its now() comes from Date.now()), so a worker woken
   * in the millisecond of the write found nothing and slept out its polling interval: the job
   * waited up to that interval (2 s by default), and forever with the test's hour (the job-queue
   * flake of issue 33). The write finished before this call, so once Date.now() has moved past
   * the call's millisecond every later fetch sees the job; PostgreSQL's microsecond clock has moved
   * on too. The cost is under a millisecond per send.
   */
  private wakeOnceVisible(name: string, count: number): void {
    const writtenBy = Date.now();
    const wake = () => {
      if (this.isStopping) return;
      if (Date.now() <= writtenBy) {
        // Node may fire a 1 ms timer a little early: look at the clock again rather than trust it.
        setTimeout(wake, 1);
        return;
      }
      this.wakeLocalWorkers(name, count);
    };
    setTimeout(wake, 1);
  }

  /**
   * Wakes `count` idle workers of this queue (one per job just made runnable), going round them.
   * Waking every worker for every job cost each send up to 2C - 1 fetches that found nothing while
   * Grade All sent a class's worth (bench/README.md, issue 11). A worker running a job is not
   * woken: it looks for the next job as soon as it finishes (startWorkers). No job is left for a
   * polling interval while a worker woken for it is idle: pg-boss clears a worker's notice before
   * each fetch and fetches again at once when one came in meanwhile, so a worker woken during a
   * fetch that missed the new job looks again; one whose fetch took an older job instead looks
   * again when it finishes that job, and the next wake-up goes to the next worker.
   */
  private wakeLocalWorkers(name: string, count: number): void {
    const slots = this.workers.get(name) ?? [];
    let woken = 0;
    const start = this.wakeCursors.get(name) ?? 0;
    for (let step = 0; step < slots.length && woken < count; step += 1) {
      const index = (start + step) % slots.length;
      const slot = slots[index]!;
      if (slot.isBusy || !slot.id) continue;
      this.boss.notifyWorker(slot.id);
      woken += 1;
      this.wakeCursors.set(name, index + 1);
    }
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

/** One pg-boss worker of this process; busy while it runs a job of ours. */
interface WorkerSlot {
  id: string;
  isBusy: boolean;
}

interface InFlightJob {
  promise: Promise<unknown>;
  abort: AbortController;
  queueName: string;
  jobId: string;
  isLeaseLost: boolean;
}

/**
 * What pg-boss is given when a try fails: never the original error. pg-boss stores what it gets as
 * JSON (serialize-error: every own property, the cause chain, the stack) in a fire-and-forget call
 * whose failure is an unhandled rejection, i.e. a dead process. An error from deep inside a PDF
 * library or a provider client can carry anything (huge replies, binary, NUL, cycles); this one
 * carries a short sentence only. The details are in our log, the state users see in our row.
 */
class JobAttemptError extends Error {
  constructor(message: string) {
    super(message.length > 500 ? `${message.slice(0, 500)}…` : message);
    this.name = 'JobAttemptError';
    // No stack: it would only name this file, and it is text pg-boss would store for nothing.
    this.stack = `${this.name}: ${this.message}`;
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
