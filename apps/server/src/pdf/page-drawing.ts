import type { GlyphFacts, GlyphInspector } from './glyph-ink.ts';
import { OPS, type PDFPageProxy } from './pdfjs.ts';
import { BoundedCache } from '../lib/bounded-cache.ts';

/**
 * A walk over a page's pdf.js operator list that records, for every glyph the page shows, how it
 * is painted (fill and stroke colour, alpha, text rendering mode, optional-content visibility),
 * and where the page paints images and filled shapes. pdf.js's getTextContent() says none of
 * this, and it is what tells visible text from text a reader cannot see.
 *
 * The walk mirrors the state handling of pdf.js's own canvas renderer (save/restore, transforms,
 * form XObjects, marked content), so it agrees with what is actually drawn. What each glyph draws
 * (nothing, or other letters than the text layer says) comes from glyph-ink.ts.
 */

export type Rgb = readonly [number, number, number];
export type Matrix = readonly [number, number, number, number, number, number];
/** Axis-aligned box in PDF user space: [minX, minY, maxX, maxY]. */
export type Box = readonly [number, number, number, number];

export interface TextRun {
  /** Index of the show-text operation in the operator list. */
  opIndex: number;
  fill: Rgb | null;
  fillAlpha: number;
  stroke: Rgb | null;
  strokeAlpha: number;
  renderMode: number;
  isInHiddenOptionalContent: boolean;
  /** Everything the operation shows, spaces included. */
  text: string;
  /** Where the operation starts and ends drawing, in user space (origin of the first/after the last glyph). */
  start: readonly [number, number];
  end: readonly [number, number];
  /** Font size after the text matrix and CTM, in points. */
  size: number;
}

/** One character of shown text (after NFKC, whitespace dropped), tied to its run. */
export interface ShownChar {
  char: string;
  run: number;
  /** Advance width of the glyph, shared among the characters it expands to. */
  width: number;
  /**
   * What the glyph draws: nothing (an empty Type3 procedure or outline), or another character than
   * the text layer says (a ToUnicode map that lies). Shared by every showing of the glyph; the
   * shape check (GlyphInspector.checkShapes) may still mark it remapped after the walk.
   */
  glyph: GlyphFacts;
}

export interface PaintedArea {
  /** Order of painting; annotations are drawn after the page, at +Infinity. */
  opIndex: number;
  box: Box;
  /** `stroked-text`: text with an outline, which can paint over other text like a brush; `stroke`: a thick outlined path. */
  kind: 'image' | 'fill' | 'stroke' | 'stroked-text' | 'annotation';
}

export interface PageDrawing {
  runs: TextRun[];
  chars: ShownChar[];
  paints: PaintedArea[];
  /**
   * False when the page paints nothing but text on the white page (no images, fills, clips,
   * shadings, patterns, soft masks or form bounding boxes): then the walk alone decides what is
   * visible and the page does not need to be rendered.
   */
  needsRaster: boolean;
}

