import type { Worker } from 'node:worker_threads';
import { siblingModule, startModuleWorker } from '../lib/module-worker.ts';
import { ExtractionError } from './extraction-error.ts';
import type { ThreadStart } from './extraction-protocol.ts';
import type { StructureCheckReply, StructureCheckRequest } from './structure-check-thread.ts';

/**
 * Uploads are checked here before they wait for a reading thread (decision 0100). The counts of
 * stream-guard.ts (unpacked sizes, nesting, nesting through forms) refuse every hostile file the
 * benchmark knows in milliseconds of work, but inside the extraction pool they ran on the
 * background thread: at nice 10, behind the uploads before them, and after that thread had loaded
 * pdf.js. On a saturated machine a nice-10 thread gets a few per cent of a core, so files refused
 * by a few ms of counting were stored 5-27 s after their upload, and over 100 s when the thread had
 * pdf.js to load first (decisions 0090, 0096).
 *
 * Here the same counts run on one thread of their own, without pdf.js, at nice 5 (below the
 * server's thread and the reads someone waits for, above the uploads' reading threads): a hostile
 * file's verdict costs what the counting costs. The work is bounded by the counts' own limits (each
 * layer's output, the file's 256 MB); a check that has not answered within CHECK_LIMIT_MS (an
 * honest but huge file on a busy machine) is given up, not refused: the file goes on to the pool,
 * whose reading thread runs the same counts again under its CPU budgets. A verdict is a file fault
 * like any other (stored, never read again).
 *
 * One file at a time; owners take turns (one person's many uploads do not hold another's), and a
 * file someone starts waiting for (a grade) leaves the queue at once for a reading thread
 * (`skipStructureCheck`): a grade never waits behind other people's files being counted.
 */

/** A check not answered by then is given up: the file is read as before (its thread checks it again). */
const CHECK_LIMIT_MS = 10_000;
/** The thread ends after this long without a file (it holds little, but an idle server holds no thread). */
const IDLE_MS = 30_000;
/** A thread left holding more than this outside its heap (decoded streams) after a check is ended. */
const RECYCLE_ABOVE_BYTES = 64 * 1024 * 1024;
const HEAP_LIMIT_MB = 256;
/**
 * The thread's OS priority (nice): below the server's thread and the interactive reads (0), which
 * someone waits for, and above the uploads' reading threads (10). Counting is milliseconds of CPU,
 * so even a small share of a busy core refuses a hostile file within seconds, and what it takes
 * from a grade read beside it is a third of what a nice-0 thread would take.
 */
const CHECK_PRIORITY = 5;

const THREAD_SCRIPT = siblingModule('structure-check-thread', import.meta.url);

interface StructureCheckStats {
  /** Files whose check answered. */
  checked: number;
  /** Of `checked`, files refused with a file fault. */
  refused: number;
  /** Checks given up (over CHECK_LIMIT_MS, or the thread failed): those files went on unchecked. */
  gaveUp: number;
  /** Checks not made because someone started waiting for the file (`skipStructureCheck`). */
  skipped: number;
}

/** Whose file it is (the pool's ReadPlace: the same object, whose lane moves when someone waits). */
interface CheckPlace {
  readonly owner: string;
}

interface Waiting {
  request: StructureCheckRequest;
  place: CheckPlace;
  resolve(fault: ExtractionError | null): void;
}

/** Owners whose last turn the queue keeps (a forgotten one ranks as never served). */
const REMEMBERED_OWNERS = 1_000;

class StructureChecker {
  private worker: Worker | null = null;
  private readonly queue: Waiting[] = [];
  private current: { waiting: Waiting; timer: NodeJS.Timeout } | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Threads ended and not yet exited. */
  private readonly exiting = new Set<Promise<void>>();
  private nextId = 1;
  /** The turn each owner was last served at, oldest first. */
  private readonly servedAt = new Map<string, number>();
  private turn = 0;
  readonly stats: StructureCheckStats = { checked: 0, refused: 0, gaveUp: 0, skipped: 0 };

  constructor(private readonly limitMs: number) {}

  /** The file fault the counts find in `bytes` (which the thread takes), or null. Never rejects. */
  check(bytes: Uint8Array, place: CheckPlace): Promise<ExtractionError | null> {
    return new Promise((resolve) => {
      this.queue.push({ request: { id: this.nextId++, bytes }, place, resolve });
      this.next();
    });
  }

  /** The check of `place`, if still waiting, is not made (resolves null); true if it was waiting. */
  skip(place: CheckPlace): boolean {
    const index = this.queue.findIndex((waiting) => waiting.place === place);
    if (index < 0) return false;
    const [waiting] = this.queue.splice(index, 1);
    this.stats.skipped += 1;
    waiting!.resolve(null);
    return true;
  }

  /** Ends the thread now; a check in progress is given up (resolves null). */
  close(): Promise<void> {
    for (const waiting of this.queue.splice(0)) waiting.resolve(null);
    if (this.current) this.settle(this.current.waiting.request.id, null, true);
    return this.end();
  }

