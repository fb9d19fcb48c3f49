import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openPglite, type Database } from '../src/db/client.ts';
import { DEFAULT_PGLITE_SHARED_BUFFERS_MB, pgliteStartOptions } from '../src/db/pglite/memory.ts';

/**
 * The embedded database runs with a small page cache (docs/decisions/0043-…, 0056): PostgreSQL's
 * single-user backend writes all of its shared buffers at start, and initdb writes 128MB into
 * postgresql.conf, so the server gives PGlite shared_buffers on the command line (`startParams`).
 * These pin that the setting reaches PostgreSQL (a new database, a data directory and a loaded
 * dump, the tests' path), and that data directories made either way open the other way.
 */
const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
});
function temporaryDirectory(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-pglite-memory-'));
  directories.push(directory);
  return directory;
}

async function sharedBuffers(database: Database): Promise<string> {
  const { rows } = await database.executeSql<{ shared_buffers: string }>('SHOW shared_buffers');
  return rows[0]!.shared_buffers;
}

describe("PGlite's shared buffers", () => {
  it('runs with the default', async () => {
    const here = await openPglite(undefined);
    try {
      expect(await sharedBuffers(here)).toBe(`${DEFAULT_PGLITE_SHARED_BUFFERS_MB}MB`);
    } finally {
      await here.close();
    }
  });

  it('runs with the size asked for (PGLITE_SHARED_BUFFERS_MB), also when loading a dump', async () => {
    const source = await openPglite(undefined, { sharedBuffersMb: 48 });
    const dumpPath = path.join(temporaryDirectory(), 'dump.tar');
    try {
      expect(await sharedBuffers(source)).toBe('48MB');
      await source.executeSql('CREATE TABLE kept (id int); INSERT INTO kept VALUES (7)');
      // The tests' template path: a dump loaded in this process (test/support/global-setup.ts).
      const client = new PGlite(await pgliteStartOptions(48, { creates: true }));
      await client.exec('CREATE TABLE kept (id int); INSERT INTO kept VALUES (7)');
      fs.writeFileSync(dumpPath, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
      await client.close();
    } finally {
      await source.close();
    }
    const loaded = await openPglite(undefined, { loadDataDirFrom: dumpPath, sharedBuffersMb: 200 });
    try {
      expect(await sharedBuffers(loaded)).toBe('200MB');
      expect((await loaded.executeSql('SELECT id FROM kept')).rows).toEqual([{ id: 7 }]);
    } finally {
      await loaded.close();
    }
  });

  it("opens a data directory PGlite made with its own settings, and PGlite's own module opens ours", async () => {
    const directory = path.join(temporaryDirectory(), 'pglite');
    const stock = new PGlite(directory);
    await stock.exec("CREATE TABLE made_before (label text); INSERT INTO made_before VALUES ('old')");
    expect((await stock.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]?.shared_buffers).toBe(
      '128MB',
    );
    await stock.close();

    const ours = await openPglite(directory);
    try {
      expect(await sharedBuffers(ours)).toBe(`${DEFAULT_PGLITE_SHARED_BUFFERS_MB}MB`);
      expect((await ours.executeSql('SELECT label FROM made_before')).rows).toEqual([{ label: 'old' }]);
      await ours.executeSql("INSERT INTO made_before VALUES ('new')");
    } finally {
      await ours.close();
    }

    const stockAgain = new PGlite(directory);
    const { rows } = await stockAgain.query<{ label: string }>('SELECT label FROM made_before ORDER BY label');
    await stockAgain.close();
    expect(rows.map((row) => row.label)).toEqual(['new', 'old']);
  });

  it('refuses sizes that do not fit, in the configuration and in code', async () => {
    expect(loadConfig({ PGLITE_SHARED_BUFFERS_MB: '64' }).pgliteSharedBuffersMb).toBe(64);
    expect(loadConfig({}).pgliteSharedBuffersMb).toBe(DEFAULT_PGLITE_SHARED_BUFFERS_MB);
    expect(() => loadConfig({ PGLITE_SHARED_BUFFERS_MB: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ PGLITE_SHARED_BUFFERS_MB: '1000' })).toThrow(/PGLITE_SHARED_BUFFERS_MB/);
    await expect(pgliteStartOptions(0, { creates: false })).rejects.toThrow();
    await expect(pgliteStartOptions(1000, { creates: false })).rejects.toThrow();
  });
});
