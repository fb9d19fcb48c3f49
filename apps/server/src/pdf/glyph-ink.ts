import { compareRead, readGlyphOutlines } from './glyph-shapes.ts';
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
 *   the base encoding of a nonsymbolic font) names a character; when that is a letter or a digit
 *   and the text layer (from the ToUnicode map) says something else, the page shows other letters
 *   than the text layer claims;
 * - glyphs no name vouches for (Identity-H (CID) fonts, symbolic fonts without Differences): their
 *   outlines are drawn large and read by OCR (glyph-shapes.ts, decision 0034); a font whose shapes
 *   contradict what the text layer says for several glyphs has those glyphs marked remapped;
 * - one glyph the text layer reads as more letters than any ligature holds (a full stop that
 *   "says" a sentence) is remapped whatever the font.
 *
 * Answers are cached per document: fonts are shared between pages, and pdf.js sends an outline only
 * the first time a glyph is shown. The shape check changes answers it already gave (`isRemapped`
 * turns true), so callers keep the GlyphFacts object and read it after `checkShapes()`.
 */

export interface GlyphFacts {
  /** The glyph paints nothing at all. */
  isBlank: boolean;
  /** The glyph draws another character than the text layer gives for it (its name or its shape says so). */
  isRemapped: boolean;
}

/** The fields of pdf.js's Glyph objects in the operator list that this reads. */
interface GlyphLike {
  originalCharCode?: unknown;
  fontChar?: unknown;
  unicode?: unknown;
  operatorListId?: unknown;
  isInFont?: unknown;
}

/** The fields of pdf.js's FontFaceObject (opened with fontExtraProperties) that this reads. */
interface FontLike {
  isType3Font?: boolean;
  /** No font program: pdf.js draws the text with a substitute font, whatever the glyphs. */
  missingFile?: boolean;
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

/** Path commands in pdf.js's compiled outlines (DrawOPS), when they come as numbers. */
const DRAW_LINE = 1;
const DRAW_CURVE = 2;
const DRAW_QUADRATIC = 3;
const DRAW_CLOSE = 4;
/** More letters and digits than this from one glyph is no ligature (ffi, ffl are three). */
const MAX_LIGATURE_LETTERS = 3;
/**
 * Glyph shapes read by OCR (about 12 ms each): per page and font, a random sample of the glyphs
 * first shown there; per document, at most MAX_SHAPE_CHECKS. Random, so a forger cannot know which
 * glyphs to keep honest.
 */
const SHAPES_PER_PAGE_AND_FONT = 8;
const MAX_SHAPE_CHECKS = 96;
/**
 * A font with at least this many contradicted shapes, and this share of the ones read, is forged:
 * none of its glyphs is trusted, read or not. OCR misreads a lone honest glyph now and then (one in
 * 87 on a browser-printed essay, after look-alikes are folded), never a quarter of a font.
 */
const MIN_CONTRADICTED_SHAPES = 3;
const FORGED_FONT_SHARE = 0.25;
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

interface ShapeToCheck {
  fontName: string;
  outline: string;
  claim: string;
  facts: GlyphFacts;
}

export class GlyphInspector {
  private readonly fonts = new Map<string, FontLike | null>();
  private readonly answers = new Map<string, GlyphFacts>();
  /** Glyphs first shown on the page being walked that no name vouches for. */
  private readonly shapesToCheck: ShapeToCheck[] = [];
  /** Per font: how many of its glyphs' shapes were read and contradicted, and every glyph met. */
  private readonly shapeChecks = new Map<string, { read: number; contradicted: number; glyphs: GlyphFacts[] }>();
  private shapesChecked = 0;
  private readonly forgedFonts = new Set<string>();

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

  /** What the glyph draws. The object is shared by every showing of the glyph and may still change (see checkShapes). */
  inspect(fontName: string | null, glyph: GlyphLike): GlyphFacts {
    const font = fontName ? this.fonts.get(fontName) : null;
    if (!font || !fontName) return { isBlank: false, isRemapped: false };
    const key = `${fontName}\u0000${String(glyph.originalCharCode)}\u0000${String(glyph.fontChar)}\u0000${String(glyph.unicode)}`;
    let facts = this.answers.get(key);
    if (!facts) {
      const outline = font.isType3Font ? null : this.outlineOf(fontName, glyph);
      // A glyph that claims no visible text (a space, a NUL or other control code) hides nothing by
      // drawing nothing: counting it would take the visible letters of its word with it.
      const claimsNoVisibleText = typeof glyph.unicode === 'string' && !/[^\s\p{Cc}\p{Cf}]/u.test(glyph.unicode);
      const isBlank =
        !claimsNoVisibleText &&
        (font.isType3Font
          ? isBlankType3Glyph(font, glyph)
          : // pdf.js paints no glyph the font lacks (an empty outline counts as lacking, in CID fonts).
            (glyph.isInFont === false && !font.missingFile) || (outline !== null && !drawsAnything(outline)));
      const byName = remappedByName(font, glyph);
      facts = {
        isBlank,
        isRemapped: byName === true || claimsTooManyLetters(glyph) || this.forgedFonts.has(fontName),
      };
      if (this.answers.size < MAX_CACHED_GLYPHS) {
        this.answers.set(key, facts);
        // No name vouches for this glyph: its shape is read, up to a budget per document.
        if (byName === null && !font.isType3Font) this.queueShapeCheck(fontName, glyph, outline, facts);
      }
    }
    return facts;
  }

