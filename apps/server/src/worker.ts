import { openRuntime } from './boot.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { closeExtractionPool, configureExtractionPool } from './pdf/extraction-pool.ts';
import { exitAfterShutdownTimeout } from './shutdown.ts';

/**
 * Job workers only, no HTTP: for scaling out on PostgreSQL (DATABASE_URL), where any number of
 * these share the work pg-boss hands out. In the embedded mode `npm start` already runs the
 * workers, and the data-directory lock refuses a second process.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  configureExtractionPool({
    threads: config.extractionThreads,
    heapLimitMb: config.extractionMemoryMb,
    idleMs: config.extractionIdleMs,
    // No thread is warmed at start: an idle server does not hold pdf.js (about 25 MB); the first
    // PDF waits for its thread to start instead (docs/decisions/0047-idle-server-loads-on-first-use.md).
  });
  const runtime = await openRuntime(config, { jobs: 'workers' });
  let isStopping = false;
  const stop = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    runtime.ctx.log.info(`${signal} received: letting running jobs finish, then stopping`);
    exitAfterShutdownTimeout(runtime.ctx.log, config.shutdownTimeoutMs);
    await runtime.shutdown();
    await closeExtractionPool().catch((error) =>
      runtime.ctx.log.error({ err: error }, 'closing the PDF extraction threads failed'),
    );
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  runtime.ctx.log.info(`Gradewise worker is running (grading concurrency ${config.gradingConcurrency})`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error('Gradewise worker failed to start:', error);
  }
  process.exit(1);
});
