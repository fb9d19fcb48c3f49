import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import path from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import {
  beginText,
  endPath,
  endText,
  clip,
  moveText,
  PDFDocument,
  PDFFont,
  PDFHexString,
  PDFName,
  PDFObject,
  PDFString,
  PDFPage,
  PDFRawStream,
  PDFRef,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFontAndSize,
  setLineWidth,
  setStrokingGrayscaleColor,
  setStrokingRgbColor,
  setTextRenderingMode,
  showText,
  StandardFonts,
  TextRenderingMode,
  type RGB,
} from 'pdf-lib';
import { hashSeed, seededRandom } from '../lib/seeded-random.ts';
import { rc4 } from '../pdf/encryption.ts';

/**
 * PDF builders for tests, the demo data generator and the benchmarks. Each returns the bytes of a
 * real PDF made with pdf-lib, and the same input always gives the same bytes (no dates, no random
 * ids, seeded noise), so a test or a benchmark can be reproduced exactly.
 */

const PAGE_WIDTH = 612; // US Letter, in points
const PAGE_HEIGHT = 792;
const PAGE_SIZES = { letter: [PAGE_WIDTH, PAGE_HEIGHT], a4: [595, 842] } as const;
const MARGIN = 72;
const LINE_HEIGHT_FACTOR = 1.35;

export interface TextPdfInput {
  title?: string;
  /** Paragraphs flowed over as many pages as they need. */
  paragraphs?: string[];
  /** Or: explicit pages, each a list of paragraphs (a page break between them). */
  pages?: string[][];
  fontSize?: number;
  /** US Letter unless asked (a journey that checks how the viewer draws an A4 page). */
  pageSize?: keyof typeof PAGE_SIZES;
}

/** A typed document: real text layer, wrapped lines, a blank line between paragraphs. */
export async function buildTextPdf(input: TextPdfInput): Promise<Uint8Array> {
  const doc = await createDocument(input.title);
  const writer = await TextWriter.create(doc, input.fontSize ?? 11, PAGE_SIZES[input.pageSize ?? 'letter']);
  if (input.title) writer.writeParagraph(input.title, { bold: true, sizeFactor: 1.4 });
  const pages = input.pages ?? [input.paragraphs ?? []];
  pages.forEach((paragraphs, index) => {
    if (index > 0) writer.newPage();
    for (const paragraph of paragraphs) writer.writeParagraph(paragraph);
  });
  return saveDocument(doc);
}

export type HiddenTextTechnique =
  | 'white'
  | 'tiny'
  | 'off-page'
  | 'covered'
  | 'invisible-mode'
  | 'transparent'
  | 'clipped'
  // The six that reached the grade before decision 0016:
  | 'type3-blank-glyphs'
  | 'remapped-blank-glyphs'
  | 'remapped-other-letters'
  | 'covered-by-annotation'
  | 'under-white-stroke'
  | 'small'
  | 'light-grey'
  // Issue 28: a thick white stroked line (not text, not a fill) drawn over the sentence:
  | 'under-white-stroked-line'
  // Issue 28: visible text written over the sentence, a bar of dark outlined letters (decision 0090):
  | 'under-dark-outlined-text'
  // An Identity-H (CID) font whose ToUnicode map says other text than its glyphs draw:
  | 'cid-remapped-other-letters'
  | 'cid-sentence-in-one-glyph'
  | 'cid-blank-glyphs';

export interface HiddenTextPdfInput {
  visible: string[];
  hidden: string;
  technique: HiddenTextTechnique;
}

/**
 * A typed page with one sentence a reader cannot see, the way students try to smuggle
 * instructions to an AI grader. The hidden sentence sits after the first visible paragraph.
 */
export async function buildPdfWithHiddenText(input: HiddenTextPdfInput): Promise<Uint8Array> {
  const doc = await createDocument();
  const writer = await TextWriter.create(doc, 11);
  const [first, ...rest] = input.visible;
  if (first !== undefined) writer.writeParagraph(first);
  const page = writer.page;
  const font = writer.regular;
  const y = writer.cursorY - 11;
  const hidden = toEncodable(font, input.hidden);
  switch (input.technique) {
    case 'white':
      page.drawText(hidden, { x: MARGIN, y, size: 11, font, color: rgb(1, 1, 1) });
      break;
    case 'tiny':
      page.drawText(hidden, { x: MARGIN, y, size: 1, font });
      break;
    case 'off-page':
      // Right of the page box: present in the text layer, never on screen or paper.
      page.drawText(hidden, { x: PAGE_WIDTH + 40, y, size: 11, font });
      break;
    case 'transparent':
      page.drawText(hidden, { x: MARGIN, y, size: 11, font, opacity: 0 });
      break;
    case 'invisible-mode':
      page.pushOperators(setTextRenderingMode(TextRenderingMode.Invisible));
      page.drawText(hidden, { x: MARGIN, y, size: 11, font });
      page.pushOperators(setTextRenderingMode(TextRenderingMode.Fill));
      break;
    case 'clipped':
      // A 1 x 1 pt clip far from the text: every glyph is clipped away.
      page.pushOperators(pushGraphicsState(), rectangle(0, 0, 1, 1), clip(), endPath());
      page.drawText(hidden, { x: MARGIN, y, size: 11, font });
      page.pushOperators(popGraphicsState());
      break;
    case 'covered': {
      page.drawText(hidden, { x: MARGIN, y, size: 11, font });
      const width = font.widthOfTextAtSize(hidden, 11);
      const image = await doc.embedPng(coverImagePng(Math.ceil(width) + 8, 18));
      page.drawImage(image, { x: MARGIN - 4, y: y - 5, width: width + 8, height: 18 });
      break;
    }
    case 'type3-blank-glyphs':
      // Black, filled, full size: only the glyphs themselves are empty. Named like the letters
      // they claim to be, so the text layer reads the sentence without any ToUnicode.
      showWithFont(page, addBlankType3Font(doc, page, hidden, 'named'), hidden, y);
      break;
    case 'remapped-blank-glyphs':
      // Glyphs named g0, g1... that draw nothing; a ToUnicode map says they are letters.
      showWithFont(page, addBlankType3Font(doc, page, hidden, 'to-unicode'), hidden, y);
      break;
    case 'remapped-other-letters':
      // Helvetica draws the ROT13 of the sentence (gibberish); a ToUnicode map turns every
      // letter back, so the text layer reads the sentence.
      showWithFont(page, addRot13RemappedHelvetica(doc, page), rot13(hidden), y);
      break;
    case 'covered-by-annotation': {
      page.drawText(hidden, { x: MARGIN, y, size: 11, font });
      const width = font.widthOfTextAtSize(hidden, 11);
      addOpaqueAnnotation(doc, page, [MARGIN - 4, y - 5, MARGIN + width + 4, y + 13]);
      break;
    }
    case 'under-white-stroke': {
      // The sentence in black, then a row of M's in white with a 5 pt white outline over it: the
      // outline paints over the black glyphs, and the page looks blank there.
      page.drawText(hidden, { x: MARGIN, y, size: 11, font });
      page.pushOperators(
        pushGraphicsState(),
        setTextRenderingMode(TextRenderingMode.FillAndOutline),
        setLineWidth(5),
        setStrokingGrayscaleColor(1),
      );
      const count = Math.ceil(font.widthOfTextAtSize(hidden, 11) / font.widthOfTextAtSize('M', 11));
      page.drawText('M'.repeat(count), { x: MARGIN, y, size: 11, font, color: rgb(1, 1, 1) });
      page.pushOperators(popGraphicsState());
      break;
    }
    case 'under-white-stroked-line': {
      // The sentence in black, then one white line 14 pt wide drawn along it: a stroke, which
      // paints beyond its path by half its width, so the page looks blank there.
      page.drawText(hidden, { x: MARGIN, y, size: 11, font });
      const width = font.widthOfTextAtSize(hidden, 11);
      page.drawLine({
        start: { x: MARGIN - 2, y: y + 3 },
        end: { x: MARGIN + width + 2, y: y + 3 },
        thickness: 14,
        color: rgb(1, 1, 1),
      });
      break;
    }
    case 'under-dark-outlined-text': {
      // The sentence in black, then a row of M's in dark blue with a 5 pt outline of the same
      // colour over it: the reader sees a bar of letters (like a redaction), nothing of the sentence.
      page.drawText(hidden, { x: MARGIN, y, size: 11, font });
      page.pushOperators(
        pushGraphicsState(),
        setTextRenderingMode(TextRenderingMode.FillAndOutline),
        setLineWidth(5),
        setStrokingRgbColor(0.1, 0.2, 0.6),
      );
      const count = Math.ceil(font.widthOfTextAtSize(hidden, 11) / font.widthOfTextAtSize('M', 11));
      page.drawText('M'.repeat(count), { x: MARGIN, y, size: 11, font, color: rgb(0.1, 0.2, 0.6) });
      page.pushOperators(popGraphicsState());
      break;
    }
    case 'small':
      page.drawText(hidden, { x: MARGIN, y, size: 2.5, font });
      break;
    case 'light-grey':
      page.drawText(hidden, { x: MARGIN, y, size: 11, font, color: rgb(0.8, 0.8, 0.8) });
      break;
    case 'cid-remapped-other-letters': {
      // Liberation Sans as an Identity-H font, the way Word, LibreOffice and browsers embed fonts.
      // The glyphs draw the ROT13 of the sentence (gibberish on the page); the ToUnicode map gives
      // every glyph its ROT13 partner, so the text layer reads the sentence.
      const cid = addIdentityHFont(doc, page, 'GwCidRot13', (char) => rot13(char));
      showCidText(page, cid, rot13(hidden), y);
      break;
    }
    case 'cid-blank-glyphs': {
      // The ToUnicode map is honest, but the CID-to-glyph map sends every character to the empty
      // space glyph: the sentence is black, filled, full size, and draws nothing.
      const cid = addIdentityHFont(doc, page, 'GwCidBlank', (char) => char, { blankGlyphs: true });
      showCidText(page, cid, hidden, y);
      break;
    }
    case 'cid-sentence-in-one-glyph': {
      // One full stop on the page; the ToUnicode map says that glyph is the whole sentence.
      const cid = addIdentityHFont(doc, page, 'GwCidStop', (char) => (char === '.' ? hidden : char));
      showCidText(page, cid, '.', y);
      break;
    }
  }
  writer.cursorY -= 2 * writer.lineHeight;
  for (const paragraph of rest) writer.writeParagraph(paragraph);
  return saveDocument(doc);
}

