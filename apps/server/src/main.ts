import { openRuntime } from './boot.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { buildApp } from './http/app.ts';
import { closeExtractionPool, configureExtractionPool } from './pdf/extraction-pool.ts';
import { RedisUnreachableError } from './services/request-limits-redis.ts';
import { exitAfterShutdownTimeout } from './shutdown.ts';

/**
 * Starts the HTTP server (API + web app) with the job workers in-process (the embedded default).
 * On PostgreSQL, worker.ts runs more workers in other processes, and JOB_WORKERS=off makes this
 * an API-only process that queues jobs and waits on their rows.
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
  const runtime = await openRuntime(config, {
    jobs: config.runsJobWorkers ? 'workers' : 'send-only',
    servesHttp: true,
  });
  const app = await buildApp(runtime.ctx, { serveWebApp: true });

  let isStopping = false;
  const stop = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    runtime.ctx.log.info(`${signal} received: finishing requests in flight, then stopping`);
    exitAfterShutdownTimeout(runtime.ctx.log, config.shutdownTimeoutMs);
    // At once and together: HTTP stops taking requests and finishes those in flight, while running
    // jobs finish (or are handed back for a retry) and requests waiting on a job are answered with
    // a 503; then what they used is closed.
    await Promise.all([
      runtime.ctx.jobs?.stop().catch((error) => runtime.ctx.log.error({ err: error }, 'stopping the job queue failed')),
      app.close().catch((error) => runtime.ctx.log.error({ err: error }, 'closing HTTP failed')),
    ]);
    await runtime.shutdown();
    await closeExtractionPool().catch((error) =>
      runtime.ctx.log.error({ err: error }, 'closing the PDF extraction threads failed'),
    );
    process.exit(0);
  };
  // Fastify closes the listening socket right after this hook: from here on no request is taken
  // (a new connection is refused, a kept-alive one answered 503), and the log says so.
  app.addHook('preClose', (done) => {
    runtime.ctx.log.info('no longer taking requests');
    done();
  });
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  runtime.ctx.log.info(`Gradewise is running at http://${shownHost}:${config.port} (data in ${config.dataDir})`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof RedisUnreachableError) {
    console.error(error.message);
  } else {
    console.error('Gradewise failed to start:', error);
  }
  process.exit(1);
});
