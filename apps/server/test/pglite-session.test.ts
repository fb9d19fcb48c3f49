import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '../src/db/client.ts';
import { pgliteStartOptions } from '../src/db/pglite/memory.ts';

/**
 * PGlite 0.3's compiled-in command line asked for DEBUG notices on every statement
 * (db/pglite/session.ts, decision 0055); the server's databases run with PostgreSQL's default
 * levels, stated on the command line the server gives PostgreSQL (so a later PGlite default cannot
 * bring the notices back): a new database as `npm start` opens it, and one loaded from a dump as
 * every test database is.
 */
const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-pglite-session-'));
afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

async function messageLevels(database: Database): Promise<unknown[]> {
  try {
    const { rows } = await database.executeSql(
      `select name, setting, source from pg_settings where name in ('client_min_messages', 'log_min_messages') order by name`,
    );
    return rows;
  } finally {
    await database.close();
  }
}

const SET_BY_THE_SERVER = [
  { name: 'client_min_messages', setting: 'notice', source: 'command line' },
  { name: 'log_min_messages', setting: 'warning', source: 'command line' },
];

describe('PGlite session settings', () => {
  it("runs with PostgreSQL's default message levels, set by the server", async () => {
    expect(await messageLevels(await openPglite(undefined))).toEqual(SET_BY_THE_SERVER);
  });

  it('sets them on a database loaded from a dump too, as every test database is', async () => {
    const dumpPath = path.join(directory, 'dump.tar');
    const client = new PGlite(await pgliteStartOptions(undefined, { creates: true }));
    // (PGlite's dumpDataDir does not wait for the database to start: it never settles before.)
    await client.waitReady;
    fs.writeFileSync(dumpPath, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
    await client.close();
    expect(await messageLevels(await openPglite(undefined, { loadDataDirFrom: dumpPath }))).toEqual(SET_BY_THE_SERVER);
  });
});
