import { decryptionsOf, type StreamDecryption } from './encryption.ts';
import {
  conflictingDefinitionsError,
  ExtractionError,
  imageFilteredDrawingError,
  imageLargerThanDeclaredError,
  nestingTooDeepError,
  tooManyOperatorsError,
} from './extraction-error.ts';
import {
  throughForms,
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
 * (damage) are left to pdf.js too.
 *
 * `checkContentStreams` (what openPdf runs) also counts, in the same pass, how deep each content
 * stream nests its graphics states (`q` ... `Q`): pdf.js clones a state per `q` onto a prototype
 * chain as long as the nesting, so its work grows with the square of the depth. 100,000 levels
 * are 200 KB of `q`s (or 400 bytes once deflated) and kept pdf.js busy for minutes; no honest
 * page nests more than a few dozen (PDF 32000-1, annex C, suggests 28). Deeper than
 * `maxNestingDepth` is refused as 'too-complex'. Nesting carried through a chain of form XObjects
 * (a form is drawn from the state of the stream that drew it) is counted too, through the forms
 * each `Do` names (form-chains.ts), and so is nesting carried from one content stream of a page to
 * the next (pdf.js reads them as one), against the same limit and with the same message. What this
 * check cannot unpack is left to the extraction pool's CPU budgets, per page and per file
 * (extraction-pool.ts); predictors are undone
 * (decision 0100), their parameters followed when given by reference (decision 0102), and names
 * read as pdf.js reads them, `#xx` escapes decoded (pdf-names.ts). A stream is read as drawing
 * when pdf.js would draw it: what a /Contents, /CharProcs or /AP names, whatever its own keys
 * say, and a form or tiling pattern by its own keys followed by reference; object streams by their
 * own /First and /N, and predictor parameters taken as pdf.js's JavaScript takes them (decision
 * 0106). Decision 0108: every definition of an object defined more than once is counted (pdf.js
 * may take any), streams packed in object streams (and object streams in object streams) are read
 * as pdf.js reads them, an encrypted file is decrypted as pdf.js decrypts it with the empty user
 * password (encryption.ts; one needing a password is refused), and drawing written through an
 * image filter is refused. Decision 0113: a page's drawing work (its operators, each form's as
 * often as it is drawn) is counted against the reader's own cap, a JPEG's frame header is read
 * (pdf.js decodes it at the size it says), and the same walk unpacks an encrypted file's object
 * streams for the upload's active-content check (`unpackObjectStreams`).
 */
export interface StreamLimits {
  /** One stream, unpacked. */
  maxStreamBytes: number;
  /** All streams together, unpacked. */
  maxTotalBytes: number;
  /** Graphics states one content stream may nest (`checkContentStreams` only; default 2,000). */
  maxNestingDepth?: number;
  /**
   * Drawing operations one content stream may make, the forms it draws counted each time they are
   * drawn (`checkContentStreams` only; default MAX_DRAWING_OPERATORS; decision 0113).
   */
  maxDrawingOperators?: number;
}

/**
 * Drawing operations a reader works through for one file (extract-text.ts's maxOperators, counted
 * in pdf.js's operator lists as it reads); the structure check refuses a page's content that
 * alone would draw more (decision 0113).
 */
export const MAX_DRAWING_OPERATORS = 2_000_000;

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  // Far above the content of any real page (a dense vector plot is a few MB), far below a bomb.
  maxStreamBytes: 64 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  // 70 times the depth PDF 32000-1 suggests; pdf.js reads 2,000 levels in a fraction of a second.
  maxNestingDepth: 2_000,
  maxDrawingOperators: MAX_DRAWING_OPERATORS,
};

/** How far before `stream` its dictionary may start. */
const MAX_DICTIONARY_CHARS = 8192;

/**
 * Sizes only: the upload's active-content check (active-content.ts), on the server's own thread,
 * so only Flate is undone (natively); the reading thread's check undoes every filter before pdf.js.
 */
