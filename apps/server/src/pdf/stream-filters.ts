import { constants, inflateSync } from 'node:zlib';

/**
 * The stream filters of PDF 32000-1 (7.4) that carry drawing instructions, undone the way pdf.js
 * undoes them (its FlateStream, LZWStream, Ascii85Stream, AsciiHexStream, RunLengthStream), each
 * with a hard limit on its output: what stream-guard.ts runs before pdf.js reads a file, so that a
 * content stream or form hidden behind any of them is measured and counted like a Flate one
 * (decision 0096). A filter name pdf.js does not know is read by pdf.js as no filter at all, and
 * so is it here. Image filters (DCT, JPX, CCITT, JBIG2) and Crypt end the chain: their output is
 * no drawing this check reads.
 *
 * Not undone: predictors (/DecodeParms /Predictor after Flate or LZW) — the data is counted as
 * inflated; see the decision's "left".
 */

/** What undoing a stream's filters gave: its data, 'over' past the budget, or null (not read here: left to pdf.js). */
export type Decoded = Uint8Array | 'over' | null;

/** Undoes one filter, writing at most `budget` bytes ('over' past it); null: the data is not this filter's. */
type Decoder = (data: Uint8Array, budget: number, dictionary: string) => Uint8Array | 'over' | null;

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

const lzw: Decoder = (data, budget, dictionary) => {
  const earlyChange = /\/EarlyChange\s+0(?![\d.])/.test(dictionary) ? 0 : 1;
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

/** Filters whose output is not drawing instructions (images, encryption): the chain is not followed past them. */
const OPAQUE = new Set(['DCTDecode', 'DCT', 'JPXDecode', 'JPX', 'CCITTFaxDecode', 'CCF', 'JBIG2Decode', 'Crypt']);

/** Flate alone: undone by zlib, natively, fast enough for the server's own thread (see `undoFilters`). */
export const NATIVE_FILTERS: ReadonlySet<string> = new Set(['FlateDecode', 'Fl']);

/**
 * The stream's data with `filters` undone in order. `budgetOf()` is how many bytes the next layer
 * may write; `onLayer` is told each layer's size (the caller adds them up). 'over': a layer went
 * past its budget; null: a filter this check does not read (an image's, encryption, or one not in
 * `only`) or data that is not what its filter says (left to pdf.js, as before). `only`: the filters
 * undone at all; the others are undone in plain JavaScript, a byte at a time (tens of ms a MB),
 * which the extraction threads can afford and the server's own thread should not.
 */
export function undoFilters(
  data: Uint8Array,
  filters: readonly string[],
  dictionary: string,
  budgetOf: () => number,
  onLayer: (bytes: number) => void,
  only?: ReadonlySet<string>,
): Decoded {
  let current = data;
  for (const name of filters) {
    if (OPAQUE.has(name)) return null;
    if (only && DECODERS.has(name) && !only.has(name)) return null;
    const decoder = DECODERS.get(name);
    if (!decoder) continue; // pdf.js reads a stream with a filter it does not know as it is
    const next = decoder(current, budgetOf(), dictionary);
    if (next === null || next === 'over') return next;
    onLayer(next.byteLength);
    current = next;
  }
  return current;
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
