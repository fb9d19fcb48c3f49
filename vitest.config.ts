import { defineConfig } from 'vitest/config';

/**
 * One `vitest run` for the whole repository. The server suite runs on PGlite always and, when
 * DATABASE_URL is set, a second time on PostgreSQL with the same tests.
 */
const serverProject = (database: 'pglite' | 'postgres') => ({
  test: {
    name: `server-${database}`,
    root: './apps/server',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['./test/support/global-setup.ts'],
    env: { TEST_DATABASE: database },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks' as const,
  },
});

export default defineConfig({
  test: {
    reporters: ['default'],
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
