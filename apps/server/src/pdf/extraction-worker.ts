// First: the thread lowers its OS priority (background threads) before pdf.js loads.
import './thread-priority.ts';
import { readlinkSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { closeOcr, extractPdfText, isExtractionError, renderPdfPages } from './extract-text.ts';
import type { ThreadReply, ThreadRequest, SerializedError } from './extraction-protocol.ts';

/**
 * The body of one extraction thread (see extraction-pool.ts). pdf.js, its polyfills, the canvas
 * and the OCR worker all live here, so the server's event loop never runs them. One request at a
 * time: the pool sends the next only after the answer to the previous one.
 */

const port = parentPort;
if (!port) throw new Error('extraction-worker.ts runs only as a worker thread (see extraction-pool.ts).');

port.on('message', (request: ThreadRequest) => {
  if (request.kind === 'close') {
    // Ending the OCR worker and the port leaves the thread's event loop empty: the thread exits.
    void closeOcr().finally(() => port.close());
    return;
  }
  void answer(request);
});

async function answer(request: Exclude<ThreadRequest, { kind: 'close' }>) {
  let reply: ThreadReply;
  let transfer: ArrayBuffer[] = [];
  // Between pages the thread is free to say so; a page that never ends is what the pool's budget is for.
  const onPageRead = () => port!.postMessage({ kind: 'page-read', id: request.id } satisfies ThreadReply);
  try {
    if (request.kind === 'extract') {
      reply = {
        id: request.id,
        ok: true,
        value: await extractPdfText(request.bytes, request.options, onPageRead),
        memory: memory(),
      };
    } else {
      // Copied once here, off the server's thread, into buffers of their own that can be transferred.
      const images = (await renderPdfPages(request.bytes, request.options, onPageRead)).map(
        (png) => new Uint8Array(png),
      );
      transfer = images.map((image) => image.buffer as ArrayBuffer);
      reply = { id: request.id, ok: true, value: images, memory: memory() };
    }
  } catch (error) {
    reply = { id: request.id, ok: false, error: serializeError(error), memory: memory() };
  }
  port!.postMessage(reply, transfer);
}

/** This thread's isolate only (process.memoryUsage() would count every thread). */
function memory() {
  const statistics = getHeapStatistics() as ReturnType<typeof getHeapStatistics> & { external_memory?: number };
  return { heapUsed: statistics.used_heap_size, external: statistics.external_memory ?? 0 };
}

function serializeError(error: unknown): SerializedError {
  const plain = plainError(error);
  return {
    ...plain,
    extractionCode: isExtractionError(error) ? error.code : undefined,
    cause: error instanceof Error && error.cause !== undefined ? plainError(error.cause) : undefined,
  };
}

function plainError(error: unknown) {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { name: 'Error', message: String(error), stack: undefined };
}

/** This thread's id in the operating system: /proc/thread-self links to /proc/<pid>/task/<tid> (Linux only). */
function osThreadId(): number | undefined {
  try {
    const id = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    return Number.isInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}

port.postMessage({ kind: 'ready', osThreadId: osThreadId() } satisfies ThreadReply);
