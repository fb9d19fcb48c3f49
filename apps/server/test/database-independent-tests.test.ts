import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DATABASE_INDEPENDENT_TESTS } from './support/database-independent-tests.ts';

/**
 * The PostgreSQL project leaves out the files listed as database-independent (decision 0083): it
 * may only because the two server projects differ in nothing but TEST_DATABASE and the template
 * each provides (test/support/global-setup.ts). A listed file that comes to read either, itself or
 * through any module it imports (test-app.ts does), would lose its PostgreSQL run silently: here
 * it fails instead, naming the module that reads the choice.
 */
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const READS_DATABASE_CHOICE = /TEST_DATABASE|postgresTemplateDatabase|pgliteTemplatePath/;
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm;

/** The first module, `file` or one it imports relatively (at any depth), that reads the choice. */
function moduleReadingDatabaseChoice(file: string, seen = new Set<string>()): string | null {
  if (seen.has(file)) return null;
  seen.add(file);
  const text = fs.readFileSync(file, 'utf8');
  if (READS_DATABASE_CHOICE.test(text)) return file;
  for (const [, specifier] of text.matchAll(RELATIVE_IMPORT)) {
    const imported = path.resolve(path.dirname(file), specifier!);
    if (!imported.endsWith('.ts') || !fs.existsSync(imported)) continue;
    const reader = moduleReadingDatabaseChoice(imported, seen);
    if (reader) return reader;
  }
  return null;
}

describe('the server test files the PostgreSQL project leaves out', () => {
  it.each(DATABASE_INDEPENDENT_TESTS)('%s reads no database choice', (relative) => {
    const file = path.join(SERVER, relative);
    expect(fs.existsSync(file), `${relative} is listed but does not exist`).toBe(true);
    const reader = moduleReadingDatabaseChoice(file);
    expect(reader && path.relative(SERVER, reader), `${relative} reads the database choice`).toBeNull();
  });

  it('finds the choice read through an import, as a test on the test app does', () => {
    expect(moduleReadingDatabaseChoice(path.join(SERVER, 'test/courses.test.ts'))).toBe(
      path.join(SERVER, 'test/support/test-app.ts'),
    );
    expect(moduleReadingDatabaseChoice(path.join(SERVER, 'test/scale-out.test.ts'))).toBe(
      path.join(SERVER, 'test/scale-out.test.ts'),
    );
  });
});
