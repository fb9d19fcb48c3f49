import { constants, inflateSync } from 'node:zlib';
import { decodeName } from './pdf-names.ts';

/**
 * The stream filters of PDF 32000-1 (7.4) that carry drawing instructions, undone the way pdf.js
 * undoes them (its FlateStream, LZWStream, Ascii85Stream, AsciiHexStream, RunLengthStream), each
 * with a hard limit on its output: what stream-guard.ts runs before pdf.js reads a file, so that a
 * content stream or form hidden behind any of them is measured and counted like a Flate one
 * (decision 0096). A filter name pdf.js does not know is read by pdf.js as no filter at all, and
 * so is it here (/Crypt too: decision 0108). Image filters (DCT, JPX, CCITT, JBIG2) end the chain
 * and are reported as such: what pdf.js draws through one is refused by stream-guard.ts.
 *
 * Predictors (/DecodeParms /Predictor after Flate or LZW: PNG rows, TIFF differences) are undone as
 * pdf.js's PredictorStream undoes them (decision 0100), their parameters taken as its JavaScript
 * takes them (`12.0`, a name: decision 0106). Filters and parameters given by reference
 * (`/DecodeParms 7 0 R`, `/Columns 8 0 R`) are followed through `lookup` when the caller has one
 * (stream-guard.ts defers such streams until it has indexed the file's objects: decision 0102);
 * without it, or when the object is not found, such a stream is left to pdf.js (and the extraction
 * pool's CPU budgets). The dictionary is read as pdf.js's Parser reads it (decision 0102): /F
 * before /Filter and /DP before /DecodeParms, its own keys only, the last of a repeated key, names
 * with `#xx` escapes decoded (pdf-names.ts).
 */

/** The text of an object's value (`<< ... >>`, `[ ... ]`, a name or a number); undefined: not found. */
export type Lookup = (objectNumber: number) => string | undefined;

/**
 * What undoing a stream's filters gave: its data, 'over' past the budget, 'image' when an image
 * filter (DCT, JPX, CCITT, JBIG2) is among them (decision 0108: pdf.js decodes it all the same and
 * reads the pixels as whatever the stream is), or null (not read here: left to pdf.js).
 */
export type Decoded = Uint8Array | 'over' | 'image' | null;

/**
 * Undoes one filter, writing at most `budget` bytes ('over' past it); null: the data is not this
 * filter's. `params`: the filter's own /DecodeParms (LZW's /EarlyChange), as pdf.js pairs them.
 */
type Decoder = (data: Uint8Array, budget: number, params: string | null) => Uint8Array | 'over' | null;

/** The filters pdf.js follows with a predictor when their parameters name one (its Parser.makeFilter). */
const PREDICTED = new Set(['FlateDecode', 'Fl', 'LZWDecode', 'LZW']);

const flate: Decoder = (data, budget) => {
  try {
    // Z_SYNC_FLUSH: streams often end without a final block or with trailing bytes; what was inflated counts.
    const out = inflateSync(data, { maxOutputLength: Math.max(1, budget), finishFlush: constants.Z_SYNC_FLUSH });
    return out.byteLength > budget ? 'over' : out;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) return 'over';
    return null; // not zlib data: left to pdf.js
  }
};

/** pdf.js's isWhiteSpace (ASCII85 skips these; it is not the full set of PDF white space). */
const isA85White = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;

const asciiHex: Decoder = (data, budget) => {
  const out = new Output(Math.min(budget, (data.length + 1) >> 1), budget);
  let first = -1;
  let ended = false;
  for (const byte of data) {
    let digit: number;
    if (byte >= 0x30 && byte <= 0x39) digit = byte & 0x0f;
    else if ((byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)) digit = (byte & 0x0f) + 9;
    else if (byte === 0x3e) {
      ended = true;
      break;
    } else continue; // white space and anything else is skipped, as pdf.js does
    if (first < 0) first = digit;
    else {
      if (!out.push((first << 4) | digit)) return 'over';
      first = -1;
    }
  }
  if (first >= 0 && ended && !out.push(first << 4)) return 'over';
  return out.bytes();
};

