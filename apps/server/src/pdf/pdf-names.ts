/**
 * Names written with `#xx` escapes (PDF 32000-1, 7.3.5): `/Fl#61teDecode` is /FlateDecode to
 * pdf.js, whose lexer decodes every name it reads (its Lexer.getName), in a dictionary's keys and
 * values and in a content stream's operands alike. The up-front counts (stream-guard.ts,
 * stream-filters.ts, form-chains.ts) read names from the file's text, so they decode them here,
 * the same way, or a file could hide its filters, its forms or its resources from them by
 * spelling them so (decision 0102, "Names and /F").
 */

// pdf.js's specialChars: white space (1) and delimiters (2) end a name.
const ENDS_NAME = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20, ...[...'()<>[]{}/%'].map((char) => char.charCodeAt(0))]);
const NUMBER_SIGN = 0x23;
const BACKSLASH = 0x5c;

function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code & 0x0f;
  if ((code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66)) return (code & 0x0f) + 9;
  return -1;
}

/**
 * The name pdf.js reads from `raw` (the characters after `/`, up to the first one that ends a
 * name), step for step as its getName: `#` and two hex digits is that byte; a `#` not followed by
 * two hex digits is kept as it is (with the one character after it, unless that ends the name).
 */
export function decodeName(raw: string): string {
  if (!raw.includes('#')) return raw;
  let name = '';
  for (let at = 0; at < raw.length; at += 1) {
    const code = raw.charCodeAt(at);
    if (code !== NUMBER_SIGN) {
      name += raw[at];
      continue;
    }
    // In `raw` a name-ending character never follows (it ended the name), so only the end does.
    if (at + 1 >= raw.length) return `${name}#`;
    const high = hexDigit(raw.charCodeAt(at + 1));
    if (high < 0) {
      name += `#${raw[at + 1]}`;
      at += 1;
      continue;
    }
    if (at + 2 >= raw.length) return `${name}#${raw[at + 1]}`;
    const low = hexDigit(raw.charCodeAt(at + 2));
    if (low < 0) {
      name += `#${raw[at + 1]}${raw[at + 2]}`;
      at += 2;
      continue;
    }
    name += String.fromCharCode((high << 4) | low);
    at += 2;
  }
  return name;
}

/** A name's characters that would change how the text around it is read stay escaped (`#20`, `#2F`, `#23`, `#5C`). */
function written(name: string): string {
  let text = '';
  for (let at = 0; at < name.length; at += 1) {
    const code = name.charCodeAt(at);
    text +=
      ENDS_NAME.has(code) || code === NUMBER_SIGN || code === BACKSLASH
        ? `#${code.toString(16).toUpperCase().padStart(2, '0')}`
        : name[at];
  }
  return text;
}

/** A name with a `#` in it: `/`, then characters that do not end a name, one of them `#`. */
const ESCAPED_NAME = /\/[^\0\t\n\f\r ()<>[\]{}/%#]*#[^\0\t\n\f\r ()<>[\]{}/%]*/g;

/**
 * `text` (a dictionary, an object: latin1) with every name that holds a `#` written as pdf.js
 * reads it, so that the checks' patterns (`/Filter`, `/Subtype /Form`) and name readers see the
 * name pdf.js sees. Characters that end a name, `#` and `\` stay escaped (uppercase), so the text
 * reads as the same tokens and strings; `decodeName` of the result is pdf.js's name. Linear in
 * the length of `text`.
 */
export function withNamesDecoded(text: string): string {
  if (!text.includes('#')) return text;
  return text.replace(ESCAPED_NAME, (name) => `/${written(decodeName(name.slice(1)))}`);
}