export interface ScannedPdfOptions {
  /**
   * Add an invisible (render mode 3) text layer over each line, the way scanner apps and
   * OCR tools make a scan "searchable". The layer repeats the visible words exactly.
   */
  invisibleTextLayer?: boolean;
  /** Extra invisible text to add to the first page's layer (an injection hidden in a scan). */
  injectedInvisibleText?: string;
}

/**
 * A scan: each page is one image (text rendered with a slight tilt, grey paper and speckles),
 * with no text layer unless asked for. Lines are wrapped to the page width.
 */
export async function buildScannedPdf(pages: string[], options: ScannedPdfOptions = {}): Promise<Uint8Array> {
  const doc = await createDocument();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [index, pageText] of pages.entries()) {
    const lines = wrapForScan(pageText);
    const jpeg = renderScanImage(lines, index);
    const image = await doc.embedJpg(jpeg);
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    page.drawImage(image, { x: 0, y: 0, width: PAGE_WIDTH, height: PAGE_HEIGHT });
    if (options.invisibleTextLayer || (index === 0 && options.injectedInvisibleText)) {
      page.pushOperators(setTextRenderingMode(TextRenderingMode.Invisible));
      if (options.invisibleTextLayer) {
        lines.forEach((line, lineIndex) => {
          const y = PAGE_HEIGHT - SCAN_TOP_PT - lineIndex * SCAN_LINE_PT;
          page.drawText(toEncodable(font, line), { x: MARGIN, y, size: SCAN_FONT_PT, font });
        });
      }
      if (index === 0 && options.injectedInvisibleText) {
        const y = PAGE_HEIGHT - SCAN_TOP_PT - (lines.length + 1) * SCAN_LINE_PT;
        page.drawText(toEncodable(font, options.injectedInvisibleText), { x: MARGIN, y, size: SCAN_FONT_PT, font });
      }
      page.pushOperators(setTextRenderingMode(TextRenderingMode.Fill));
    }
  }
  return saveDocument(doc);
}

// ---------------------------------------------------------------------------------------------
// Typed text layout

class TextWriter {
  page!: PDFPage;
  cursorY = 0;

  private constructor(
    private readonly doc: PDFDocument,
    readonly regular: PDFFont,
    private readonly bold: PDFFont,
    private readonly fontSize: number,
    private readonly pageSize: readonly [number, number],
  ) {
    this.newPage();
  }

  static async create(doc: PDFDocument, fontSize: number, pageSize: readonly [number, number] = PAGE_SIZES.letter) {
    const regular = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    return new TextWriter(doc, regular, bold, fontSize, pageSize);
  }

  get lineHeight() {
    return this.fontSize * LINE_HEIGHT_FACTOR;
  }

  newPage() {
    const [width, height] = this.pageSize;
    this.page = this.doc.addPage([width, height]);
    this.cursorY = height - MARGIN;
  }

  writeParagraph(text: string, style: { bold?: boolean; sizeFactor?: number; color?: RGB } = {}) {
    const font = style.bold ? this.bold : this.regular;
    const size = this.fontSize * (style.sizeFactor ?? 1);
    const lineHeight = size * LINE_HEIGHT_FACTOR;
    for (const line of wrapText(toEncodable(font, text), font, size, this.pageSize[0] - 2 * MARGIN)) {
      if (this.cursorY - size < MARGIN) this.newPage();
      this.cursorY -= size;
      this.page.drawText(line, { x: MARGIN, y: this.cursorY, size, font, color: style.color ?? rgb(0, 0, 0) });
      this.cursorY -= lineHeight - size;
    }
    // The blank line between paragraphs.
    this.cursorY -= lineHeight;
  }
}