const ascii85: Decoder = (data, budget) => {
  const out = new Output(Math.min(budget, data.length), budget);
  const group = new Uint8Array(5);
  let at = 0;
  const next = () => {
    while (at < data.length && isA85White(data[at]!)) at += 1;
    return at < data.length ? data[at++]! : -1;
  };
  for (;;) {
    const first = next();
    if (first === -1 || first === 0x7e) break; // `~` (of `~>`) ends it
    if (first === 0x7a) {
      // `z`: four zero bytes
      for (let i = 0; i < 4; i += 1) if (!out.push(0)) return 'over';
      continue;
    }
    group[0] = first;
    let count = 1;
    for (; count < 5; count += 1) {
      const byte = next();
      if (byte === -1 || byte === 0x7e) break;
      group[count] = byte;
    }
    for (let i = count; i < 5; i += 1) group[i] = 0x21 + 84; // a short last group is padded with `u`
    let value = 0;
    for (let i = 0; i < 5; i += 1) value = value * 85 + (group[i]! - 0x21);
    const bytes = [0, 0, 0, 0];
    for (let i = 3; i >= 0; i -= 1) {
      bytes[i] = value & 0xff;
      value >>= 8;
    }
    for (let i = 0; i < count - 1; i += 1) if (!out.push(bytes[i]!)) return 'over';
    if (count < 5) break;
  }
  return out.bytes();
};

const LZW_TABLE = 4096;

const lzw: Decoder = (data, budget, params) => {
  const early = params === null ? undefined : entryValue(params, entriesOf(params), ['EarlyChange'], undefined);
  const earlyChange = typeof early === 'string' && /^[+-]?0*\.?0*$/.test(early) && /\d/.test(early) ? 0 : 1;
  const out = new Output(Math.min(budget, data.length * 2), budget);
  const values = new Uint8Array(LZW_TABLE);
  const lengths = new Uint16Array(LZW_TABLE);
  const previous = new Uint16Array(LZW_TABLE);
  const sequence = new Uint8Array(LZW_TABLE + 1);
  for (let i = 0; i < 256; i += 1) {
    values[i] = i;
    lengths[i] = 1;
  }
  let sequenceLength = 0;
  let codeLength = 9;
  let nextCode = 258;
  let previousCode = 0;
  let cached = 0;
  let bitsCached = 0;
  let at = 0;
  for (;;) {
    while (bitsCached < codeLength && at < data.length) {
      cached = ((cached << 8) | data[at++]!) >>> 0;
      bitsCached += 8;
    }
    if (bitsCached < codeLength) break;
    bitsCached -= codeLength;
    const code = (cached >>> bitsCached) & ((1 << codeLength) - 1);
    cached &= (1 << bitsCached) - 1;
    const hasPrevious = sequenceLength > 0;
    if (code < 256) {
      sequence[0] = code;
      sequenceLength = 1;
    } else if (code >= 258) {
      if (code < nextCode) {
        sequenceLength = lengths[code]!;
        for (let j = sequenceLength - 1, q = code; j >= 0; j -= 1) {
          sequence[j] = values[q]!;
          q = previous[q]!;
        }
      } else if (sequenceLength < sequence.length) sequence[sequenceLength++] = sequence[0]!;
    } else if (code === 256) {
      codeLength = 9;
      nextCode = 258;
      sequenceLength = 0;
      continue;
    } else break; // 257: end of data
    if (hasPrevious && nextCode < LZW_TABLE) {
      previous[nextCode] = previousCode;
      lengths[nextCode] = lengths[previousCode]! + 1;
      values[nextCode] = sequence[0]!;
      nextCode += 1;
      const reach = nextCode + earlyChange;
      if ((reach & (reach - 1)) === 0) codeLength = Math.min(Math.log2(reach) + 1, 12);
    }
    previousCode = code;
    for (let j = 0; j < sequenceLength; j += 1) if (!out.push(sequence[j]!)) return 'over';
  }
  return out.bytes();
};

const runLength: Decoder = (data, budget) => {
  const out = new Output(Math.min(budget, data.length), budget);
  let at = 0;
  while (at + 1 < data.length && data[at] !== 128) {
    const n = data[at]!;
    if (n < 128) {
      const end = Math.min(data.length, at + 2 + n);
      for (let i = at + 1; i < end; i += 1) if (!out.push(data[i]!)) return 'over';
      at = end;
    } else {
      for (let i = 0; i < 257 - n; i += 1) if (!out.push(data[at + 1]!)) return 'over';
      at += 2;
    }
  }
  return out.bytes();
};

