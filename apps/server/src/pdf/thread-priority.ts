import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import type { ThreadStart } from './extraction-protocol.ts';

/**
 * Imported first by extraction-worker.ts, so that it runs before pdf.js is loaded: a thread the
 * pool starts for background reads lowers its own OS priority (`nice` in its workerData), so what
 * it loads and reads yields the cores to the server's thread and the interactive reads. The
 * structure-check thread (structure-check.ts) sets its own the same way. On Linux
 * the nice value belongs to the thread (setpriority(2) on the caller changes this thread alone);
 * a thread may lower its priority but never raise it again, which is why such threads serve
 * background calls only (extraction-pool.ts).
 */
const nice = (workerData as ThreadStart | null)?.nice;
if (nice !== undefined) {
  try {
    setPriority(nice);
  } catch {
    // Not allowed here (a container's policy): the thread runs at the usual priority.
  }
}
