import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { DEFAULT_EXTRACTION_MEMORY_MB, defaultExtractionThreads } from '../config.ts';
import { siblingModule, startModuleWorker } from '../lib/module-worker.ts';
// Types only from extract-text.ts: importing its code would load pdf.js (about 200 MB of heap) into this thread.
import type { ExtractionOptions, PdfExtraction, RenderPagesOptions } from './extract-text.ts';
import {
  DEFAULT_EXTRACTION_TIMEOUT_MS,
  ExtractionError,
  extractionMemoryError,
  extractionTimeoutError,
  fileWorkBudgetError,
  workBudgetError,
} from './extraction-error.ts';
import type { ThreadMemory, ThreadReply, ThreadRequest, ThreadStart, SerializedError } from './extraction-protocol.ts';
import { closeStructureCheck } from './structure-check.ts';

/**
 * PDF extraction on worker threads, so the server's event loop stays free while pdf.js parses,
 * renders and OCRs. On the main thread a grade-all batch was extracting 69% of the time, and
 * every HTTP answer, database query and model reply waited behind it (bench/README.md); worse, a
 * few kilobytes of PDF with a huge content stream keep pdf.js busy for many seconds without ever
 * yielding to a timer, which no in-thread deadline can interrupt. Here each thread runs
 * `extractPdfText` / `renderPdfPages` (extraction-worker.ts) one call at a time, with its own
 * pdf.js (and its polyfills, see native-builtins.ts) and its own OCR worker; a call that runs over
 * its time limit or kills its thread rejects with an ExtractionError and the thread is replaced.
 *
 * Memory: each thread has a V8 heap limit (`heapLimitMb`, EXTRACTION_MEMORY_MB); a thread that
 * reaches it dies, its call is refused with an 'out-of-memory' ExtractionError, and a new thread
 * takes the next call. Decoded streams live outside the heap, where that limit does not reach
 * (stream-guard.ts refuses flate bombs before pdf.js decodes them), and a thread keeps what it
 * allocated: so a thread that
 * ends a call holding more than `recycleAboveMb` outside its heap is ended too, and its memory returns to the
 * system (bench/hostile-files.ts measures it).
 *
 * Fairness (docs/decisions/0066-fair-bounded-pdf-reading.md): each call has a place, an owner (whose
 * file it is) and a lane. 'interactive' calls (a grade, a rubric draft: someone is waiting) go
 * before 'background' ones (reading uploads ahead), and may use one thread more than `threads`:
 * background calls never hold more than `threads`, so a thread is always left for the people
 * waiting. Within a lane the owners take turns: the next call is the oldest of the owner with the
 * fewest calls running, then of the one served longest ago, so one person's three files never
 * queue another's behind them. A background call that someone starts waiting for moves to the
 * interactive lane (`promote`). With `backgroundAtLowPriority` (the shared pool) uploads are read
 * on threads of their own at a lower OS priority, and an upload whose page spins stops holding
 * the lane after LOWER_PRIORITY_AFTER_MS (see the option).
 *
 * Work: besides the time limit, each call may spend `cpuPerPageMs` of its thread's CPU time on
 * one page (opening the file counts with the first), and `cpuPerFileMs` on the whole file, so that
 * many pages each just under their budget do not hold a thread for minutes either (decision 0096).
 * The pool reads the thread's own CPU clock
 * (Linux: /proc/self/task/<tid>/stat), so a busy machine does not make an honest file run over, and
 * a file that makes pdf.js spin is refused as 'too-complex' within seconds: its thread is
 * terminated and replaced. Before that, the thread refuses what can be counted up front: pages,
 * nesting (stream-guard.ts) and operators (extract-text.ts).
 *
 * Threads start on demand, up to the limits above, and stay for the next calls; a thread with no
 * call for `idleMs` ends (pdf.js and its OCR worker hold about 65 MB that an idle server does not
 * need) and the next call starts a new one; `close()` ends them (and their OCR workers) for a
 * graceful shutdown. A busy thread keeps the process alive until its call is answered; an idle one
 * does not, so a forgotten close() never leaves a command hanging.
 */

/** 'interactive': someone waits for the text (grading, a rubric draft); 'background': read ahead of need (uploads). */
export type ReadLane = 'interactive' | 'background';

/** Where a call waits: its lane, and whose file it is (one queue per owner in each lane). */
export interface ReadPlace {
  /** Whose file it is: the uploader's user id (one person's files take turns with everyone else's). */
  owner: string;
  lane: ReadLane;
}