/** Greedy word wrap by measured width; a word longer than the line is cut. */
function wrapText(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const rawLine of text.split('\n')) {
    let line = '';
    for (const word of rawLine.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = word;
      while (font.widthOfTextAtSize(line, size) > maxWidth && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > maxWidth) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    if (line) lines.push(line);
  }
  return lines;
}

/** Standard fonts are WinAnsi: characters they cannot encode become '?' instead of throwing. */
function toEncodable(font: PDFFont, text: string): string {
  let out = '';
  for (const char of text) {
    if (char === '\n') {
      out += char;
      continue;
    }
    try {
      font.encodeText(char);
      out += char;
    } catch {
      out += '?';
    }
  }
  return out;
}

async function createDocument(title?: string) {
  // No producer, creator or dates: the same input must give the same bytes.
  const doc = await PDFDocument.create({ updateMetadata: false });
  if (title) doc.setTitle(title);
  return doc;
}

// ---------------------------------------------------------------------------------------------
// Fonts whose text layer says more than their glyphs draw (hidden-text attacks)

/** Glyph names of the printable ASCII characters (Adobe standard names). */
const ASCII_GLYPH_NAMES: Record<string, string> = {
  ' ': 'space',
  '!': 'exclam',
  '"': 'quotedbl',
  '#': 'numbersign',
  $: 'dollar',
  '%': 'percent',
  '&': 'ampersand',
  "'": 'quotesingle',
  '(': 'parenleft',
  ')': 'parenright',
  '*': 'asterisk',
  '+': 'plus',
  ',': 'comma',
  '-': 'hyphen',
  '.': 'period',
  '/': 'slash',
  ':': 'colon',
  ';': 'semicolon',
  '<': 'less',
  '=': 'equal',
  '>': 'greater',
  '?': 'question',
  '@': 'at',
  '[': 'bracketleft',
  '\\': 'backslash',
  ']': 'bracketright',
  '^': 'asciicircum',
  _: 'underscore',
  '`': 'grave',
  '{': 'braceleft',
  '|': 'bar',
  '}': 'braceright',
  '~': 'asciitilde',
  '0': 'zero',
  '1': 'one',
  '2': 'two',
  '3': 'three',
  '4': 'four',
  '5': 'five',
  '6': 'six',
  '7': 'seven',
  '8': 'eight',
  '9': 'nine',
};
const glyphNameOf = (char: string) => (/^[A-Za-z]$/.test(char) ? char : (ASCII_GLYPH_NAMES[char] ?? 'question'));

interface ShowFont {
  name: string;
  size: number;
}

/** Adds a Type3 font whose glyphs (one per distinct character of `text`) paint nothing. */
function addBlankType3Font(doc: PDFDocument, page: PDFPage, text: string, naming: 'named' | 'to-unicode'): ShowFont {
  const chars = [...new Set(Array.from(text))].filter((char) => char.charCodeAt(0) >= 32 && char.charCodeAt(0) < 127);
  const glyphName = (char: string) => (naming === 'named' ? glyphNameOf(char) : `g${chars.indexOf(char)}`);
  const charProcs: Record<string, PDFRef> = {};
  // d1 with an empty body: a glyph with an advance and nothing drawn.
  for (const char of chars) charProcs[glyphName(char)] = doc.context.register(doc.context.stream('500 0 0 0 0 0 d1'));
  const codes = chars.map((char) => char.charCodeAt(0));
  const firstChar = Math.min(...codes);
  const lastChar = Math.max(...codes);
  const differences: (number | PDFName)[] = [];
  for (const char of chars) differences.push(char.charCodeAt(0), PDFName.of(glyphName(char)));
  const font = doc.context.obj({
    Type: 'Font',
    Subtype: 'Type3',
    FontBBox: [0, 0, 500, 700],
    FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
    CharProcs: doc.context.obj(charProcs),
    Encoding: doc.context.obj({ Type: 'Encoding', Differences: differences }),
    FirstChar: firstChar,
    LastChar: lastChar,
    Widths: Array.from({ length: lastChar - firstChar + 1 }, () => 500),
    Resources: doc.context.obj({}),
  });
  if (naming === 'to-unicode') {
    font.set(
      PDFName.of('ToUnicode'),
      toUnicodeCMap(
        doc,
        chars.map((char) => [char.charCodeAt(0), char]),
      ),
    );
  }
  page.node.setFontDictionary(PDFName.of('GwType3'), doc.context.register(font));
  return { name: 'GwType3', size: 11 };
}

/** Helvetica (WinAnsi) whose ToUnicode map sends every letter to its ROT13 partner. */
function addRot13RemappedHelvetica(doc: PDFDocument, page: PDFPage): ShowFont {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const font = doc.context.obj({
    Type: 'Font',
    Subtype: 'Type1',
    BaseFont: 'Helvetica',
    Encoding: 'WinAnsiEncoding',
    ToUnicode: toUnicodeCMap(
      doc,
      Array.from(letters).map((char) => [char.charCodeAt(0), rot13(char)]),
    ),
  });
  page.node.setFontDictionary(PDFName.of('GwRemapped'), doc.context.register(font));
  return { name: 'GwRemapped', size: 11 };
}