  private queueShapeCheck(
    fontName: string,
    glyph: GlyphLike,
    outline: string | ArrayLike<number> | null,
    facts: GlyphFacts,
  ) {
    const checks = this.shapeChecks.get(fontName) ?? { read: 0, contradicted: 0, glyphs: [] };
    this.shapeChecks.set(fontName, checks);
    checks.glyphs.push(facts);
    const claim = typeof glyph.unicode === 'string' ? glyph.unicode.normalize('NFKC').replace(/\s/gu, '') : '';
    if (typeof outline === 'string' && !facts.isBlank && !facts.isRemapped && /^[A-Za-z0-9]{1,3}$/u.test(claim)) {
      this.shapesToCheck.push({ fontName, outline, claim, facts });
    }
  }

  /**
   * Reads, in one OCR pass, the shapes of a random sample of the glyphs first shown on this page
   * (or earlier, still waiting) that no name vouches for. A font whose shapes are often contradicted is forged, and all its
   * glyphs are marked remapped. Call after a page's walk and before its glyph facts are read.
   */
  async checkShapes(): Promise<void> {
    // A font with fewer new glyphs than it takes to be called forged waits for more (one OCR pass
    // costs about 100 ms beyond its glyphs): two letters alone cannot spell a hidden sentence.
    const pendingPerFont = new Map<string, number>();
    for (const shape of this.shapesToCheck) {
      pendingPerFont.set(shape.fontName, (pendingPerFont.get(shape.fontName) ?? 0) + 1);
    }
    const isDue = (shape: ShapeToCheck) => pendingPerFont.get(shape.fontName)! >= MIN_CONTRADICTED_SHAPES;
    const candidates = shuffled(this.shapesToCheck.filter(isDue));
    const waiting = this.shapesToCheck.filter((shape) => !isDue(shape));
    this.shapesToCheck.splice(0, this.shapesToCheck.length, ...waiting);
    const takenPerFont = new Map<string, number>();
    const batch: ShapeToCheck[] = [];
    for (const shape of candidates) {
      const taken = takenPerFont.get(shape.fontName) ?? 0;
      if (taken >= SHAPES_PER_PAGE_AND_FONT || this.shapesChecked + batch.length >= MAX_SHAPE_CHECKS) continue;
      takenPerFont.set(shape.fontName, taken + 1);
      batch.push(shape);
    }
    if (batch.length === 0) return;
    this.shapesChecked += batch.length;
    const reads = await readGlyphOutlines(batch.map((shape) => shape.outline));
    batch.forEach((shape, index) => {
      const checks = this.shapeChecks.get(shape.fontName)!;
      checks.read++;
      if (compareRead(shape.claim, reads[index]!) === 'contradicts') checks.contradicted++;
    });
    for (const [fontName, checks] of this.shapeChecks) {
      const isForged =
        checks.contradicted >= MIN_CONTRADICTED_SHAPES && checks.contradicted >= FORGED_FONT_SHARE * checks.read;
      if (!isForged || this.forgedFonts.has(fontName)) continue;
      this.forgedFonts.add(fontName);
      for (const facts of checks.glyphs) facts.isRemapped = true;
    }
  }

  /**
   * The outline pdf.js compiled for a glyph: SVG path data (pdf.js 5.4) or a list of path
   * commands; null when none was sent (pdf.js draws that font some other way, a system font).
   */
  private outlineOf(fontName: string, glyph: GlyphLike): string | ArrayLike<number> | null {
    if (typeof glyph.fontChar !== 'string') return null;
    const id = `${fontName}_path_${glyph.fontChar}`;
    if (!this.commonObjs.has(id)) return null;
    const outline = this.commonObjs.get(id) as string | { path?: ArrayLike<number> } | null;
    if (typeof outline === 'string') return outline;
    return outline?.path ?? null;
  }
}

function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function isBlankType3Glyph(font: FontLike, glyph: GlyphLike): boolean {
  const procedure = font.charProcOperatorList?.[String(glyph.operatorListId)];
  if (!procedure?.fnArray) return false;
  return !procedure.fnArray.some((fn, index) => isPainting(fn, procedure.argsArray?.[index]));
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
function drawsAnything(path: string | ArrayLike<number>): boolean {
  if (typeof path === 'string') return /[LCQ]/u.test(path);
  for (let i = 0; i < path.length;) {
    const op = path[i++];
    if (op === DRAW_LINE || op === DRAW_CURVE || op === DRAW_QUADRATIC) return true;
    if (op === DRAW_CLOSE) continue;
    i += 2; // moveTo x y
  }
  return false;
}

/** Whether the glyph's name says another character than the text layer; null when no name says which character it is. */
function remappedByName(font: FontLike, glyph: GlyphLike): boolean | null {
  if (font.composite || typeof glyph.originalCharCode !== 'number' || typeof glyph.unicode !== 'string') return null;
  // The base encoding names the glyphs only of a nonsymbolic font: a symbolic font (TeX's, for
  // one) uses its own built-in encoding, which pdf.js does not pass on.
  const name =
    font.differences?.[glyph.originalCharCode] ||
    (font.isSymbolicFont ? undefined : font.defaultEncoding?.[glyph.originalCharCode]);
  const named = name ? characterOfGlyphName(name) : null;
  if (!named) return null;
  const shown = glyph.unicode.normalize('NFKC').replace(/\s/gu, '');
  if (!shown) return false;
  return shown.toLowerCase() !== named.toLowerCase();
}

/** One glyph that the text layer reads as more letters and digits than a ligature has. */
function claimsTooManyLetters(glyph: GlyphLike): boolean {
  if (typeof glyph.unicode !== 'string') return false;
  return (glyph.unicode.match(/[A-Za-z0-9]/gu)?.length ?? 0) > MAX_LIGATURE_LETTERS;
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
