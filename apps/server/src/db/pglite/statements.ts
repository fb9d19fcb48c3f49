import { Buffer } from 'node:buffer';
import { keepPgliteDataRowsRaw, LazyDataRow } from './data-rows.ts';
import { parse, protocol, types, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

/**
 * PGlite's `query()` sends a statement as six separate calls into its WebAssembly (Parse,
 * Describe, Bind, Describe, Execute, Sync) and has PostgreSQL parse and plan the text every time:
 * it keeps no statement cache, and ignores the names drizzle gives prepared queries. On a cheap
 * request that is most of the cost (issue 11: a 20-row join took 1.1-1.5 ms of CPU, of which about
 * 0.35 ms planning). Here each query text is parsed once into a named statement of the one
 * PostgreSQL session PGlite holds, and every later call sends Bind, Describe, Execute and Sync in
 * one call (0.6 ms for the same join; PostgreSQL switches to a generic plan once it proves no
 * worse). Used for every `query` of the server's PGlite (db/pglite/connection.ts). Decision 0045.
 *
 * Correctness rests on what PGlite's own `query` does, kept here: the same locks (a query outside
 * a transaction waits for an open transaction to end; one inside runs under it), parameters
 * serialised by the types PostgreSQL infers, results parsed by PGlite's own parsers (as its
 * `parseResults` does, see `parseResult` below),
 * errors raised as PGlite raises them. A statement is planned again by PostgreSQL itself when a
 * table it reads changes; a change of its result's shape (only a migration does that, before the
 * server serves) fails once with "cached plan must not change result type": outside a transaction
 * the statement is then parsed afresh and the query run again.
 */

/**
 * The PGlite whose source this was written against: it calls PGlite's private
 * `_runExclusiveTransaction` and drives its wire protocol (`execProtocol`, `execProtocolStream`,
 * `serializers`, `parsers`) as 0.5.17 does. pglite-version.test.ts fails, naming this file, when the
 * installed PGlite differs: read the new version's `query()` and `transaction()`, then change this.
 */
export const STATEMENTS_WRITTEN_FOR_PGLITE = '0.5.17';

/** More distinct query texts than the server has (drizzle's are fixed, `IN` lists use `= ANY`): a bound, not a tuning. */
export const MAX_STATEMENTS = 500;

interface Statement {
  name: string;
  /** Parameter type ids, as PostgreSQL inferred them (they choose each value's serialiser). */
  paramTypes: number[];
}

/** The private member of PGlite this uses (read in 0.5.17's source; pinned in the lockfile and by a test). */
interface PgliteLocks {
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

const { serialize } = protocol;

/**
 * What follows Bind in every execution (Describe portal, Execute, Sync): the same bytes each time
 * (pg-protocol keeps them as constants too), joined once.
 */
const AFTER_BIND = concat([serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]);

export class PgliteStatements {
  private readonly statements = new Map<string, Statement>();
  /** Statements evicted from the map, closed with the next round trip. */
  private readonly toClose: string[] = [];
  private nextName = 1;

  constructor(
    private readonly pg: PGlite,
    private readonly maxStatements = MAX_STATEMENTS,
  ) {
    // A PGlite without what this drives fails here, naming why, not later in every query.
    const members = pg as unknown as Record<string, unknown>;
    const missing = ['_runExclusiveTransaction', 'runExclusive', 'execProtocol', 'execProtocolStream'].filter(
      (member) => typeof members[member] !== 'function',
    );
    if (missing.length > 0) {
      throw new Error(
        `This PGlite has no ${missing.join(', ')}, which db/pglite/statements.ts (written for PGlite ` +
          `${STATEMENTS_WRITTEN_FOR_PGLITE}) calls: read the new version's query() and change that file.`,
      );
    }
    keepPgliteDataRowsRaw();
  }

  /**
   * Runs one statement as `pg.query` would. `inTransaction`: the caller is inside `pg.transaction`
   * (which holds the transaction lock); otherwise this waits for any open transaction to end.
   */
  query<Row>(
    text: string,
    params: unknown[] = [],
    options: QueryOptions = {},
    inTransaction = false,
  ): Promise<Results<Row>> {
    // Options this path does not implement (none of ours sets them): refused, not silently ignored.
    if (options.paramTypes || options.blob || options.serializers) {
      return Promise.reject(new Error('PgliteStatements does not take paramTypes, blob or serializers.'));
    }
    const run = () => this.pg.runExclusive(() => this.runStatement<Row>(text, params, options, !inTransaction));
    // As PGlite's own query does, wait until the database has started (already so at both call sites).
    return this.pg.waitReady.then(() =>
      inTransaction ? run() : (this.pg as unknown as PgliteLocks)._runExclusiveTransaction(run),
    );
  }

  private async runStatement<Row>(
    text: string,
    params: unknown[],
    options: QueryOptions,
    mayRetry: boolean,
  ): Promise<Results<Row>> {
    const statement = await this.prepared(text);
    try {
      return await this.execute<Row>(statement, params, options);
    } catch (error) {
      if (!isStaleResultType(error)) throw withQuery(error, text, params, options);
      // A migration changed what the statement returns: forget it, and (outside a transaction,
      // which the failure would have aborted) parse it afresh and run it once more.
      this.forget(text);
      if (!mayRetry) throw withQuery(error, text, params, options);
      return this.runStatement(text, params, options, false);
    }
  }

  /** The named statement for this text, parsed now if it is new (and the least recently used closed beyond the bound). */
  private async prepared(text: string): Promise<Statement> {
    const known = this.statements.get(text);
    if (known) {
      // Most recently used last: Map keeps insertion order, so the first key is the one to evict.
      this.statements.delete(text);
      this.statements.set(text, known);
      return known;
    }
    const name = `gw_${this.nextName++}`;
    let messages;
    try {
      ({ messages } = await this.pg.execProtocol(
        concat([
          ...this.closing(),
          serialize.parse({ name, text }),
          serialize.describe({ type: 'S', name }),
          serialize.sync(),
        ]),
      ));
    } catch (error) {
      throw withQuery(error, text, [], {});
    }
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    this.statements.set(text, statement);
    if (this.statements.size > this.maxStatements) {
      const [oldest] = this.statements.keys();
      this.forget(oldest!);
    }
    return statement;
  }

  private async execute<Row>(statement: Statement, params: unknown[], options: QueryOptions): Promise<Results<Row>> {
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = this.pg.serializers[statement.paramTypes[index]!];
      return serializer ? serializer(value) : String(value);
    });
    // The stream form: the same parsed messages, without PGlite also keeping a copy of the raw
    // response, which nothing here reads.
    const messages = await this.pg.execProtocolStream(
      concat([...this.closing(), bindMessage(statement.name, values), AFTER_BIND]),
    );
    return parseResult<Row>(messages as ResultMessage[], this.pg.parsers, options);
  }

  private forget(text: string): void {
    const statement = this.statements.get(text);
    if (!statement) return;
    this.statements.delete(text);
    this.toClose.push(statement.name);
  }

  /** Close messages for the evicted statements, sent ahead of the next round trip's own. */
  private closing(): Uint8Array[] {
    return this.toClose.splice(0).map((name) => serialize.close({ type: 'S', name }));
  }
}

