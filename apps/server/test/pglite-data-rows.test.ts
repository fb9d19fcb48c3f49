import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite, protocol } from '@electric-sql/pglite';
import { keepPgliteDataRowsRaw, LazyDataRow } from '../src/db/pglite-data-rows.ts';
import { PgliteStatements } from '../src/db/pglite-statements.ts';

/**
 * PGlite's DataRow messages kept raw and decoded once (db/pglite-data-rows.ts, decision 0053): the
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
      protocol.serialize.query(`select id, body from samples where id < 7 order by id; select 1 as one`),
    );
    const whole = messagesOf([raw]);
    expect(whole.filter((message) => message.name === 'dataRow')).toHaveLength(8);
    expect(whole.every((message) => message.name !== 'dataRow' || message instanceof LazyDataRow)).toBe(true);
    const expected = whole.map(comparable);
    expect(expected.filter((message) => message.name === 'dataRow').map((message) => message.fields)).toEqual([
      ...VALUES.slice(0, 7).map((value, id) => [String(id), value]),
      ['1'],
    ]);
    // Every cut of the stream into two, and byte by byte.
    for (let cut = 1; cut < raw.length; cut += 7) {
      expect(messagesOf([raw.subarray(0, cut), raw.subarray(cut)]).map(comparable)).toEqual(expected);
    }
    const bytes = Array.from({ length: raw.length }, (_, index) => raw.subarray(index, index + 1));
    expect(messagesOf(bytes).map(comparable)).toEqual(expected);
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
