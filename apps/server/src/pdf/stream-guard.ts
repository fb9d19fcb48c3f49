import { ExtractionError, nestingTooDeepError } from './extraction-error.ts';
import {
  deepestThroughForms,
  objectsDrawnAsContents,
  objectTexts,
  type ContentStream,
  type ObjectSources,
} from './form-chains.ts';
import { decodeName, withNamesDecoded } from './pdf-names.ts';
import {
  NATIVE_FILTERS,
  nameOf,
  needsLookup,
  numberOf,
  ownValues,
  undoFilters,
  type Lookup,
} from './stream-filters.ts';

/**
 * Checks, before pdf.js opens a PDF, how large its compressed streams are once unpacked:
 * a 500 KB "flate bomb" unpacks into 512 MB of content stream, which pdf.js decodes into memory
 * outside the V8 heap, where a thread's heap limit does not reach (it raised the server's RSS by
 * gigabytes). Each stream's filters are undone here as pdf.js undoes them (Flate, LZW, ASCII85,
 * ASCIIHex, RunLength, any number of them in a row: stream-filters.ts), each layer with a hard
 * output limit, so the check itself costs at most that limit, and a file over it is refused with a
 * 'too-large' ExtractionError (a file fault). Every layer's output counts towards the total.
 *
 * Images are left to pdf.js: it refuses images larger than its `maxImageSize` from their declared
 * dimensions, and decodes no more than those dimensions need. Streams whose data does not decode
 * (image filters, encryption, damage) are left to pdf.js too.
 *
 * `checkContentStreams` (what openPdf runs) also counts, in the same pass, how deep each content
 * stream nests its graphics states (`q` ... `Q`): pdf.js clones a state per `q` onto a prototype
 * chain as long as the nesting, so its work grows with the square of the depth. 100,000 levels
 * are 200 KB of `q`s (or 400 bytes once deflated) and kept pdf.js busy for minutes; no honest
 * page nests more than a few dozen (PDF 32000-1, annex C, suggests 28). Deeper than
 * `maxNestingDepth` is refused as 'too-complex'. Nesting carried through a chain of form XObjects
 * (a form is drawn from the state of the stream that drew it) is counted too, through the forms
 * each `Do` names (form-chains.ts), and so is nesting carried from one content stream of a page to
 * the next (pdf.js reads them as one), against the same limit and with the same message. Forms and
 * contents this check cannot unpack (encryption, image filters; decision 0096) are left to the
 * extraction pool's CPU budgets, per page and per file (extraction-pool.ts); predictors are undone
 * (decision 0100), their parameters followed when given by reference (decision 0102), and names
 * read as pdf.js reads them, `#xx` escapes decoded (pdf-names.ts). A stream is read as drawing
 * when pdf.js would draw it: what a /Contents, /CharProcs or /AP names, whatever its own keys
 * say, and a form or tiling pattern by its own keys followed by reference; object streams by their
 * own /First and /N, and predictor parameters taken as pdf.js's JavaScript takes them (decision
 * 0106).
 */
export interface StreamLimits {
  /** One stream, unpacked. */
  maxStreamBytes: number;
  /** All streams together, unpacked. */
  maxTotalBytes: number;
  /** Graphics states one content stream may nest (`checkContentStreams` only; default 2,000). */
  maxNestingDepth?: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  // Far above the content of any real page (a dense vector plot is a few MB), far below a bomb.
  maxStreamBytes: 64 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  // 70 times the depth PDF 32000-1 suggests; pdf.js reads 2,000 levels in a fraction of a second.
  maxNestingDepth: 2_000,
};

/** How far before `stream` its dictionary may start. */
const MAX_DICTIONARY_CHARS = 8192;

/**
 * Sizes only: the upload's active-content check (active-content.ts), on the server's own thread,
 * so only Flate is undone (natively); the reading thread's check undoes every filter before pdf.js.
 */
export function checkDecodedStreamSizes(bytes: Uint8Array, limits: StreamLimits = DEFAULT_STREAM_LIMITS): void {
  void walkStreams(bytes, limits, null);
}

/**
 * Sizes, and the nesting of every content stream, alone and through the forms it draws: what
 * openPdf runs before pdf.js reads the file.
 */
export function checkContentStreams(bytes: Uint8Array, limits: StreamLimits = DEFAULT_STREAM_LIMITS): void {
  const maxDepth = limits.maxNestingDepth ?? DEFAULT_STREAM_LIMITS.maxNestingDepth!;
  const contents: ContentStream[] = [];
  const sources = walkStreams(bytes, limits, (stream) => {
    const read = readContentStream(stream.data, maxDepth);
    if (read.deepest > maxDepth) throw nestingTooDeepError(maxDepth);
    contents.push({ objectNumber: stream.objectNumber, dictionary: stream.dictionary, isForm: stream.isForm, ...read });
  });
  if ((deepestThroughForms(contents, sources, maxDepth) ?? 0) > maxDepth) throw nestingTooDeepError(maxDepth);
}