function toUnicodeCMap(doc: PDFDocument, pairs: [number, string][], codeBytes = 1): PDFRef {
  const hex = (value: number, digits: number) => value.toString(16).toUpperCase().padStart(digits, '0');
  const utf16 = (text: string) => Array.from(text, (char) => hex(char.charCodeAt(0), 4)).join('');
  const cmap = [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    codeBytes === 1 ? '<00> <FF>' : '<0000> <FFFF>',
    'endcodespacerange',
    // At most 100 entries a block, as the CMap format asks.
    ...Array.from({ length: Math.ceil(pairs.length / 100) }, (_, block) => {
      const entries = pairs.slice(block * 100, block * 100 + 100);
      return [
        `${entries.length} beginbfchar`,
        ...entries.map(([code, text]) => `<${hex(code, 2 * codeBytes)}> <${utf16(text)}>`),
        'endbfchar',
      ].join('\n');
    }),
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
  return doc.context.register(doc.context.stream(cmap));
}

function showWithFont(page: PDFPage, font: ShowFont, text: string, y: number) {
  const bytes = Array.from(text, (char) => char.charCodeAt(0).toString(16).padStart(2, '0')).join('');
  page.pushOperators(
    pushGraphicsState(),
    beginText(),
    setFontAndSize(font.name, font.size),
    moveText(MARGIN, y),
    showText(PDFHexString.of(bytes)),
    endText(),
    popGraphicsState(),
  );
}

/** A typed page set in an honest Identity-H (CID) font: what Word, LibreOffice and browsers write. */
export async function buildCidFontPdf(paragraphs: string[]): Promise<Uint8Array> {
  const doc = await createDocument();
  const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  const font = addIdentityHFont(doc, page, 'GwCid', (char) => char);
  let y = PAGE_HEIGHT - MARGIN;
  for (const paragraph of paragraphs) {
    showCidText(page, font, paragraph, y);
    y -= 2 * 11 * LINE_HEIGHT_FACTOR;
  }
  return saveDocument(doc);
}

interface CidFont extends ShowFont {
  glyphs: TrueTypeGlyphs;
}

/**
 * Liberation Sans (shipped with pdf.js) embedded whole as a CIDFontType2 with Identity-H encoding
 * and an identity CID-to-glyph map, so a character code is the glyph id. `textOf` says what the
 * ToUnicode map claims each drawn character is.
 */
function addIdentityHFont(
  doc: PDFDocument,
  page: PDFPage,
  name: string,
  textOf: (drawn: string) => string,
  options: { blankGlyphs?: boolean } = {},
): CidFont {
  const bytes = readFileSync(path.join(pdfjsRoot(), 'standard_fonts', 'LiberationSans-Regular.ttf'));
  const glyphs = readTrueTypeGlyphs(bytes);
  const fontFile = doc.context.flateStream(bytes, { Length1: bytes.length });
  const descriptor = doc.context.obj({
    Type: 'FontDescriptor',
    FontName: 'GWAAAA+LiberationSans',
    Flags: 32,
    FontBBox: [-544, -303, 1302, 980],
    ItalicAngle: 0,
    Ascent: 905,
    Descent: -212,
    CapHeight: 729,
    StemV: 80,
    FontFile2: doc.context.register(fontFile),
  });
  const drawable = [...glyphs.byChar.keys()].filter((char) => char >= ' ' && char <= '~');
  const widths: (number | number[])[] = [];
  for (const char of drawable) {
    const glyph = glyphs.byChar.get(char)!;
    widths.push(glyph.id, [glyph.width]);
  }
  const descendant = doc.context.obj({
    Type: 'Font',
    Subtype: 'CIDFontType2',
    BaseFont: 'GWAAAA+LiberationSans',
    CIDSystemInfo: doc.context.obj({
      Registry: PDFString.of('Adobe'),
      Ordering: PDFString.of('Identity'),
      Supplement: 0,
    }),
    FontDescriptor: doc.context.register(descriptor),
    CIDToGIDMap: options.blankGlyphs ? doc.context.register(cidsToSpaceGlyph(doc, glyphs)) : 'Identity',
    DW: 500,
    W: widths,
  });
  const font = doc.context.obj({
    Type: 'Font',
    Subtype: 'Type0',
    BaseFont: 'GWAAAA+LiberationSans',
    Encoding: 'Identity-H',
    DescendantFonts: [doc.context.register(descendant)],
    ToUnicode: toUnicodeCMap(
      doc,
      drawable.map((char) => [glyphs.byChar.get(char)!.id, textOf(char)]),
      2,
    ),
  });
  page.node.setFontDictionary(PDFName.of(name), doc.context.register(font));
  return { name, size: 11, glyphs };
}

/** A CIDToGIDMap that sends every CID up to the largest one used to the font's (empty) space glyph. */
function cidsToSpaceGlyph(doc: PDFDocument, glyphs: TrueTypeGlyphs) {
  const space = glyphs.byChar.get(' ')!.id;
  const count = Math.max(...[...glyphs.byChar.values()].map((glyph) => glyph.id)) + 1;
  const map = Buffer.alloc(2 * count);
  for (let cid = 0; cid < count; cid++) map.writeUInt16BE(space, 2 * cid);
  return doc.context.flateStream(map);
}

/** Shows `text` in a CID font: two bytes (the glyph id) a character. */
function showCidText(page: PDFPage, font: CidFont, text: string, y: number) {
  const codes = Array.from(text, (char) => (font.glyphs.byChar.get(char)?.id ?? 0).toString(16).padStart(4, '0'));
  page.pushOperators(
    pushGraphicsState(),
    beginText(),
    setFontAndSize(font.name, font.size),
    moveText(MARGIN, y),
    showText(PDFHexString.of(codes.join(''))),
    endText(),
    popGraphicsState(),
  );
}

interface TrueTypeGlyphs {
  /** Glyph id and advance width (1/1000 em) of each character the font's Unicode cmap maps. */
  byChar: Map<string, { id: number; width: number }>;
}

/** Reads a TrueType font's Unicode BMP cmap (format 4) and horizontal metrics: enough to set Latin text. */
function readTrueTypeGlyphs(font: Buffer): TrueTypeGlyphs {
  const tables = new Map<string, number>();
  const tableCount = font.readUInt16BE(4);
  for (let i = 0; i < tableCount; i++) {
    const record = 12 + 16 * i;
    tables.set(font.toString('latin1', record, record + 4), font.readUInt32BE(record + 8));
  }
  const table = (tag: string) => {
    const offset = tables.get(tag);
    if (offset === undefined) throw new Error(`The font has no ${tag} table.`);
    return offset;
  };
  const unitsPerEm = font.readUInt16BE(table('head') + 18);
  const metricCount = font.readUInt16BE(table('hhea') + 34);
  const advanceOf = (id: number) => font.readUInt16BE(table('hmtx') + 4 * Math.min(id, metricCount - 1));
  const cmap = table('cmap');
  let subtable = -1;
  for (let i = 0; i < font.readUInt16BE(cmap + 2); i++) {
    const record = cmap + 4 + 8 * i;
    if (font.readUInt16BE(record) === 3 && font.readUInt16BE(record + 2) === 1) {
      subtable = cmap + font.readUInt32BE(record + 4);
    }
  }
  if (subtable < 0 || font.readUInt16BE(subtable) !== 4) throw new Error('The font has no Unicode cmap (format 4).');
  const segments = font.readUInt16BE(subtable + 6) / 2;
  const ends = subtable + 14;
  const starts = ends + 2 * segments + 2;
  const deltas = starts + 2 * segments;
  const rangeOffsets = deltas + 2 * segments;
  const byChar = new Map<string, { id: number; width: number }>();
  for (let s = 0; s < segments; s++) {
    const end = font.readUInt16BE(ends + 2 * s);
    const start = font.readUInt16BE(starts + 2 * s);
    const delta = font.readInt16BE(deltas + 2 * s);
    const rangeOffset = font.readUInt16BE(rangeOffsets + 2 * s);
    for (let code = start; code <= end && code !== 0xffff; code++) {
      let id: number;
      if (rangeOffset === 0) id = (code + delta) & 0xffff;
      else {
        const raw = font.readUInt16BE(rangeOffsets + 2 * s + rangeOffset + 2 * (code - start));
        id = raw === 0 ? 0 : (raw + delta) & 0xffff;
      }
      if (id !== 0)
        byChar.set(String.fromCharCode(code), { id, width: Math.round((advanceOf(id) * 1000) / unitsPerEm) });
    }
  }
  return { byChar };
}

function rot13(text: string): string {
  return text.replace(/[A-Za-z]/g, (char) => {
    const base = char <= 'Z' ? 65 : 97;
    return String.fromCharCode(((char.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** A Square annotation whose appearance stream is an opaque white box over `rect`. */
function addOpaqueAnnotation(doc: PDFDocument, page: PDFPage, rect: [number, number, number, number]) {
  const [x0, y0, x1, y1] = rect;
  const appearance = doc.context.stream(`1 g 0 0 ${x1 - x0} ${y1 - y0} re f`, {
    Type: 'XObject',
    Subtype: 'Form',
    BBox: [0, 0, x1 - x0, y1 - y0],
  });
  const annotation = doc.context.obj({
    Type: 'Annot',
    Subtype: 'Square',
    Rect: rect,
    F: 4,
    C: [1, 1, 1],
    IC: [1, 1, 1],
    AP: doc.context.obj({ N: doc.context.register(appearance) }),
  });
  page.node.addAnnot(doc.context.register(annotation));
}

// ---------------------------------------------------------------------------------------------
// Hostile documents (tests and bench/hostile-files.ts)

/**
 * A flate bomb: each page's content stream is `decodedMb` MB of spaces, deflated to about a
 * thousandth of that (512 MB in 500 KB). Decoded, it lives in ArrayBuffers outside the V8 heap.
 */
export async function buildFlateBombPdf(options: { decodedMb: number; pages?: number }): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const compressed = deflateSync(Buffer.alloc(options.decodedMb * 1024 * 1024, 0x20), { level: 9 });
  for (let index = 0; index < (options.pages ?? 1); index += 1) {
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    const stream = PDFRawStream.of(
      doc.context.obj({ Filter: 'FlateDecode', Length: compressed.length }),
      new Uint8Array(compressed),
    );
    page.node.set(PDFName.of('Contents'), doc.context.register(stream));
  }
  return saveDocument(doc);
}

/**
 * An operator bomb: one page whose content stream nests `depth` graphics states, each drawing a
 * line (`q 0 0 m 1 1 l S` ... `Q`). A few hundred kilobytes; pdf.js needs minutes for 100,000.
 */
export async function buildOperatorBombPdf(depth: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  const content = new TextEncoder().encode('q 0 0 m 1 1 l S\n'.repeat(depth) + 'Q\n'.repeat(depth));
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(content)));
  return saveDocument(doc);
}

/**
 * The deeply nested file of issue 28: one page whose content stream, not compressed, is `depth`
 * `q` (save the graphics state) then `depth` `Q`. 100,000 levels are 400 KB; pdf.js's work grows
 * with the square of the depth (minutes at 100,000). `pages`: each page the same (default 1);
 * `disguise`: the content streams carry keys of another kind of stream (see ContentsDisguise);
 * `split`: each page's /Contents an array of that many streams, the `q`s shared among them and the
 * `Q`s in the last (pdf.js reads them as one stream), and the pages written without /Type (pdf.js
 * takes a page tree's leaf for a page; decision 0106).
 */
export async function buildNestedStatesPdf(
  depth: number,
  options: { pages?: number; disguise?: ContentsDisguise; split?: number } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const entries = options.disguise ? DISGUISE_ENTRIES[options.disguise] : {};
  const split = options.split ?? 1;
  const parts = Array.from({ length: split }, (_, index) => {
    const opens = Math.floor((depth * (index + 1)) / split) - Math.floor((depth * index) / split);
    return new TextEncoder().encode('q\n'.repeat(opens) + (index === split - 1 ? 'Q\n'.repeat(depth) : ''));
  });
  for (let index = 0; index < (options.pages ?? 1); index += 1) {
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    const streams = parts.map((part) => doc.context.register(PDFRawStream.of(doc.context.obj(entries), part)));
    page.node.set(PDFName.of('Contents'), split === 1 ? streams[0]! : doc.context.obj(streams));
    if (split > 1) page.node.delete(PDFName.of('Type'));
  }
  return saveDocument(doc);
}

/**
 * Keys of another kind of stream that a page's content stream may carry (decision 0106): a font
 * program's /Length1, metadata's /Type /Metadata, an image's /Subtype /Image. pdf.js reads a
 * page's /Contents as drawing instructions whatever its dictionary says; the counts, which told a
 * stream's kind by its own keys alone, skipped such a stream before decision 0106 (only the CPU
 * budgets stopped it).
 */
export type ContentsDisguise = 'font-program' | 'metadata' | 'image';

const DISGUISE_ENTRIES: Record<ContentsDisguise, Record<string, string | number>> = {
  'font-program': { Length1: 0 },
  metadata: { Type: 'Metadata', Subtype: 'XML' },
  image: { Subtype: 'Image' },
};

/**
 * The damaged file of issue 28, written by hand: no cross-reference table and no `startxref`
 * (pdf.js rebuilds them by scanning), and one deflated content stream nesting `depth` graphics
 * states. 100,000 levels fit in about 620 bytes and keep pdf.js busy for minutes.
 */
export function buildDamagedNestedPdf(depth: number): Buffer {
  const content = deflateSync(Buffer.from('q\n'.repeat(depth) + 'Q\n'.repeat(depth), 'latin1'), { level: 9 });
  return Buffer.concat([
    Buffer.from(
      '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n' +
        '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
        '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>\nendobj\n' +
        `4 0 obj\n<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`,
      'latin1',
    ),
    content,
    Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1'),
  ]);
}

/**
 * How the forms of buildNestedFormsPdf are written: Flate (the default), or another filter that
 * stream-guard.ts undoes too (decision 0096); 'png-predicted' and 'tiff-predicted': Flate with a
 * predictor (/DecodeParms /Predictor 12 with PNG rows of every type in turn, or /Predictor 2),
 * undone by that check too since decision 0100; 'predicted-by-reference': the PNG one with its
 * /DecodeParms in an object of its own, which that check follows since decision 0102;
 * 'encrypted': every stream encrypted with the standard security handler (RC4, 40 bits) and an
 * empty password, which pdf.js opens without asking; the counts up front decrypt it as pdf.js does
 * since decision 0108 (before, only the extraction pool's CPU budgets stopped it).
 */
export type FormEncoding =
  | 'flate'
  | 'ascii-hex'
  | 'ascii85'
  | 'lzw'
  | 'run-length'
  | 'png-predicted'
  | 'tiff-predicted'
  | 'predicted-by-reference'
  | 'encrypted';

/**
 * Nesting no single stream shows: the page draws form XObject 1, which saves `depthPerForm`
 * graphics states and draws form 2, and so on for `forms` forms; pdf.js carries the nesting from
 * form to form (`forms` x `depthPerForm` levels), so its work grows with the square of that: 40
 * forms of 1,000 keep pdf.js busy for minutes. A few kilobytes (deflated). stream-guard.ts counts
 * the nesting through the forms and refuses it before pdf.js reads it, whatever `encoding` (see
 * FormEncoding). `pages`: each page draws its own chain (default 1).
 * `objectStreams`: the objects that are not streams (the pages, the predictor's parameters) packed
 * in object streams, as pdf-lib writes by default. `spelling` (see NameSpelling): the same file
 * with its keys and names written as pdf.js also reads them (decision 0102). Decision 0106's
 * spellings, each read by pdf.js as the plain file: `subtypeByReference`, each form's /Subtype an
 * object of its own (`/Subtype 9 0 R`, 9 being `/Form`); `misleadingFirst` (with `objectStreams`),
 * each object stream's dictionary with a second /First before its own (`/First 0/N 5/First 26`:
 * pdf.js reads the last); `predictor` (the predicted encodings), /Predictor written 'real'
 * (`12.0`) or as a 'name' (`/Up`), which pdf.js takes for a PNG predictor too.
 */
export async function buildNestedFormsPdf(
  forms: number,
  depthPerForm: number,
  options: {
    encoding?: FormEncoding;
    pages?: number;
    objectStreams?: boolean;
    spelling?: NameSpelling;
    subtypeByReference?: boolean;
    misleadingFirst?: boolean;
    predictor?: 'real' | 'name';
  } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const encoding = options.encoding ?? 'flate';
  const spelling = options.spelling ?? 'plain';
  // The names the content streams draw, escaped too when the file's names are (`/In#6eer` is /Inner),
  // not as the resources spell them (`/I#6ener`): the two match only once decoded.
  const [innerName, outerName] = spelling === 'escaped' ? ['/In#6eer', '/Ou#74er'] : ['/Inner', '/Outer'];
  const encryption = encoding === 'encrypted' ? emptyPasswordEncryption(doc) : null;
  // A stream registered under a number of its own, encrypted with that number's key when the file is.
  const registerStream = (entries: Record<string, unknown>, data: Uint8Array) => {
    const ref = doc.context.nextRef();
    const written = encryption ? encryption.encrypt(ref.objectNumber, data) : data;
    doc.context.assign(ref, PDFRawStream.of(doc.context.obj({ ...entries, Length: written.length }), written));
    return ref;
  };
  const formSubtype = options.subtypeByReference ? doc.context.register(PDFName.of('Form')) : 'Form';
  for (let pageIndex = 0; pageIndex < (options.pages ?? 1); pageIndex += 1) {
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    let inner: PDFRef | null = null;
    for (let level = forms; level >= 1; level -= 1) {
      const draw = inner ? `${innerName} Do\n` : '0 0 m 1 1 l S\n';
      const content = Buffer.from('q\n'.repeat(depthPerForm) + draw + 'Q\n'.repeat(depthPerForm), 'latin1');
      const dictionary = {
        Type: 'XObject',
        Subtype: formSubtype,
        BBox: [0, 0, 1, 1],
        ...(inner ? { Resources: { XObject: { Inner: inner } } } : {}),
      };
      const { data, entries } = abbreviated(encodeStream(content, encoding), spelling);
      if (options.predictor && entries.DecodeParms)
        entries.DecodeParms = {
          ...(entries.DecodeParms as Record<string, number>),
          Predictor: options.predictor === 'name' ? PDFName.of('Up') : new WrittenAs('12.0'),
        };
      if (encoding === 'predicted-by-reference')
        entries.DecodeParms = doc.context.register(doc.context.obj(entries.DecodeParms as Record<string, PDFObject>));
      inner = registerStream({ ...dictionary, ...entries }, data);
    }
    page.node.set(PDFName.of('Resources'), doc.context.obj({ XObject: { Outer: inner! } }));
    page.node.set(
      PDFName.of('Contents'),
      registerStream(
        abbreviated({ data: new Uint8Array(), entries: { Filter: 'FlateDecode' } }, spelling).entries,
        deflateSync(Buffer.from(`${outerName} Do\n`, 'latin1')),
      ),
    );
  }
  // Escapes are written into the saved text, where no object stream hides it: a plain table then.
  if (spelling === 'escaped') return escapeNames(await saveDocument(doc));
  // Encrypted objects cannot sit in an object stream the check could read, nor would pdf.js
  // read them there (the object stream itself would need encrypting): a plain table then.
  if (!options.objectStreams || encryption) return saveDocument(doc);
  const packed = await doc.save({ useObjectStreams: true });
  return options.misleadingFirst ? withMisleadingFirst(packed) : packed;
}

/** A PDF value written as the text given (`12.0`, which pdf-lib would write `12`). */
class WrittenAs extends PDFObject {
  constructor(private readonly text: string) {
    super();
  }

  override clone(): PDFObject {
    return this;
  }

  override toString(): string {
    return this.text;
  }

  override sizeInBytes(): number {
    return this.text.length;
  }

  override copyBytesInto(buffer: Uint8Array, offset: number): number {
    for (let i = 0; i < this.text.length; i += 1) buffer[offset + i] = this.text.charCodeAt(i);
    return this.text.length;
  }
}

/**
 * pdf-lib's object streams with a second /First before each one's own, the dictionary written
 * without its line breaks to make room, so every offset of the file stays right: pdf.js reads the
 * last of a key written twice (the right /First); a pattern that takes the first reads 0.
 */
function withMisleadingFirst(pdf: Uint8Array): Uint8Array {
  const text = Buffer.from(pdf).toString('latin1');
  const dictionary = /<<\n\/Filter \/FlateDecode\n\/Type \/ObjStm\n\/N (\d+)\n\/First (\d+)\n\/Length (\d+)\n>>/g;
  const rewritten = text.replace(dictionary, (whole, n: string, first: string, length: string) => {
    const compact = `<</Filter/FlateDecode/Type/ObjStm/First 0/N ${n}/First ${first}/Length ${length}>>`;
    if (compact.length !== whole.length) throw new Error('withMisleadingFirst: the dictionary changed its length.');
    return compact;
  });
  if (rewritten === text) throw new Error('withMisleadingFirst: no object stream found.');
  return new Uint8Array(Buffer.from(rewritten, 'latin1'));
}

/**
 * How buildNestedFormsPdf writes its keys and names, each as pdf.js reads it (Parser.filter, the
 * lexer): 'plain'; 'abbreviated': the streams' /Filter and /DecodeParms under /F and /DP, which
 * pdf.js reads first; 'escaped': every name outside the streams' data with a `#xx` escape
 * (`/T#79pe /P#61ge`, `/F#69lter /F#6cateDecode`, `/R#65sources`, `/X#4fbject`) and the names the
 * contents draw too (`/In#6eer Do`), with a plain cross-reference table written again for the
 * longer text.
 */
export type NameSpelling = 'plain' | 'abbreviated' | 'escaped';

/** A stream's /Filter and /DecodeParms moved to /F and /DP when `spelling` says so. */
function abbreviated(
  encoded: { data: Uint8Array; entries: Record<string, unknown> },
  spelling: NameSpelling,
): { data: Uint8Array; entries: Record<string, unknown> } {
  if (spelling !== 'abbreviated') return encoded;
  const { Filter, DecodeParms, ...rest } = encoded.entries;
  return {
    data: encoded.data,
    entries: { ...rest, F: Filter, ...(DecodeParms === undefined ? {} : { DP: DecodeParms }) },
  };
}

/**
 * A PDF written by pdf-lib with a plain table, every name outside its streams' data written with
 * its second character as a `#xx` escape, and its cross-reference table written again for the
 * new offsets (its trailer kept, its names escaped too).
 */
function escapeNames(pdf: Uint8Array): Uint8Array {
  const text = Buffer.from(pdf).toString('latin1');
  const tableAt = text.lastIndexOf('\nxref\n') + 1;
  const trailer = text.slice(text.indexOf('trailer', tableAt), text.lastIndexOf('startxref'));
  // Outside the streams' data (the odd parts of the split), each name of two or more letters.
  const escape = (part: string) =>
    part.replace(/\/([A-Za-z])([A-Za-z][A-Za-z0-9]*)/g, (_, first: string, rest: string) => {
      return `/${first}#${rest.charCodeAt(0).toString(16)}${rest.slice(1)}`;
    });
  const body = text
    .slice(0, tableAt)
    .split(/(\bstream\n[\s\S]*?\nendstream)/)
    .map((part, index) => (index % 2 === 0 ? escape(part) : part))
    .join('');
  const offsets = new Map<number, number>();
  const header = /(?<=\n)(\d+) 0 obj\b/g;
  for (let match = header.exec(body); match; match = header.exec(body)) offsets.set(Number(match[1]), match.index);
  const size = Math.max(...offsets.keys()) + 1;
  const rows = Array.from({ length: size }, (_, number) => {
    const offset = offsets.get(number);
    return offset === undefined ? '0000000000 65535 f \n' : `${String(offset).padStart(10, '0')} 00000 n \n`;
  });
  return new Uint8Array(
    Buffer.from(
      `${body}xref\n0 ${size}\n${rows.join('')}${escape(trailer)}startxref\n${body.length}\n%%EOF\n`,
      'latin1',
    ),
  );
}

/** PDF 32000-1's padding of a password (7.6.3.3, algorithm 2). */
const PASSWORD_PADDING = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

/**
 * The standard security handler, revision 2 (RC4 with a 40-bit key), with empty user and owner
 * passwords (PDF 32000-1, 7.6.3, algorithms 1-4): registers its /Encrypt dictionary and /ID in
 * the document's trailer and encrypts a stream's data for its object number. pdf.js opens such a
 * file with the empty password without asking.
 */
function emptyPasswordEncryption(doc: PDFDocument): {
  encrypt: (objectNumber: number, data: Uint8Array) => Uint8Array;
} {
  const md5 = (...parts: Uint8Array[]) => {
    const hash = createHash('md5');
    for (const part of parts) hash.update(part);
    return hash.digest();
  };
  const id = md5(Buffer.from('gradewise nested forms', 'latin1'));
  const permissions = Buffer.alloc(4);
  permissions.writeInt32LE(-4);
  // Algorithm 3: /O from the (empty) owner password; algorithm 2: the file's key; algorithm 4: /U.
  const owner = rc4(md5(PASSWORD_PADDING).subarray(0, 5), PASSWORD_PADDING);
  const fileKey = md5(PASSWORD_PADDING, owner, permissions, id).subarray(0, 5);
  const user = rc4(fileKey, PASSWORD_PADDING);
  doc.context.trailerInfo.Encrypt = doc.context.register(
    doc.context.obj({
      Filter: 'Standard',
      V: 1,
      R: 2,
      O: PDFHexString.of(owner.toString('hex')),
      U: PDFHexString.of(user.toString('hex')),
      P: -4,
    }),
  );
  doc.context.trailerInfo.ID = doc.context.obj([
    PDFHexString.of(id.toString('hex')),
    PDFHexString.of(id.toString('hex')),
  ]);
  return {
    // Algorithm 1: each object's key is the file's key, its number (3 bytes) and generation (2 bytes), hashed.
    encrypt: (objectNumber, data) => {
      const number = Buffer.from([objectNumber & 0xff, (objectNumber >> 8) & 0xff, (objectNumber >> 16) & 0xff, 0, 0]);
      return rc4(md5(fileKey, number).subarray(0, fileKey.length + 5), data);
    },
  };
}

/** `content` written with `encoding`, and the dictionary entries that say so. */
function encodeStream(content: Buffer, encoding: FormEncoding): { data: Uint8Array; entries: Record<string, unknown> } {
  switch (encoding) {
    case 'flate':
    case 'encrypted':
      return { data: deflateSync(content), entries: { Filter: 'FlateDecode' } };
    case 'ascii-hex':
      return { data: Buffer.from(`${content.toString('hex')}>`, 'latin1'), entries: { Filter: 'ASCIIHexDecode' } };
    case 'ascii85':
      return { data: encodeAscii85(content), entries: { Filter: 'ASCII85Decode' } };
    case 'lzw':
      return { data: encodeLzw(content), entries: { Filter: 'LZWDecode' } };
    case 'run-length':
      return { data: encodeRunLength(content), entries: { Filter: 'RunLengthDecode' } };
    case 'png-predicted':
    case 'predicted-by-reference':
      return {
        data: deflateSync(encodePngRows(content, PREDICTED_COLUMNS)),
        entries: { Filter: 'FlateDecode', DecodeParms: { Predictor: 12, Columns: PREDICTED_COLUMNS } },
      };
    case 'tiff-predicted':
      return {
        data: deflateSync(encodeTiffRows(content, PREDICTED_COLUMNS)),
        entries: { Filter: 'FlateDecode', DecodeParms: { Predictor: 2, Columns: PREDICTED_COLUMNS } },
      };
  }
}

/** Row width of the predicted encodings (one byte a column: Colors 1, 8 bits). */
const PREDICTED_COLUMNS = 64;

/** PNG rows (PNG 1.2, filter types 0-4, one byte a pixel), each row's type the next in turn; the last row padded with spaces. */
function encodePngRows(content: Buffer, columns: number): Buffer {
  const out: number[] = [];
  let above = new Uint8Array(columns);
  for (let start = 0, row = 0; start < content.length; start += columns, row += 1) {
    const current = Uint8Array.from({ length: columns }, (_, i) => content[start + i] ?? 0x20);
    const type = row % 5;
    out.push(type);
    for (let i = 0; i < columns; i += 1) {
      const [left, up, upLeft] = [i > 0 ? current[i - 1]! : 0, above[i]!, i > 0 ? above[i - 1]! : 0];
      const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][type]!;
      out.push((current[i]! - predicted + 256) & 0xff);
    }
    above = current;
  }
  return Buffer.from(out);
}

function paeth(left: number, up: number, upLeft: number): number {
  const p = left + up - upLeft;
  const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
  return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
}

/** TIFF predictor 2 rows (one byte a pixel): each byte its difference from the one before in its row. */
function encodeTiffRows(content: Buffer, columns: number): Buffer {
  const out: number[] = [];
  for (let start = 0; start < content.length; start += columns) {
    for (let i = 0; i < columns; i += 1) {
      const left = i > 0 ? (content[start + i - 1] ?? 0x20) : 0;
      out.push(((content[start + i] ?? 0x20) - left + 256) & 0xff);
    }
  }
  return Buffer.from(out);
}

function encodeAscii85(data: Buffer): Buffer {
  let text = '';
  for (let at = 0; at < data.length; at += 4) {
    const group = [0, 1, 2, 3].map((i) => data[at + i] ?? 0);
    const count = Math.min(4, data.length - at);
    let value = ((group[0]! << 24) | (group[1]! << 16) | (group[2]! << 8) | group[3]!) >>> 0;
    if (value === 0 && count === 4) {
      text += 'z';
      continue;
    }
    const digits: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      digits.unshift(String.fromCharCode(0x21 + (value % 85)));
      value = Math.floor(value / 85);
    }
    text += digits.slice(0, count + 1).join('');
  }
  return Buffer.from(`${text}~>`, 'latin1');
}

/** LZW as PDF writes it (PDF 32000-1, 7.4.4): 9 to 12-bit codes, a clear code first, EarlyChange 1. */
function encodeLzw(data: Buffer): Buffer {
  const out: number[] = [];
  let bits = 0;
  let bitCount = 0;
  let codeLength = 9;
  const write = (code: number) => {
    bits = (bits << codeLength) | code;
    bitCount += codeLength;
    while (bitCount >= 8) {
      bitCount -= 8;
      out.push((bits >>> bitCount) & 0xff);
    }
    bits &= (1 << bitCount) - 1;
  };
  let table = new Map<string, number>();
  let nextCode = 258;
  const reset = () => {
    table = new Map();
    nextCode = 258;
    codeLength = 9;
  };
  write(256);
  let current = '';
  for (const byte of data) {
    const next = current + String.fromCharCode(byte);
    if (next.length === 1 || table.has(next)) {
      current = next;
      continue;
    }
    write(current.length === 1 ? current.charCodeAt(0) : table.get(current)!);
    table.set(next, nextCode++);
    // EarlyChange 1: the code length grows one code early.
    if (nextCode + 1 > 1 << codeLength && codeLength < 12) codeLength += 1;
    if (nextCode >= 4094) {
      write(256);
      reset();
    }
    current = String.fromCharCode(byte);
  }
  if (current) write(current.length === 1 ? current.charCodeAt(0) : table.get(current)!);
  // The reader adds an entry on reading that last code, so its code length may grow before the end marker.
  if (current && nextCode + 1 >= 1 << codeLength && codeLength < 12) codeLength += 1;
  write(257);
  if (bitCount > 0) out.push((bits << (8 - bitCount)) & 0xff);
  return Buffer.from(out);
}

/** RunLengthDecode's input: literal runs of up to 128 bytes, then the end marker. */
function encodeRunLength(data: Buffer): Buffer {
  const out: number[] = [];
  for (let at = 0; at < data.length; at += 128) {
    const run = data.subarray(at, at + 128);
    out.push(run.length - 1, ...run);
  }
  out.push(128);
  return Buffer.from(out);
}

/**
 * A line drawn `operations` times on one page, flat (no nesting): a few kilobytes that pdf.js turns
 * into an operator list without ever yielding to a timer. A million takes far more than 256 MB of
 * heap (the extraction thread's memory limit) and many seconds. `pages`: as many such pages
 * (default 1); 20 pages of 40,000 are a file whose every page is read in a fraction of a second
 * and the whole in seconds (the per-file CPU budget's case, decision 0096).
 */
export async function buildHugeContentStreamPdf(
  operations: number,
  options: { pages?: number } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const content = new TextEncoder().encode('0 0 m 1 1 l S\n'.repeat(operations));
  for (let index = 0; index < (options.pages ?? 1); index += 1) {
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(content)));
  }
  return saveDocument(doc);
}