const DECODERS: ReadonlyMap<string, Decoder> = new Map([
  ['FlateDecode', flate],
  ['Fl', flate],
  ['LZWDecode', lzw],
  ['LZW', lzw],
  ['ASCII85Decode', ascii85],
  ['A85', ascii85],
  ['ASCIIHexDecode', asciiHex],
  ['AHx', asciiHex],
  ['RunLengthDecode', runLength],
  ['RL', runLength],
]);

/**
 * Image filters: their output is pixels, which no honest file draws as instructions; the chain is
 * not followed past them, and the caller is told ('image'). /Crypt is not among them: pdf.js does
 * not know it and reads the stream as if it were not there (decision 0108), and so does this.
 */
const IMAGE_FILTERS = new Set(['DCTDecode', 'DCT', 'JPXDecode', 'JPX', 'CCITTFaxDecode', 'CCF', 'JBIG2Decode']);

/** Flate alone: undone by zlib, natively, fast enough for the server's own thread (see `undoFilters`). */
export const NATIVE_FILTERS: ReadonlySet<string> = new Set(['FlateDecode', 'Fl']);

/**
 * The stream's data with the filters its dictionary names (/Filter) undone in order. `budgetOf()`
 * is how many bytes the next layer may write; `onLayer` is told each layer's size (the caller adds
 * them up). 'over': a layer went past its budget; 'image': an image filter; null: a filter this
 * check does not read (one not in `only`), data that is not what its filter says, or a filter
 * or predictor given by reference that `lookup` does not resolve (left to pdf.js, as before).
 * `onImageData`: told the image filter met and the data it is given (the filters before it undone).
 * `only`: the filters undone at all; the others are undone in plain JavaScript, a byte at a time
 * (tens of ms a MB), which the extraction threads can afford and the server's own thread should not.
 */
export function undoFilters(
  data: Uint8Array,
  dictionary: string,
  budgetOf: () => number,
  onLayer: (bytes: number) => void,
  only?: ReadonlySet<string>,
  lookup?: Lookup,
  onImageData?: (filter: string, data: Uint8Array) => void,
): Decoded {
  const entries = entriesOf(dictionary);
  const filters = filtersOf(dictionary, entries, lookup);
  if (filters === null) return null;
  let current = data;
  const params = parametersOf(dictionary, entries, filters.length, lookup);
  for (const [index, name] of filters.entries()) {
    if (IMAGE_FILTERS.has(name)) {
      onImageData?.(name, current);
      return 'image';
    }
    if (only && DECODERS.has(name) && !only.has(name)) return null;
    const decoder = DECODERS.get(name);
    if (!decoder) continue; // pdf.js reads a stream with a filter it does not know as it is
    const layerParams = params[index] ?? null;
    // Parameters by reference that could not be followed: whether a predictor follows is unknown.
    if (PREDICTED.has(name) && layerParams === BY_REFERENCE) return null;
    const ownParams = layerParams === BY_REFERENCE ? null : layerParams;
    let next = decoder(current, budgetOf(), ownParams);
    if (next === null || next === 'over') return next;
    if (PREDICTED.has(name) && ownParams !== null) {
      next = undoPredictor(next, ownParams, budgetOf(), lookup);
      if (next === null || next === 'over') return next;
    }
    onLayer(next.byteLength);
    current = next;
  }
  return current;
}

/** A filter or parameters given as an indirect object that could not be followed. */
const BY_REFERENCE = Symbol('by reference');
type Params = string | null | typeof BY_REFERENCE;

/**
 * pdf.js's Parser.filter reads `dict.get("F", "Filter")` and `dict.get("DP", "DecodeParms")`: the
 * first key present wins, whatever the other holds (`/F null /Filter /FlateDecode` is no filter).
 */
const FILTER_KEYS = ['F', 'Filter'] as const;
const PARAMS_KEYS = ['DP', 'DecodeParms'] as const;
/** `12 0 R` at the start of the text. */
const REFERENCE_AT_START = /^(\d+)\s+\d+\s+R(?![A-Za-z0-9])/;
const REFERENCE = /(?<![\d.])\d+\s+\d+\s+R(?![A-Za-z0-9])/;

/**
 * Keys that tell a stream's kind (decision 0106): `/Subtype 9 0 R` is a form when 9 is /Form,
 * as pdf.js's Dict.get follows it; /First and /N say where an object stream's objects are;
 * /PatternType 1, a tiling pattern's cell.
 */
