/**
 * CSV as spreadsheets read it (RFC 4180: comma-separated, CRLF line ends, quotes doubled).
 *
 * Injection guard: a spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return,
 * which some programs strip before looking) as a formula, so a student named "=HYPERLINK(...)"
 * could run code on the instructor's machine. Such text cells get a leading apostrophe, which
 * spreadsheets show as plain text (OWASP's advice). Numbers we write ourselves are left alone.
 */
export type CsvCell = string | number | null | undefined;

const FORMULA_TRIGGERS = /^[=+\-@\t\r]/;

export function escapeCsvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'number' ? formatNumber(value) : value;
  if (typeof value === 'string' && FORMULA_TRIGGERS.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return rows.map((row) => row.map(escapeCsvCell).join(',')).join('\r\n') + '\r\n';
}

/** Up to two decimals, no trailing zeros, never an exponent: what a gradebook column expects. */
function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '';
  return String(Math.round(value * 100) / 100);
}
