import { describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/client.ts';

/**
 * PGlite's compiled-in command line asks for DEBUG notices on every statement (db/pglite-session.ts,
 * decision 0055); the server's databases run with PostgreSQL's defaults instead, in this process and
 * on the database thread.
 */
describe('PGlite session settings', () => {
  for (const onThread of [false, true]) {
    it(`runs with PostgreSQL's default message levels ${onThread ? 'on its thread' : 'in this process'}`, async () => {
      const database = await openPglite(undefined, { onThread });
      try {
        const { rows } = await database.executeSql(
          `select name, setting from pg_settings where name in ('client_min_messages', 'log_min_messages') order by name`,
        );
        expect(rows).toEqual([
          { name: 'client_min_messages', setting: 'notice' },
          { name: 'log_min_messages', setting: 'warning' },
        ]);
      } finally {
        await database.close();
      }
    });
  }
});
