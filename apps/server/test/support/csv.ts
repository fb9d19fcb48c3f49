import { expect } from 'vitest';

/** RFC 4180 reader for assertions: quoted fields, doubled quotes, CRLF rows. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index += 1;
    } else cell += char;
  }
  if (cell || row.length) throw new Error('CSV does not end with CRLF');
  return rows;
}

/** A downloaded CSV's rows: it starts with the byte order mark Excel needs. */
export function csvRows(body: string): string[][] {
  expect(body.startsWith('\uFEFF')).toBe(true);
  return parseCsv(body.slice(1));
}