interface GraphicsState {
  ctm: Matrix;
  fill: Rgb | null;
  fillAlpha: number;
  stroke: Rgb | null;
  strokeAlpha: number;
  renderMode: number;
  /** Line width in user-space units (outlined text paints this wide). */
  lineWidth: number;
  fontName: string | null;
  // Text state, saved and restored with the rest as pdf.js's canvas does.
  textMatrix: Matrix;
  lineX: number;
  lineY: number;
  x: number;
  y: number;
  fontSize: number;
  fontDirection: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  leading: number;
  rise: number;
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
const NOTHING_KNOWN: GlyphFacts = Object.freeze({ isBlank: false, isRemapped: false });
const BLACK: Rgb = [0, 0, 0];
const SHOW_TEXT_OPS = new Set<number>([
  OPS.showText,
  OPS.showSpacedText,
  OPS.nextLineShowText,
  OPS.nextLineSetSpacingShowText,
]);
const IMAGE_OPS = new Set<number>([
  OPS.paintImageXObject,
  OPS.paintInlineImageXObject,
  OPS.paintInlineImageXObjectGroup,
  OPS.paintImageXObjectRepeat,
]);
const MASK_OPS = new Set<number>([
  OPS.paintImageMaskXObject,
  OPS.paintImageMaskXObjectGroup,
  OPS.paintImageMaskXObjectRepeat,
  OPS.paintSolidColorImageMask,
]);
const FILL_OPS = new Set<number>([
  OPS.fill,
  OPS.eoFill,
  OPS.fillStroke,
  OPS.eoFillStroke,
  OPS.closeFillStroke,
  OPS.closeEOFillStroke,
]);

/** Path operations that stroke (outline) the path, alone or with a fill. */
const STROKE_OPS = new Set<number>([
  OPS.stroke,
  OPS.closeStroke,
  OPS.fillStroke,
  OPS.eoFillStroke,
  OPS.closeFillStroke,
  OPS.closeEOFillStroke,
]);

/**
 * A stroke at least this wide (in points, on the page) can hide a word by itself, like a brush:
 * text smaller than 4 pt is already hidden as `tiny`, so half that leaves room. Thinner lines
 * (table borders, underlines: 0.5-1 pt) cannot, and keep typed pages off the raster path.
 */
const MIN_COVERING_STROKE_PT = 2;

export const isShowTextOp = (fn: number) => SHOW_TEXT_OPS.has(fn);

interface OperatorList {
  fnArray: number[];
  argsArray: unknown[];
}

export function walkPageDrawing(
  operatorList: OperatorList,
  isOptionalContentVisible: (properties: unknown) => boolean,
  glyphs: GlyphInspector | null = null,
): PageDrawing {
  const runs: TextRun[] = [];
  const chars: ShownChar[] = [];
  const paints: PaintedArea[] = [];
  let needsRaster = false;
  let state: GraphicsState = {
    ctm: IDENTITY,
    fill: BLACK,
    fillAlpha: 1,
    stroke: BLACK,
    strokeAlpha: 1,
    renderMode: 0,
    lineWidth: 1,
    fontName: null,
    textMatrix: IDENTITY,
    lineX: 0,
    lineY: 0,
    x: 0,
    y: 0,
    fontSize: 0,
    fontDirection: 1,
    charSpacing: 0,
    wordSpacing: 0,
    hScale: 1,
    leading: 0,
    rise: 0,
  };
  const stack: GraphicsState[] = [];
  const markedContent: boolean[] = [];
  let hiddenMarkedContentDepth = 0;
  const { fnArray, argsArray } = operatorList;

  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i]!;
    const args = (argsArray[i] ?? []) as unknown[];
    switch (fn) {
      case OPS.save:
        stack.push(state);
        state = { ...state };
        break;
      case OPS.restore:
        state = stack.pop() ?? state;
        break;
      case OPS.transform:
        state.ctm = multiply(state.ctm, args as unknown as Matrix);
        break;
      case OPS.paintFormXObjectBegin: {
        stack.push(state);
        state = { ...state };
        const [matrix, bbox] = args as [Matrix | null, Box | null];
        if (matrix) state.ctm = multiply(state.ctm, matrix);
        // The form's bounding box clips what it draws.
        if (bbox) needsRaster = true;
        break;
      }
      case OPS.paintFormXObjectEnd:
        state = stack.pop() ?? state;
        break;
      case OPS.setFillRGBColor:
      case OPS.setFillGray:
      case OPS.setFillCMYKColor:
      case OPS.setFillColor:
        state.fill = parseColor(args);
        if (!state.fill) needsRaster = true;
        break;
      case OPS.setStrokeRGBColor:
      case OPS.setStrokeGray:
      case OPS.setStrokeCMYKColor:
      case OPS.setStrokeColor:
        state.stroke = parseColor(args);
        if (!state.stroke) needsRaster = true;
        break;
      case OPS.setFillColorN:
        // A pattern or shading as the fill: its colour is only known by rendering.
        state.fill = null;
        needsRaster = true;
        break;
      case OPS.setStrokeColorN:
        state.stroke = null;
        needsRaster = true;
        break;
      case OPS.setFillTransparent:
        state.fillAlpha = 0;
        break;
      case OPS.setStrokeTransparent:
        state.strokeAlpha = 0;
        break;
      case OPS.setGState:
        for (const entry of args[0] as [string, unknown][]) {
          const [key, value] = entry;
          if (key === 'ca' && typeof value === 'number') state.fillAlpha = value;
          else if (key === 'CA' && typeof value === 'number') state.strokeAlpha = value;
          else if (key === 'LW' && typeof value === 'number') state.lineWidth = value;
          else if (key === 'Font' && Array.isArray(value)) {
            state.fontName = typeof value[0] === 'string' ? value[0] : null;
            const size = Number(value[1]) || 0;
            state.fontSize = Math.abs(size);
            state.fontDirection = size < 0 ? -1 : 1;
          } else if (key === 'SMask' && value) needsRaster = true;
          else if (key === 'BM' && value !== 'source-over' && value !== 'Normal') needsRaster = true;
        }
        break;
      case OPS.beginText:
        state.textMatrix = IDENTITY;
        state.x = state.lineX = state.y = state.lineY = 0;
        break;
      case OPS.setTextMatrix: {
        const matrix = Array.from(args[0] as ArrayLike<number>);
        if (matrix.length === 6) state.textMatrix = matrix as unknown as Matrix;
        state.x = state.lineX = state.y = state.lineY = 0;
        break;
      }
      case OPS.moveText:
        moveText(state, Number(args[0]) || 0, Number(args[1]) || 0);
        break;
      case OPS.setLeadingMoveText:
        state.leading = Number(args[1]) || 0;
        moveText(state, Number(args[0]) || 0, Number(args[1]) || 0);
        break;
      case OPS.setLeading:
        state.leading = -(Number(args[0]) || 0);
        break;
      case OPS.nextLine:
        moveText(state, 0, state.leading);
        break;
      case OPS.setFont: {
        state.fontName = typeof args[0] === 'string' ? args[0] : null;
        // A Type3 glyph is a small picture in any colour: the raster checks what it left.
        if (glyphs?.isType3(state.fontName)) needsRaster = true;
        const size = Number(args[1]) || 0;
        state.fontSize = Math.abs(size);
        state.fontDirection = size < 0 ? -1 : 1;
        break;
      }
      case OPS.setCharSpacing:
        state.charSpacing = Number(args[0]) || 0;
        break;
      case OPS.setWordSpacing:
        state.wordSpacing = Number(args[0]) || 0;
        break;
      case OPS.setHScale:
        state.hScale = (Number(args[0]) || 0) / 100;
        break;
      case OPS.setTextRise:
        state.rise = Number(args[0]) || 0;
        break;
      case OPS.setTextRenderingMode:
        state.renderMode = typeof args[0] === 'number' ? args[0] : 0;
        break;
      case OPS.setLineWidth:
        state.lineWidth = Number(args[0]) || 0;
        break;
      case OPS.beginMarkedContent:
        markedContent.push(true);
        break;
      case OPS.beginMarkedContentProps: {
        const isVisible = args[0] !== 'OC' || isOptionalContentVisible(args[1]);
        markedContent.push(isVisible);
        if (!isVisible) hiddenMarkedContentDepth++;
        break;
      }
      case OPS.endMarkedContent:
        if (markedContent.pop() === false) hiddenMarkedContentDepth--;
        break;
      case OPS.clip:
      case OPS.eoClip:
      case OPS.shadingFill:
      case OPS.beginGroup:
        needsRaster = true;
        break;
      case OPS.constructPath: {
        const [drawOp, , minMax] = args as [number, unknown, ArrayLike<number> | null];
        if (FILL_OPS.has(drawOp) && minMax && hiddenMarkedContentDepth === 0) {
          needsRaster = true;
          if (state.fillAlpha >= 0.99) {
            paints.push({
              opIndex: i,
              kind: 'fill',
              box: transformBox(state.ctm, [minMax[0]!, minMax[1]!, minMax[2]!, minMax[3]!]),
            });
          }
        }
        // A thick stroke paints like a brush (issue 28: a 14 pt white line drawn over a sentence
        // hid it from the reader, and a page of text and strokes never reached the raster).
        const strokeReach =
          (state.lineWidth / 2) * Math.sqrt(Math.abs(state.ctm[0] * state.ctm[3] - state.ctm[1] * state.ctm[2]));
        if (
          STROKE_OPS.has(drawOp) &&
          minMax &&
          hiddenMarkedContentDepth === 0 &&
          strokeReach * 2 >= MIN_COVERING_STROKE_PT
        ) {
          needsRaster = true;
          if (state.strokeAlpha >= 0.99) {
            const box = transformBox(state.ctm, [minMax[0]!, minMax[1]!, minMax[2]!, minMax[3]!]);
            paints.push({
              opIndex: i,
              kind: 'stroke',
              box: [box[0] - strokeReach, box[1] - strokeReach, box[2] + strokeReach, box[3] + strokeReach],
            });
          }
        }
        break;
      }
      default:
        if (IMAGE_OPS.has(fn)) {
          needsRaster = true;
          if (hiddenMarkedContentDepth === 0 && state.fillAlpha >= 0.99) {
            paints.push({ opIndex: i, kind: 'image', box: transformBox(state.ctm, [0, 0, 1, 1]) });
          }
        } else if (MASK_OPS.has(fn)) {
          needsRaster = true;
        } else if (SHOW_TEXT_OPS.has(fn)) {
          const runIndex = runs.length;
          const textToUser = multiply(state.ctm, state.textMatrix);
          const start = applyMatrix(textToUser, state.x, state.y + state.rise);
          const startX = state.x;
          const { text, advance } = collectGlyphs(args, runIndex, chars, state, glyphs);
          state.x += advance;
          const mode = state.renderMode & 3;
          if ((mode === 1 || mode === 2) && hiddenMarkedContentDepth === 0) {
            // Outlined text paints beyond its glyphs, as far as half the line width: it can cover
            // other text, so the raster must see it.
            needsRaster = true;
            if (state.strokeAlpha >= 0.99 && state.lineWidth > 0) {
              const size = state.fontSize;
              const box = transformBox(textToUser, [
                startX,
                state.y + state.rise - 0.3 * size,
                state.x,
                state.y + state.rise + size,
              ]);
              const reach =
                (state.lineWidth / 2) * Math.sqrt(Math.abs(state.ctm[0] * state.ctm[3] - state.ctm[1] * state.ctm[2]));
              paints.push({
                opIndex: i,
                kind: 'stroked-text',
                box: [box[0] - reach, box[1] - reach, box[2] + reach, box[3] + reach],
              });
            }
          }
          runs.push({
            opIndex: i,
            fill: state.fill,
            fillAlpha: state.fillAlpha,
            stroke: state.stroke,
            strokeAlpha: state.strokeAlpha,
            renderMode: state.renderMode,
            isInHiddenOptionalContent: hiddenMarkedContentDepth > 0,
            text,
            start,
            end: applyMatrix(textToUser, state.x, state.y + state.rise),
            size: state.fontSize * Math.hypot(textToUser[2], textToUser[3]),
          });
        }
    }
  }
  return { runs, chars, paints, needsRaster };
}