/** The backend messages `parseResult` reads (PGlite's message classes, by their `name`). */
type ResultMessage =
  | { name: 'rowDescription'; fields: { name: string; dataTypeID: number }[] }
  | { name: 'dataRow'; fields: (string | null)[] }
  | { name: 'commandComplete'; text: string }
  | { name: Exclude<string, 'rowDescription' | 'dataRow' | 'commandComplete'> };

type ValueParser = (value: string, typeId: number) => unknown;

/**
 * The result of one statement, as PGlite's `parse.parseResults(messages, pg.parsers, options)[0]`
 * gives it: the same fields, rows (objects, or arrays with `rowMode: 'array'`), parsers
 * (the options' first, then the instance's, then PGlite's defaults) and affected-row count. Why
 * not call it: it spreads every parser of the instance (316 of them) into a new object on each
 * call, which was 30% of the CPU of `select 1` (issue 11).
 */
export function parseResult<Row>(
  messages: ResultMessage[],
  parsers: Record<number, ValueParser>,
  options: QueryOptions,
): Results<Row> {
  const own = options.parsers as Record<number, ValueParser> | undefined;
  const defaults = types.parsers as Record<number, ValueParser>;
  let fields: { name: string; dataTypeID: number }[] = [];
  let parsersOfFields: (ValueParser | undefined)[] = [];
  let hasProtoName = false;
  const rows: unknown[] = [];
  const read = (value: string, index: number) => {
    const parser = parsersOfFields[index];
    return parser ? parser(value, fields[index]!.dataTypeID) : value;
  };
  for (const message of messages) {
    if (message.name === 'rowDescription') {
      const described = (message as Extract<ResultMessage, { name: 'rowDescription' }>).fields;
      fields = described.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID }));
      hasProtoName = fields.some((field) => field.name === '__proto__');
      parsersOfFields = fields.map(
        ({ dataTypeID }) => own?.[dataTypeID] ?? parsers[dataTypeID] ?? defaults[dataTypeID],
      );
    } else if (message.name === 'dataRow') {
      // A row kept raw (db/pglite/data-rows.ts) is decoded here, once; another has its text already.
      const values =
        message instanceof LazyDataRow
          ? message.values(read)
          : (message as Extract<ResultMessage, { name: 'dataRow' }>).fields.map((value, index) =>
              value === null ? null : read(value, index),
            );
      if (options.rowMode === 'array') {
        rows.push(values);
      } else if (hasProtoName) {
        // A column named __proto__ must stay a column, as Object.fromEntries makes it.
        rows.push(Object.fromEntries(values.map((value, index) => [fields[index]!.name, value])));
      } else {
        const row: Record<string, unknown> = {};
        for (let index = 0; index < values.length; index += 1) row[fields[index]!.name] = values[index];
        rows.push(row);
      }
    } else if (message.name === 'commandComplete') {
      return resultOf<Row>((message as Extract<ResultMessage, { name: 'commandComplete' }>).text, rows, fields);
    }
  }
  return { affectedRows: 0, rows: [], fields: [] };
}

