import type * as PdfLib from 'pdf-lib';
import type { PDFDocument, PDFName, PDFObject } from 'pdf-lib';
import { checkDecodedStreamSizes, unpackObjectStreams, type UnpackedObjectStreams } from './stream-guard.ts';

/**
 * Finds active content in a PDF: what a viewer may run or open by itself. Uploads that carry any
 * are refused (services/store-files.ts); stripping was rejected because re-writing a student's
 * file with pdf-lib changes its bytes and may break it, and a missed action would then be served
 * as "cleaned" (docs/decisions/0015-ai-spend-and-active-pdfs.md).
 *
 * Every object of the file is walked with pdf-lib (object streams unpacked), looking at keys and
 * names, never at strings:
 * - JavaScript: a /JS or /JavaScript key (actions, the document's name tree), or an action /S /JavaScript;
 * - OpenAction: an action run at opening (a destination, or a GoTo, only moves to a page: allowed);
 * - AA: additional actions (on page open, on focus, on key press, ...);
 * - Launch: an action that starts a program or opens a file (/S /Launch);
 * - embedded files: /EmbeddedFiles, /EF, /Type /EmbeddedFile, file attachment annotations, GoToE;
 * - RichMedia (Flash and media players) and XFA forms (which carry their own scripts).
 * Names are compared decoded (/J#61vaScript is /JavaScript). A file pdf-lib cannot parse is
 * searched for the same names in its raw bytes instead.
 *
 * An encrypted file's dictionaries are written in the clear (only strings and streams are
 * encrypted), except those packed in an object stream, which pdf-lib cannot decrypt: an encrypted
 * file's object streams are read as the structure check reads them (stream-guard.ts's
 * `unpackObjectStreams`, decrypted with the empty user password as pdf.js opens such a file:
 * decision 0113), and their objects parsed by pdf-lib into the document and walked with the rest.
 * Many honest files are so written (a permissions password with AES and object streams: Acrobat,
 * Word, qpdf). One whose object streams cannot be read that way (a user password, encryption
 * pdf.js's reading cannot follow, an object stream that does not unpack) is refused as before.
 *
 * pdf-lib is imported at the first check, not at start (about 3.5 MB of heap an idle server does
 * not need, docs/decisions/0047-idle-server-loads-on-first-use.md); its classes are passed down to the walk.
 */

export type ActiveContent =
  | 'JavaScript'
  | 'an automatic action when the file opens (OpenAction)'
  | 'additional actions (AA)'
  | 'a Launch action'
  | 'embedded files'
  | 'RichMedia content'
  | 'an XFA form'
  | 'encrypted contents that cannot be checked';

const ACTION_KINDS: Record<string, ActiveContent> = {
  JavaScript: 'JavaScript',
  Launch: 'a Launch action',
  GoToE: 'embedded files',
  RichMediaExecute: 'RichMedia content',
};

const SUBTYPE_KINDS: Record<string, ActiveContent> = {
  RichMedia: 'RichMedia content',
  FileAttachment: 'embedded files',
};

/** What active content the PDF holds, in a stable order; empty when it holds none. */
export async function findActiveContent(bytes: Uint8Array): Promise<ActiveContent[]> {
  const lib = await import('pdf-lib');
  const found = new Set<ActiveContent>();
  let document: PDFDocument | undefined;
  try {
    // A flate bomb in an object stream would unpack on this thread: such files are only scanned.
    checkDecodedStreamSizes(bytes);
    document = await lib.PDFDocument.load(bytes, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
    });
  } catch {
    document = undefined;
  }
  if (!document) {
    scanRawBytes(bytes, found);
    return ordered(found);
  }
  const context = document.context;
  // Each way the file may be decrypted, with its object streams (one way, none, when not encrypted).
  let readings: (UnpackedObjectStreams | null)[] = [null];
  if (context.trailerInfo.Encrypt) {
    try {
      readings = unpackObjectStreams(bytes);
    } catch {
      // A password needed, or encryption that cannot be followed: its object streams are unread.
      if (hasRawName(bytes, 'ObjStm')) found.add('encrypted contents that cannot be checked');
    }
  }
  for (const reading of readings) {
    if (reading) {
      if (reading.unread > 0) found.add('encrypted contents that cannot be checked');
      for (const objectStream of reading.objectStreams) await parsePacked(lib, document, objectStream, found);
    }
    const catalog = context.lookup(context.trailerInfo.Root);
    if (catalog instanceof lib.PDFDict) {
      const openAction = context.lookup(catalog.get(lib.PDFName.of('OpenAction')));
      if (openAction instanceof lib.PDFDict && nameOf(lib, openAction.get(lib.PDFName.of('S'))) !== 'GoTo') {
        found.add('an automatic action when the file opens (OpenAction)');
      }
    }
    for (const [, object] of context.enumerateIndirectObjects()) visit(lib, object, found, 0);
  }
  return ordered(found);
}

