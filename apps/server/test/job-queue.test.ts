import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { AppContext } from '../src/context.ts';
import type { Database } from '../src/db/client.ts';
import type { JobAttempt, JobDefinition, JobFailure } from '../src/jobs/job-definition.ts';
import { JobQueue, JobQueueStoppedError, type LeaseTiming } from '../src/jobs/job-queue.ts';
import { AppError } from '../src/lib/errors.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * The queue mechanics on the real database (PGlite, and PostgreSQL in the server-postgres
 * project) with a job defined here: its work rows live in memory, so each test can see exactly
 * which attempts ran, in which order, and what the queue recorded.
 */

type RowStatus = 'queued' | 'running' | 'succeeded' | 'failed';
interface Row {
  status: RowStatus;
  attempts: number[];
  failure?: JobFailure;
  /** Failures noted without finishing the row (retry pending). */
  notedFailures: number;
}
type Behaviour = (id: string, attempt: JobAttempt) => Promise<'done' | 'leave-unfinished'>;

class TestJob {
  readonly rows = new Map<string, Row>();
  readonly changes = new EventEmitter();
  active = 0;
  maxActive = 0;
  behaviour: Behaviour = async () => 'done';

  constructor(readonly concurrency = 2) {
    this.changes.setMaxListeners(0);
  }

  addRow(id = randomUUID()): string {
    this.rows.set(id, { status: 'queued', attempts: [], notedFailures: 0 });
    return id;
  }

  row(id: string): Row {
    const row = this.rows.get(id);
    if (!row) throw new Error(`no row ${id}`);
    return row;
  }

  /** Resolves when the predicate holds, checked now and after every change (no polling, no sleeps). */
  until(predicate: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!predicate()) return;
        this.changes.off('change', check);
        resolve();
      };
      this.changes.on('change', check);
      check();
    });
  }

  readonly definition: JobDefinition<{ id: string }> = {
    name: 'test-job',
    payload: z.object({ id: z.uuid() }),
    retry: { limit: 2, delaySeconds: 0, backoff: false },
    expireInSeconds: 60,
    concurrency: () => this.concurrency,
    handle: async (_ctx, { id }, attempt) => {
      const row = this.row(id);
      if (row.status === 'succeeded' || row.status === 'failed') return;
      row.status = 'running';
      row.attempts.push(attempt.number);
      this.active += 1;
      this.maxActive = Math.max(this.maxActive, this.active);
      this.changes.emit('change');
      try {
        const outcome = await this.behaviour(id, attempt);
        if (outcome === 'done') row.status = 'succeeded';
      } finally {
        this.active -= 1;
        this.changes.emit('change');
      }
    },
    recordFailure: async (_ctx, { id }, failure, isFinal) => {
      const row = this.row(id);
      if (isFinal) {
        row.status = 'failed';
        row.failure = failure;
      } else {
        row.notedFailures += 1;
      }
      this.changes.emit('change');
    },
    listUnfinished: async () =>
      [...this.rows].filter(([, row]) => row.status === 'queued' || row.status === 'running').map(([id]) => id),
  };
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

async function jobState(ctx: AppContext, id: string): Promise<string | undefined> {
  const { rows } = await ctx.database.executeSql<{ state: string }>(
    `SELECT state FROM pgboss.job WHERE name = 'test-job' AND id = $1`,
    [id],
  );
  return rows[0]?.state;
}

/**
 * pg-boss records a job's completion or failure without awaiting it after the handler returns; on
 * PostgreSQL that write can land just after our next query on another connection. Wait for the
 * state itself (observable), never for a time.
 */
async function expectJobState(ctx: AppContext, id: string, state: string | undefined): Promise<void> {
  await vi.waitFor(async () => expect(await jobState(ctx, id)).toBe(state), { timeout: 10_000, interval: 20 });
}

let testApp: TestApp;
let ctx: AppContext;
let job: TestJob;
let queue: JobQueue | undefined;

async function startQueue(runWorkers = true, shutdownGraceMs = 5_000, lease?: LeaseTiming): Promise<JobQueue> {
  queue = await JobQueue.start(ctx, [job.definition], {
    runWorkers,
    shutdownGraceMs,
    pollingIntervalSeconds: 0.5,
    lease,
  });
  return queue;
}

/** A queue running one job that only ends when aborted (a stop past the grace period). */
async function runJobUntilAborted(shutdownGraceMs: number): Promise<{ q: JobQueue; id: string }> {
  job.behaviour = (_id, attempt) =>
    new Promise((_resolve, reject) =>
      attempt.signal.addEventListener('abort', () => reject(attempt.signal.reason), { once: true }),
    );
  const q = await startQueue(true, shutdownGraceMs);
  const id = job.addRow();
  await q.send(job.definition, { id });
  await job.until(() => job.active === 1);
  return { q, id };
}

