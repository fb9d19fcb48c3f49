/**
 * Text PostgreSQL refuses (NUL, lone UTF-16 surrogates), for the tests that check no input reaches
 * the database unstorable (a PDF whose text layer carries a NUL: `buildPdfWithNulInText`).
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