/**
 * Glyph objects carry `unicode`, `width` (1/1000 of the font size) and `isSpace`; numbers between
 * them are TJ adjustments. Returns the text and the horizontal advance in text space, computed as
 * pdf.js's canvas does.
 */
function collectGlyphs(
  args: unknown,
  run: number,
  chars: ShownChar[],
  state: GraphicsState,
  glyphs: GlyphInspector | null,
) {
  let text = '';
  let advance = 0;
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      for (const entry of value) visit(entry);
      return;
    }
    if (typeof value === 'number') {
      advance -= (value * state.fontSize * state.hScale) / 1000;
      return;
    }
    if (!value || typeof value !== 'object' || !('unicode' in value)) return;
    const glyph = value as { unicode?: unknown; width?: unknown; isSpace?: unknown };
    const glyphWidth = typeof glyph.width === 'number' && glyph.width > 0 ? glyph.width : 0;
    const spacing = state.charSpacing + (glyph.isSpace ? state.wordSpacing : 0);
    advance += ((glyphWidth * state.fontSize) / 1000 + spacing * state.fontDirection) * state.hScale;
    if (typeof glyph.unicode !== 'string' || glyph.unicode.length === 0) return;
    text += glyph.unicode;
    const expanded = comparableChars(glyph.unicode);
    if (expanded.length === 0) return;
    const facts = glyphs?.inspect(state.fontName, glyph) ?? NOTHING_KNOWN;
    for (const char of expanded) chars.push({ char, run, width: glyphWidth / expanded.length, glyph: facts });
  };
  visit(args);
  return { text, advance };
}

