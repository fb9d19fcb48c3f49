import { parseArgs } from 'node:util';
import { openRuntime } from '../boot.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { DEMO_INSTRUCTOR, DEMO_STUDENT_PASSWORD, DemoRefusedError, loadDemo } from '../demo/load-demo.ts';

/**
 * `npm run demo`: loads the demo course into the data directory (once; running it again changes
 * nothing), prints the sign-ins, then starts the app exactly as `npm start` does.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { force: { type: 'boolean' }, 'load-only': { type: 'boolean' } } });
  const config = loadConfig();
  const runtime = await openRuntime(config);
  let result;
  try {
    result = await loadDemo(runtime.ctx, { force: values.force ?? false });
  } finally {
    // Release the database and its lock before the server opens them again.
    await runtime.shutdown();
  }
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  console.log(
    [
      '',
      result.status === 'created'
        ? 'The demo course is loaded.'
        : 'The demo course was already loaded; nothing was added.',
      `Open http://${host}:${config.port} and sign in:`,
      `  instructor  ${DEMO_INSTRUCTOR.email}  password ${DEMO_INSTRUCTOR.password}`,
      ...result.students
        .slice(0, 3)
        .map((student) => `  student     ${student.email}  password ${DEMO_STUDENT_PASSWORD}`),
      `  (${result.students.length} students in all, same password)`,
      '',
    ].join('\n'),
  );
  if (values['load-only']) return;
  await import('../main.ts');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof DemoRefusedError) {
    console.error(error.message);
  } else {
    console.error('The demo could not be loaded:', error);
  }
  process.exit(1);
});