export interface ExtractionPoolOptions {
  /**
   * Threads for background calls at most (each holds its own pdf.js and, once a scan was read, a
   * tesseract worker); interactive calls may use one more.
   */
  threads: number;
  /** Heap limit of each thread, in MB (default: Node's). A thread over it dies, and its call is refused as 'out-of-memory'. */
  heapLimitMb?: number;
  /**
   * A thread that holds more than this outside its heap (decoded streams, images; in MB) after a
   * call is ended and replaced, so a hostile file's memory does not stay (default 64).
   */
  recycleAboveMb?: number;
  /** A thread with no call for this long ends, and the next call starts a new one (default: threads stay). */
  idleMs?: number;
  /** Sets an idle thread's timer; returns its cancel (default: an unreferenced setTimeout). Tests pass their own. */
  idleTimer?: IdleTimer;
  /**
   * CPU time (ms) a call may spend on one page, opening included in the first; over it the call is
   * refused as 'too-complex' and its thread replaced (default 5,000; where the thread's CPU clock
   * cannot be read, only the time limit applies). Infinity: no budget, and no lowered priority.
   */
  cpuPerPageMs?: number;
  /**
   * CPU time (ms) a call may spend on the whole file, all its pages and its opening; over it the
   * call is refused as 'too-complex' and its thread replaced (default 30,000: twice what a 50-page
   * scan costs, decision 0096); Infinity, and the default when `cpuPerPageMs` is Infinity: none.
   */
  cpuPerFileMs?: number;
  /**
   * Background calls run on threads of their own (up to `threads`, and one successor), which
   * lower their OS priority (nice 10) before loading pdf.js: while an upload is read, even one that
   * spins until its budget stops it, the server's thread and the interactive reads take the cores
   * first. Interactive calls keep `threads` others, idle and loaded, so a grade never waits for a
   * thread to load pdf.js (a second or more); they borrow an idle background thread only when they
   * may start none. A page past LOWER_PRIORITY_AFTER_MS of CPU gets its successor thread started,
   * and the next upload starts on it without waiting for the budget. The shared pool does; default
   * false (any idle thread takes any call).
   */
  backgroundAtLowPriority?: boolean;
}

/** Calls `onIdle` after `ms`, unless the returned function is called first. */
export type IdleTimer = (onIdle: () => void, ms: number) => () => void;

const unreferencedTimer: IdleTimer = (onIdle, ms) => {
  const timer = setTimeout(onIdle, Math.min(ms, MAX_TIMER_MS));
  timer.unref(); // An idle thread's timer never keeps the process alive either.
  return () => clearTimeout(timer);
};

export interface ExtractionPoolStats {
  /** Threads running now (busy or idle). */
  threads: number;
  busy: number;
  queued: number;
  /** Of `queued`, those in the interactive lane. */
  queuedInteractive: number;
  /** Threads ended because a call ran over its time limit or its work budget, or the thread died. */
  replaced: number;
  /** Of `replaced`, calls that ran over a CPU budget, a page's or the whole file's. */
  overBudget: number;
  /** Of `overBudget`, calls that ran over the whole file's budget. */
  overFileBudget: number;
  /** Threads put at a lower OS priority because a page had used LOWER_PRIORITY_AFTER_MS of CPU. */
  lowered: number;
  /** Calls being read at a lower priority that were started again on an interactive thread (`promote`). */
  moved: number;
  /** Threads ended after a call because they held more than `recycleAboveMb`. */
  recycled: number;
  /** Threads ended because they had no call for `idleMs`. */
  idled: number;
  /** Calls handed to a thread so far. */
  calls: number;
}

/**
 * pdf.js itself keeps about 30 MB outside the heap once it has read a scan; a file that unpacks
 * into a 60 MB content stream (just within stream-guard.ts's caps) leaves about 100 MB.
 */
const DEFAULT_RECYCLE_ABOVE_MB = 64;
const MB = 1024 * 1024;

/**
 * A page of an honest file costs its thread well under a second of CPU (a typed page 20-50 ms, a
 * scan's page about 300 ms to render for OCR, a 60 MB content stream about 1 s); a file that makes
 * pdf.js spin is stopped after this much (bench/hostile-files.ts).
 */
const DEFAULT_CPU_PER_PAGE_MS = 5_000;
/**
 * The whole file's CPU: a 50-page scan (the most pages a file may have) costs its thread about
 * 13.5 s (271 ms a page, rendered for OCR; the OCR itself runs on its own thread), a 50-page typed
 * file about 2.5 s. Without it, 50 pages each just under their budget held a thread up to the time
 * limit (decision 0096).
 */
const DEFAULT_CPU_PER_FILE_MS = 30_000;
/**
 * A file that has used this share of its budget is, like a page past LOWER_PRIORITY_AFTER_MS,
 * suspect: it stops holding the background lane, and an interactive thread reading it is lowered.
 */
const SUSPECT_FILE_SHARE = 1 / 3;
/** How often the CPU clocks of busy threads are read. */
const CPU_CHECK_MS = 200;
/**
 * A page that has used this much CPU is far past an honest page's cost: for the rest of its budget
 * its thread runs at a lower OS priority (nice 10), so the server's own thread and the
 * interactive reads take the cores first. Linux lets no unprivileged thread raise its priority
 * back, so that thread ends after its call.
 */
const LOWER_PRIORITY_AFTER_MS = 2_000;
const LOWER_PRIORITY = 10;
/** The OS priority (nice) of threads started for background calls (`backgroundAtLowPriority`). */
const BACKGROUND_PRIORITY = 10;
/** Threads only interactive calls may use, beyond `threads`. */
const INTERACTIVE_RESERVE = 1;
/** Owners whose last turn the queue keeps. */
const REMEMBERED_OWNERS = 1_000;

const WORKER_SCRIPT = siblingModule('extraction-worker', import.meta.url);

/**
 * The extraction's own deadline (inside the thread) is set later than the pool's, so the pool's
 * timer decides and the caller always gets the same answer: a thread still busy at the limit is
 * terminated, whether pdf.js is awaiting or stuck in a loop that never yields.
 */
const IN_THREAD_DEADLINE_MARGIN_MS = 5_000;

const MAX_TIMER_MS = 2 ** 31 - 1;

/** A thread that does not exit within this time after being asked to close is terminated. */
const CLOSE_GRACE_MS = 10_000;

