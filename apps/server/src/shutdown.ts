import type { FastifyBaseLogger } from 'fastify';

/**
 * The bound on stopping (SHUTDOWN_TIMEOUT_MS, decision 0081). A load balancer or an orchestrator
 * sends SIGTERM and waits a fixed time before SIGKILL (Kubernetes: 30 s); a process that stops
 * within its own, shorter bound finishes its requests and hands its jobs back itself instead of
 * being cut at an unknown point.
 */

/** The share of the bound running jobs get to finish before they are aborted and handed back (retried later). */
export function jobGraceOf(shutdownTimeoutMs: number): number {
  // The rest is for aborting the jobs that run over, stopping pg-boss and closing the database.
  return Math.floor(shutdownTimeoutMs * 0.75);
}

/**
 * Starts the clock on stopping: past the bound, the process says so and exits with 1, whatever is
 * still open (a request whose client never finishes its body, a job that ignores its abort).
 * Nothing is lost: a cut request was never answered, so its client sees it fail; a job still
 * running is retried once its lease runs out (jobs/job-queue.ts).
 */
export function exitAfterShutdownTimeout(log: FastifyBaseLogger, shutdownTimeoutMs: number): void {
  setTimeout(() => {
    log.error(
      `stopping took longer than SHUTDOWN_TIMEOUT_MS (${shutdownTimeoutMs} ms): exiting now; requests still open are cut, jobs still running are retried later`,
    );
    process.exit(1);
  }, shutdownTimeoutMs).unref();
}