/**
 * Bytes that start like a PDF (header, `bytes` of padding, end marker) and are nothing more: for
 * size limits, where an upload is refused while streaming, and for files pdf.js cannot read.
 */
export function buildPdfShapedBytes(bytes: number, options: { version?: string; fill?: number } = {}): Buffer {
  return Buffer.concat([
    Buffer.from(`%PDF-${options.version ?? '1.7'}\n`),
    Buffer.alloc(bytes, options.fill ?? 0x41),
    Buffer.from('\n%%EOF\n'),
  ]);
}

/**
 * A one-page PDF whose text layer holds `before`, a NUL character (byte 0 in a Helvetica string:
 * pdf.js extracts it as U+0000), then `after`: text PostgreSQL refuses to store. pdf-lib refuses
 * to encode NUL, so this one is written by hand.
 */
export function buildPdfWithNulInText(before: string, after: string): Buffer {
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

async function saveDocument(doc: PDFDocument): Promise<Uint8Array> {
  return doc.save({ useObjectStreams: false });
}

// ---------------------------------------------------------------------------------------------
// Scan rendering

const SCAN_DPI = 200;
const SCAN_SCALE = SCAN_DPI / 72;
const SCAN_FONT_PT = 13;
const SCAN_LINE_PT = 20;
const SCAN_TOP_PT = 90;
const SCAN_FONT_FAMILY = 'GradewiseScanSans';
const SCAN_CHARS_PER_LINE = 62;

let isScanFontRegistered = false;

/** The scan font ships inside pdfjs-dist, so the image does not depend on the machine's fonts. */
function registerScanFont() {
  if (isScanFontRegistered) return;
  GlobalFonts.registerFromPath(
    path.join(pdfjsRoot(), 'standard_fonts', 'LiberationSans-Regular.ttf'),
    SCAN_FONT_FAMILY,
  );
  isScanFontRegistered = true;
}

function pdfjsRoot(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('pdfjs-dist/package.json'));
}