/** Leases that go stale after a second, so a test sees a dead worker's job come back quickly. */
const SHORT_LEASE: LeaseTiming = { heartbeatSeconds: 0.2, staleAfterSeconds: 1, sweepSeconds: 0.25 };

async function leaseOf(id: string): Promise<{ worker_id: string; held_seconds: number } | undefined> {
  const { rows } = await ctx.database.executeSql<{ worker_id: string; held_seconds: number }>(
    `SELECT worker_id, extract(epoch FROM heartbeat_at - started_at)::float AS held_seconds
     FROM job_leases WHERE queue_name = 'test-job' AND job_id = $1`,
    [id],
  );
  return rows[0];
}

beforeAll(async () => {
  testApp = await createTestApp();
  ctx = testApp.ctx;
});

afterAll(async () => {
  await queue?.stop();
  await testApp.close();
});

beforeEach(async () => {
  await queue?.stop();
  queue = undefined;
  job = new TestJob();
  // Each test starts from an empty queue table: jobs of an earlier test must not run here.
  await ctx.database.executeSql(`DELETE FROM pgboss.job WHERE name = 'test-job'`, []).catch(() => {});
  await ctx.database.executeSql(`DELETE FROM job_leases`, []);
});

describe('job queue (pg-boss on the test database)', () => {
  it('runs a row once however often it is sent: the job id is the row id', async () => {
    const q = await startQueue();
    const id = job.addRow();
    await Promise.all([q.send(job.definition, { id }), q.send(job.definition, { id }), q.send(job.definition, { id })]);
    await job.until(() => job.row(id).status === 'succeeded');
    await q.send(job.definition, { id }); // a late re-send of a finished job is a no-op too
    await q.stop();
    expect(job.row(id).attempts).toEqual([1]);
    await expectJobState(ctx, id, 'completed');
  });

  it('refuses a payload that does not match the job schema', async () => {
    const q = await startQueue(false);
    await expect(q.send(job.definition, { id: 'not-a-uuid' })).rejects.toThrow();
    await expect(q.send({ ...job.definition, name: 'no-such-job' }, { id: randomUUID() })).rejects.toThrow(
      /Unknown job/,
    );
    // A job is sent by its definition: a payload of another shape does not compile.
    // @ts-expect-error the test job's payload is { id }
    await expect(q.send(job.definition, { runId: randomUUID() })).rejects.toThrow();
  });

  it('never runs more jobs at once than the configured concurrency', async () => {
    const release = gate();
    job.behaviour = async () => {
      await release.opened;
      return 'done';
    };
    const q = await startQueue();
    const ids = Array.from({ length: 5 }, () => job.addRow());
    for (const id of ids) await q.send(job.definition, { id });
    await job.until(() => job.active === 2);
    release.open();
    await job.until(() => ids.every((id) => job.row(id).status === 'succeeded'));
    expect(job.maxActive).toBe(2);
    expect(ids.map((id) => job.row(id).attempts)).toEqual(ids.map(() => [1]));
  });

  it('starts every job sent without a poll: a send wakes an idle worker, a worker that finishes looks again', async () => {
    // An hour between polls: after their first fetch at start, the workers find these jobs only
    // through the wake-ups, which now wake one idle worker per job sent rather than all of them.
    queue = await JobQueue.start(ctx, [job.definition], { runWorkers: true, pollingIntervalSeconds: 3600 });
    const ids = Array.from({ length: 5 }, () => job.addRow());
    for (const id of ids) await queue.send(job.definition, { id });
    await job.until(() => ids.every((id) => job.row(id).status === 'succeeded'));
    const late = job.addRow();
    await queue.send(job.definition, { id: late });
    await job.until(() => job.row(late).status === 'succeeded');
    expect([...ids, late].map((id) => job.row(id).attempts)).toEqual([...ids, late].map(() => [1]));
  });

  it('a job sent to an idle queue starts without a poll, each of twenty times (a wake-up waits until a fetch can see the job)', async () => {
    // pg-boss fetches jobs with start_after < now(), and PGlite's clock counts milliseconds: a
    // worker woken in the millisecond of the send found nothing and slept out its polling interval
    // (here an hour). One send at a time, each after the last job finished, so no worker is busy and
    // only the send's wake-up can start the job.
    queue = await JobQueue.start(ctx, [job.definition], { runWorkers: true, pollingIntervalSeconds: 3600 });
    const ids: string[] = [];
    for (let round = 0; round < 20; round += 1) {
      const id = job.addRow();
      ids.push(id);
      await queue.send(job.definition, { id });
      await job.until(() => job.row(id).status === 'succeeded');
    }
    expect(ids.map((id) => job.row(id).attempts)).toEqual(ids.map(() => [1]));
  });

  it('sendMany makes the job rows send makes, leaves a job that exists alone, and runs each row once', async () => {
    const q = await startQueue(false);
    const [sent, ...others] = Array.from({ length: 4 }, () => job.addRow());
    await q.send(job.definition, { id: sent! });
    // The row sent already, and one row twice: neither gets a second job.
    await q.sendMany(
      job.definition,
      [sent!, ...others, others[0]!].map((id) => ({ id })),
    );
    const { rows } = await ctx.database.executeSql<Record<string, unknown>>(
      `SELECT id, data, singleton_key, state, retry_limit, retry_delay, retry_backoff, expire_in::text AS expire_in,
              policy, priority, (keep_until - start_after)::text AS kept_for
       FROM pgboss.job WHERE name = 'test-job' ORDER BY created_on, id`,
      [],
    );
    expect(rows).toHaveLength(4);
    const { id: _id, data: _data, singleton_key: _key, ...settingsOfSent } = rows.find((row) => row.id === sent)!;
    for (const row of rows) {
      const { id, data, singleton_key: singletonKey, ...settings } = row;
      expect(data).toEqual({ id });
      expect(singletonKey).toBe(id);
      expect(settings).toEqual(settingsOfSent);
    }
    expect(settingsOfSent).toMatchObject({ state: 'created', retry_limit: 2, retry_delay: 0, retry_backoff: false });

    // A worker process runs them all, each once.
    const worker = await JobQueue.start(ctx, [job.definition], { runWorkers: true, pollingIntervalSeconds: 3600 });
    try {
      await job.until(() => [sent!, ...others].every((id) => job.row(id).status === 'succeeded'));
      expect([sent!, ...others].map((id) => job.row(id).attempts)).toEqual([[1], [1], [1], [1]]);
    } finally {
      await worker.stop();
    }
  });

  it('sendMany refuses a batch with a payload that does not match the job schema, and sends none of it', async () => {
    const q = await startQueue(false);
    const id = job.addRow();
    await expect(q.sendMany(job.definition, [{ id }, { id: 'not-a-uuid' }])).rejects.toThrow();
    expect(await jobState(ctx, id)).toBeUndefined();
  });

  it('a batch sent by sendMany starts without a poll: it wakes an idle worker per job', async () => {
    queue = await JobQueue.start(ctx, [job.definition], { runWorkers: true, pollingIntervalSeconds: 3600 });
    const ids = Array.from({ length: 5 }, () => job.addRow());
    await queue.sendMany(
      job.definition,
      ids.map((id) => ({ id })),
    );
    await job.until(() => ids.every((id) => job.row(id).status === 'succeeded'));
    expect(ids.map((id) => job.row(id).attempts)).toEqual(ids.map(() => [1]));
  });

  it('retries an unexpected failure and lets the waiting caller see the success', async () => {
    job.behaviour = async (_id, attempt) => {
      if (attempt.number === 1) throw new Error('database hiccup');
      return 'done';
    };
    const q = await startQueue();
    const id = job.addRow();
    await q.send(job.definition, { id });
    const settled = await q.waitFor(id, async () => (job.row(id).status === 'succeeded' ? job.row(id) : undefined), {
      timeoutMs: 30_000,
      pollMs: 100,
    });
    expect(settled?.attempts).toEqual([1, 2]);
    expect(job.row(id).notedFailures).toBe(1);
    expect(job.row(id).failure).toBeUndefined();
  });

  it('fails a row at once on a failure we understand (AppError): no paid retry of a hopeless call', async () => {
    job.behaviour = async () => {
      throw new AppError('EXTRACTION_FAILED', 'The text of this PDF could not be read.');
    };
    const q = await startQueue();
    const id = job.addRow();
    await q.send(job.definition, { id });
    await job.until(() => job.row(id).status === 'failed');
    expect(job.row(id).attempts).toEqual([1]);
    expect(job.row(id).failure).toEqual({
      code: 'EXTRACTION_FAILED',
      message: 'The text of this PDF could not be read.',
      isPermanent: true,
    });
    await q.stop();
    await expectJobState(ctx, id, 'completed');
  });

  it('marks the row failed after the last retry of an unexpected failure, with a generic message', async () => {
    job.behaviour = async () => {
      throw new Error('secret internal detail');
    };
    const q = await startQueue();
    const id = job.addRow();
    await q.send(job.definition, { id });
    await job.until(() => job.row(id).status === 'failed');
    // retry limit 2: three attempts in all
    expect(job.row(id).attempts).toEqual([1, 2, 3]);
    expect(job.row(id).failure?.code).toBe('INTERNAL');
    expect(job.row(id).failure?.message).not.toContain('secret');
  });

  it('an API-only process (no workers) sends, another runs, and the waiting caller sees the row settle', async () => {
    const api = await startQueue(false);
    const worker = await JobQueue.start(ctx, [job.definition], { runWorkers: true, pollingIntervalSeconds: 0.5 });
    try {
      const id = job.addRow();
      await api.send(job.definition, { id });
      // The worker's "settled" event is in another JobQueue (as in another process): the API side
      // learns it from the row.
      const settled = await api.waitFor(
        id,
        async () => (job.row(id).status === 'succeeded' ? job.row(id) : undefined),
        { timeoutMs: 30_000, pollMs: 50 },
      );
      expect(settled?.attempts).toEqual([1]);
    } finally {
      await worker.stop();
    }
  });

  it('at start, sends every unfinished row that has no job (a crash between commit and send)', async () => {
    const q1 = await startQueue(false);
    const neverSent = job.addRow();
    const sent = job.addRow();
    await q1.send(job.definition, { id: sent });
    await q1.stop();
    await expectJobState(ctx, neverSent, undefined);

    await startQueue(true);
    await job.until(() => job.row(neverSent).status === 'succeeded' && job.row(sent).status === 'succeeded');
    expect(job.row(neverSent).attempts).toEqual([1]);
    expect(job.row(sent).attempts).toEqual([1]);
  });

  it('at start, replaces a job pg-boss finished while its row was left unfinished', async () => {
    job.behaviour = async () => 'leave-unfinished';
    const q1 = await startQueue();
    const id = job.addRow();
    await q1.send(job.definition, { id });
    await job.until(() => job.row(id).attempts.length === 1 && job.active === 0);
    await q1.stop();
    await expectJobState(ctx, id, 'completed');
    expect(job.row(id).status).toBe('running');

    job.behaviour = async () => 'done';
    await startQueue();
    await job.until(() => job.row(id).status === 'succeeded');
    expect(job.row(id).attempts).toHaveLength(2);
  });

  it("at start, takes over jobs left active by a dead process (embedded mode) but not a live worker's (PostgreSQL)", async () => {
    const q1 = await startQueue(false);
    const id = job.addRow();
    await q1.send(job.definition, { id });
    await q1.stop();
    // What a process killed mid-job leaves behind: pg-boss still calls the job active.
    await ctx.database.executeSql(
      `UPDATE pgboss.job SET state = 'active', started_on = now() WHERE name = 'test-job' AND id = $1`,
      [id],
    );
    job.row(id).status = 'running';

    const q2 = await startQueue();
    if (ctx.database.kind === 'pglite') {
      await job.until(() => job.row(id).status === 'succeeded');
      expect(job.row(id).attempts).toHaveLength(1);
    } else {
      // Another process may be running it: only a lease gone quiet for 30 s lets a worker take it back.
      await expectJobState(ctx, id, 'active');
      expect(job.row(id).attempts).toHaveLength(0);
    }
    await q2.stop();
  });

  it('on stop, aborts a job that outlives the grace period, leaves it for a retry and releases waiting callers', async () => {
    const { q, id } = await runJobUntilAborted(1_000);
    const waiting = q
      .waitFor(id, async () => (job.row(id).status === 'succeeded' ? true : undefined), { timeoutMs: 60_000 })
      .catch((error: unknown) => error);
    await q.stop();
    expect(await waiting).toBeInstanceOf(JobQueueStoppedError);
    expect(job.row(id).status).toBe('running');
    expect(job.row(id).failure).toBeUndefined();
    await expectJobState(ctx, id, 'retry');

    // The next start runs it to the end.
    job.behaviour = async () => 'done';
    await startQueue();
    await job.until(() => job.row(id).status === 'succeeded');
  });

  it('stop returns only once pg-boss has written what became of an aborted job, however slow the write', async () => {
    const { q, id } = await runJobUntilAborted(200);
    // pg-boss writes the outcome after our handler returned, without awaiting it. Here that write
    // (its fail: back to 'retry') takes longer than pg-boss's own stop waits for its workers (1 s):
    // a queue that stopped before it left the write to a database about to be closed.
    const database = ctx.database;
    let isFailWritten = false;
    const slowFailWrites: Database = {
      ...database,
      executeSql: async <Row>(text: string, values?: unknown[]) => {
        if (!text.includes('retry_count < retry_limit')) return database.executeSql<Row>(text, values);
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        const result = await database.executeSql<Row>(text, values);
        isFailWritten = true;
        return result;
      },
    };
    (ctx as { database: Database }).database = slowFailWrites;
    try {
      await q.stop();
      expect(isFailWritten).toBe(true);
    } finally {
      (ctx as { database: Database }).database = database;
    }
    expect(await jobState(ctx, id)).toBe('retry');
  });

  it("hands a dead worker's job back once its lease goes quiet, and a live worker runs it", async () => {
    const q1 = await startQueue(false);
    const id = job.addRow();
    await q1.send(job.definition, { id });
    await q1.stop();
    // What a worker killed mid-job leaves behind: pg-boss calls the job active, and the lease the
    // worker took when it started stopped being renewed a while ago.
    await ctx.database.executeSql(
      `UPDATE pgboss.job SET state = 'active', started_on = now() - interval '1 minute' WHERE name = 'test-job' AND id = $1`,
      [id],
    );
    await ctx.database.executeSql(
      `INSERT INTO job_leases (queue_name, job_id, worker_id, started_at, heartbeat_at)
       VALUES ('test-job', $1, $2, now() - interval '1 minute', now() - interval '50 seconds')`,
      [id, randomUUID()],
    );
    job.row(id).status = 'running';

    const q2 = await startQueue(true, 5_000, SHORT_LEASE);
    await job.until(() => job.row(id).status === 'succeeded');
    expect(job.row(id).attempts).toHaveLength(1);
    await expectJobState(ctx, id, 'completed');
    await q2.stop();
    // The dead worker's lease went with the hand-back; the live worker released its own at stop.
    expect(await leaseOf(id)).toBeUndefined();
  });

  it('hands back a job whose worker died between fetching it and taking its lease', async () => {
    const q1 = await startQueue(false);
    const id = job.addRow();
    await q1.send(job.definition, { id });
    await q1.stop();
    await ctx.database.executeSql(
      `UPDATE pgboss.job SET state = 'active', started_on = now() - interval '1 minute' WHERE name = 'test-job' AND id = $1`,
      [id],
    );

    const q2 = await startQueue(true, 5_000, SHORT_LEASE);
    await job.until(() => job.row(id).status === 'succeeded');
    expect(job.row(id).attempts).toHaveLength(1);
    await q2.stop();
  });

  it('never takes a job from a live worker, however long the job runs', async () => {
    const release = gate();
    let isFirst = true;
    job.behaviour = async () => {
      if (isFirst) {
        isFirst = false;
        await release.opened;
      }
      return 'done';
    };
    const worker = await startQueue(true, 5_000, SHORT_LEASE);
    // A second worker process beside it, sweeping for dead workers' jobs every quarter second.
    const other = await JobQueue.start(ctx, [job.definition], {
      runWorkers: true,
      pollingIntervalSeconds: 0.5,
      lease: SHORT_LEASE,
    });
    try {
      const id = job.addRow();
      await worker.send(job.definition, { id });
      await job.until(() => job.active === 1);
      // Meanwhile a dead worker's job appears (active for a minute, no lease): the sweepers are
      // working, and they hand it back, and a free slot runs it to the end.
      const orphan = job.addRow();
      job.row(orphan).status = 'running';
      await ctx.database.executeSql(
        `INSERT INTO pgboss.job (id, name, data, state, started_on)
         VALUES ($1::uuid, 'test-job', jsonb_build_object('id', $2::text), 'active', now() - interval '1 minute')`,
        [orphan, orphan],
      );
      await job.until(() => job.row(orphan).status === 'succeeded');
      // The long job has now run for three times the stale limit, renewing its lease all along,
      // while both processes swept (observed in the lease itself, not assumed from a sleep).
      await vi.waitFor(async () => expect((await leaseOf(id))?.held_seconds).toBeGreaterThan(3), {
        timeout: 30_000,
        interval: 100,
      });
      release.open();
      await job.until(() => job.row(id).status === 'succeeded');
      expect(job.row(id).attempts).toEqual([1]);
      expect(job.row(orphan).attempts).toHaveLength(1);
      await expectJobState(ctx, id, 'completed');
    } finally {
      release.open();
      await other.stop();
    }
  });
});