/**
 * The objects of an unpacked object stream, parsed by pdf-lib into the document (each replacing
 * what pdf-lib read in its place: nothing, when it could not decrypt the stream). Its header is
 * read for no more pairs than it holds; one pdf-lib cannot parse is searched for the names in its
 * bytes instead, as a file pdf-lib cannot parse is.
 */
async function parsePacked(
  lib: typeof PdfLib,
  document: PDFDocument,
  objectStream: UnpackedObjectStreams['objectStreams'][number],
  found: Set<ActiveContent>,
): Promise<void> {
  const { data, first, count } = objectStream;
  const header = Buffer.from(data.buffer, data.byteOffset, Math.min(first, data.byteLength)).toString('latin1');
  const pairs = Math.floor(header.trim().split(/\s+/).filter(Boolean).length / 2);
  const dictionary = lib.PDFDict.withContext(document.context);
  dictionary.set(lib.PDFName.of('N'), lib.PDFNumber.of(Math.min(count, pairs)));
  dictionary.set(lib.PDFName.of('First'), lib.PDFNumber.of(first));
  try {
    await lib.PDFObjectStreamParser.forStream(lib.PDFRawStream.of(dictionary, data)).parseIntoContext();
  } catch {
    scanRawBytes(data, found);
  }
}

function visit(lib: typeof PdfLib, object: PDFObject, found: Set<ActiveContent>, depth: number): void {
  // Direct objects nest only as deep as the file says; a hostile file could nest very deep.
  if (depth > 64) return;
  if (object instanceof lib.PDFStream || object instanceof lib.PDFRawStream) {
    visit(lib, object.dict, found, depth + 1);
    return;
  }
  if (object instanceof lib.PDFArray) {
    for (const item of object.asArray()) visit(lib, item, found, depth + 1);
    return;
  }
  if (!(object instanceof lib.PDFDict)) return;
  for (const [key, value] of object.entries()) {
    const name = decodedName(key);
    if (name === 'JS' || name === 'JavaScript') found.add('JavaScript');
    else if (name === 'AA') found.add('additional actions (AA)');
    else if (name === 'EmbeddedFiles' || name === 'EF') found.add('embedded files');
    else if (name === 'XFA') found.add('an XFA form');
    else if (name === 'S' && ACTION_KINDS[nameOf(lib, value) ?? '']) found.add(ACTION_KINDS[nameOf(lib, value)!]!);
    else if (name === 'Subtype' && SUBTYPE_KINDS[nameOf(lib, value) ?? ''])
      found.add(SUBTYPE_KINDS[nameOf(lib, value)!]!);
    else if (name === 'Type' && nameOf(lib, value) === 'EmbeddedFile') found.add('embedded files');
    if (!(value instanceof lib.PDFRef)) visit(lib, value, found, depth + 1);
  }
}

function nameOf(lib: typeof PdfLib, value: PDFObject | undefined): string | undefined {
  return value instanceof lib.PDFName ? decodedName(value) : undefined;
}

/** pdf-lib decodes #XX escapes in upper case only; a viewer accepts any case. */
function decodedName(name: PDFName): string {
  return name.decodeText().replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Raw name tokens of the file, #XX decoded (the fallback for files pdf-lib cannot parse). */
function rawNames(bytes: Uint8Array): Set<string> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const names = new Set<string>();
  for (const match of text.matchAll(/\/([^\s/<>[\]()%{}]+)/g)) {
    names.add(match[1]!.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
  }
  return names;
}

function hasRawName(bytes: Uint8Array, wanted: string): boolean {
  return rawNames(bytes).has(wanted);
}

function scanRawBytes(bytes: Uint8Array, found: Set<ActiveContent>): void {
  const names = rawNames(bytes);
  if (names.has('JS') || names.has('JavaScript')) found.add('JavaScript');
  if (names.has('OpenAction')) found.add('an automatic action when the file opens (OpenAction)');
  if (names.has('AA')) found.add('additional actions (AA)');
  if (names.has('Launch')) found.add('a Launch action');
  if (names.has('EmbeddedFiles') || names.has('EmbeddedFile') || names.has('FileAttachment'))
    found.add('embedded files');
  if (names.has('RichMedia') || names.has('RichMediaExecute')) found.add('RichMedia content');
  if (names.has('XFA')) found.add('an XFA form');
}

const ORDER: ActiveContent[] = [
  'JavaScript',
  'an automatic action when the file opens (OpenAction)',
  'additional actions (AA)',
  'a Launch action',
  'embedded files',
  'RichMedia content',
  'an XFA form',
  'encrypted contents that cannot be checked',
];

function ordered(found: Set<ActiveContent>): ActiveContent[] {
  return ORDER.filter((kind) => found.has(kind));
}
