import type { Db } from './client.ts';

/**
 * A query of a hot path, built once per database handle and then only executed with new values
 * (`sql.placeholder`s). drizzle otherwise rebuilds the statement on every call: walks the select
 * shape, renders the SQL text and maps every parameter, which was a visible share of a cheap
 * request like `GET /api/courses`. On PostgreSQL (node-postgres) the name also makes it a
 * server-side prepared statement, parsed and planned once per connection; PGlite's driver ignores
 * the name (it has one connection and no statement cache), so there only drizzle's work is saved.
 *
 * Keyed by the handle a caller passes: the process's `ctx.db`, each test's own database, or a
 * transaction (which then prepares its own copy, so a query in a transaction stays in it). Names
 * must be unique per statement text: node-postgres refuses a name reused for another text.
 */
export function preparedPerDb<Query>(build: (db: Db) => Query): (db: Db) => Query {
  const byDb = new WeakMap<Db, Query>();
  return (db) => {
    let query = byDb.get(db);
    if (!query) {
      query = build(db);
      byDb.set(db, query);
    }
    return query;
  };
}
