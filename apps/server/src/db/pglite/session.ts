/**
 * Message levels of every PGlite of the server (issue 11, decision 0055).
 *
 * PGlite 0.3 started PostgreSQL with `client_min_messages=debug3` and `log_min_messages=debug1`
 * compiled into its WebAssembly: every statement then sent DEBUG notices ("parse gw_12: select
 * ...", "bind <unnamed> to gw_12") that PostgreSQL formatted, PGlite parsed and nobody read, about
 * a third of the CPU of a small statement. PGlite 0.5 no longer sets them (PostgreSQL's defaults,
 * `notice` and `warning`, read in its `defaultStartParams`); the server states them on the command
 * line it gives PostgreSQL (db/pglite/memory.ts) so that no later PGlite default can bring the
 * notices back unnoticed: the pglite-session test reads both settings and their source.
 */
export const PGLITE_MESSAGE_LEVELS = ['-c', 'client_min_messages=notice', '-c', 'log_min_messages=warning'];