  private next() {
    if (this.current || this.queue.length === 0) return;
    const waiting = this.take();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = this.worker ?? this.start();
    const timer = setTimeout(() => this.settle(waiting.request.id, null, true), this.limitMs);
    this.current = { waiting, timer };
    worker.ref();
    try {
      worker.postMessage(waiting.request, [waiting.request.bytes.buffer as ArrayBuffer]);
    } catch {
      this.settle(waiting.request.id, null, true);
    }
  }

  /** The oldest file of the owner served longest ago (never: first), so owners take turns. */
  private take(): Waiting {
    let chosen = 0;
    for (let index = 1; index < this.queue.length; index += 1) {
      const turnOf = (at: number) => this.servedAt.get(this.queue[at]!.place.owner) ?? -1;
      if (turnOf(index) < turnOf(chosen)) chosen = index;
    }
    const [waiting] = this.queue.splice(chosen, 1);
    const owner = waiting!.place.owner;
    this.servedAt.delete(owner);
    this.servedAt.set(owner, ++this.turn);
    if (this.servedAt.size > REMEMBERED_OWNERS) this.servedAt.delete(this.servedAt.keys().next().value!);
    return waiting!;
  }

  private start(): Worker {
    const worker = startModuleWorker(THREAD_SCRIPT, {
      workerData: { nice: CHECK_PRIORITY } satisfies ThreadStart,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB },
    });
    this.worker = worker;
    worker.on('message', (reply: StructureCheckReply) => {
      const fault = reply.fault ? new ExtractionError(reply.fault.code, reply.fault.message) : null;
      // Ended before the next check is handed out: what the file made it allocate goes with it.
      if (reply.external > RECYCLE_ABOVE_BYTES) void this.end();
      this.settle(reply.id, fault, false);
    });
    // A thread that failed (out of memory, a crash) gives its check up; the next check starts a new one.
    const failed = () => {
      if (this.worker !== worker) return;
      this.worker = null;
      if (this.current) this.settle(this.current.waiting.request.id, null, true);
    };
    worker.on('error', failed);
    worker.on('exit', failed);
    return worker;
  }

  private settle(id: number, fault: ExtractionError | null, isGivenUp: boolean) {
    const current = this.current;
    if (!current || current.waiting.request.id !== id) return;
    clearTimeout(current.timer);
    this.current = null;
    if (isGivenUp) {
      this.stats.gaveUp += 1;
      void this.end(); // it may be stuck on the file: a fresh thread takes the next
    } else {
      this.stats.checked += 1;
      if (fault) this.stats.refused += 1;
    }
    current.waiting.resolve(fault);
    if (this.queue.length > 0) this.next();
    else this.waitIdle();
  }

  private waitIdle() {
    if (!this.worker) return;
    this.worker.unref(); // An idle thread never keeps the process alive.
    this.idleTimer = setTimeout(() => void this.end(), IDLE_MS);
    this.idleTimer.unref();
  }

  /**
   * Ends the thread, and resolves once every thread this checker ended has exited: a thread ended
   * without waiting (given up, recycled) may still be exiting when close() asks, and close() must
   * not resolve while it runs (the process's threads are back to what they were; decision 0102).
   */
  private async end(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = this.worker;
    this.worker = null;
    if (worker) {
      const exited = worker.terminate().then(
        () => {},
        () => {},
      );
      this.exiting.add(exited);
      void exited.then(() => this.exiting.delete(exited));
    }
    await Promise.all(this.exiting);
  }
}

let shared: StructureChecker | null = null;

/**
 * The file fault stream-guard.ts's counts find in a PDF, checked on the structure-check thread; null
 * when they find none, the check was given up or skipped. `bytes` are copied (the caller keeps its
 * own); `place`: whose file it is (owners take turns), and what `skipStructureCheck` names.
 */
export function checkStructureOffThread(bytes: Uint8Array, place: CheckPlace): Promise<ExtractionError | null> {
  shared ??= new StructureChecker(CHECK_LIMIT_MS);
  return shared.check(bytes.slice(), place);
}

/**
 * Someone now waits for the file of `place`: if its check is still waiting for the thread, it is
 * not made (the read goes on to a nice-0 reading thread, which runs the same counts first), so a
 * grade never waits behind other people's uploads being counted.
 */
export function skipStructureCheck(place: CheckPlace) {
  shared?.skip(place);
}

/** The shared checker's counters: diagnostics, the benchmark and tests. */
export function structureCheckStats(): StructureCheckStats {
  return { ...(shared?.stats ?? { checked: 0, refused: 0, gaveUp: 0, skipped: 0 }) };
}

/** Ends the structure-check thread (graceful shutdown, tests); the next check starts a new one. */
export async function closeStructureCheck(): Promise<void> {
  await shared?.close();
}