const CRASHED_MESSAGE =
  'This PDF could not be read: it is damaged or too complex. Please export it again and re-upload it.';

type TaskRequest =
  | { kind: 'extract'; bytes: Uint8Array; options: ExtractionOptions }
  | { kind: 'render'; bytes: Uint8Array; options: RenderPagesOptions };

interface Task {
  request: TaskRequest;
  timeoutMs: number;
  place: ReadPlace;
  /** A copy of the bytes while a low-priority thread reads them, so the call can move (`promote`). */
  spareBytes?: Uint8Array;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** A call a thread is reading. */
interface Running {
  id: number;
  task: Task;
  timer: NodeJS.Timeout;
  /** The lane it was started in (a place promoted later does not move it). */
  lane: ReadLane;
  /** The page being read, from 1. */
  page: number;
  /** The thread's CPU clock (ms) when this page began; undefined until the thread is ready, or without a clock. */
  cpuMark: number | undefined;
  /** The thread's CPU clock (ms) when the call began (once the thread was ready): the whole file's budget. */
  cpuStart: number | undefined;
  /** A page has spent LOWER_PRIORITY_AFTER_MS: its thread's priority is lowered, its successor started. */
  isSuspect: boolean;
}

interface Thread {
  worker: Worker;
  /** It has loaded its modules: a failure from now on is blamed on the PDF it was reading. */
  isReady: boolean;
  /** Its id in the operating system, once ready (Linux); its CPU clock bounds each page's work. */
  osThreadId: number | undefined;
  task: Running | null;
  /** close() was called: the thread ends after its current call. */
  isClosing: boolean;
  /** Started for background calls, at a lower OS priority from its start (`backgroundAtLowPriority`). */
  isBackground: boolean;
  /** Started with an earlier heap limit, or its priority was lowered mid-call: it ends after its current call. */
  isOutdated: boolean;
  /** Resolves when the thread has exited, whatever the reason. */
  exited: Promise<void>;
  /** Cancels the idle timer of a thread waiting for a call (see `idleMs`). */
  cancelIdle: (() => void) | null;
}

export class ExtractionPool {
  private readonly threads = new Set<Thread>();
  /**
   * Threads let go (retired, recycled, ended) that have not exited yet: close() waits for them
   * too, so that when it resolves no thread of the pool (nor its OCR worker) is left running.
   */
  private readonly leaving = new Set<Thread>();
  private readonly queue = new FairQueue();
  private nextId = 1;
  private replaced = 0;
  private overBudget = 0;
  private overFileBudget = 0;
  private lowered = 0;
  private moved = 0;
  private cpuWatch: NodeJS.Timeout | null = null;
  private recycled = 0;
  private idled = 0;
  private calls = 0;
  private maxThreads: number;
  private heapLimitMb: number | undefined;
  private idleMs: number | undefined;
  private cpuPerPageMs: number;
  private cpuPerFileMs: number;

  constructor(private readonly options: ExtractionPoolOptions) {
    this.maxThreads = validThreadCount(options.threads);
    this.heapLimitMb = options.heapLimitMb;
    this.idleMs = options.idleMs;
    this.cpuPerPageMs = options.cpuPerPageMs ?? DEFAULT_CPU_PER_PAGE_MS;
    this.cpuPerFileMs = fileBudgetOf(this.cpuPerPageMs, options.cpuPerFileMs);
  }

  /**
   * `extractPdfText` on a pool thread: same result, same ExtractionError (code and message).
   * The pool takes the bytes: their buffer is transferred to the thread, so `bytes` is empty
   * afterwards (pass a copy to keep them). A view on part of a larger or shared buffer is copied.
   */
  extractPdfText(
    bytes: Uint8Array,
    options: ExtractionOptions = {},
    place: ReadPlace = backgroundPlace(),
  ): Promise<PdfExtraction> {
    return this.submit({ kind: 'extract', bytes, options }, options.timeoutMs, place) as Promise<PdfExtraction>;
  }