/** A content stream (or one that may be) the walk hands on, unpacked. */
interface WalkedStream {
  data: Uint8Array;
  dictionary: string;
  objectNumber: number | undefined;
  /** Its own /Subtype is /Form (followed when given by reference). */
  isForm: boolean;
}

/** Where a stream is in the file: its `stream` keyword, its data. */
interface StreamPlace {
  keywordAt: number;
  dataStart: number;
  dataEnd: number;
}

/**
 * Checks every stream's unpacked size, handing each content stream on (when `onStream` is given);
 * returns the file's text (latin1) and its unpacked object streams.
 *
 * A stream whose filters or predictor parameters are given by reference (`/DecodeParms 9 0 R`)
 * is read after the others (decision 0102): the object may sit in an object stream met later in
 * the file (pdf-lib, as most writers, packs such dictionaries there), so it can be looked up only
 * once every object stream has been unpacked. Deferred object streams are read first (their own
 * parameters looked up in what is known by then), then the deferred content streams, each once,
 * under the same budgets; the lookup reads each object once. Only three numbers a stream are kept
 * while waiting. Without `onStream` (sizes only) nothing is deferred and such streams are left to
 * the reading thread's full check, as before. So are the keys that tell a stream's kind when given
 * by reference (`/Subtype 9 0 R`, /Type, /First, /N: decision 0106).
 *
 * A stream its own keys call something else than drawing (an image, a font program, metadata,
 * an attachment, an object stream) is read as content all the same when the file names it as a
 * page's /Contents, a Type 3 glyph (/CharProcs) or an annotation's appearance (/AP; decision
 * 0106): pdf.js draws what those name whatever its dictionary says. Such streams are kept by place
 * while the walk goes on (three numbers each) and read once the file's objects are known, under
 * the same budgets.
 */
function walkStreams(
  bytes: Uint8Array,
  limits: StreamLimits,
  onStream: ((stream: WalkedStream) => void) | null,
): ObjectSources {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const sources: ObjectSources = { text, objectStreams: [] };
  const deferred: { place: StreamPlace; isObjects: boolean }[] = [];
  // Streams whose keys say they are no drawing: read as content if /Contents names them.
  const notContent: { place: StreamPlace; objectNumber: number }[] = [];
  const streamNumbers = new Set<number>();
  let total = 0;
  const read = (place: StreamPlace, lookup?: Lookup, asContent = false) => {
    const { dictionary, objectNumber } = dictionaryBefore(text, place.keywordAt);
    if (objectNumber !== undefined) streamNumbers.add(objectNumber);
    if (onStream !== null && !lookup && needsLookup(dictionary)) {
      deferred.push({ place, isObjects: ownValues(dictionary).keys.has('First') });
      return;
    }
    const kind = kindOf(dictionary, lookup);
    const keep = () => {
      if (onStream !== null && objectNumber !== undefined && !asContent) notContent.push({ place, objectNumber });
    };
    // Images are left to pdf.js (their declared size bounds its work), unless named as contents.
    if (kind.isImage && !asContent) return keep();
    let isTotalTheLimit = false;
    const decoded = undoFilters(
      bytes.subarray(place.dataStart, place.dataEnd),
      dictionary,
      () => {
        // Each layer may write up to one stream's limit, or what is left of the total if less.
        isTotalTheLimit = limits.maxTotalBytes - total < limits.maxStreamBytes;
        return isTotalTheLimit ? limits.maxTotalBytes - total : limits.maxStreamBytes;
      },
      (written) => (total += written),
      onStream === null ? NATIVE_FILTERS : undefined,
      lookup,
    );
    if (decoded === 'over') throw tooLarge(isTotalTheLimit ? limits.maxTotalBytes : limits.maxStreamBytes);
    if (!decoded || onStream === null) return;
    if (kind.objects && !asContent) sources.objectStreams.push({ data: decoded, ...kind.objects });
    if (kind.isContent || asContent) onStream({ data: decoded, dictionary, objectNumber, isForm: kind.isForm });
    else keep();
  };

  const keyword = /(?<![A-Za-z])stream(?:\r\n|\n|\r)/g;
  for (let match = keyword.exec(text); match; match = keyword.exec(text)) {
    const dataStart = match.index + match[0].length;
    const dataEnd = text.indexOf('endstream', dataStart);
    if (dataEnd < 0) break;
    keyword.lastIndex = dataEnd + 'endstream'.length;
    read({ keywordAt: match.index, dataStart, dataEnd });
  }
  let lookup: Lookup | undefined;
  if (deferred.length > 0) {
    // Two indexes in all (each reads the file's objects once): one for the deferred object
    // streams, then a new one that holds the objects those unpacked too, for the rest.
    const objectsFirst = objectTexts(sources);
    for (const { place } of deferred.filter((stream) => stream.isObjects)) read(place, objectsFirst);
    lookup = objectTexts(sources);
    for (const { place } of deferred.filter((stream) => !stream.isObjects)) read(place, lookup);
  }
  if (notContent.length > 0) {
    const drawn = objectsDrawnAsContents(sources, (objectNumber) => streamNumbers.has(objectNumber));
    const named = notContent.filter((stream) => drawn.has(stream.objectNumber));
    if (named.length > 0) lookup ??= objectTexts(sources);
    for (const { place } of named) read(place, lookup, true);
  }
  return sources;
}