export function checkDecodedStreamSizes(bytes: Uint8Array, limits: StreamLimits = DEFAULT_STREAM_LIMITS): void {
  void walkStreams(bytes, latin1(bytes), limits, null, 'sizes');
}

/** The file's object streams as one reading of it unpacked them, and how many it could not unpack. */
export interface UnpackedObjectStreams {
  objectStreams: ObjectSources['objectStreams'];
  /** Object streams (whole-number /First and /N) whose data this reading could not unpack. */
  unread: number;
}

/**
 * Every object stream of the file unpacked as pdf.js reads it, once for each way the file may be
 * decrypted (decision 0113): the upload's active-content check (active-content.ts) reads the
 * objects packed in an encrypted file's object streams from here, which pdf-lib cannot decrypt.
 * The same walk as the counts' (object streams in object streams, /First, /N and filters by
 * reference, each definition of an object defined twice), decrypted the same way (encryption.ts:
 * throws the file's fault when a password is needed or the encryption cannot be followed), but
 * only object streams are decrypted and unpacked, and only Flate is undone (natively, under the
 * same limits): this runs on the server's own thread.
 */
export function unpackObjectStreams(
  bytes: Uint8Array,
  limits: StreamLimits = DEFAULT_STREAM_LIMITS,
): UnpackedObjectStreams[] {
  const text = latin1(bytes);
  return decryptionsOfFile(text).map((decryption) => {
    const { sources, unread } = walkStreams(bytes, text, limits, decryption, 'objects');
    return { objectStreams: sources.objectStreams, unread };
  });
}

/** The ways pdf.js may decrypt the file (encryption.ts), its objects looked up in its text. */
function decryptionsOfFile(text: string): (StreamDecryption | null)[] {
  const definitions = objectTexts({ text, objectStreams: [] });
  return decryptionsOf(text, (objectNumber) => {
    const texts = definitions(objectNumber);
    if (texts.length > 1) throw conflictingDefinitionsError();
    return texts[0];
  });
}

/**
 * Sizes, and the nesting of every content stream, alone and through the forms it draws: what
 * openPdf runs before pdf.js reads the file. An encrypted file is read decrypted as pdf.js
 * decrypts it (encryption.ts; a file that needs a password, or whose encryption cannot be
 * followed, is refused), once for each way its trailers say it may be (decision 0108).
 */
