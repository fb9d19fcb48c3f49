import type { AppContext } from '../context.ts';

/**
 * The crash test must kill the server at one exact point of a job — after the provider's answer
 * is stored, before it is interpreted — and it can only see the child process from outside. With
 * GRADEWISE_TEST_HOLD_AFTER_OUTPUT=1 (ignored when NODE_ENV=production) a job logs
 * 'test hook: holding after storing output' and waits there until the process dies or stops.
 */
export async function holdAfterStoringOutputForTests(
  ctx: AppContext,
  details: { job: string; id: string },
  signal: AbortSignal,
): Promise<void> {
  if (ctx.config.isProduction || process.env.GRADEWISE_TEST_HOLD_AFTER_OUTPUT !== '1') return;
  ctx.log.warn({ ...details, testHook: 'hold-after-output' }, 'test hook: holding after storing output');
  await new Promise<void>((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
