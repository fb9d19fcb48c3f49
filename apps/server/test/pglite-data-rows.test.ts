import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite, protocol } from '@electric-sql/pglite';
import { keepPgliteDataRowsRaw, LazyDataRow, pglitesParse } from '../src/db/pglite/data-rows.ts';
import { PgliteStatements } from '../src/db/pglite/statements.ts';

/**
 * PGlite's DataRow messages kept raw and decoded once (db/pglite/data-rows.ts, decision 0055): the
 * values read are exactly the stored ones, whatever their characters, size or how PostgreSQL's
 * output was cut into chunks; every other message is still PGlite's own.
 */
let pg: PGlite;
let statements: PgliteStatements;

// Multi-byte UTF-8 of every length (2, 3 and 4 bytes), a leading byte-order mark, an empty string,
// SQL NULL, a value far longer than one write of PostgreSQL's output, and a NUL-free control character.
const VALUES = ['plain', 'café', '漢字かな', 'emoji 😀🎓', '\uFEFFmarked', '', null, 'x'.repeat(200_000), 'tab\there'];

beforeAll(async () => {
  pg = new PGlite();
  await pg.waitReady;
  statements = new PgliteStatements(pg);
  await pg.exec('create table samples (id int primary key, body text)');
  for (const [index, body] of VALUES.entries()) {
    await pg.query('insert into samples (id, body) values ($1, $2)', [index, body]);
  }
});
afterAll(async () => {
  await pg?.close();
});

describe('PGlite data rows kept raw', () => {
  it('reads back every stored value exactly, through our statements and through PGlite’s own query', async () => {
    const text = 'select id, body, length(body) as chars from samples order by id';
    const ours = await statements.query<{ id: number; body: string | null; chars: number | null }>(text);
    const theirs = await pg.query<{ id: number; body: string | null; chars: number | null }>(text);
    expect(ours.rows.map((row) => row.body)).toEqual(VALUES);
    expect(theirs.rows.map((row) => row.body)).toEqual(VALUES);
    // PostgreSQL's own character count agrees with JavaScript's (a code point each, surrogates counted once).
    expect(ours.rows.map((row) => row.chars)).toEqual(
      VALUES.map((value) => (value === null ? null : [...value].length)),
    );
  });

  it('parses the same messages whichever way PostgreSQL’s output is cut into chunks', async () => {
    keepPgliteDataRowsRaw();
    const raw = await pg.execProtocolRaw(
      protocol.serialize.query(
        // Not the value with a byte-order mark: PGlite's own decoder drops it (the first test reads it back whole).
        `select id, body from samples where id < 7 and id <> 4 order by id; select 1 as one; select 1 from samples where false`,
      ),
    );
    const whole = messagesOf([raw]);
    expect(whole.filter((message) => message.name === 'dataRow')).toHaveLength(7);
    expect(whole.every((message) => message.name !== 'dataRow' || message instanceof LazyDataRow)).toBe(true);
    const expected = whole.map(comparable);
    expect(expected.filter((message) => message.name === 'dataRow').map((message) => message.fields)).toEqual([
      ...VALUES.slice(0, 7)
        .map((value, id) => [String(id), value])
        .filter(([id]) => id !== '4'),
      ['1'],
    ]);
    // The same messages PGlite's own parser makes, of the same classes.
    const pglites: Message[] = [];
    pglitesParse.call(new protocol.Parser(), raw, (message) => pglites.push(message as Message));
    expect(expected).toEqual(pglites.map((message) => ({ ...message })));
    expect(whole.map((message) => message.constructor)).toEqual(
      pglites.map((message) => (message.name === 'dataRow' ? LazyDataRow : message.constructor)),
    );
    // Every cut of the stream into two, and byte by byte.
    for (let cut = 1; cut < raw.length; cut += 7) {
      expect(messagesOf([raw.subarray(0, cut), raw.subarray(cut)]).map(comparable)).toEqual(expected);
    }
    const bytes = Array.from({ length: raw.length }, (_, index) => raw.subarray(index, index + 1));
    expect(messagesOf(bytes).map(comparable)).toEqual(expected);

    // A row far longer than a chunk, arriving in many pieces.
    const long = await pg.execProtocolRaw(protocol.serialize.query(`select body from samples where id = 7`));
    const pieces = Array.from({ length: Math.ceil(long.length / 997) }, (_, index) =>
      long.subarray(index * 997, (index + 1) * 997),
    );
    expect(pieces.length).toBeGreaterThan(200);
    const rows = messagesOf(pieces).filter((message) => message.name === 'dataRow');
    expect(rows.map((message) => message.fields)).toEqual([[VALUES[7]]]);
  });

  it('reads the extended protocol’s messages as PGlite does: parse, bind, describe, no data, close', async () => {
    const { serialize } = protocol;
    const raw = await pg.execProtocolRaw(
      Buffer.concat([
        serialize.parse({ name: 'probe', text: 'select $1::text as t, $2::int as n' }),
        serialize.describe({ type: 'S', name: 'probe' }),
        serialize.bind({ statement: 'probe', values: ['é', '7'] }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.parse({ name: 'write', text: 'update samples set body = body where id = -1' }),
        serialize.bind({ statement: 'write' }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.close({ type: 'S', name: 'probe' }),
        serialize.close({ type: 'S', name: 'write' }),
        serialize.sync(),
      ]),
    );
    const ours = messagesOf([raw]);
    const pglites: Message[] = [];
    pglitesParse.call(new protocol.Parser(), raw, (message) => pglites.push(message as Message));
    expect(ours.map((message) => message.name)).toEqual(pglites.map((message) => message.name));
    expect(ours.map(comparable)).toEqual(pglites.map((message) => ({ ...message })));
    expect(ours.map((message) => message.name)).toEqual(
      expect.arrayContaining(['parseComplete', 'parameterDescription', 'bindComplete', 'noData', 'closeComplete']),
    );
    expect(ours.find((message) => message.name === 'dataRow')?.fields).toEqual(['é', '7']);
  });

  it('keeps errors and notices as PGlite’s own messages, so a failed statement still throws and the next runs', async () => {
    const failure = await statements.query('select 1 / (id - id) from samples').catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: '22012' });
    const notice = await pg.query(`do $$ begin raise notice 'hello'; end $$`);
    expect(notice.affectedRows).toBe(0);
    expect((await statements.query<{ n: number }>('select count(*)::int as n from samples')).rows).toEqual([
      { n: VALUES.length },
    ]);
  });
});

type Message = { name: string; fields?: unknown; [key: string]: unknown };

function messagesOf(chunks: Uint8Array[]): Message[] {
  const parser = new protocol.Parser();
  const messages: Message[] = [];
  for (const chunk of chunks) parser.parse(chunk, (message) => messages.push(message as Message));
  return messages;
}

/** A message as plain data: a row's values decoded, everything else as PGlite made it. */
function comparable(message: Message): Message {
  return message instanceof LazyDataRow
    ? { name: message.name, length: message.length, fieldCount: message.fieldCount, fields: message.fields }
    : { ...message };
}
