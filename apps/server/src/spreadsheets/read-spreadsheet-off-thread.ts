import { EventEmitter } from 'node:events';
import { siblingModule, startModuleWorker } from '../lib/module-worker.ts';
import { AppError, payloadTooLarge, unsupportedFile } from '../lib/errors.ts';
import { ROSTER_SPREADSHEET_LIMITS, type SpreadsheetLimits } from './spreadsheet-limits.ts';
import type { SpreadsheetThreadReply, SpreadsheetThreadRequest } from './spreadsheet-thread.ts';

/**
 * Roster spreadsheets are read on a thread of their own, one thread per file, never on the thread
 * that answers requests: a 52 KB sheet with one cell at column XFD in each of 10,000 rows kept the
 * server's event loop busy for 11-20 s, and every other request waited (bench/hostile-files.ts).
 * The size guards (zip-guard.ts) refuse such files before parsing now, but SheetJS stays CPU work
 * on untrusted input, so the thread also has a heap limit and a time limit: past either it is
 * terminated and the upload gets a 4xx with a sentence saying why. A thread per file costs about
 * a second to start, which a roster upload (rare, interactive) affords; a thread that read a file
 * is never reused, so whatever it allocated goes with it.
 */

export interface SpreadsheetThreadLimits {
  /** The whole read, thread start included. */
  timeoutMs: number;
  /** V8 old-generation heap of the thread, in MB. */
  heapLimitMb: number;
  /** Threads reading at once in this process; further uploads wait their turn. */
  maxThreads: number;
}

export const SPREADSHEET_THREAD_LIMITS: SpreadsheetThreadLimits = {
  timeoutMs: 20_000,
  heapLimitMb: 256,
  maxThreads: 2,
};

const THREAD_SCRIPT = siblingModule('spreadsheet-thread', import.meta.url);

/** 'reading' fires when a thread has been given a file (tests use it to act while one is busy). */
export const spreadsheetThreadEvents = new EventEmitter();

const tooSlow = (limitMs: number) =>
  new AppError(
    'UNPROCESSABLE',
    `Reading this spreadsheet took longer than ${limitMs >= 1000 ? `${Math.round(limitMs / 1000)} seconds` : `${limitMs} ms`}, so it was stopped. Please save only the sheet with the email addresses as .xlsx and upload it again.`,
  );
const tooMuchMemory = () =>
  payloadTooLarge(
    'This spreadsheet needs too much memory to read. Please save only the sheet with the email addresses as .xlsx and upload it again.',
  );
const unreadable = () =>
  unsupportedFile(
    'The spreadsheet could not be read. It may be damaged: please save it again as .xlsx or .xls and retry.',
  );

let running = 0;
const waiting: (() => void)[] = [];

/** `readEmailsFromSpreadsheet` on a thread of its own, within `threadLimits`; refusals are the same AppErrors. */
export async function readEmailsFromSpreadsheetOffThread(
  content: Buffer,
  limits: SpreadsheetLimits = ROSTER_SPREADSHEET_LIMITS,
  threadLimits: SpreadsheetThreadLimits = SPREADSHEET_THREAD_LIMITS,
): Promise<string[]> {
  // Refused here, before any thread starts: the one check that needs no parsing.
  if (content.length > limits.maxFileBytes) {
    throw payloadTooLarge(
      `The spreadsheet is too large (at most ${Math.floor(limits.maxFileBytes / (1024 * 1024))} MB).`,
    );
  }
  if (running >= threadLimits.maxThreads) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await readOnThread(content, limits, threadLimits);
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

function readOnThread(
  content: Buffer,
  limits: SpreadsheetLimits,
  threadLimits: SpreadsheetThreadLimits,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const worker = startModuleWorker(THREAD_SCRIPT, {
      resourceLimits: { maxOldGenerationSizeMb: threadLimits.heapLimitMb },
    });
    let isSettled = false;
    const settle = (outcome: { emails: string[] } | { error: Error }) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      // A thread is used once: ending it returns its memory, whatever the file made it allocate.
      void worker.terminate().catch(() => {});
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.emails);
    };
    const timer = setTimeout(() => settle({ error: tooSlow(threadLimits.timeoutMs) }), threadLimits.timeoutMs);
    worker.on('message', (reply: SpreadsheetThreadReply) => {
      if (reply.ok) settle({ emails: reply.emails });
      else
        settle({
          error: reply.error ? new AppError(reply.error.code, reply.error.message) : unreadable(),
        });
    });
    worker.on('error', (error: NodeJS.ErrnoException) => {
      settle({
        error:
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? tooMuchMemory()
            : new Error('The spreadsheet thread failed.', { cause: error }),
      });
    });
    worker.on('exit', (code) => settle({ error: new Error(`The spreadsheet thread exited with code ${code}.`) }));
    // A copy of its own for the thread: the request's buffer may be a view on a shared pool.
    const bytes = new Uint8Array(content);
    worker.postMessage({ content: bytes, limits } satisfies SpreadsheetThreadRequest, [bytes.buffer]);
    spreadsheetThreadEvents.emit('reading');
  });
}