export function checkContentStreams(bytes: Uint8Array, limits: StreamLimits = DEFAULT_STREAM_LIMITS): void {
  const maxDepth = limits.maxNestingDepth ?? DEFAULT_STREAM_LIMITS.maxNestingDepth!;
  const maxOperators = limits.maxDrawingOperators ?? MAX_DRAWING_OPERATORS;
  const text = latin1(bytes);
  for (const decryption of decryptionsOfFile(text)) {
    const contents: ContentStream[] = [];
    const { sources } = walkStreams(bytes, text, limits, decryption, (stream) => {
      const read = readContentStream(stream.data, maxDepth);
      if (read.deepest > maxDepth) throw nestingTooDeepError(maxDepth);
      contents.push({
        objectNumber: stream.objectNumber,
        dictionary: stream.dictionary,
        isForm: stream.isForm,
        ...read,
      });
    });
    const forms = throughForms(contents, sources);
    if ((forms.deepest(maxDepth) ?? 0) > maxDepth) throw nestingTooDeepError(maxDepth);
    if ((forms.heaviest(maxOperators) ?? 0) > maxOperators) throw tooManyOperatorsError(maxOperators);
  }
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** A content stream (or one that may be) the walk hands on, unpacked. */
interface WalkedStream {
  data: Uint8Array;
  dictionary: string;
  objectNumber: number | undefined;
  /** Its own /Subtype is /Form (followed when given by reference). */
  isForm: boolean;
}

/**
 * Where streams are written: the file's text, or an unpacked object stream (decision 0108: pdf.js
 * reads a stream packed there as any other, XRef.fetchCompressed parsing with streams allowed),
 * whose objects' numbers its header gives (`numbers[i]` begins at `offsets[i]`), and how many
 * object streams it is inside.
 */
interface StreamSource {
  text: string;
  bytes: Uint8Array;
  packed: { numbers: number[]; offsets: number[]; depth: number } | null;
}

/** Where a stream is: its source, its `stream` keyword, its data. */
interface StreamPlace {
  source: StreamSource;
  keywordAt: number;
  dataStart: number;
  dataEnd: number;
}

/** Object streams inside object streams followed at most (pdf.js follows any number: deeper is refused). */
const MAX_PACKING_DEPTH = 32;
/** Readings of one stream, one for each choice among the definitions of the objects it follows (decision 0108). */
const MAX_READINGS = 64;

/**
 * What a walk of the file's streams does: 'sizes' checks each stream's unpacked size (Flate only);
 * 'objects' unpacks only the object streams (Flate only, decision 0113); a function is handed
 * each content stream, every filter undone.
 */
type WalkReading = 'sizes' | 'objects' | ((stream: WalkedStream) => void);

/**
 * Checks every stream's unpacked size, handing each content stream on (`reading` a function; see
 * WalkReading); returns the file's text (latin1) and its unpacked object streams, and how many
 * object streams it could not unpack.
 *
 * Every `stream` keyword is read, in the file's text and in every unpacked object stream
 * (decision 0108), also one inside another stream's data: an object's definition may stand
 * anywhere pdf.js's cross-reference table points, and a stream packed in an object stream is read
 * by pdf.js as any other. A stream of the file's text is decrypted first when the file is
 * encrypted (`decryption`, encryption.ts); one packed in an object stream is not (pdf.js parses
 * those without a cipher).
 *
 * A stream whose filters or predictor parameters are given by reference (`/DecodeParms 9 0 R`)
 * is read after the others (decision 0102): the object may sit in an object stream met later in
 * the file (pdf-lib, as most writers, packs such dictionaries there), so it can be looked up only
 * once every object stream it can be has been unpacked. Deferred object streams are read first,
 * again as long as one more of them could be unpacked (an object stream whose /First, /N, filters
 * or parameters sit in another deferred one: decision 0108), then the deferred content streams,
 * under the same budgets. A reference to an object defined more than once is followed to each
 * definition (each choice among them read: decision 0108). Only three numbers a stream are kept
 * while waiting. Reading sizes only, nothing is deferred and such streams are left to the reading
 * thread's full check, as before; reading object streams only, only object streams are. So are the keys that tell a stream's kind when
 * given by reference (`/Subtype 9 0 R`, /Type, /First, /N: decision 0106).
 *
 * A stream its own keys call something else than drawing (an image, a font program, metadata,
 * an attachment, an object stream) is read as content all the same when the file names it as a
 * page's /Contents, a Type 3 glyph (/CharProcs) or an annotation's appearance (/AP; decision
 * 0106): pdf.js draws what those name whatever its dictionary says. Such streams are kept by place
 * while the walk goes on (three numbers each) and read once the file's objects are known, under
 * the same budgets. One that pdf.js would draw through an image filter is refused (decision 0108).
 */
function walkStreams(
  bytes: Uint8Array,
  text: string,
  limits: StreamLimits,
  decryption: StreamDecryption | null,
  reading: WalkReading,
): { sources: ObjectSources; unread: number } {
  const onStream = typeof reading === 'function' ? reading : null;
  const objectsOnly = reading === 'objects';
  // Native Flate alone where the walk runs on the server's own thread.
  const filters = onStream === null ? NATIVE_FILTERS : undefined;
  // Object streams met (whole-number /First and /N, no image), and those unpacked.
  const objectStreamsMet = new Set<StreamPlace>();
  const unpacked = new Set<StreamPlace>();
  const file: StreamSource = { text, bytes, packed: null };
  const sources: ObjectSources = { text, objectStreams: [] };
  const deferred: { place: StreamPlace; isObjects: boolean }[] = [];
  // Streams whose keys say they are no drawing: read as content if /Contents names them.
  const notContent: { place: StreamPlace; objectNumber: number }[] = [];
  const streamNumbers = new Set<number>();
  let total = 0;
  // Set while a reading follows references: whether one had no answer (an object not found yet).
  let missed = false;
  let fileObjects: ((objectNumber: number) => string[]) | undefined;
  const lengthLookup = (objectNumber: number) =>
    (fileObjects ??= objectTexts({ text, objectStreams: [] }))(objectNumber);
  const read = (place: StreamPlace, lookup?: Lookup, asContent = false) => {
    const { dictionary, objectNumber, generation } = dictionaryOf(place);
    if (objectNumber !== undefined) streamNumbers.add(objectNumber);
    if (reading !== 'sizes' && !lookup && needsLookup(dictionary)) {
      const isObjects = ownValues(dictionary).keys.has('First');
      // One never unpacked is one more the reading could not read.
      if (isObjects) objectStreamsMet.add(place);
      if (isObjects || !objectsOnly) deferred.push({ place, isObjects });
      return;
    }
    const kind = kindOf(dictionary, lookup);
    if (objectsOnly && (kind.objects === null || kind.isImage)) return;
    if (kind.objects && !kind.isImage && !asContent) objectStreamsMet.add(place);
    const keep = () => {
      if (onStream !== null && objectNumber !== undefined && !asContent) notContent.push({ place, objectNumber });
    };
    // Images are left to pdf.js (their declared size bounds its work), unless named as contents;
    // a JPEG's own header is read where the counts run (decision 0113: pdf.js decodes it at the
    // size the header says).
    const isImage = kind.isImage && !asContent;
    const jpeg = isImage && onStream !== null && namesJpegFilter(dictionary, lookup);
    if (isImage && !jpeg) return keep();
    let data = place.source.bytes.subarray(place.dataStart, place.dataEnd);
    if (decryption && place.source.packed === null && objectNumber !== undefined && !kind.isXRef)
      data = decryption(objectNumber, generation, data);
    let isTotalTheLimit = false;
    const decoded = undoFilters(
      data,
      dictionary,
      () => {
        // Each layer may write up to one stream's limit, or what is left of the total if less.
        isTotalTheLimit = limits.maxTotalBytes - total < limits.maxStreamBytes;
        return isTotalTheLimit ? limits.maxTotalBytes - total : limits.maxStreamBytes;
      },
      (written) => (total += written),
      filters,
      lookup,
      jpeg ? (filter, image) => checkJpegSize(filter, image, dictionary, lookup) : undefined,
    );
    if (decoded === 'over') throw tooLarge(isTotalTheLimit ? limits.maxTotalBytes : limits.maxStreamBytes);
    if (reading === 'sizes') return;
    if (isImage) return keep();
    if (decoded === 'image') {
      // pdf.js decodes the pixels and reads them as what the stream is (decision 0108).
      if (asContent || kind.isDrawn || kind.objects) throw imageFilteredDrawingError();
      return keep();
    }
    if (!decoded) return;
    if (kind.objects && !asContent) {
      const depth = (place.source.packed?.depth ?? 0) + 1;
      if (depth > MAX_PACKING_DEPTH) throw packedTooDeep();
      const objectStream = { data: decoded, text: latin1(decoded), ...kind.objects };
      sources.objectStreams.push(objectStream);
      unpacked.add(place);
      scan(packedSource(objectStream, depth));
    }
    if (onStream === null) return;
    if (kind.isContent || asContent) onStream({ data: decoded, dictionary, objectNumber, isForm: kind.isForm });
    else keep();
  };
  // Each reading of a stream whose references lead to objects defined more than once: every
  // choice among their definitions, one after the other (an odometer over the objects consulted).
  const readEach = (place: StreamPlace, texts: (objectNumber: number) => string[], asContent = false) => {
    const choices = new Map<number, number>();
    for (let readings = 1; ; readings += 1) {
      const consulted: { objectNumber: number; count: number }[] = [];
      read(
        place,
        (objectNumber) => {
          const all = texts(objectNumber);
          if (all.length === 0) missed = true;
          if (all.length <= 1) return all[0];
          if (!consulted.some((each) => each.objectNumber === objectNumber))
            consulted.push({ objectNumber, count: all.length });
          return all[choices.get(objectNumber) ?? 0];
        },
        asContent,
      );
      let last = consulted.length - 1;
      while (last >= 0 && (choices.get(consulted[last]!.objectNumber) ?? 0) + 1 >= consulted[last]!.count) {
        choices.delete(consulted[last]!.objectNumber);
        last -= 1;
      }
      if (last < 0) return;
      if (readings >= MAX_READINGS) throw conflictingDefinitionsError();
      const { objectNumber } = consulted[last]!;
      choices.set(objectNumber, (choices.get(objectNumber) ?? 0) + 1);
    }
  };
  const keyword = /(?<![A-Za-z])stream(?:\r\n|\n|\r)/g;
  // Every stream of a source: its data up to its first `endstream`, or as far as its /Length
  // says when that is further (withDeclaredLength). The search goes on from each stream's data,
  // not past it (decision 0108): an object defined inside another stream's data is read when it
  // has a `N G obj` header of its own there, as a cross-reference table may point at it; a
  // `stream` keyword in the data without one is no object pdf.js can fetch (a stored deflate
  // block holding a packed stream's text, say) and is not read. In an object stream, only the
  // first stream of an entry is.
  function scan(source: StreamSource) {
    keyword.lastIndex = 0;
    const found: StreamPlace[] = [];
    let enclosing: StreamPlace | undefined;
    for (let match = keyword.exec(source.text); match; match = keyword.exec(source.text)) {
      const dataStart = match.index + match[0].length;
      const firstEnd = source.text.indexOf('endstream', dataStart);
      if (firstEnd < 0) break;
      keyword.lastIndex = dataStart;
      if (enclosing && match.index < enclosing.dataEnd && !hasOwnHeader(source, enclosing.dataStart, match.index))
        continue;
      const place = { source, keywordAt: match.index, dataStart, dataEnd: firstEnd };
      const read = withDeclaredLength(place, dictionaryOf(place).dictionary, lengthLookup);
      found.push(read);
      if (!enclosing || read.dataEnd > enclosing.dataEnd) enclosing = read;
    }
    for (const place of found) read(place);
  }

  scan(file);
  let lookup: ((objectNumber: number) => string[]) | undefined;
  if (deferred.length > 0) {
    // Deferred object streams (also those found in object streams unpacked meanwhile), read again
    // while one more of them is unpacked, each reading with an index of what is unpacked by then;
    // then the content streams, with the last index.
    const settled = new Set<(typeof deferred)[number]>();
    for (let round = 0; round < MAX_PACKING_DEPTH; round += 1) {
      const waiting = deferred.filter((stream) => stream.isObjects && !settled.has(stream));
      if (waiting.length === 0) break;
      const index = objectTexts(sources);
      const before = sources.objectStreams.length;
      for (const stream of waiting) {
        missed = false;
        const unpacked = sources.objectStreams.length;
        readEach(stream.place, index);
        // Read again next round only if a reference had no answer and nothing was unpacked.
        if (!missed || sources.objectStreams.length > unpacked) settled.add(stream);
      }
      if (sources.objectStreams.length === before) break;
    }
    lookup = objectTexts(sources);
    for (const { place } of deferred.filter((stream) => !stream.isObjects)) readEach(place, lookup);
  }
  if (notContent.length > 0) {
    const drawn = objectsDrawnAsContents(sources, (objectNumber) => streamNumbers.has(objectNumber));
    const named = notContent.filter((stream) => drawn.has(stream.objectNumber));
    if (named.length > 0) lookup ??= objectTexts(sources);
    for (const { place } of named) readEach(place, lookup!, true);
  }
  return { sources, unread: [...objectStreamsMet].filter((place) => !unpacked.has(place)).length };
}

/** Pixels pdf.js decodes in one image at most (its maxImageSize, from the image's /Width and /Height: open-pdf.ts). */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** Whether the image's filters (/F or /Filter, followed by reference) name DCTDecode. */
function namesJpegFilter(dictionary: string, lookup: Lookup | undefined): boolean {
  const { keys, value } = ownValues(dictionary, lookup);
  const named = (key: string) => (keys.has(key) ? (value(key) ?? '') : '');
  return /\/DCT(?:Decode)?(?![^\0\t\n\f\r ()<>[\]{}/%])/.test(`${named('F')} ${named('Filter')}`);
}

/**
 * Refuses a JPEG whose own header (its frame, SOF) declares more than MAX_IMAGE_PIXELS while the
 * image's /Width and /Height declare no more (decision 0113): pdf.js checks only the dictionary's
 * size, then allocates and decodes the JPEG at its header's (a 10 x 10 image whose JPEG said 60,000
 * x 60,000: 10.8 GB of buffers outside the thread's heap). An honest file's JPEG is the size its
 * dictionary says; one larger than MAX_IMAGE_PIXELS is then left out by pdf.js unread.
 */
function checkJpegSize(filter: string, data: Uint8Array, dictionary: string, lookup: Lookup | undefined): void {
  if (filter !== 'DCTDecode' && filter !== 'DCT') return;
  const frame = jpegFrameSize(data);
  if (!frame || frame.width * frame.height <= MAX_IMAGE_PIXELS) return;
  const { keys, value } = ownValues(dictionary, lookup);
  // pdf.js reads /W before /Width, /H before /Height.
  const side = (short: string, long: string) => numberOf(value(keys.has(short) ? short : long)) ?? 0;
  if (side('W', 'Width') * side('H', 'Height') > MAX_IMAGE_PIXELS) return;
  throw imageLargerThanDeclaredError();
}

/**
 * The width and height a JPEG's frame header declares, read as pdf.js's JpegImage.parse reads
 * it: from the first `FF D8`, marker by marker (each segment skipped by its length), to the first
 * SOF0-2 (pdf.js decodes only those; a second frame it refuses); a height of 0 (given later by a DNL
 * marker) read as the most a DNL can say. Undefined: no frame before the first scan.
 */
export function jpegFrameSize(data: Uint8Array): { width: number; height: number } | undefined {
  let at = 0;
  while (at + 1 < data.length && !(data[at] === 0xff && data[at + 1] === 0xd8)) at += 1;
  at += 2;
  while (at + 3 < data.length) {
    if (data[at] !== 0xff) {
      at += 1; // pdf.js looks for the next marker past bytes it does not expect
      continue;
    }
    const marker = data[at + 1]!;
    if (marker === 0xff || marker === 0x00 || (marker >= 0xd0 && marker <= 0xd8) || marker === 0x01) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    if (marker >= 0xc0 && marker <= 0xc2) {
      if (at + 8 >= data.length) return undefined;
      const height = (data[at + 5]! << 8) | data[at + 6]!;
      const width = (data[at + 7]! << 8) | data[at + 8]!;
      return { width, height: height === 0 ? 0xffff : height };
    }
    at += 2 + ((data[at + 2]! << 8) | data[at + 3]!);
  }
  return undefined;
}

/** Whether an `N G obj` header stands between `from` and the `stream` keyword at `at` (never in an object stream). */
function hasOwnHeader(source: StreamSource, from: number, at: number): boolean {
  if (source.packed !== null) return false;
  const header = source.text.lastIndexOf('obj', at);
  return header >= from && /(\d+)\s+(\d+)\s+$/.test(source.text.slice(Math.max(from, header - 24), header));
}

/**
 * The stream's data as long as its /Length says when that runs past its first `endstream` and an
 * `endstream` follows it there: pdf.js reads /Length bytes then (its Parser.makeStream), and only
 * looks for `endstream` when /Length is wrong, so drawing after an `endstream` inside the data is
 * drawn (decision 0108). /Length by reference is followed to each of its definitions in the file's
 * text; the longest that holds is read (its start is the shorter reading).
 */
function withDeclaredLength(
  place: StreamPlace,
  dictionary: string,
  objects: (objectNumber: number) => string[],
): StreamPlace {
  let referenced: number | undefined;
  const { keys, value } = ownValues(dictionary, (objectNumber) => {
    referenced = objectNumber;
    return undefined;
  });
  if (!keys.has('Length')) return place;
  const written = value('Length');
  const lengths = (referenced === undefined ? [written] : objects(referenced)).map((each) => numberOf(each?.trim()));
  let dataEnd = place.dataEnd;
  for (const length of lengths) {
    if (length === undefined || !Number.isInteger(length) || place.dataStart + length <= dataEnd) continue;
    const end = place.dataStart + length;
    if (/^[\0\t\n\f\r ]*endstream/.test(place.source.text.slice(end, end + 64))) dataEnd = end;
  }
  return dataEnd === place.dataEnd ? place : { ...place, dataEnd };
}

/** An unpacked object stream as a source of streams: its objects' numbers and where they begin. */
function packedSource(objectStream: ObjectSources['objectStreams'][number], depth: number): StreamSource {
  const text = objectStream.text ?? latin1(objectStream.data);
  const numbers: number[] = [];
  const offsets: number[] = [];
  const header = text
    .slice(0, objectStream.first)
    .trim()
    .split(/\s+/)
    .slice(0, 2 * objectStream.count)
    .map(Number);
  for (let i = 0; i + 1 < header.length; i += 2)
    if (Number.isInteger(header[i]) && Number.isInteger(header[i + 1])) {
      numbers.push(header[i]!);
      offsets.push(objectStream.first + header[i + 1]!);
    }
  return { text, bytes: objectStream.data, packed: { numbers, offsets, depth } };
}

/**
 * The stream's dictionary (names decoded), its object's number and generation: in the file's
 * text from the `N G obj` header before it (undefined when none is within reach); in an object
 * stream from the header entry that begins last before it.
 */
function dictionaryOf(place: StreamPlace): {
  dictionary: string;
  objectNumber: number | undefined;
  generation: number;
} {
  const { source, keywordAt } = place;
  if (source.packed === null) return dictionaryBefore(source.text, keywordAt);
  let entry = -1;
  source.packed.offsets.forEach((offset, index) => {
    if (offset <= keywordAt && (entry < 0 || offset >= source.packed!.offsets[entry]!)) entry = index;
  });
  const from = Math.max(entry < 0 ? 0 : source.packed.offsets[entry]!, keywordAt - MAX_DICTIONARY_CHARS);
  return {
    dictionary: withNamesDecoded(source.text.slice(from, keywordAt)),
    objectNumber: entry < 0 ? undefined : source.packed.numbers[entry],
    generation: 0,
  };
}

/**
 * The text between the object header (`12 0 obj`) and `stream`: the stream's dictionary, and the
 * object's number and generation (undefined when no header is found within reach).
 */
function dictionaryBefore(
  text: string,
  streamIndex: number,
): { dictionary: string; objectNumber: number | undefined; generation: number } {
  const from = Math.max(0, streamIndex - MAX_DICTIONARY_CHARS);
  const window = text.slice(from, streamIndex);
  const header = window.lastIndexOf('obj');
  // Names as pdf.js reads them (`/Filt#65r /Fl#61teDecode`), for every pattern and reader after this.
  if (header < 0) return { dictionary: withNamesDecoded(window), objectNumber: undefined, generation: 0 };
  const numbers = /(\d+)\s+(\d+)\s+$/.exec(window.slice(Math.max(0, header - 24), header));
  return {
    dictionary: withNamesDecoded(window.slice(header + 3)),
    objectNumber: numbers ? Number(numbers[1]) : undefined,
    generation: numbers ? Number(numbers[2]) : 0,
  };
}

/** What a stream's own keys say it is (decision 0106). */
interface StreamKind {
  isImage: boolean;
  isForm: boolean;
  /** Drawn by pdf.js as its own keys say: a form, or a tiling pattern's cell. */
  isDrawn: boolean;
  /** A cross-reference stream (read by pdf.js before the file's key: never decrypted). */
  isXRef: boolean;
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
    isDrawn: isForm || isTilingPattern,
    isXRef: type === 'XRef',
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
): Pick<ContentStream, 'deepest' | 'calls' | 'leftOpen' | 'unopenedCloses' | 'operators'> {
  let depth = 0;
  let deepest = 0;
  // Operators as pdf.js's operator list holds them (decision 0113): a path's construction
  // (`m`, `l`, `c`, `v`, `y`, `h`, `re`) is no entry of its own, only the operator that paints it.
  let operators = 0;
  // `Q`s with nothing saved in this stream: on a page whose contents are several streams, they
  // close what the streams before it left open.
  let unopenedCloses = 0;
  const drawn = new Map<string, number>();
  const drawings = new Map<string, number>();
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
      if (IS_OPERATOR_START[byte] && !isPathConstruction(data, start, length) && !isKeyword(data, start, length))
        operators += 1;
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
        drawings.set(name, (drawings.get(name) ?? 0) + 1);
      }
    }
    if (!isName) nameStart = -1;
  }
  return {
    deepest,
    calls: [...drawn].map(([name, at]) => ({ name, depth: at, count: drawings.get(name)! })),
    leftOpen: depth,
    unopenedCloses,
    operators,
  };
}

