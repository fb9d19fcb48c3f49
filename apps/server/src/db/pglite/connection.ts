import fs from 'node:fs';
import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import { toStorableParameters } from '../storable-text.ts';
import { createsDatabase, pgliteStartOptions } from './memory.ts';
import { PgliteStatements } from './statements.ts';

export interface PgliteConnectionOptions {
  /** A data directory on disk; undefined: in memory. */
  dataDir?: string;
  /** In memory, starting from a `dumpDataDir()` archive written to this file (the tests' template). */
  loadDataDirFrom?: string;
  /** PostgreSQL's shared_buffers in MB (db/pglite/memory.ts); undefined: the default there. */
  sharedBuffersMb?: number;
}

/**
 * PGlite in this process as the server queries it: `npm start`, the workers, the CLI and every
 * test database (decision 0067: the tests' template is loaded here too, so they run this path).
 * Every `query`, in and out of `transaction`, has its parameters cleaned (db/storable-text.ts) and
 * runs as a named statement (db/pglite/statements.ts). Other members pass through, bound to the
 * real instance (PGlite keeps private state).
 */
export async function openPgliteConnection(options: PgliteConnectionOptions): Promise<PGlite> {
  const { dataDir, loadDataDirFrom, sharedBuffersMb } = options;
  if (loadDataDirFrom !== undefined && dataDir !== undefined) {
    throw new Error('PGlite loads a dump into memory only: give loadDataDirFrom or dataDir, not both.');
  }
  const client =
    loadDataDirFrom !== undefined
      ? new PGlite({
          loadDataDir: new Blob([fs.readFileSync(loadDataDirFrom)]),
          ...(await pgliteStartOptions(sharedBuffersMb, { creates: false })),
        })
      : new PGlite({ dataDir, ...(await pgliteStartOptions(sharedBuffersMb, { creates: createsDatabase(dataDir) })) });
  await client.waitReady;
  return withStorableParameters(client);
}

function withStorableParameters(client: PGlite): PGlite {
  type Transaction = Parameters<Parameters<PGlite['transaction']>[0]>[0];
  const statements = new PgliteStatements(client);
  const cleanTransaction = (tx: Transaction): Transaction =>
    new Proxy(tx, {
      get(target, property) {
        if (property === 'query') {
          return (text: string, values?: unknown[], options?: QueryOptions) => {
            if (target.closed) throw new Error('Transaction is closed');
            return statements.query(text, toStorableParameters(values), options, true);
          };
        }
        const member = Reflect.get(target, property, target);
        return typeof member === 'function' ? member.bind(target) : member;
      },
    });
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') {
        return (text: string, values?: unknown[], options?: QueryOptions) =>
          statements.query(text, toStorableParameters(values), options, false);
      }
      if (property === 'transaction') {
        return <T>(callback: (tx: Transaction) => Promise<T>) =>
          target.transaction((tx) => callback(cleanTransaction(tx)));
      }
      const member = Reflect.get(target, property, target);
      return typeof member === 'function' ? member.bind(target) : member;
    },
  });
}
