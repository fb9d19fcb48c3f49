// First: the thread sets its OS priority (its workerData's `nice`) before anything else loads.
import './thread-priority.ts';
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { isExtractionError, type ExtractionErrorCode } from './extraction-error.ts';
import { checkContentStreams } from './stream-guard.ts';

/**
 * The body of the structure-check thread (structure-check.ts): stream-guard.ts's counts and
 * nothing else (no pdf.js, so it starts in milliseconds), one file at a time. It answers a file
 * fault found in the file's structure, or that nothing was found.
 */

export interface StructureCheckRequest {
  id: number;
  bytes: Uint8Array;
}

export interface StructureCheckReply {
  id: number;
  /** The file fault the counts found; null: none (or an error that is no verdict on the file). */
  fault: { code: ExtractionErrorCode; message: string } | null;
  /** Bytes this thread holds outside its heap once the file is checked (decoded streams). */
  external: number;
}

const port = parentPort;
if (!port) throw new Error('structure-check-thread.ts runs only as a worker thread (see structure-check.ts).');

port.on('message', (request: StructureCheckRequest) => {
  let fault: StructureCheckReply['fault'] = null;
  try {
    checkContentStreams(request.bytes);
  } catch (error) {
    if (isExtractionError(error)) fault = { code: error.code, message: error.message };
  }
  const statistics = getHeapStatistics() as ReturnType<typeof getHeapStatistics> & { external_memory?: number };
  port.postMessage({ id: request.id, fault, external: statistics.external_memory ?? 0 } satisfies StructureCheckReply);
});