/** A token that may be an operator starts with a letter, `'` or `"` (not a number, name, string, array or dictionary). */
const IS_OPERATOR_START = new Uint8Array(256);
for (let byte = 0; byte < 256; byte += 1) {
  const char = String.fromCharCode(byte);
  IS_OPERATOR_START[byte] = /[A-Za-z'"]/.test(char) ? 1 : 0;
}
const PATH_CONSTRUCTION = new Set(['m', 'l', 'c', 'v', 'y', 'h'].map(byteOf));
const [LOWER_R, LOWER_E, LOWER_T, LOWER_F, LOWER_N] = ['r', 'e', 't', 'f', 'n'].map(byteOf) as [
  number,
  number,
  number,
  number,
  number,
];

/** `m`, `l`, `c`, `v`, `y`, `h` or `re`: pdf.js adds them to the path the next painting operator draws. */
function isPathConstruction(data: Uint8Array, start: number, length: number): boolean {
  if (length === 1) return PATH_CONSTRUCTION.has(data[start]!);
  return length === 2 && data[start] === LOWER_R && data[start + 1] === LOWER_E;
}

/** `true`, `false` or `null`: operands, not operators. */
function isKeyword(data: Uint8Array, start: number, length: number): boolean {
  const first = data[start];
  if (length === 4)
    return (first === LOWER_T || first === LOWER_N) && /^(true|null)$/.test(asText(data, start, length));
  return length === 5 && first === LOWER_F && asText(data, start, length) === 'false';
}

const asText = (data: Uint8Array, start: number, length: number) =>
  Buffer.from(data.buffer, data.byteOffset + start, length).toString('latin1');

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

function packedTooDeep(): ExtractionError {
  return new ExtractionError(
    'too-complex',
    `This PDF packs its objects inside one another more than ${MAX_PACKING_DEPTH} levels deep (a damaged file, or one built to stall readers), so it was not read. Please export it again (for example, print it to a new PDF) and re-upload it.`,
  );
}

function tooLarge(limitBytes: number): ExtractionError {
  return new ExtractionError(
    'too-large',
    `This PDF unpacks into more than ${Math.round(limitBytes / (1024 * 1024))} MB of page content (a compression bomb, or a damaged file). Please export it again or upload a smaller file.`,
  );
}