/**
 * The text between the object header (`12 0 obj`) and `stream`: the stream's dictionary, and the
 * object's number (undefined when no header is found within reach).
 */
function dictionaryBefore(text: string, streamIndex: number): { dictionary: string; objectNumber: number | undefined } {
  const from = Math.max(0, streamIndex - MAX_DICTIONARY_CHARS);
  const window = text.slice(from, streamIndex);
  const header = window.lastIndexOf('obj');
  // Names as pdf.js reads them (`/Filt#65r /Fl#61teDecode`), for every pattern and reader after this.
  if (header < 0) return { dictionary: withNamesDecoded(window), objectNumber: undefined };
  const number = /(\d+)\s+\d+\s+$/.exec(window.slice(Math.max(0, header - 24), header))?.[1];
  return {
    dictionary: withNamesDecoded(window.slice(header + 3)),
    objectNumber: number === undefined ? undefined : Number(number),
  };
}

/** What a stream's own keys say it is (decision 0106). */
interface StreamKind {
  isImage: boolean;
  isForm: boolean;
  /** Read as drawing instructions: a form, or no other kind. */
  isContent: boolean;
  /** An object stream's /First and /N, read as pdf.js reads them; null: not one it can read. */
  objects: { first: number; count: number } | null;
}

/**
 * A stream's kind, told by the dictionary's own keys (decision 0102: a `/Subtype /Image` or
 * `/Length1` inside a nested dictionary or a string does not hide a form), each followed when
 * given by reference, as pdf.js's Dict.get follows it (decision 0106: `/Subtype 9 0 R` is a form
 * when 9 is /Form). An object stream is any stream with whole-number /First and /N, as pdf.js's
 * XRef.fetchCompressed reads one (it reads no /Type), its /First the last written.
 */
function kindOf(dictionary: string, lookup: Lookup | undefined): StreamKind {
  const { keys, value } = ownValues(dictionary, lookup);
  const subtype = keys.has('Subtype') ? nameOf(value('Subtype')) : undefined;
  const type = keys.has('Type') ? nameOf(value('Type')) : undefined;
  const first = keys.has('First') ? numberOf(value('First')) : undefined;
  const count = keys.has('N') ? numberOf(value('N')) : undefined;
  const isForm = subtype === 'Form';
  // A tiling pattern's cell: drawn by pdf.js as its /PatternType 1 says, whatever else it holds.
  const isTilingPattern = keys.has('PatternType') && numberOf(value('PatternType')) === 1;
  return {
    isImage: subtype === 'Image',
    isForm,
    isContent: isForm || isTilingPattern || mayBeContent(keys, subtype, type),
    objects:
      Number.isSafeInteger(first) && Number.isSafeInteger(count) && first! >= 0 && count! >= 0
        ? { first: first!, count: count! }
        : null,
  };
}

/**
 * Not a font program, a cross-reference or object stream, metadata or an attachment: streams
 * that hold no drawing (an image is told apart before).
 */
function mayBeContent(keys: ReadonlySet<string>, subtype: string | undefined, type: string | undefined): boolean {
  return (
    subtype !== 'Image' &&
    !['Length1', 'Length2', 'Length3'].some((key) => keys.has(key)) &&
    !['Type1C', 'CIDFontType0C', 'OpenType'].includes(subtype ?? '') &&
    !['XRef', 'ObjStm', 'Metadata', 'EmbeddedFile'].includes(type ?? '')
  );
}

