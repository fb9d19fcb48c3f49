import type { AppContext } from '../context.ts';

export interface Readiness {
  ready: boolean;
  /** 'ok', or the sentence saying what is wrong. */
  database: string;
  storage: string;
}

/**
 * GET /readyz, for load balancers: whether this process can serve requests that use the database
 * and the stored files. Each part is asked with a bounded wait, and a failure is said in a sentence
 * (the storage's names the setting at fault: S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, ...).
 */
export async function checkReadiness(ctx: AppContext): Promise<Readiness> {
  const [database, storage] = await Promise.all([
    settle(
      ctx.database.executeSql('SELECT 1').then(() => undefined),
      'The database does not answer',
    ),
    settle(ctx.storage.check(), `The ${ctx.storage.description} does not answer`),
  ]);
  if (storage !== 'ok') ctx.log.warn(`not ready: ${storage}`);
  if (database !== 'ok') ctx.log.warn(`not ready: ${database}`);
  return { ready: database === 'ok' && storage === 'ok', database, storage };
}

const CHECK_TIMEOUT_MS = 5_000;

async function settle(check: Promise<void>, timeoutMessage: string): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`${timeoutMessage} within ${CHECK_TIMEOUT_MS / 1000} s.`), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      check.then(
        () => 'ok',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
