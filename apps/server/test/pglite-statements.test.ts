import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite, protocol } from '@electric-sql/pglite';
import { bindMessage, PgliteStatements } from '../src/db/pglite/statements.ts';

/**
 * Named statements on PGlite (db/pglite/statements.ts, decision 0045): each query text is parsed
 * once per session and answers exactly what PGlite's own `query` answers, errors included.
 */
let pg: PGlite;
let statements: PgliteStatements;
const preparedCount = async () =>
  Number(
    (await pg.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements where name like 'gw_%'`))
      .rows[0]!.n,
  );

beforeAll(async () => {
  pg = new PGlite();
  await pg.waitReady;
  statements = new PgliteStatements(pg, 3);
  await pg.exec(
    `create table notes (id int primary key, body text not null, at timestamptz not null default '2026-01-02T03:04:05Z', tags jsonb)`,
  );
  await pg.exec(
    `insert into notes (id, body, tags) values (1, 'one', '["a"]'), (2, 'two', null), (3, 'three', '{"k": 1}')`,
  );
});
afterAll(async () => {
  await pg?.close();
});

describe('bindMessage', () => {
  it('writes the bytes pg-protocol writes for a Bind, for any text, nulls and lengths', () => {
    const valueSets: unknown[][] = [
      [],
      [null],
      [''],
      ['6bdb88c6-beb0-4db3-acac-6baf58055bcf', '2'],
      ['é, 😀 and 中文', null, 'x'.repeat(70_000), '0', 'a\tb\nc'],
    ];
    for (const statement of ['gw_1', 'gw_4821', 'é']) {
      for (const values of valueSets) {
        const expected = protocol.serialize.bind({ statement, values: values as (string | null)[] });
        expect(Buffer.from(bindMessage(statement, values)).equals(Buffer.from(expected)), statement).toBe(true);
      }
    }
  });

  it('sends a binary value as pg-protocol does', () => {
    const values = ['a', new Uint8Array([0, 1, 255]), null];
    const expected = protocol.serialize.bind({ statement: 'gw_2', values: values as (string | null)[] });
    expect(Buffer.from(bindMessage('gw_2', values)).equals(Buffer.from(expected))).toBe(true);
  });
});

describe('PgliteStatements', () => {
  it('answers what PGlite answers, in object and array row modes, with the same parsers', async () => {
    // Types with parsers of their own (int, text, timestamptz, jsonb, bool, arrays, numeric, bytea) and nulls.
    const text = `select id, body, at, tags, id > 2 as big, array[id, id] as pair, null::text as nothing,
      1.5::numeric as half, '\\x00ff'::bytea as bin from notes where id >= $1 order by id`;
    for (const options of [
      {},
      { rowMode: 'array' as const },
      { rowMode: 'array' as const, parsers: { 1184: (v: string) => `raw ${v}` } },
    ]) {
      const ours = await statements.query(text, [2], options);
      const theirs = await pg.query(text, [2], options);
      expect(ours.rows).toEqual(theirs.rows);
      expect(ours.fields).toEqual(theirs.fields);
      expect(ours.affectedRows).toEqual(theirs.affectedRows);
    }
    const write = await statements.query('update notes set body = body where id = any($1)', [[1, 2]]);
    expect(write.affectedRows).toBe(2);
    // Options it does not implement are refused, never silently dropped.
    await expect(statements.query('select $1 as n', [1], { paramTypes: [23] })).rejects.toThrow(
      'does not take paramTypes',
    );
  });

  it('parses a text once and reuses its statement, and closes the least recently used beyond its bound', async () => {
    const before = await preparedCount();
    await statements.query('select $1::int + 1 as n', [1]);
    await statements.query('select $1::int + 1 as n', [2]);
    expect(await preparedCount()).toBe(before + 1);

    const texts = ['select 1 as a', 'select 2 as b', 'select 3 as c', 'select 4 as d'];
    for (const text of texts) await statements.query(text);
    // The bound is 3: the closes are sent with the next round trip.
    await statements.query('select 4 as d');
    expect(await preparedCount()).toBe(3);
    expect((await statements.query<{ a: number }>('select 1 as a')).rows).toEqual([{ a: 1 }]);
  });

  it('raises PostgreSQL errors as PGlite does, with the statement, and keeps working after them', async () => {
    const failure = await statements
      .query('insert into notes (id, body) values ($1, $2)', [1, 'again'])
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: '23505',
      query: 'insert into notes (id, body) values ($1, $2)',
      params: [1, 'again'],
    });
    const syntax = await statements.query('selec 1').catch((error: unknown) => error);
    expect(syntax).toMatchObject({ code: '42601' });
    expect((await statements.query<{ n: number }>('select count(*)::int as n from notes')).rows).toEqual([{ n: 3 }]);
  });

  it('runs inside a transaction under its lock, and a query outside waits for the transaction to end', async () => {
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await pg.transaction(async () => {
      await statements.query('insert into notes (id, body) values ($1, $2)', [10, 'in a transaction'], {}, true);
      outside = statements.query('select count(*)::int as n from notes').then((result) => {
        order.push(`outside saw ${(result.rows[0] as { n: number }).n}`);
      });
      // Give the outside query every chance to run early: it must not.
      await statements.query('select pg_sleep(0)', [], {}, true);
      order.push('transaction ends');
    });
    await outside;
    expect(order).toEqual(['transaction ends', 'outside saw 4']);
  });

  it('a rolled-back transaction leaves its statements usable and its writes undone', async () => {
    await pg
      .transaction(async () => {
        await statements.query('insert into notes (id, body) values ($1, $2)', [11, 'rolled back'], {}, true);
        throw new Error('undo');
      })
      .catch(() => undefined);
    expect(
      (await statements.query<{ n: number }>('select count(*)::int as n from notes where id = $1', [11])).rows,
    ).toEqual([{ n: 0 }]);
    expect((await statements.query('insert into notes (id, body) values ($1, $2)', [12, 'kept'])).affectedRows).toBe(1);
  });

  it('waits for a PGlite that is still starting, as its own query does', async () => {
    const starting = new PGlite();
    try {
      const early = new PgliteStatements(starting);
      expect((await early.query<{ n: number }>('select $1::int as n', [7])).rows).toEqual([{ n: 7 }]);
    } finally {
      await starting.close();
    }
  });

  it('parses a statement afresh when a migration changed what it returns', async () => {
    await pg.exec('create table shapes (id int)');
    await pg.exec('insert into shapes values (1)');
    expect((await statements.query('select * from shapes')).rows).toEqual([{ id: 1 }]);
    await pg.exec(`alter table shapes add column label text default 'new'`);
    expect((await statements.query('select * from shapes')).rows).toEqual([{ id: 1, label: 'new' }]);
  });

  it('counts written rows and answers an empty result as PGlite does', async () => {
    const inserted = await statements.query(`insert into notes (id, body) values (20, 'twenty'), (21, 'twenty-one')`);
    expect(inserted).toEqual({ rows: [], fields: [], command: 'INSERT', affectedRows: 2, rowCount: 2 });
    expect(inserted).toEqual(
      await pg.query(`insert into notes (id, body) values (22, 'twenty-two'), (23, 'twenty-three')`),
    );
    expect((await statements.query('delete from notes where id >= 20')).affectedRows).toBe(4);
    expect(await statements.query('select id, body from notes where false')).toEqual(
      await pg.query('select id, body from notes where false'),
    );
  });
});

describe('PgliteStatements with bindMessage', () => {
  // Last: it adds a statement to the session, which the bound's count above does not expect.
  it('runs statements with the values it binds: multi-byte text, nulls and an empty string come back as sent', async () => {
    const sent = ['é, 😀 and 中文', null, ''];
    const { rows } = await statements.query<{ a: string | null; b: string | null; c: string | null }>(
      'select $1::text as a, $2::text as b, $3::text as c',
      sent,
    );
    expect(rows).toEqual([{ a: sent[0], b: null, c: '' }]);
  });
});