function wrapForScan(text: string): string[] {
  const lines: string[] = [];
  for (const rawLine of text.split('\n')) {
    let line = '';
    for (const word of rawLine.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > SCAN_CHARS_PER_LINE) {
        lines.push(line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    lines.push(line);
  }
  return lines;
}

function renderScanImage(lines: string[], pageIndex: number): Buffer {
  registerScanFont();
  const width = Math.round(PAGE_WIDTH * SCAN_SCALE);
  const height = Math.round(PAGE_HEIGHT * SCAN_SCALE);
  const random = seededRandom(hashSeed(`${pageIndex}\n${lines.join('\n')}`));
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#f3f1ec';
  ctx.fillRect(0, 0, width, height);
  ctx.save();
  // A sheet never lies perfectly straight on the scanner glass.
  ctx.translate(width / 2, height / 2);
  ctx.rotate(((random() - 0.5) * 1.4 * Math.PI) / 180);
  ctx.translate(-width / 2, -height / 2);
  ctx.fillStyle = '#1d1d1f';
  ctx.font = `${SCAN_FONT_PT * SCAN_SCALE}px ${SCAN_FONT_FAMILY}`;
  ctx.textBaseline = 'alphabetic';
  lines.forEach((line, index) => {
    ctx.fillText(line, MARGIN * SCAN_SCALE, (SCAN_TOP_PT + index * SCAN_LINE_PT) * SCAN_SCALE);
  });
  ctx.restore();
  // Sensor noise and dust specks.
  const image = ctx.getImageData(0, 0, width, height);
  const pixels = image.data;
  for (let i = 0; i < pixels.length; i += 4) {
    const noise = (random() - 0.5) * 12;
    pixels[i] = clampByte(pixels[i]! + noise);
    pixels[i + 1] = clampByte(pixels[i + 1]! + noise);
    pixels[i + 2] = clampByte(pixels[i + 2]! + noise);
  }
  ctx.putImageData(image, 0, 0);
  ctx.fillStyle = '#55555a';
  for (let speck = 0; speck < 250; speck++) {
    ctx.fillRect(random() * width, random() * height, 1 + random() * 2, 1 + random() * 2);
  }
  return canvas.encodeSync('jpeg', 75);
}

/** An opaque picture (a beige label with a border) used to cover text. */
function coverImagePng(width: number, height: number): Buffer {
  const canvas = createCanvas(width * 2, height * 2);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#f1e6c8';
  ctx.fillRect(0, 0, width * 2, height * 2);
  ctx.strokeStyle = '#8a6d3b';
  ctx.lineWidth = 2;
  ctx.strokeRect(1, 1, width * 2 - 2, height * 2 - 2);
  return canvas.encodeSync('png');
}

function clampByte(value: number) {
  return value < 0 ? 0 : value > 255 ? 255 : value;
}
