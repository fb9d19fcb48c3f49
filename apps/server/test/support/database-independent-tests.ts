/**
 * Server test files whose outcome cannot depend on the database the project gives them: they never
 * read TEST_DATABASE, neither themselves nor through what they import (test-app.ts reads it). The
 * PGlite project runs them; the PostgreSQL project would run the very same code a second time, so
 * it leaves them out (vitest.config.ts, decision 0083). Every other file runs on both.
 * database-independent-tests.test.ts fails when a file listed here comes to read the choice.
 * Paths are relative to apps/server.
 */
export const DATABASE_INDEPENDENT_TESTS = [
  'test/ai-provider.test.ts',
  'test/bounded-cache.test.ts',
  'test/builtin-grader-parts.test.ts',
  'test/builtin-grader-trust.test.ts',
  'test/builtin-grader.test.ts',
  'test/class-axes.test.ts',
  'test/class-lean.test.ts',
  'test/data-dir-lock.test.ts',
  'test/data-dir.test.ts',
  'test/expect-json.test.ts',
  'test/extraction-pool.test.ts',
  'test/fast-serializer.test.ts',
  'test/few-shot.test.ts',
  // Their server processes run on the embedded database (DATABASE_URL: '') in both projects.
  'test/graceful-stop.test.ts',
  'test/grade-cli.test.ts',
  'test/group-answers.test.ts',
  'test/job-recovery.test.ts',
  'test/llm-grader.test.ts',
  'test/logger.test.ts',
  'test/passwords.test.ts',
  'test/pdf-extraction.test.ts',
  // PGlite's own adapter, opened directly.
  'test/pglite-data-rows.test.ts',
  'test/pglite-memory.test.ts',
  'test/pglite-session.test.ts',
  'test/pglite-statements.test.ts',
  'test/pglite-upgrade.test.ts',
  'test/pglite-version.test.ts',
  'test/prepared-sets.test.ts',
  'test/reference-shuffle.test.ts',
  'test/s3-credentials.test.ts',
  'test/seeded-random.test.ts',
  'test/shared-worker.test.ts',
  'test/slots.test.ts',
  'test/unsafe-text-restart.test.ts',
  'test/warm-centre.test.ts',
];