const KIND_KEYS = [['Subtype'], ['Type'], ['First'], ['N'], ['PatternType']] as const;

/**
 * Whether the filters, their parameters or the keys that tell the stream's kind are given (in
 * part) by reference: reading them needs the file's objects (`lookup`), which stream-guard.ts
 * has only once it has walked the whole file.
 */
export function needsLookup(dictionary: string): boolean {
  const entries = entriesOf(dictionary);
  return [FILTER_KEYS, PARAMS_KEYS, ...KIND_KEYS].some((keys) => {
    const at = valueAt(entries, keys);
    return at !== undefined && REFERENCE.test(dictionary.slice(at, endOfValue(dictionary, at)));
  });
}

/**
 * The dictionary's own entries (its own keys only, the last of a key written twice, names
 * decoded), read once: `value(key)` is the text of the value pdf.js's Dict.get gives, followed
 * once when it is a reference; undefined: no such key; null: a reference `lookup` does not
 * resolve (or no lookup). What stream-guard.ts tells a stream's kind by (`/Subtype /Form`), not
 * from text inside a nested dictionary or a string.
 */
export function ownValues(
  dictionary: string,
  lookup?: Lookup,
): { keys: ReadonlySet<string>; value: (key: string) => string | null | undefined } {
  const entries = entriesOf(dictionary);
  return {
    keys: new Set(entries.keys()),
    value: (key) => {
      const value = entryValue(dictionary, entries, [key], lookup);
      return value === BY_REFERENCE ? null : value;
    },
  };
}

/** The name a value's text is (decoded as pdf.js decodes it); undefined when it is not a name. */
export function nameOf(value: string | null | undefined): string | undefined {
  return value?.startsWith('/') ? nameAt(value, 0) : undefined;
}

/**
 * The number pdf.js's lexer reads from a value's text (its Lexer.getNumber: `12.0`, `+12`, `.5`,
 * `1e1`, a second minus ignored), undefined when the value is not a number or pdf.js refuses it.
 */
export function numberOf(value: string | null | undefined): number | undefined {
  if (!value || !/^[+\-.\d]/.test(value)) return undefined;
  let at = 0;
  let sign = 1;
  if (value[at] === '-') {
    sign = -1;
    at += value[at + 1] === '-' ? 2 : 1;
  } else if (value[at] === '+') at += 1;
  let divideBy = 0;
  if (value[at] === '.') {
    divideBy = 10;
    at += 1;
  }
  const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';
  // pdf.js: a sign or point followed by the end of the token is 0; by anything else, an error.
  if (!isDigit(value[at])) return at >= value.length ? 0 : undefined;
  let base = 0;
  let power = 0;
  let powerSign = 1;
  let isExponent = false;
  for (; at < value.length; at += 1) {
    const char = value[at]!;
    if (isDigit(char)) {
      if (isExponent) power = power * 10 + Number(char);
      else {
        if (divideBy !== 0) divideBy *= 10;
        base = base * 10 + Number(char);
      }
    } else if (char === '.') {
      if (divideBy === 0) divideBy = 1;
      else break;
    } else if (char === '-') {
      // "Badly formatted number: minus sign in the middle": pdf.js reads on.
    } else if (char === 'e' || char === 'E') {
      const next = value[at + 1];
      if (next === '+' || next === '-') {
        powerSign = next === '-' ? -1 : 1;
        at += 1;
      } else if (!isDigit(next)) break;
      isExponent = true;
    } else break;
  }
  if (divideBy !== 0) base /= divideBy;
  if (isExponent) base *= 10 ** (powerSign * power);
  return sign * base;
}

/**
 * Where the value of each key of the dictionary that opens `text` starts, read as pdf.js's Parser
 * reads a dictionary: its own keys only (not those of a dictionary inside it, nor text inside a
 * string), names decoded (`/Filt#65r`), a token that is not a name skipped, and the last of a key
 * written twice winning. One pass over the text.
 */
