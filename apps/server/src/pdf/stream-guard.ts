import { constants, inflateSync } from 'node:zlib';
import { ExtractionError } from './extraction-error.ts';

/**
 * Checks, before pdf.js opens a PDF, how large its flate-compressed streams are once unpacked:
 * a 500 KB "flate bomb" unpacks into 512 MB of content stream, which pdf.js decodes into memory
 * outside the V8 heap, where a thread's heap limit does not reach (it raised the server's RSS by
 * gigabytes). Each stream is inflated here with a hard output limit, so the check itself costs at
 * most that limit, and a file over it is refused with a 'too-large' ExtractionError (a file fault).
 *
 * Images are left to pdf.js: it refuses images larger than its `maxImageSize` from their declared
 * dimensions, and decodes no more than those dimensions need. Streams whose data does not inflate
 * (other filters, damage) are left to pdf.js too. Up to three nested FlateDecode filters are
 * followed (a double-compressed bomb reaches a million to one).
 */

export interface StreamLimits {
  /** One stream, unpacked. */
  maxStreamBytes: number;
  /** All streams together, unpacked. */
  maxTotalBytes: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  // Far above the content of any real page (a dense vector plot is a few MB), far below a bomb.
  maxStreamBytes: 64 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
};

const MAX_FLATE_LAYERS = 3;
/** How far before `stream` its dictionary may start. */
const MAX_DICTIONARY_CHARS = 8192;

export function checkDecodedStreamSizes(bytes: Uint8Array, limits: StreamLimits = DEFAULT_STREAM_LIMITS): void {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const keyword = /(?<![A-Za-z])stream(?:\r\n|\n|\r)/g;
  let total = 0;
  for (let match = keyword.exec(text); match; match = keyword.exec(text)) {
    const dataStart = match.index + match[0].length;
    const dataEnd = text.indexOf('endstream', dataStart);
    if (dataEnd < 0) break;
    keyword.lastIndex = dataEnd + 'endstream'.length;
    const dictionary = dictionaryBefore(text, match.index);
    const layers = flateLayers(dictionary);
    if (layers === 0 || /\/Subtype\s*\/Image\b/.test(dictionary)) continue;
    const isTotalTheLimit = limits.maxTotalBytes - total < limits.maxStreamBytes;
    const budget = isTotalTheLimit ? limits.maxTotalBytes - total : limits.maxStreamBytes;
    const size = unpackedSize(bytes.subarray(dataStart, dataEnd), layers, budget);
    if (size === 'over') throw tooLarge(isTotalTheLimit ? limits.maxTotalBytes : limits.maxStreamBytes);
    total += size;
  }
}

/** The text between the object header (`12 0 obj`) and `stream`: the stream's dictionary. */
function dictionaryBefore(text: string, streamIndex: number): string {
  const from = Math.max(0, streamIndex - MAX_DICTIONARY_CHARS);
  const window = text.slice(from, streamIndex);
  const header = window.lastIndexOf('obj');
  return header < 0 ? window : window.slice(header + 3);
}

/** FlateDecode filters in the dictionary's /Filter (a name or an array of names); 0 if none. */
function flateLayers(dictionary: string): number {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z]+)/.exec(dictionary)?.[1] ?? '';
  return Math.min(MAX_FLATE_LAYERS, (filter.match(/\/(?:FlateDecode|Fl)(?![A-Za-z])/g) ?? []).length);
}

function unpackedSize(data: Uint8Array, layers: number, budget: number): number | 'over' {
  let current: Uint8Array = data;
  for (let layer = 0; layer < layers; layer += 1) {
    try {
      // Z_SYNC_FLUSH: streams often end without a final block or with trailing bytes; what was inflated counts.
      current = inflateSync(current, { maxOutputLength: Math.max(1, budget), finishFlush: constants.Z_SYNC_FLUSH });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError)
        return 'over';
      return layer === 0 ? 0 : current.byteLength; // not zlib data: left to pdf.js
    }
  }
  return current.byteLength > budget ? 'over' : current.byteLength;
}

function tooLarge(limitBytes: number): ExtractionError {
  return new ExtractionError(
    'too-large',
    `This PDF unpacks into more than ${Math.round(limitBytes / (1024 * 1024))} MB of page content (a compression bomb, or a damaged file). Please export it again or upload a smaller file.`,
  );
}
