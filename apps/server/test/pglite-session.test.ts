import { describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/client.ts';

/**
 * PGlite 0.3's compiled-in command line asked for DEBUG notices on every statement
 * (db/pglite-session.ts, decision 0055); the server's databases run with PostgreSQL's default
 * levels, stated on the command line the server gives PostgreSQL (so a later PGlite default cannot
 * bring the notices back), in this process and on the database thread.
 */
describe('PGlite session settings', () => {
  for (const onThread of [false, true]) {
    it(`runs with PostgreSQL's default message levels, set by the server, ${onThread ? 'on its thread' : 'in this process'}`, async () => {
      const database = await openPglite(undefined, { onThread });
      try {
        const { rows } = await database.executeSql(
          `select name, setting, source from pg_settings where name in ('client_min_messages', 'log_min_messages') order by name`,
        );
        expect(rows).toEqual([
          { name: 'client_min_messages', setting: 'notice', source: 'command line' },
          { name: 'log_min_messages', setting: 'warning', source: 'command line' },
        ]);
      } finally {
        await database.close();
      }
    });
  }
});
