import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, protocol } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '../src/db/client.ts';
import { DATA_ROWS_WRITTEN_FOR_PGLITE, LazyDataRow } from '../src/db/pglite/data-rows.ts';
import { STATEMENTS_WRITTEN_FOR_PGLITE } from '../src/db/pglite/statements.ts';

/**
 * Two files of the server reach inside PGlite (decision 0067, docs/architecture.md "Speed
 * machinery"): db/pglite/statements.ts drives its wire protocol and calls its private
 * `_runExclusiveTransaction`, and db/pglite/data-rows.ts replaces the `parse` method of its
 * protocol parser for the whole process. Both were written from one version's source. A PGlite
 * upgrade fails here first, naming the file to read again, instead of breaking every query.
 */
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The PGlite the server loads: the package.json above the module it resolves. */
function installedPglite(): { version: string; file: string } {
  let directory = path.dirname(
    createRequire(path.join(SERVER, 'src', 'db', 'client.ts')).resolve('@electric-sql/pglite'),
  );
  for (;;) {
    const file = path.join(directory, 'package.json');
    if (fs.existsSync(file)) {
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (manifest.name === '@electric-sql/pglite') return { version: manifest.version, file };
    }
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error('No package.json of @electric-sql/pglite above its module.');
    directory = parent;
  }
}

const installed = installedPglite();

const reread = (file: string, what: string) =>
  `PGlite ${installed.version} is installed (${path.relative(process.cwd(), installed.file)}), but ` +
  `apps/server/src/db/pglite/${file} was written for another version: ${what}, then set its constant to ${installed.version}.`;

describe('the PGlite the wire layer and the parser patch were written for', () => {
  it('is the installed one (db/pglite/statements.ts)', () => {
    expect(
      installed.version,
      reread(
        'statements.ts',
        "read the new PGlite's query(), transaction() and _runExclusiveTransaction, and check named statements still run under its locks",
      ),
    ).toBe(STATEMENTS_WRITTEN_FOR_PGLITE);
  });

  it('is the installed one (db/pglite/data-rows.ts)', () => {
    expect(
      installed.version,
      reread('data-rows.ts', "read how the new PGlite creates its protocol.Parser and feeds it PostgreSQL's output"),
    ).toBe(DATA_ROWS_WRITTEN_FOR_PGLITE);
  });

  it('is pinned exactly, so an install cannot move it', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(SERVER, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies['@electric-sql/pglite'], 'apps/server/package.json').toBe(
      STATEMENTS_WRITTEN_FOR_PGLITE,
    );
  });
});

describe('what the two files use of PGlite', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openPglite(undefined);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('is there: the private lock, the protocol calls and the parser method', () => {
    const members = PGlite.prototype as unknown as Record<string, unknown>;
    for (const member of ['_runExclusiveTransaction', 'runExclusive', 'execProtocol', 'execProtocolStream']) {
      expect(typeof members[member], `PGlite.prototype.${member} (db/pglite/statements.ts)`).toBe('function');
    }
    expect(typeof protocol.Parser.prototype.parse, 'protocol.Parser.prototype.parse (db/pglite/data-rows.ts)').toBe(
      'function',
    );
  });

  it("reaches the parser PGlite itself holds: the server's rows arrive kept raw", async () => {
    // The patch replaced the prototype's method, and PGlite's own parser is an instance of it.
    const kept = protocol.Parser.prototype.parse;
    const seen: unknown[] = [];
    protocol.Parser.prototype.parse = function (buffer, callback) {
      return kept.call(this, buffer, (message) => {
        seen.push(message);
        callback(message);
      });
    };
    try {
      const { rows } = await database.executeSql<{ answer: number }>('select $1::int as answer', [42]);
      expect(rows).toEqual([{ answer: 42 }]);
    } finally {
      protocol.Parser.prototype.parse = kept;
    }
    expect(seen.some((message) => message instanceof LazyDataRow)).toBe(true);
  });
});