// Bytes of PDF syntax (PDF 32000-1, 7.2.2): white space, and the delimiters that end a token.
const WHITE = new Uint8Array(256);
for (const byte of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WHITE[byte] = 1;
const DELIMITER = new Uint8Array(256);
for (const char of '()<>[]{}/%') DELIMITER[char.charCodeAt(0)] = 1;
const ENDS_TOKEN = WHITE.map((white, byte) => white | DELIMITER[byte]!);
const byteOf = (char: string) => char.charCodeAt(0);
const [LOWER_Q, UPPER_Q, UPPER_I, UPPER_D, LOWER_O] = [byteOf('q'), byteOf('Q'), byteOf('I'), byteOf('D'), byteOf('o')];
const [OPEN, CLOSE, BACKSLASH, PERCENT, SLASH] = [byteOf('('), byteOf(')'), byteOf('\\'), byteOf('%'), byteOf('/')];
const [LF, CR] = [0x0a, 0x0d];

/**
 * The deepest `q` nesting in one content stream, counted as pdf.js reads it: tokens only (not
 * inside strings, names, comments or inline image data), and a `Q` with nothing saved ignored.
 * Stops counting once past `stopAbove`.
 */
export function deepestNesting(data: Uint8Array, stopAbove: number): number {
  return readContentStream(data, stopAbove).deepest;
}

/**
 * The deepest nesting of one content stream (as `deepestNesting`), and each XObject it draws
 * (`/Name Do`) with the deepest nesting it is drawn at: one entry per name, so a stream that
 * draws the same form a million times costs one.
 */
function readContentStream(
  data: Uint8Array,
  stopAbove: number,
): Pick<ContentStream, 'deepest' | 'calls' | 'leftOpen' | 'unopenedCloses'> {
  let depth = 0;
  let deepest = 0;
  // `Q`s with nothing saved in this stream: on a page whose contents are several streams, they
  // close what the streams before it left open.
  let unopenedCloses = 0;
  const drawn = new Map<string, number>();
  // Where the name just read starts and ends: the operand of a `Do` that follows it.
  let nameStart = -1;
  let nameEnd = -1;
  const end = data.length;
  let at = 0;
  while (at < end) {
    const byte = data[at]!;
    if (WHITE[byte]) {
      at += 1;
      continue;
    }
    const isName = byte === SLASH;
    if (byte === OPEN) {
      at = afterString(data, at);
    } else if (byte === PERCENT) {
      while (at < end && data[at] !== LF && data[at] !== CR) at += 1;
      continue; // a comment is not a token: `/Fm1 % ... \n Do` still draws /Fm1
    } else if (isName) {
      nameStart = at + 1;
      at += 1;
      while (at < end && !ENDS_TOKEN[data[at]!]) at += 1;
      nameEnd = at;
    } else if (DELIMITER[byte]) {
      at += 1;
    } else {
      const start = at;
      while (at < end && !ENDS_TOKEN[data[at]!]) at += 1;
      const length = at - start;
      if (length === 1 && byte === LOWER_Q) {
        depth += 1;
        if (depth > deepest) deepest = depth;
        if (deepest > stopAbove) break;
      } else if (length === 1 && byte === UPPER_Q) {
        if (depth > 0) depth -= 1;
        else unopenedCloses += 1;
      } else if (length === 2 && byte === UPPER_I && data[start + 1] === UPPER_D) {
        at = afterInlineImage(data, at); // `ID`: binary image data up to `EI`
      } else if (length === 2 && byte === UPPER_D && data[start + 1] === LOWER_O && nameStart >= 0) {
        // The name pdf.js looks up: `/F#6d1 Do` draws /Fm1.
        const name = decodeName(
          Buffer.from(data.buffer, data.byteOffset + nameStart, nameEnd - nameStart).toString('latin1'),
        );
        if (depth > (drawn.get(name) ?? -1)) drawn.set(name, depth);
      }
    }
    if (!isName) nameStart = -1;
  }
  return {
    deepest,
    calls: [...drawn].map(([name, at]) => ({ name, depth: at })),
    leftOpen: depth,
    unopenedCloses,
  };
}

/** After a literal string `( ... )`: balanced parentheses, a backslash escapes the next byte. */
function afterString(data: Uint8Array, start: number): number {
  let open = 0;
  for (let at = start; at < data.length; at += 1) {
    const byte = data[at];
    if (byte === BACKSLASH) at += 1;
    else if (byte === OPEN) open += 1;
    else if (byte === CLOSE && --open === 0) return at + 1;
  }
  return data.length;
}

/** After an inline image's data: the first `EI` with white space before it and a token end (or the end) after it. */
function afterInlineImage(data: Uint8Array, from: number): number {
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  for (let at = view.indexOf('EI', from + 1, 'latin1'); at >= 0; at = view.indexOf('EI', at + 1, 'latin1')) {
    if (WHITE[data[at - 1]!] && (at + 2 >= data.length || ENDS_TOKEN[data[at + 2]!])) return at + 2;
  }
  return data.length;
}

function tooLarge(limitBytes: number): ExtractionError {
  return new ExtractionError(
    'too-large',
    `This PDF unpacks into more than ${Math.round(limitBytes / (1024 * 1024))} MB of page content (a compression bomb, or a damaged file). Please export it again or upload a smaller file.`,
  );
}
