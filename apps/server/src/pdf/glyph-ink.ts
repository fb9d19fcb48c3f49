import { OPS, type PDFPageProxy } from './pdfjs.ts';

/**
 * WHAT EACH GLYPH ACTUALLY DRAWS (see docs/decisions/0016-hidden-text-glyphs-annotations-contrast.md).
 *
 * A font decides both what a glyph looks like and which letters the text layer gets for it, and
 * the two need not agree: a Type3 font's glyph procedures can paint nothing, an embedded font's
 * outlines can be empty, and a ToUnicode map can turn any glyph into any text. So for every glyph
 * a page shows, this asks pdf.js what it will draw:
 *
 * - Type3 glyphs: the glyph procedure's operator list (`charProcOperatorList`) must contain a
 *   painting operation (a filled or stroked path, an image, a mask, a shading, text, a form);
 * - other fonts: pdf.js draws the glyph from an outline it compiles in the worker and keeps in
 *   `commonObjs` (`<font>_path_<char>`, kept because the document is opened with
 *   `fontExtraProperties`); an outline without a line or a curve draws nothing;
 * - remapped glyphs: for a simple font, the glyph's name in the font's encoding (Differences, or
 *   the base encoding of a nonsymbolic font) names a character; when that is a letter or a digit and the text layer (from the
 *   ToUnicode map) says something else, the page shows other letters than the text layer claims.
 *
 * Answers are cached per document: fonts are shared between pages, and pdf.js sends an outline only
 * the first time a glyph is shown.
 */

export interface GlyphFacts {
  /** The glyph paints nothing at all. */
  isBlank: boolean;
  /** The glyph's own name says another character than the text layer gives for it. */
  isRemapped: boolean;
}

/** The fields of pdf.js's Glyph objects in the operator list that this reads. */
interface GlyphLike {
  originalCharCode?: unknown;
  fontChar?: unknown;
  unicode?: unknown;
  operatorListId?: unknown;
}

/** The fields of pdf.js's FontFaceObject (opened with fontExtraProperties) that this reads. */
interface FontLike {
  isType3Font?: boolean;
  composite?: boolean;
  charProcOperatorList?: Record<string, { fnArray?: number[]; argsArray?: unknown[] }>;
  differences?: (string | null | undefined)[];
  defaultEncoding?: (string | null | undefined)[];
  isSymbolicFont?: boolean;
}

interface ObjectStore {
  has(id: string): boolean;
  get(id: string): unknown;
  get(id: string, callback: (data: unknown) => void): unknown;
}

const NOTHING_KNOWN: GlyphFacts = { isBlank: false, isRemapped: false };
/** Path commands in pdf.js's compiled outlines (DrawOPS). */
const DRAW_LINE = 1;
const DRAW_CURVE = 2;
const DRAW_QUADRATIC = 3;
const DRAW_CLOSE = 4;
const PAINTING_OPS = new Set<number>([
  OPS.stroke,
  OPS.closeStroke,
  OPS.fill,
  OPS.eoFill,
  OPS.fillStroke,
  OPS.eoFillStroke,
  OPS.closeFillStroke,
  OPS.closeEOFillStroke,
  OPS.shadingFill,
  OPS.paintImageXObject,
  OPS.paintInlineImageXObject,
  OPS.paintInlineImageXObjectGroup,
  OPS.paintImageXObjectRepeat,
  OPS.paintImageMaskXObject,
  OPS.paintImageMaskXObjectGroup,
  OPS.paintImageMaskXObjectRepeat,
  OPS.paintSolidColorImageMask,
  OPS.paintFormXObjectBegin,
  OPS.showText,
  OPS.showSpacedText,
  OPS.nextLineShowText,
  OPS.nextLineSetSpacingShowText,
]);
/** At most this many glyph answers are kept per document (a CJK document shows thousands). */
const MAX_CACHED_GLYPHS = 50_000;

export class GlyphInspector {
  private readonly fonts = new Map<string, FontLike | null>();
  private readonly answers = new Map<string, GlyphFacts>();

  constructor(private readonly commonObjs: ObjectStore) {}

  static of(page: PDFPageProxy): GlyphInspector {
    return new GlyphInspector(page.commonObjs as unknown as ObjectStore);
  }

  /** Waits for the fonts the operator list sets (pdf.js resolves them shortly after the list). */
  async loadFonts(operatorList: { fnArray: number[]; argsArray: unknown[] }): Promise<void> {
    const names = new Set<string>();
    operatorList.fnArray.forEach((fn, index) => {
      const args = operatorList.argsArray[index] as unknown[] | null;
      if (fn === OPS.setFont && typeof args?.[0] === 'string') names.add(args[0]);
      if (fn === OPS.setGState) {
        for (const [key, value] of (args?.[0] ?? []) as [string, unknown][]) {
          if (key === 'Font' && Array.isArray(value) && typeof value[0] === 'string') names.add(value[0]);
        }
      }
    });
    await Promise.all(
      [...names]
        .filter((name) => !this.fonts.has(name))
        .map(
          (name) =>
            new Promise<void>((resolve) => {
              this.commonObjs.get(name, (font) => {
                // A font pdf.js could not load resolves to its error: nothing is known about it.
                this.fonts.set(
                  name,
                  font && typeof font === 'object' && !(font instanceof Error) ? (font as FontLike) : null,
                );
                resolve();
              });
            }),
        ),
    );
  }

