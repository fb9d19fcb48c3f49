/**
 * Text PostgreSQL refuses (NUL, lone UTF-16 surrogates), and a PDF whose text layer carries it:
 * for the tests that check no input reaches the database unstorable.
 */

export const NUL = '\u0000';
export const LONE_SURROGATE = '\ud800';

/** `text` with a NUL and a lone surrogate inside it. */
export const poisoned = (text: string) => `${text.slice(0, 2)}${NUL}${text.slice(2)}${LONE_SURROGATE}`;

/** True when `value` (any JSON) holds a NUL or a lone surrogate anywhere, keys included. */
export function holdsUnstorableText(value: unknown): boolean {
  const json = JSON.stringify(value);
  return /\\u0000|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i.test(json);
}

/**
 * A one-page PDF whose text layer holds `before`, a NUL character (byte 0 in a Helvetica string:
 * pdf.js extracts it as U+0000), then `after`. pdf-lib refuses to encode NUL, so it is written by hand.
 */
export function makePdfWithNulInText(before: string, after: string): Buffer {
  const escape = (text: string) => text.replace(/[\\()]/g, (char) => `\\${char}`);
  const content = `BT /F1 12 Tf 50 780 Td (${escape(before)}\\000${escape(after)}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
