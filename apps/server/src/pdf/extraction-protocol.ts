import type { ExtractionErrorCode } from './extraction-error.ts';
import type { ExtractionOptions, PdfExtraction, RenderPagesOptions } from './extract-text.ts';

/** Messages between extraction-pool.ts (the server's thread) and extraction-worker.ts (a pool thread). */

/** The thread's `workerData`: `nice`, the OS priority it sets itself before loading pdf.js (thread-priority.ts). */
export interface ThreadStart {
  nice: number | undefined;
}

export type ThreadRequest =
  | { kind: 'extract'; id: number; bytes: Uint8Array; options: ExtractionOptions }
  | { kind: 'render'; id: number; bytes: Uint8Array; options: RenderPagesOptions }
  /** Finish: end the OCR worker, then let the thread exit. */
  | { kind: 'close' };

export type ThreadReply =
  /**
   * The thread has loaded its modules (a failure before this is the thread's fault, not the PDF's).
   * `osThreadId`: its id in the operating system (Linux), whose CPU clock the pool reads; absent elsewhere.
   */
  | { kind: 'ready'; osThreadId: number | undefined }
  /** Call `id` has read one more page: its work budget starts again. */
  | { kind: 'page-read'; id: number }
  | { kind?: undefined; id: number; ok: true; value: PdfExtraction | Uint8Array[]; memory: ThreadMemory }
  | { kind?: undefined; id: number; ok: false; error: SerializedError; memory: ThreadMemory };

/**
 * The thread's own memory once a call is answered, in bytes (V8 heap in use, and memory outside
 * it such as the ArrayBuffers of decoded streams, which the heap limit does not bound).
 */
export interface ThreadMemory {
  heapUsed: number;
  external: number;
}

/** An error as it crosses the thread boundary: ExtractionError keeps its code, anything else its name. */
export interface SerializedError {
  name: string;
  message: string;
  stack: string | undefined;
  extractionCode: ExtractionErrorCode | undefined;
  cause: { name: string; message: string; stack: string | undefined } | undefined;
}