function entriesOf(text: string): Map<string, number> {
  const entries = new Map<string, number>();
  const open = text.indexOf('<<');
  if (open < 0) return entries;
  let at = open + 2;
  for (;;) {
    at = skipBlank(text, at);
    if (at >= text.length || text.startsWith('>>', at)) return entries;
    if (text[at] !== '/') {
      at = afterToken(text, at); // pdf.js: "Malformed dictionary: key must be a name object"
      continue;
    }
    const keyEnd = endOfName(text, at);
    const valueStart = skipBlank(text, keyEnd);
    if (valueStart >= text.length) return entries;
    entries.set(decodeName(text.slice(at + 1, keyEnd)), valueStart);
    at = endOfValue(text, valueStart);
  }
}

/** The start of the value of the first of `keys` present (pdf.js's Dict.get with several keys). */
function valueAt(entries: Map<string, number>, keys: readonly string[]): number | undefined {
  for (const key of keys) {
    const at = entries.get(key);
    if (at !== undefined) return at;
  }
  return undefined;
}

/**
 * The value at `at` followed when it is a reference (once, as pdf.js's Dict.get and fetchIfRef
 * do); BY_REFERENCE when it is one and `lookup` has no answer.
 */
function followed(text: string, at: number, lookup: Lookup | undefined): string | typeof BY_REFERENCE {
  const reference = REFERENCE_AT_START.exec(text.slice(at, at + 32));
  if (!reference) return text.slice(at, endOfValue(text, at));
  return lookup?.(Number(reference[1]))?.trim() ?? BY_REFERENCE;
}

/** The value of the first of `keys` present in the dictionary, followed; undefined when none is. */
function entryValue(
  dictionary: string,
  entries: Map<string, number>,
  keys: readonly string[],
  lookup: Lookup | undefined,
): string | typeof BY_REFERENCE | undefined {
  const at = valueAt(entries, keys);
  return at === undefined ? undefined : followed(dictionary, at, lookup);
}

/**
 * The names of the dictionary's /F or /Filter (a name or an array of names, each maybe by
 * reference); empty if none; null where a reference is not followed or an entry is not a name
 * (pdf.js refuses that stream).
 */
function filtersOf(dictionary: string, entries: Map<string, number>, lookup: Lookup | undefined): string[] | null {
  const value = entryValue(dictionary, entries, FILTER_KEYS, lookup);
  if (value === undefined) return [];
  if (value === BY_REFERENCE) return null;
  if (value.startsWith('/')) return [nameAt(value, 0)];
  if (!value.startsWith('[')) return [];
  const names: string[] = [];
  for (let at = skipBlank(value, 1); at < value.length && value[at] !== ']'; at = skipBlank(value, at)) {
    const item = followed(value, at, lookup);
    if (item === BY_REFERENCE || !item.startsWith('/')) return null;
    names.push(nameAt(item, 0));
    at = endOfValue(value, at);
  }
  return names;
}

/**
 * The /DP or /DecodeParms of each of `count` filters, as pdf.js pairs them (Parser.filter): one
 * dictionary for a single filter, an array for an array of filters (a dictionary beside an array
 * of filters, or an array beside one filter, pairs with nothing); null where a filter has none.
 * The parameters, or an entry of their array, may be a reference: followed through `lookup`,
 * BY_REFERENCE where it has no answer.
 */
function parametersOf(
  dictionary: string,
  entries: Map<string, number>,
  count: number,
  lookup: Lookup | undefined,
): Params[] {
  const none = Array.from({ length: count }, (): Params => null);
  const value = entryValue(dictionary, entries, PARAMS_KEYS, lookup);
  if (value === undefined) return none;
  if (value === BY_REFERENCE) return none.map(() => BY_REFERENCE);
  const filters = entryValue(dictionary, entries, FILTER_KEYS, lookup);
  const isArrayOfFilters = typeof filters === 'string' && filters.startsWith('[');
  if (value.startsWith('<<')) return isArrayOfFilters ? none : [value, ...none.slice(1)];
  if (!value.startsWith('[') || !isArrayOfFilters) return none;
  const items: Params[] = [];
  let cursor = skipBlank(value, 1);
  while (items.length < count && cursor < value.length && value[cursor] !== ']') {
    const item = followed(value, cursor, lookup);
    items.push(item === BY_REFERENCE || item.startsWith('<<') ? item : null);
    cursor = skipBlank(value, endOfValue(value, cursor));
  }
  return [...items, ...none.slice(items.length)];
}

const isWhiteChar = (char: string | undefined) => char !== undefined && ' \t\r\n\f\0'.includes(char);
const endsName = (char: string | undefined) => char === undefined || isWhiteChar(char) || '()<>[]{}/%'.includes(char);