const comparableCache = new BoundedCache<string, string[]>(10_000);

/** A glyph's text as the characters the text items will show for it: NFKC, no whitespace. Cached (hot path). */
export function comparableChars(unicode: string): string[] {
  let chars = comparableCache.get(unicode);
  if (!chars) {
    chars = Array.from(unicode.normalize('NFKC')).filter((char) => !/\s/u.test(char));
    comparableCache.set(unicode, chars);
  }
  return chars;
}

function moveText(state: GraphicsState, x: number, y: number) {
  state.x = state.lineX += x;
  state.y = state.lineY += y;
}

function applyMatrix(matrix: Matrix, x: number, y: number): readonly [number, number] {
  return [matrix[0] * x + matrix[2] * y + matrix[4], matrix[1] * x + matrix[3] * y + matrix[5]];
}

/** pdf.js turns every colour space into "#rrggbb" before the canvas sees it; numbers are a fallback. */
function parseColor(args: unknown[]): Rgb | null {
  const [first] = args;
  if (typeof first === 'string') {
    const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(first);
    return match ? [parseInt(match[1]!, 16), parseInt(match[2]!, 16), parseInt(match[3]!, 16)] : null;
  }
  if (!args.every((value) => typeof value === 'number')) return null;
  const values = args as number[];
  const byte = (unit: number) => Math.round(Math.min(1, Math.max(0, unit)) * 255);
  if (values.length === 1) return [byte(values[0]!), byte(values[0]!), byte(values[0]!)];
  if (values.length === 3) {
    const scale = values.some((value) => value > 1) ? 1 / 255 : 1;
    return [byte(values[0]! * scale), byte(values[1]! * scale), byte(values[2]! * scale)];
  }
  if (values.length === 4) {
    const [c, m, y, k] = values as [number, number, number, number];
    return [byte((1 - c) * (1 - k)), byte((1 - m) * (1 - k)), byte((1 - y) * (1 - k))];
  }
  return null;
}

