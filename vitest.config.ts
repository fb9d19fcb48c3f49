import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { DATABASE_INDEPENDENT_TESTS } from './apps/server/test/support/database-independent-tests.ts';

/**
 * One `vitest run` for the whole repository. The server suite runs on PGlite always and, when
 * DATABASE_URL is set, a second time on PostgreSQL: every file that reads the database choice, the
 * files that cannot (test/support/database-independent-tests.ts) run once (decision 0083).
 */
const serverProject = (database: 'pglite' | 'postgres') => ({
  test: {
    name: `server-${database}`,
    root: './apps/server',
    include: ['test/**/*.test.ts'],
    exclude:
      database === 'postgres' ? [...configDefaults.exclude, ...DATABASE_INDEPENDENT_TESTS] : configDefaults.exclude,
    environment: 'node',
    globalSetup: ['./test/support/global-setup.ts'],
    // The test cost of password hashing (src/auth/passwords.ts; NODE_ENV=test only): the suite
    // registers hundreds of accounts (decision 0092).
    env: { TEST_DATABASE: database, GRADEWISE_TEST_CHEAP_PASSWORD_HASH: '1' },
    // A hang's bound, not a speed check: two files at once on a loaded two-core machine can take
    // twice the wall time one took alone (decision 0083).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks' as const,
    // On PGlite a worker imports src/ once and runs file after file (about 2.4 s of CPU less a file,
    // decision 0094); each file still has its own app, database, data directory and ports. What a
    // file would leave changed for the next is undone by the setup file, and the guard test
    // test/shared-worker.test.ts keeps that list whole. The PostgreSQL project stays a process per
    // file until its whole run has passed shared twice, as PGlite's did (decision 0098).
    isolate: database === 'postgres',
    // From this file's folder, as knip reads it (a path from the project's root is unresolved there).
    setupFiles: [fileURLToPath(new URL('./apps/server/test/support/shared-worker.ts', import.meta.url))],
  },
});

export default defineConfig({
  test: {
    reporters: ['default'],
    // One test file per core (Vitest's default leaves one core to itself: a single file at a time
    // on two cores, while the other waited). Each file has its own database, data directory and
    // ports, so files do not meet (decision 0083).
    maxWorkers: os.availableParallelism(),
    projects: [
      serverProject('pglite'),
      ...(process.env.DATABASE_URL ? [serverProject('postgres')] : []),
      {
        test: {
          name: 'shared',
          root: './packages/shared',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      './apps/web/vitest.config.ts',
    ],
  },
});