/** Past white space and comments. */
function skipBlank(text: string, at: number): number {
  while (at < text.length) {
    if (isWhiteChar(text[at])) at += 1;
    else if (text[at] === '%') while (at < text.length && text[at] !== '\n' && text[at] !== '\r') at += 1;
    else break;
  }
  return at;
}

/** Just past the name whose `/` is at `at`. */
function endOfName(text: string, at: number): number {
  let end = at + 1;
  while (!endsName(text[end])) end += 1;
  return end;
}

/** The name starting with `/` at `at`, without the slash, as pdf.js reads it (`#xx` decoded). */
function nameAt(text: string, at: number): string {
  return decodeName(text.slice(at + 1, endOfName(text, at)));
}

/** Just past a literal string `( ... )`: balanced parentheses, a backslash escapes the next character. */
function afterLiteral(text: string, start: number): number {
  let open = 0;
  for (let at = start; at < text.length; at += 1) {
    if (text[at] === '\\') at += 1;
    else if (text[at] === '(') open += 1;
    else if (text[at] === ')' && --open === 0) return at + 1;
  }
  return text.length;
}

/** Just past the one token at `at` (a string, a hex string, a bracket, a name, a number or keyword). */
function afterToken(text: string, at: number): number {
  const char = text[at];
  if (char === '(') return afterLiteral(text, at);
  if (text.startsWith('<<', at) || text.startsWith('>>', at)) return at + 2;
  if (char === '<') {
    const close = text.indexOf('>', at);
    return close < 0 ? text.length : close + 1;
  }
  if (char === '/') return endOfName(text, at);
  if (endsName(char)) return at + 1;
  let end = at;
  while (!endsName(text[end])) end += 1;
  return end;
}

/**
 * Just past the value at `at`: a reference, or a dictionary or array (their nesting counted, the
 * strings, hex strings and comments inside them skipped), or one token. Linear in what it passes.
 */
export function endOfValue(text: string, at: number): number {
  const reference = REFERENCE_AT_START.exec(text.slice(at, at + 32));
  if (reference) return at + reference[0].length;
  let depth = 0;
  while (at < text.length) {
    if (text.startsWith('<<', at) || text[at] === '[') depth += 1;
    else if (text.startsWith('>>', at) || text[at] === ']') depth -= 1;
    at = afterToken(text, at);
    if (depth <= 0) return at;
    at = skipBlank(text, at);
  }
  return text.length;
}

/**
 * A parameter as pdf.js's PredictorStream uses it: `params.get(...) || fallback`, then compared
 * and multiplied as JavaScript does (decision 0106). A number wherever pdf.js's lexer reads one
 * (`12.0`, `+12`); `true` is 1; a name or a dictionary is an object with no number (NaN: `/Predictor
 * /Up` passes pdf.js's checks as a PNG predictor); a string is its text (`(12)`), compared by its
 * number but never `=== 2`. null: a value this reading does not follow pdf.js through (an array,
 * a string with escapes, a reference `lookup` does not resolve).
 */
function parameter(
  params: string,
  lookup: Lookup | undefined,
  fallback: number,
  ...names: string[]
): { number: number; isString: boolean } | null {
  const value = entryValue(params, entriesOf(params), names, lookup);
  if (value === BY_REFERENCE) return null;
  const seen = asJavaScript(value);
  if (seen === null) return null;
  return seen.isTruthy ? { number: seen.number, isString: seen.isString } : { number: fallback, isString: false };
}

/** The value as pdf.js's JavaScript holds it: its number (NaN for an object), whether a string, whether truthy. */
function asJavaScript(value: string | undefined): { number: number; isString: boolean; isTruthy: boolean } | null {
  if (value === undefined || value === 'null' || value === 'false')
    return { number: 0, isString: false, isTruthy: false };
  if (value === 'true') return { number: 1, isString: false, isTruthy: true };
  if (value.startsWith('/') || value.startsWith('<<')) return { number: Number.NaN, isString: false, isTruthy: true };
  const text = value.startsWith('(') ? literalText(value) : value.startsWith('<') ? hexText(value) : undefined;
  if (text !== undefined) return { number: Number(text), isString: true, isTruthy: text !== '' };
  if (value.startsWith('(') || value.startsWith('<') || value.startsWith('[')) return null;
  const number = numberOf(value);
  return number === undefined ? null : { number, isString: false, isTruthy: number !== 0 };
}