  /** `renderPdfPages` on a pool thread; the bytes are taken as by extractPdfText. */
  async renderPdfPages(
    bytes: Uint8Array,
    options: RenderPagesOptions = {},
    place: ReadPlace = backgroundPlace(),
  ): Promise<Buffer[]> {
    const images = (await this.submit({ kind: 'render', bytes, options }, options.timeoutMs, place)) as Uint8Array[];
    return images.map((image) => Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  }

  /**
   * Someone now waits for the call made with `place` (the same object): if it is still queued in
   * the background lane, it moves to the interactive one, behind the interactive calls already
   * waiting. One being read at a lower priority (`backgroundAtLowPriority`) starts again on an
   * interactive thread: its low-priority thread is ended. Any other call being read is left as is.
   */
  promote(place: ReadPlace) {
    if (place.lane === 'interactive') return;
    place.lane = 'interactive';
    if (this.queue.promote(place)) {
      this.dispatch();
      return;
    }
    const reader = [...this.threads].find((thread) => thread.task?.task.place === place);
    if (reader?.isBackground && reader.task!.task.spareBytes) this.moveToInteractive(reader);
  }

  /**
   * Starts a thread now if none runs, so the first call does not wait for it to load pdf.js (a
   * second or more). It stays idle, and keeps no process alive, until a call comes.
   */
  warm() {
    if (this.threads.size > 0) return;
    const thread = this.startThread(false);
    thread.worker.unref();
    this.waitIdle(thread);
  }

  /** Changes the number of threads; extra idle threads end now, extra busy ones after their call. */
  setThreads(threads: number) {
    this.maxThreads = validThreadCount(threads);
    for (const thread of this.threads) if (!thread.task) this.retireIfSurplus(thread);
    this.dispatch();
  }

  /** Changes the heap limit of threads started from now on; idle threads end now, busy ones after their call. */
  setHeapLimit(heapLimitMb: number | undefined) {
    if (heapLimitMb === this.heapLimitMb) return;
    this.heapLimitMb = heapLimitMb;
    for (const thread of [...this.threads]) {
      if (thread.task) thread.isOutdated = true;
      else this.retire(thread);
    }
  }

  /** Changes how long a thread may wait for a call before it ends (undefined: it stays); from each thread's next wait on. */
  setIdleTime(idleMs: number | undefined) {
    this.idleMs = idleMs;
  }

  /** Changes the CPU time a call may spend on one page (see `cpuPerPageMs`); from the next check on. */
  setCpuPerPage(cpuPerPageMs: number) {
    this.cpuPerPageMs = cpuPerPageMs;
    this.rewatchCpu();
  }

  /** Changes the CPU time a call may spend on the whole file (see `cpuPerFileMs`); from the next check on. */
  setCpuPerFile(cpuPerFileMs: number) {
    this.cpuPerFileMs = cpuPerFileMs;
    this.rewatchCpu();
  }

  private rewatchCpu() {
    if (!this.hasCpuBudget()) this.stopWatchingCpu();
    else if ([...this.threads].some((thread) => thread.task)) this.watchCpu();
  }

  private hasCpuBudget(): boolean {
    return this.cpuPerPageMs !== Number.POSITIVE_INFINITY || this.cpuPerFileMs !== Number.POSITIVE_INFINITY;
  }

  stats(): ExtractionPoolStats {
    const busy = [...this.threads].filter((thread) => thread.task).length;
    return {
      threads: this.threads.size,
      busy,
      queued: this.queue.size(),
      queuedInteractive: this.queue.size('interactive'),
      replaced: this.replaced,
      overBudget: this.overBudget,
      overFileBudget: this.overFileBudget,
      lowered: this.lowered,
      moved: this.moved,
      recycled: this.recycled,
      idled: this.idled,
      calls: this.calls,
    };
  }

  /**
   * Ends every thread (and its OCR worker) once its current call is answered; calls still queued
   * are refused. `abort`: calls being read are refused too, and their threads terminated at once.
   * The pool stays usable: a later call starts new threads. Safe to call twice.
   */
  async close(options: { abort?: boolean } = {}): Promise<void> {
    for (const task of this.queue.drain()) task.reject(closedError());
    const closing = [...this.threads];
    for (const thread of closing) {
      thread.isClosing = true;
      if (!thread.task) this.retire(thread);
      else if (options.abort) this.end(thread, closedError());
    }
    await Promise.all([...closing, ...this.leaving].map((thread) => thread.exited));
  }

  // -------------------------------------------------------------------------------------------

  private submit(request: TaskRequest, timeoutMs: number | undefined, place: ReadPlace): Promise<unknown> {
    return new Promise((resolve, reject) => {
      // Node's timers overflow (and fire at once) past 2^31 - 1 ms: longer limits mean "about 24 days".
      const limit = Math.min(timeoutMs ?? DEFAULT_EXTRACTION_TIMEOUT_MS, MAX_TIMER_MS - IN_THREAD_DEADLINE_MARGIN_MS);
      this.queue.push({ request, timeoutMs: limit, place, resolve, reject });
      this.dispatch();
    });
  }

  /** Starts queued calls while a thread is free for them: interactive first, background on at most `threads`. */
  private dispatch() {
    for (;;) {
      const lane = this.nextLane();
      if (!lane) return;
      const thread = this.threadFor(lane);
      if (!thread) return;
      this.run(
        thread,
        this.queue.take(lane, (owner) => this.runningOf(owner)),
        lane,
      );
    }
  }

  /** An idle thread for a call of `lane`, or a new one if there is room; undefined: the call waits. */
  private threadFor(lane: ReadLane): Thread | undefined {
    const idle = [...this.threads].filter((thread) => !thread.task && !thread.isClosing);
    if (!this.options.backgroundAtLowPriority) {
      return (
        idle[0] ?? (this.threads.size < this.maxThreads + INTERACTIVE_RESERVE ? this.startThread(false) : undefined)
      );
    }
    const isBackground = lane === 'background';
    const own = idle.find((thread) => thread.isBackground === isBackground);
    if (own) return own;
    if (this.countOf(isBackground) < this.limitOf(isBackground)) return this.startThread(isBackground);
    // Every interactive thread busy: an idle background one, at its lower priority, rather than
    // wait. Background calls never take an interactive thread: they wait for one of theirs.
    return isBackground ? undefined : idle[0];
  }

  /**
   * With `backgroundAtLowPriority`: `threads` interactive threads, and `threads` background ones
   * plus the successor a spinning page's thread gets (see prepareSuccessor). Without: `threads`
   * and the interactive one, of either use.
   */
  private limitOf(isBackground: boolean): number {
    if (!this.options.backgroundAtLowPriority) return this.maxThreads + INTERACTIVE_RESERVE;
    return isBackground ? this.maxThreads + 1 : this.maxThreads;
  }

  private countOf(isBackground: boolean): number {
    if (!this.options.backgroundAtLowPriority) return this.threads.size;
    return [...this.threads].filter((thread) => thread.isBackground === isBackground).length;
  }

  /**
   * A page has spent LOWER_PRIORITY_AFTER_MS on `thread`: it will likely run out its budget, and
   * its thread be replaced. The thread that takes the next call starts now (background threads
   * only, which have room for one more): the lane's next upload does not wait for the budget.
   */
  private prepareSuccessor(thread: Thread) {
    if (!this.options.backgroundAtLowPriority || !thread.isBackground) return;
    const hasIdle = [...this.threads].some((other) => !other.task && !other.isClosing && other.isBackground);
    if (hasIdle || this.countOf(true) >= this.limitOf(true)) return;
    const successor = this.startThread(true);
    successor.worker.unref();
    this.waitIdle(successor);
  }

  private nextLane(): ReadLane | undefined {
    if (this.queue.size('interactive') > 0) return 'interactive';
    if (this.queue.size('background') === 0) return undefined;
    // With threads of their own, a page past LOWER_PRIORITY_AFTER_MS no longer holds the lane: the
    // next upload starts on its successor while it runs out its budget.
    const holdsLane = (task: Running) =>
      task.lane === 'background' && !(task.isSuspect && this.options.backgroundAtLowPriority);
    const background = [...this.threads].filter((thread) => thread.task && holdsLane(thread.task)).length;
    return background < this.maxThreads ? 'background' : undefined;
  }

  private runningOf(owner: string): number {
    return [...this.threads].filter((thread) => thread.task?.task.place.owner === owner).length;
  }

  private run(thread: Thread, task: Task, lane: ReadLane) {
    const id = this.nextId++;
    const { request } = task;
    // Kept before the bytes are handed over: a low-priority read someone starts waiting for moves.
    if (thread.isBackground) task.spareBytes = request.bytes.slice();
    const bytes = ownedBytes(request.bytes);
    const options = { ...request.options, timeoutMs: task.timeoutMs + IN_THREAD_DEADLINE_MARGIN_MS };
    const message: ThreadRequest = { ...request, id, bytes, options } as ThreadRequest;
    const timer = setTimeout(() => {
      this.fail(thread, extractionTimeoutError(task.timeoutMs));
    }, task.timeoutMs);
    this.stopWaitingIdle(thread);
    const cpuNow = thread.isReady ? cpuOfThread(thread.osThreadId) : undefined;
    thread.task = { id, task, timer, lane, page: 1, cpuMark: cpuNow, cpuStart: cpuNow, isSuspect: false };
    this.watchCpu();
    this.calls += 1;
    thread.worker.ref();
    try {
      thread.worker.postMessage(message, [bytes.buffer as ArrayBuffer]);
    } catch (error) {
      // Bytes that cannot be sent (a detached buffer, options that cannot be cloned): refuse this call only.
      clearTimeout(timer);
      thread.task = null;
      thread.worker.unref();
      task.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private startThread(isBackground: boolean): Thread {
    const heapLimitMb = this.heapLimitMb;
    const workerData: ThreadStart = { nice: isBackground ? BACKGROUND_PRIORITY : undefined };
    const worker = startModuleWorker(WORKER_SCRIPT, {
      workerData,
      ...(heapLimitMb ? { resourceLimits: { maxOldGenerationSizeMb: heapLimitMb } } : {}),
    });
    const thread: Thread = {
      worker,
      isReady: false,
      osThreadId: undefined,
      task: null,
      isClosing: false,
      isBackground,
      isOutdated: false,
      cancelIdle: null,
      exited: new Promise((resolve) => worker.once('exit', () => resolve())),
    };
    this.threads.add(thread);
    worker.on('message', (reply: ThreadReply) => this.onReply(thread, reply));
    worker.on('error', (error: NodeJS.ErrnoException) => {
      // Out of memory is the file's doing even while the thread loads: pdf.js alone fits the limit.
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') this.fail(thread, extractionMemoryError(heapLimitMb, error));
      else
        this.fail(
          thread,
          thread.isReady ? new ExtractionError('corrupt', CRASHED_MESSAGE, { cause: error }) : startFailure(error),
        );
    });
    worker.on('exit', (code) => {
      // An exit nobody asked for (the thread is still counted): whatever it was reading is refused.
      if (this.threads.has(thread)) {
        const cause = new Error(`The PDF extraction thread exited with code ${code}.`);
        this.fail(
          thread,
          thread.isReady ? new ExtractionError('corrupt', CRASHED_MESSAGE, { cause }) : startFailure(cause),
        );
      }
    });
    return thread;
  }

  private onReply(thread: Thread, reply: ThreadReply) {
    if (reply.kind === 'ready') {
      thread.isReady = true;
      thread.osThreadId = reply.osThreadId;
      // A call sent while the thread loaded starts its budgets now: loading pdf.js is not the file's work.
      if (thread.task) thread.task.cpuMark = thread.task.cpuStart = cpuOfThread(thread.osThreadId);
      return;
    }
    const current = thread.task;
    if (!current || current.id !== reply.id) return; // A late answer to a call that already timed out.
    if (reply.kind === 'page-read') {
      current.page += 1;
      current.cpuMark = cpuOfThread(thread.osThreadId);
      return;
    }
    clearTimeout(current.timer);
    thread.task = null;
    if (reply.ok) current.task.resolve(reply.value);
    else current.task.reject(deserializeError(reply.error));
    if (this.holdsTooMuch(reply.memory)) {
      // What a hostile file made the thread allocate goes with the thread; a fresh one takes the next call.
      this.recycled += 1;
      this.retire(thread);
    } else if (thread.isClosing || thread.isOutdated) this.retire(thread);
    else if (!this.retireIfSurplus(thread)) {
      thread.worker.unref(); // An idle thread does not keep the process alive.
      this.waitIdle(thread);
    }
    this.dispatch();
  }

  /** Starts the idle timer of a thread that has no call (if `idleMs` is set): when it fires, the thread ends. */
  private waitIdle(thread: Thread) {
    if (this.idleMs === undefined) return;
    this.stopWaitingIdle(thread);
    thread.cancelIdle = (this.options.idleTimer ?? unreferencedTimer)(() => {
      thread.cancelIdle = null;
      // Still idle and still ours: a call given to it in the meantime cancelled this timer.
      if (thread.task || !this.threads.has(thread)) return;
      this.idled += 1;
      this.retire(thread);
    }, this.idleMs);
  }

  private stopWaitingIdle(thread: Thread) {
    thread.cancelIdle?.();
    thread.cancelIdle = null;
  }

  /** The heap needs no such check: its limit bounds it, and the next call's garbage collection reclaims it. */
  private holdsTooMuch(memory: ThreadMemory): boolean {
    return memory.external > (this.options.recycleAboveMb ?? DEFAULT_RECYCLE_ABOVE_MB) * MB;
  }

  /** The thread died or ran over: its call is refused, the thread ends, and a new one takes the queue. */
  private fail(thread: Thread, error: Error) {
    if (this.end(thread, error)) this.replaced += 1;
    this.dispatch();
  }

  /** Ends the low-priority thread reading `thread`'s call and queues the call again, in the interactive lane. */
  private moveToInteractive(thread: Thread) {
    const current = thread.task!;
    clearTimeout(current.timer);
    thread.task = null;
    this.threads.delete(thread);
    this.letGo(thread);
    this.stopWaitingIdle(thread);
    void thread.worker.terminate().catch(() => {});
    const task = current.task;
    task.request = { ...task.request, bytes: task.spareBytes! } as TaskRequest;
    task.spareBytes = undefined;
    this.moved += 1;
    this.queue.push(task);
    this.dispatch();
    // The next upload would otherwise wait for a new low-priority thread to load pdf.js (a second
    // or more of CPU at nice 10: minutes of wall time on a saturated machine, decision 0096); it
    // loads now, while nothing waits, and ends after `idleMs` if no upload comes.
    if (this.countOf(true) === 0) {
      const successor = this.startThread(true);
      successor.worker.unref();
      this.waitIdle(successor);
    }
  }

  /** Terminates the thread and refuses its call with `error`; true if it had one. */
  private end(thread: Thread, error: Error): boolean {
    if (!this.threads.has(thread)) return false;
    this.threads.delete(thread);
    this.letGo(thread);
    this.stopWaitingIdle(thread);
    const current = thread.task;
    thread.task = null;
    if (current) {
      clearTimeout(current.timer);
      current.task.reject(error);
    }
    void thread.worker.terminate().catch(() => {});
    return current !== null;
  }

  /**
   * Reads the CPU clocks of busy threads every CPU_CHECK_MS while any is busy. Without a budget
   * (Infinity: the benchmarks' references, tests about something else) nothing is watched: no
   * refusal, no lowered priority.
   */
  private watchCpu() {
    if (this.cpuWatch || !this.hasCpuBudget()) return;
    this.cpuWatch = setInterval(() => this.checkCpu(), CPU_CHECK_MS);
    this.cpuWatch.unref(); // Busy threads keep the process alive; this timer need not.
  }

  /** A call whose page, or whole file, has used more than its CPU budget is refused and its thread replaced. */
  private checkCpu() {
    const budget = this.cpuPerPageMs;
    const fileBudget = this.cpuPerFileMs;
    let isAnyBusy = false;
    for (const thread of [...this.threads]) {
      const current = thread.task;
      if (!current) continue;
      isAnyBusy = true;
      if (current.cpuMark === undefined || current.cpuStart === undefined) continue;
      const now = cpuOfThread(thread.osThreadId) ?? current.cpuMark;
      const used = now - current.cpuMark;
      const usedByFile = now - current.cpuStart;
      if (usedByFile > fileBudget) {
        this.overBudget += 1;
        this.overFileBudget += 1;
        this.fail(thread, fileWorkBudgetError(fileBudget));
        continue;
      }
      const isSuspect = used > LOWER_PRIORITY_AFTER_MS || usedByFile > fileBudget * SUSPECT_FILE_SHARE;
      if (isSuspect && !current.isSuspect) {
        current.isSuspect = true;
        this.prepareSuccessor(thread);
        if (!thread.isBackground) {
          this.lowered += 1;
          lowerPriority(thread);
        }
        this.dispatch(); // The lane it no longer holds takes its next call.
      }
      if (used <= budget) continue;
      this.overBudget += 1;
      this.fail(thread, workBudgetError(budget, current.page));
    }
    if (!isAnyBusy) this.stopWatchingCpu();
  }

  private stopWatchingCpu() {
    if (this.cpuWatch) clearInterval(this.cpuWatch);
    this.cpuWatch = null;
  }

  private retireIfSurplus(thread: Thread): boolean {
    if (this.countOf(thread.isBackground) <= this.limitOf(thread.isBackground)) return false;
    this.retire(thread);
    return true;
  }

  /** A thread out of the pool is remembered until it has exited (see `leaving`). */
  private letGo(thread: Thread) {
    this.leaving.add(thread);
    void thread.exited.then(() => this.leaving.delete(thread));
  }

  /** Asks an idle thread to finish (OCR worker first); terminates it if it does not. */
  private retire(thread: Thread) {
    if (!this.threads.delete(thread)) return;
    this.letGo(thread);
    this.stopWaitingIdle(thread);
    thread.worker.ref();
    thread.worker.postMessage({ kind: 'close' } satisfies ThreadRequest);
    const timer = setTimeout(() => void thread.worker.terminate().catch(() => {}), CLOSE_GRACE_MS);
    void thread.exited.then(() => clearTimeout(timer));
  }
}

// ---------------------------------------------------------------------------------------------
// The pool the server uses

let sharedThreads = defaultExtractionThreads();
let sharedHeapLimitMb: number | undefined = DEFAULT_EXTRACTION_MEMORY_MB;
let sharedIdleMs: number | undefined;
let sharedCpuPerPageMs: number | undefined;
let sharedCpuPerFileMs: number | undefined;
let shared: ExtractionPool | null = null;

/**
 * Sets the shared pool's size (EXTRACTION_THREADS), each thread's heap limit
 * (EXTRACTION_MEMORY_MB) and how long an idle thread stays (EXTRACTION_IDLE_MS; undefined: for
 * good, as in the CLIs); main.ts, worker.ts and the CLIs call it at start. `warm`: start one
 * thread now rather than on the first PDF (the hostile-files benchmark measures from a warm
 * thread); the servers do not, so that an idle server holds no pdf.js
 * (docs/decisions/0047-idle-server-loads-on-first-use.md). `cpuPerPageMs`: each page's CPU
 * budget (default 5 s; tests that are about something else set their own); `cpuPerFileMs`: the
 * whole file's (default 30 s, or none when `cpuPerPageMs` is Infinity).
 */
export function configureExtractionPool(options: {
  threads: number;
  heapLimitMb?: number;
  idleMs?: number;
  cpuPerPageMs?: number;
  cpuPerFileMs?: number;
  warm?: boolean;
}) {
  sharedThreads = validThreadCount(options.threads);
  if (options.heapLimitMb !== undefined) sharedHeapLimitMb = options.heapLimitMb;
  sharedIdleMs = options.idleMs;
  if (options.cpuPerPageMs !== undefined) sharedCpuPerPageMs = options.cpuPerPageMs;
  if (options.cpuPerPageMs !== undefined || options.cpuPerFileMs !== undefined)
    sharedCpuPerFileMs = fileBudgetOf(sharedCpuPerPageMs ?? DEFAULT_CPU_PER_PAGE_MS, options.cpuPerFileMs);
  shared?.setThreads(sharedThreads);
  shared?.setHeapLimit(sharedHeapLimitMb);
  shared?.setIdleTime(sharedIdleMs);
  if (sharedCpuPerPageMs !== undefined) shared?.setCpuPerPage(sharedCpuPerPageMs);
  if (sharedCpuPerFileMs !== undefined) shared?.setCpuPerFile(sharedCpuPerFileMs);
  if (options.warm) sharedPool().warm();
}

function sharedPool(): ExtractionPool {
  shared ??= new ExtractionPool({
    threads: sharedThreads,
    heapLimitMb: sharedHeapLimitMb,
    idleMs: sharedIdleMs,
    cpuPerPageMs: sharedCpuPerPageMs,
    cpuPerFileMs: sharedCpuPerFileMs,
    backgroundAtLowPriority: true,
  });
  return shared;
}

/** The shared pool's counters (threads, calls, replaced and recycled threads): diagnostics and tests. */
export function extractionPoolStats(): ExtractionPoolStats {
  return sharedPool().stats();
}

/** `extractPdfText` on the shared pool's threads. Takes the bytes (see ExtractionPool.extractPdfText). */
export function extractPdfTextInPool(
  bytes: Uint8Array,
  options?: ExtractionOptions,
  place?: ReadPlace,
): Promise<PdfExtraction> {
  return sharedPool().extractPdfText(bytes, options, place);
}

/** `renderPdfPages` on the shared pool's threads. Takes the bytes. */
export function renderPdfPagesInPool(
  bytes: Uint8Array,
  options?: RenderPagesOptions,
  place?: ReadPlace,
): Promise<Buffer[]> {
  return sharedPool().renderPdfPages(bytes, options, place);
}

/** Someone now waits for the shared pool's call made with `place`: see ExtractionPool.promote. */
export function promoteInPool(place: ReadPlace) {
  sharedPool().promote(place);
}

/**
 * Ends the shared pool's threads and the structure-check thread (graceful shutdown, end of a CLI);
 * `abort`: without waiting for the calls being read (see ExtractionPool.close). Safe to call at any
 * time, also twice.
 */
export async function closeExtractionPool(options?: { abort?: boolean }): Promise<void> {
  await Promise.all([shared?.close(options), closeStructureCheck()]);
}

// ---------------------------------------------------------------------------------------------

/**
 * The calls waiting for a thread: per lane, one first-in-first-out list per owner. `take` serves
 * the owner with the fewest calls running, then the one served longest ago (never served: first),
 * so owners take turns whatever order their calls came in.
 */
class FairQueue {
  private readonly lanes: Record<ReadLane, Map<string, Task[]>> = { interactive: new Map(), background: new Map() };
  /**
   * The turn each owner was last served at, oldest first; the oldest are forgotten past
   * REMEMBERED_OWNERS (a forgotten owner ranks as never served, which it nearly is).
   */
  private readonly servedAt = new Map<string, number>();
  private turn = 0;

  size(lane?: ReadLane): number {
    const lanes = lane ? [this.lanes[lane]] : Object.values(this.lanes);
    let count = 0;
    for (const owners of lanes) for (const tasks of owners.values()) count += tasks.length;
    return count;
  }

  push(task: Task) {
    const owners = this.lanes[task.place.lane];
    const tasks = owners.get(task.place.owner);
    if (tasks) tasks.push(task);
    else owners.set(task.place.owner, [task]);
  }

  /** The next call of `lane` (which must have one). */
  take(lane: ReadLane, runningOf: (owner: string) => number): Task {
    const owners = this.lanes[lane];
    let chosen: { owner: string; running: number; servedAt: number } | undefined;
    for (const owner of owners.keys()) {
      const candidate = { owner, running: runningOf(owner), servedAt: this.servedAt.get(owner) ?? -1 };
      if (
        !chosen ||
        candidate.running < chosen.running ||
        (candidate.running === chosen.running && candidate.servedAt < chosen.servedAt)
      )
        chosen = candidate;
    }
    const tasks = owners.get(chosen!.owner)!;
    const task = tasks.shift()!;
    if (tasks.length === 0) owners.delete(chosen!.owner);
    this.servedAt.delete(chosen!.owner);
    this.servedAt.set(chosen!.owner, ++this.turn);
    if (this.servedAt.size > REMEMBERED_OWNERS) this.servedAt.delete(this.servedAt.keys().next().value!);
    return task;
  }

  /** Moves the background call made with `place` to the interactive lane; false if it is not waiting there. */
  promote(place: ReadPlace): boolean {
    const tasks = this.lanes.background.get(place.owner);
    const index = tasks?.findIndex((task) => task.place === place) ?? -1;
    if (!tasks || index < 0) return false;
    const [task] = tasks.splice(index, 1);
    if (tasks.length === 0) this.lanes.background.delete(place.owner);
    this.push(task!);
    return true;
  }

  drain(): Task[] {
    const tasks = Object.values(this.lanes).flatMap((owners) => [...owners.values()].flat());
    for (const owners of Object.values(this.lanes)) owners.clear();
    this.servedAt.clear();
    return tasks;
  }
}

/** Runs a thread that is spinning on one page at a lower OS priority; it ends after its call (see LOWER_PRIORITY_AFTER_MS). */
function lowerPriority(thread: Thread) {
  thread.isOutdated = true;
  try {
    // On Linux a thread id names that thread alone to setpriority(2).
    if (thread.osThreadId !== undefined) setPriority(thread.osThreadId, LOWER_PRIORITY);
  } catch {
    // Not allowed here (a container's policy): the budget still stops the page.
  }
}

/** The whole file's CPU budget: the one given, else none without a page budget, else the default. */
function fileBudgetOf(cpuPerPageMs: number, cpuPerFileMs: number | undefined): number {
  if (cpuPerFileMs !== undefined) return cpuPerFileMs;
  return cpuPerPageMs === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : DEFAULT_CPU_PER_FILE_MS;
}

/** A place of its own for each call that names none: a background call with no owner. */
function backgroundPlace(): ReadPlace {
  return { owner: '', lane: 'background' };
}

function closedError(): Error {
  return new Error('The PDF extraction pool was closed.');
}

/**
 * CPU time (user and system, in ms) a thread of this process has used, read from
 * /proc/self/task/<tid>/stat (Linux: utime and stime, fields 14 and 15, in clock ticks of 10 ms);
 * undefined without an id or where it cannot be read.
 */
function cpuOfThread(osThreadId: number | undefined): number | undefined {
  if (osThreadId === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/self/task/${osThreadId}/stat`, 'latin1');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_CLOCK_TICK;
  } catch {
    return undefined;
  }
}

/** Linux reports thread CPU time in USER_HZ ticks, 100 per second on every architecture Node runs on. */
const MS_PER_CLOCK_TICK = 10;

function validThreadCount(threads: number): number {
  if (!Number.isInteger(threads) || threads < 1)
    throw new Error(`Extraction threads must be a whole number of at least 1, not ${threads}.`);
  return threads;
}

/** Bytes whose whole buffer may be handed to the thread; a view on part of a buffer is copied first. */
function ownedBytes(bytes: Uint8Array): Uint8Array {
  const isWholeBuffer =
    bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return isWholeBuffer ? bytes : bytes.slice();
}

function deserializeError(serialized: SerializedError): Error {
  const cause = serialized.cause ? restoreError(serialized.cause) : undefined;
  const error = serialized.extractionCode
    ? new ExtractionError(serialized.extractionCode, serialized.message, cause ? { cause } : undefined)
    : restoreError(serialized);
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}

function restoreError(plain: { name: string; message: string; stack: string | undefined }): Error {
  const error = new Error(plain.message);
  error.name = plain.name;
  if (plain.stack) error.stack = plain.stack;
  return error;
}

/** The thread could not load its code: a fault of the installation, not of the PDF (no ExtractionError). */
function startFailure(cause: unknown): Error {
  return new Error('The PDF extraction thread could not start.', { cause });
}
