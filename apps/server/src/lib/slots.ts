/**
 * A fixed number of slots shared by async work in this process (a counting semaphore): `run` waits
 * for a free slot, holds it while the work runs and frees it however the work ends. Waiters are
 * served first come, first served. A waiter whose signal aborts stops waiting (rejecting with the
 * signal's reason) and takes no slot, so a shutdown never leaves work queued for a slot forever.
 */
export class Slots {
  private busy = 0;
  private readonly waiters: (() => void)[] = [];
  private highWater = 0;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`Slots need a size of at least 1 (got ${size}).`);
  }

  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /** Slots held now. */
  get inUse(): number {
    return this.busy;
  }

  /** The most slots held at once so far (diagnostics and tests). */
  get mostInUse(): number {
    return this.highWater;
  }

  /** Work waiting for a slot now. */
  get waiting(): number {
    return this.waiters.length;
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.busy < this.size) {
      this.take();
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = this.waiters.indexOf(grant);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(signal!.reason);
      };
      // Called by release() with the slot already counted as this waiter's.
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(grant);
    });
  }

  private take(): void {
    this.busy += 1;
    this.highWater = Math.max(this.highWater, this.busy);
  }

  private release(): void {
    this.busy -= 1;
    const next = this.waiters.shift();
    if (next) {
      // The freed slot goes straight to the longest waiter: nobody can take it in between.
      this.take();
      next();
    }
  }
}