/** A literal string's text when it holds no escape; undefined otherwise. */
function literalText(value: string): string | undefined {
  return value.endsWith(')') && !value.includes('\\') ? value.slice(1, -1) : undefined;
}

/** A hex string's text (`<3132>` is "12"), as pdf.js's lexer reads it; undefined when it holds anything else. */
function hexText(value: string): string | undefined {
  const digits = value.slice(1, value.endsWith('>') ? -1 : undefined).replace(/[\0\t\n\f\r ]/g, '');
  if (!/^[0-9A-Fa-f]*$/.test(digits)) return undefined;
  return Buffer.from(digits.length % 2 === 1 ? `${digits}0` : digits, 'hex').toString('latin1');
}

/**
 * `data` with the predictor of `params` undone, byte for byte as pdf.js's PredictorStream: PNG
 * (10-15, or any value its checks let through as PNG, such as a name: each row says its own
 * type) or TIFF (2); 1 or none: as it is. null: parameters pdf.js refuses (another predictor, a
 * row type past 4) or that this reading does not follow (see `parameter`; a TIFF row of parts of
 * bytes not whole numbers); 'over': more than `budget` bytes. A short last row is filled out as
 * pdf.js fills it (arithmetic on a missing byte).
 */
function undoPredictor(
  data: Uint8Array,
  params: string,
  budget: number,
  lookup: Lookup | undefined,
): Uint8Array | 'over' | null {
  const predictorGiven = parameter(params, lookup, 1, 'Predictor');
  const colorsGiven = parameter(params, lookup, 1, 'Colors');
  const bitsGiven = parameter(params, lookup, 8, 'BPC', 'BitsPerComponent');
  const columnsGiven = parameter(params, lookup, 1, 'Columns');
  if (!predictorGiven || !colorsGiven || !bitsGiven || !columnsGiven) return null;
  const [predictor, colors, bits, columns] = [predictorGiven, colorsGiven, bitsGiven, columnsGiven].map(
    (given) => given.number,
  ) as [number, number, number, number];
  // pdf.js: `predictor <= 1` (no predictor), `predictor !== 2 && (predictor < 10 || predictor > 15)` (refused).
  if (predictor <= 1) return data;
  const isTiff = predictor === 2 && !predictorGiven.isString;
  if (!isTiff && (predictor < 10 || predictor > 15)) return null;
  const pixBytes = (colors * bits + 7) >> 3;
  const rowBytes = (columns * colors * bits + 7) >> 3;
  if (pixBytes < 1 || rowBytes < 1) return null;
  if (isTiff && ![colors, bits, columns].every((value) => Number.isSafeInteger(value) && value > 0)) return null;
  const inRow = isTiff ? rowBytes : rowBytes + 1;
  // A row is read while at least one of its data bytes is there (pdf.js's eof).
  const rows = Math.floor(data.length / inRow) + (data.length % inRow > (isTiff ? 0 : 1) ? 1 : 0);
  if (rows * rowBytes > budget) return 'over';
  const buffer = new Uint8Array(rows * rowBytes);
  for (let row = 0; row < rows; row += 1) {
    const start = row * inRow;
    const isRead = isTiff
      ? tiffRow(buffer, row * rowBytes, data.subarray(start, start + rowBytes), rowBytes, bits, colors, columns)
      : pngRow(buffer, row * rowBytes, data[start]!, data.subarray(start + 1, start + inRow), rowBytes, pixBytes);
    if (!isRead) return null;
  }
  return buffer;
}

/**
 * pdf.js's readBlockPng for one row written at `j` (the row above it just before). `raw[i]` past
 * a short row's end is undefined, and pdf.js's arithmetic on it stores 0: kept as is, on purpose.
 */
