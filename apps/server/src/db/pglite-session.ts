/**
 * Session settings for every PGlite of the server (issue 11, decision 0055).
 *
 * PGlite 0.3 starts PostgreSQL with `client_min_messages=debug3` and `log_min_messages=debug1`
 * on the command line compiled into its WebAssembly. Every statement then sends DEBUG notices to
 * the client ("parse gw_12: select ...", "bind <unnamed> to gw_12"), which PostgreSQL formats and
 * PGlite parses and which nobody reads: about a third of the CPU of a small statement (90 to 60
 * µs measured with and without them, in one process). A session's SET outranks the command line,
 * so these restore PostgreSQL's own defaults; warnings and errors reach us as before.
 */
export const PGLITE_SESSION_SETTINGS = 'SET client_min_messages TO notice; SET log_min_messages TO warning';

/** Applies the settings once the database has started; they hold for the whole session. */
export async function applyPgliteSessionSettings(pg: {
  waitReady: Promise<void>;
  exec(query: string): Promise<unknown>;
}): Promise<void> {
  await pg.waitReady;
  await pg.exec(PGLITE_SESSION_SETTINGS);
}