  /** Whether `fontName`'s type is Type3 (its glyphs are small pictures any colour, so the raster checks them too). */
  isType3(fontName: string | null): boolean {
    return Boolean(fontName && this.fonts.get(fontName)?.isType3Font);
  }

  inspect(fontName: string | null, glyph: GlyphLike): GlyphFacts {
    const font = fontName ? this.fonts.get(fontName) : null;
    if (!font || !fontName) return NOTHING_KNOWN;
    const key = `${fontName}\u0000${String(glyph.originalCharCode)}\u0000${String(glyph.fontChar)}\u0000${String(glyph.unicode)}`;
    let facts = this.answers.get(key);
    if (!facts) {
      facts = { isBlank: this.isBlank(fontName, font, glyph), isRemapped: isRemapped(font, glyph) };
      if (this.answers.size < MAX_CACHED_GLYPHS) this.answers.set(key, facts);
    }
    return facts;
  }

  private isBlank(fontName: string, font: FontLike, glyph: GlyphLike): boolean {
    if (font.isType3Font) {
      const procedure = font.charProcOperatorList?.[String(glyph.operatorListId)];
      if (!procedure?.fnArray) return false;
      return !procedure.fnArray.some((fn, index) => isPainting(fn, procedure.argsArray?.[index]));
    }
    if (typeof glyph.fontChar !== 'string') return false;
    const id = `${fontName}_path_${glyph.fontChar}`;
    // No outline sent: pdf.js draws this font some other way (a system font), so assume ink.
    if (!this.commonObjs.has(id)) return false;
    const outline = (this.commonObjs.get(id) as { path?: ArrayLike<number> } | null)?.path;
    return outline ? !drawsAnything(outline) : false;
  }
}

function isPainting(fn: number, args: unknown): boolean {
  if (fn === OPS.constructPath) {
    // pdf.js folds the painting operator into constructPath: [paintOp, path, bounds].
    const paintOp = Array.isArray(args) ? args[0] : undefined;
    return typeof paintOp === 'number' && PAINTING_OPS.has(paintOp);
  }
  return PAINTING_OPS.has(fn);
}

/** An outline draws something when it has a line or a curve (moves and closes alone draw nothing). */
function drawsAnything(path: ArrayLike<number>): boolean {
  for (let i = 0; i < path.length;) {
    const op = path[i++];
    if (op === DRAW_LINE || op === DRAW_CURVE || op === DRAW_QUADRATIC) return true;
    if (op === DRAW_CLOSE) continue;
    i += 2; // moveTo x y
  }
  return false;
}

function isRemapped(font: FontLike, glyph: GlyphLike): boolean {
  if (font.composite || typeof glyph.originalCharCode !== 'number' || typeof glyph.unicode !== 'string') return false;
  // The base encoding names the glyphs only of a nonsymbolic font: a symbolic font (TeX's, for
  // one) uses its own built-in encoding, which pdf.js does not pass on.
  const name =
    font.differences?.[glyph.originalCharCode] ||
    (font.isSymbolicFont ? undefined : font.defaultEncoding?.[glyph.originalCharCode]);
  const named = name ? characterOfGlyphName(name) : null;
  if (!named) return false;
  const shown = glyph.unicode.normalize('NFKC').replace(/\s/gu, '');
  if (!shown) return false;
  return shown.toLowerCase() !== named.toLowerCase();
}

const PUNCTUATION_NAMES: Record<string, string> = {
  period: '.',
  comma: ',',
  colon: ':',
  semicolon: ';',
  exclam: '!',
  question: '?',
  hyphen: '-',
  slash: '/',
  parenleft: '(',
  parenright: ')',
  zero: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
};

/**
 * The character a glyph name stands for, for the names whose meaning is not in doubt: single
 * letters (a, B, and a.sc or a_alt variants), digits and common punctuation by their Adobe names,
 * and uniXXXX / uXXXX[XX]. Anything else (ligatures, symbols, made-up names like g12) is unknown.
 */
export function characterOfGlyphName(name: string): string | null {
  const base = name.split(/[._]/u)[0] ?? '';
  if (/^[A-Za-z]$/u.test(base)) return base;
  if (PUNCTUATION_NAMES[base]) return PUNCTUATION_NAMES[base];
  const uni = /^uni([0-9A-F]{4})$/u.exec(base) ?? /^u([0-9A-F]{4,6})$/u.exec(base);
  if (uni) {
    const char = String.fromCodePoint(parseInt(uni[1]!, 16)).normalize('NFKC');
    return /^[\p{L}\p{N}]$/u.test(char) ? char : null;
  }
  return null;
}