function pngRow(buffer: Uint8Array, j: number, type: number, raw: Uint8Array, rowBytes: number, pixBytes: number) {
  const rawAt = (i: number) => raw[i] as number;
  const prevRow = j === 0 ? new Uint8Array(rowBytes) : buffer.subarray(j - rowBytes, j);
  const upAt = (i: number) => prevRow[i] as number;
  let i = 0;
  switch (type) {
    case 0:
      for (; i < rowBytes; i += 1) buffer[j++] = rawAt(i);
      return true;
    case 1:
      for (; i < pixBytes; i += 1) buffer[j++] = rawAt(i);
      for (; i < rowBytes; i += 1, j += 1) buffer[j] = (buffer[j - pixBytes]! + rawAt(i)) & 0xff;
      return true;
    case 2:
      for (; i < rowBytes; i += 1) buffer[j++] = (upAt(i) + rawAt(i)) & 0xff;
      return true;
    case 3:
      for (; i < pixBytes; i += 1) buffer[j++] = (upAt(i) >> 1) + rawAt(i);
      for (; i < rowBytes; i += 1, j += 1) buffer[j] = (((upAt(i) + buffer[j - pixBytes]!) >> 1) + rawAt(i)) & 0xff;
      return true;
    case 4:
      for (; i < pixBytes; i += 1) buffer[j++] = upAt(i) + rawAt(i);
      for (; i < rowBytes; i += 1) {
        const up = upAt(i);
        const upLeft = upAt(i - pixBytes);
        const left = buffer[j - pixBytes]!;
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        const base = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
        buffer[j++] = base + rawAt(i);
      }
      return true;
    default:
      return false; // pdf.js: "Unsupported predictor"
  }
}

/** pdf.js's readBlockTiff for one row written at `pos`; a short row is filled out as pdf.js fills it. */
function tiffRow(
  buffer: Uint8Array,
  pos: number,
  raw: Uint8Array,
  rowBytes: number,
  bits: number,
  colors: number,
  columns: number,
) {
  const rawAt = (i: number) => raw[i] as number;
  let i: number;
  if (bits === 1 && colors === 1) {
    let inbuf = 0;
    for (i = 0; i < rowBytes; i += 1) {
      let c = rawAt(i) ^ inbuf;
      c ^= c >> 1;
      c ^= c >> 2;
      c ^= c >> 4;
      inbuf = (c & 1) << 7;
      buffer[pos++] = c;
    }
  } else if (bits === 8) {
    for (i = 0; i < colors; i += 1) buffer[pos++] = rawAt(i);
    for (; i < rowBytes; i += 1, pos += 1) buffer[pos] = buffer[pos - colors]! + rawAt(i);
  } else if (bits === 16) {
    const bytesPerPixel = colors * 2;
    for (i = 0; i < bytesPerPixel; i += 1) buffer[pos++] = rawAt(i);
    for (; i < rowBytes; i += 2) {
      const sum =
        ((rawAt(i) & 0xff) << 8) +
        (rawAt(i + 1) & 0xff) +
        ((buffer[pos - bytesPerPixel]! & 0xff) << 8) +
        (buffer[pos - bytesPerPixel + 1]! & 0xff);
      buffer[pos++] = (sum >> 8) & 0xff;
      buffer[pos++] = sum & 0xff;
    }
  } else {
    const components = new Uint8Array(colors + 1);
    const bitMask = (1 << bits) - 1;
    let [inbuf, inbits, outbuf, outbits, j] = [0, 0, 0, 0, 0];
    for (i = 0; i < columns; i += 1) {
      for (let kk = 0; kk < colors; kk += 1) {
        if (inbits < bits) {
          inbuf = (inbuf << 8) | (rawAt(j++) & 0xff);
          inbits += 8;
        }
        components[kk] = (components[kk]! + (inbuf >> (inbits - bits))) & bitMask;
        inbits -= bits;
        outbuf = (outbuf << bits) | components[kk]!;
        outbits += bits;
        if (outbits >= 8) {
          buffer[pos++] = (outbuf >> (outbits - 8)) & 0xff;
          outbits -= 8;
        }
      }
    }
    if (outbits > 0) buffer[pos++] = (outbuf << (8 - outbits)) + (inbuf & ((1 << (8 - outbits)) - 1));
  }
  return true;
}

/** A growing byte buffer that refuses to pass `limit` bytes. */
class Output {
  private buffer: Uint8Array;
  private length = 0;

  constructor(
    initial: number,
    private readonly limit: number,
  ) {
    this.buffer = new Uint8Array(Math.max(16, initial));
  }

  /** False once the limit would be passed. */
  push(byte: number): boolean {
    if (this.length >= this.limit) return false;
    if (this.length === this.buffer.length) {
      const grown = new Uint8Array(Math.min(this.limit, this.buffer.length * 2));
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.length++] = byte;
    return true;
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}