/** outer x inner: applies `inner` first, as a PDF `cm` does to the current matrix. */
export function multiply(outer: Matrix, inner: Matrix): Matrix {
  return [
    outer[0] * inner[0] + outer[2] * inner[1],
    outer[1] * inner[0] + outer[3] * inner[1],
    outer[0] * inner[2] + outer[2] * inner[3],
    outer[1] * inner[2] + outer[3] * inner[3],
    outer[0] * inner[4] + outer[2] * inner[5] + outer[4],
    outer[1] * inner[4] + outer[3] * inner[5] + outer[5],
  ];
}

export function transformBox(matrix: Matrix, box: Box): Box {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [
    [box[0], box[1]],
    [box[0], box[3]],
    [box[2], box[1]],
    [box[2], box[3]],
  ] as const) {
    xs.push(matrix[0] * x + matrix[2] * y + matrix[4]);
    ys.push(matrix[1] * x + matrix[3] * y + matrix[5]);
  }
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** Annotation flags that keep an annotation off the screen (Hidden, NoView). */
const HIDDEN_ANNOTATION_FLAGS = 2 | 32;

/**
 * Where the page's annotations paint their appearance streams (a stamp, a shape, a note, a form
 * field), after and over the page content. Annotations without an appearance paint nothing.
 */
export async function annotationAreas(page: PDFPageProxy): Promise<PaintedArea[]> {
  const annotations = (await page.getAnnotations({ intent: 'display' })) as {
    hasAppearance?: boolean;
    annotationFlags?: number;
    rect?: number[];
  }[];
  return annotations
    .filter((annotation) => annotation.hasAppearance && !((annotation.annotationFlags ?? 0) & HIDDEN_ANNOTATION_FLAGS))
    .filter((annotation) => Array.isArray(annotation.rect) && annotation.rect.length === 4)
    .map((annotation) => {
      const [x0, y0, x1, y1] = annotation.rect as [number, number, number, number];
      const box: Box = [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
      return { opIndex: Number.POSITIVE_INFINITY, kind: 'annotation' as const, box };
    });
}