/**
 * A statement's result from its CommandComplete tag ("INSERT 0 3", "UPDATE 2", "SELECT 20"…), as
 * PGlite 0.5's `parseResults` makes it: the tag's first word as `command`, its last number as
 * `rowCount` when there is one, and as `affectedRows` for the commands that write rows (0 for the
 * others).
 */
function resultOf<Row>(tag: string, rows: unknown[], fields: { name: string; dataTypeID: number }[]): Results<Row> {
  const words = tag.split(' ');
  const command = words[0]!;
  const count = parseInt(words[words.length - 1]!, 10);
  const writes = ['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command);
  const result: Results<Row> = { rows: rows as Row[], fields, command, affectedRows: writes ? count : 0 };
  if (!Number.isNaN(count)) result.rowCount = count;
  return result;
}

/**
 * The Bind message of `statement` with `values` (the unnamed portal, every parameter as text, every
 * result column as text): the bytes `serialize.bind({ statement, values })` makes, written into one
 * buffer. pg-protocol's writer allocates two new ArrayBuffers and copies out of each for every Bind
 * (about 10 µs of CPU for one uuid, measured; 1 µs here). A value PGlite's serialisers made binary
 * (an ArrayBuffer or a view) is sent as pg-protocol sends it.
 */
export function bindMessage(statement: string, values: unknown[]): Uint8Array {
  let length = 4 + 1 + Buffer.byteLength(statement) + 1 + 2 + 2 * values.length + 2 + 2;
  for (const value of values) {
    if (value === null) length += 4;
    else if (typeof value === 'string') length += 4 + Buffer.byteLength(value);
    else return serialize.bind({ statement, values: values as (string | null)[] });
  }
  const out = Buffer.allocUnsafe(1 + length);
  let offset = out.writeUInt8(0x42, 0); // 'B'
  offset = out.writeInt32BE(length, offset);
  offset = out.writeUInt8(0, offset); // the unnamed portal
  offset += out.write(statement, offset, 'utf8');
  offset = out.writeUInt8(0, offset);
  offset = out.writeUInt16BE(values.length, offset); // a format code per parameter: text
  for (let index = 0; index < values.length; index += 1) offset = out.writeInt16BE(0, offset);
  offset = out.writeUInt16BE(values.length, offset);
  for (const value of values as (string | null)[]) {
    if (value === null) {
      offset = out.writeInt32BE(-1, offset);
    } else {
      const valueLength = Buffer.byteLength(value);
      offset = out.writeInt32BE(valueLength, offset);
      offset += out.write(value, offset, 'utf8');
    }
  }
  out.writeInt16BE(0, offset); // no result format codes: every column as text
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** PostgreSQL's refusal to run a prepared statement whose result columns changed (SQLSTATE 0A000). */
function isStaleResultType(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: string }).code === '0A000' &&
    error.message.includes('cached plan must not change result type')
  );
}

/** PGlite's own query errors carry the statement and its values; so do these. */
function withQuery(error: unknown, query: string, params: unknown[], queryOptions: QueryOptions): unknown {
  if (error instanceof Error && (error as { severity?: string }).severity !== undefined) {
    Object.assign(error, { query, params, queryOptions });
  }
  return error;
}
