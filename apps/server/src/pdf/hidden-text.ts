import { AnnotationMode, OPS, type PDFPageProxy } from './pdfjs.ts';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import {
  comparableChars,
  isShowTextOp,
  type Box,
  type PageDrawing,
  type PaintedArea,
  type Rgb,
  type TextRun,
} from './page-drawing.ts';
import { wordsUnderLaterText } from './text-under-text.ts';

type RenderParameters = Parameters<PDFPageProxy['render']>[0];

/**
 * HIDDEN TEXT DETECTION (see docs/decisions/0002-hidden-text-detection.md).
 *
 * A PDF's text layer can hold text no reader sees: white on white, fully transparent or render
 * mode 3 ("invisible"), 1 pt tall, placed outside the page box, clipped away, or painted over by
 * an image. Students use it to whisper instructions to an AI grader, so such text is kept out of
 * the text we grade and reported instead. Two independent signals are combined, word by word:
 *
 * 1. Paint state from the operator list (page-drawing.ts): each shown glyph's fill/stroke colour,
 *    alpha, rendering mode and optional-content visibility, matched to pdf.js's text items by
 *    aligning the two character streams. This is exact for invisible modes and alpha 0, and is
 *    immune to hidden text overlapping visible text.
 * 2. The raster: the page is rendered twice at a modest scale, once as is and once with every
 *    show-text operation filtered out. Inside a word's box, no pixel differing between the two
 *    renders means the word left no ink (clipped, covered, or the colour of what lies under it);
 *    the most common colour of the text-free render is the background the word is read against,
 *    so white text on a dark box is visible and white text on white paper is not.
 *
 * Geometry from the text items catches tiny and off-page text. A page that paints only text on
 * white paper (no images, fills, clips, patterns...) skips rendering: the background is white and
 * nothing can cover or clip the text, so the paint state decides alone. That keeps ordinary typed
 * PDFs fast.
 */

export type HiddenTextReason =
  | 'white-or-transparent'
  | 'low-contrast'
  | 'tiny'
  | 'off-page'
  | 'covered-by-image'
  | 'covered-by-text'
  | 'covered-by-annotation'
  | 'clipped'
  | 'blank-glyphs'
  | 'remapped-glyphs';

/** A run of consecutive hidden words on one line, with the same reason. */
export interface HiddenLineRun {
  text: string;
  reason: HiddenTextReason;
  /** Every word lies over an image painted before it: what scanner apps' OCR layers look like. */
  isOverImage: boolean;
  /** Index of the text line (runs never span lines, so a scan's layer can be judged line by line). */
  line: number;
  /** The word before this run is hidden for the same reason (on the line before). */
  continuesPrevious: boolean;
}

export interface PageTextAnalysis {
  /** Visible text: lines joined with '\n', a blank line where a paragraph gap was. */
  text: string;
  visibleCharCount: number;
  hiddenRuns: HiddenLineRun[];
}

export interface RasterOptions {
  /** Render scale for the raster check (1 = 72 dpi). */
  scale: number;
  maxPixels: number;
  canvasFactory: CanvasFactory;
}

interface CanvasLike {
  width: number;
  height: number;
}
interface Context2dLike {
  getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
}
export interface CanvasFactory {
  create(width: number, height: number): { canvas: CanvasLike; context: Context2dLike };
  destroy(entry: { canvas: CanvasLike; context: Context2dLike }): void;
}

/**
 * Smaller than this (effective height in points) nobody reads it: 2.5 pt prints letters 0.9 mm
 * tall. Real small print (footnotes, sub- and superscripts, figure labels) stays at 5 pt or more.
 */
const TINY_HEIGHT_PT = 4;
/** Narrower than this per character (points) the glyphs overlap into a smear. */
const TINY_CHAR_WIDTH_PT = 0.4;
/** Largest channel difference (0–255) between text and background that still counts as invisible. */
const MIN_VISIBLE_CONTRAST = 40;
/**
 * Below this contrast ratio (WCAG's luminance ratio, 1–21) text is too faint to read: 0.8 grey on
 * white is 1.6, 0.7 grey 2.1, dark grey 0.4 is 5.7, and coloured headings are 2.5 or more. Large
 * text (a watermark, a banner) is read at a lower contrast.
 */
const MIN_READABLE_CONTRAST_RATIO = 2;
const MIN_READABLE_CONTRAST_RATIO_LARGE = 1.4;
const LARGE_TEXT_PT = 18;
/** Share of a word's glyphs that draw nothing, or other letters, for the word to count as hidden. */
const MIN_FAKE_GLYPH_SHARE = 0.5;
/** Alpha below this paints nothing a reader notices. */
const MIN_VISIBLE_ALPHA = 0.05;
/** A pixel "has ink" when the text changed one of its channels by more than this. */
const INK_DIFFERENCE = 32;
/** A word whose box has fewer ink pixels than this share left no readable mark. */
const MIN_INK_SHARE = 0.01;
/** Share of a word's box that must lie inside the page box for it to count as on the page. */
const MIN_ON_PAGE_SHARE = 0.4;
const WHITE: Rgb = [255, 255, 255];

interface Word {
  item: number;
  start: number;
  end: number;
  run: TextRun | null;
  box: Box;
  /** Advance along the text direction, in user-space units. */
  length: number;
  /** Shares of the word's matched glyphs that draw nothing / draw another character. */
  blankShare: number;
  remappedShare: number;
  reason: HiddenTextReason | null;
  isOverImage: boolean;
}

export async function analyzePageText(
  page: PDFPageProxy,
  items: TextItem[],
  drawing: PageDrawing,
  raster: RasterOptions,
): Promise<PageTextAnalysis> {
  const itemChars = items.map((item) => Array.from(item.str));
  const alignment = alignCharacters(itemChars, drawing);
  const words = splitIntoWords(items, itemChars, alignment, drawing);
  const [pageX0, pageY0, pageX1, pageY1] = page.view as [number, number, number, number];
  const pageBox: Box = [
    Math.min(pageX0, pageX1),
    Math.min(pageY0, pageY1),
    Math.max(pageX0, pageX1),
    Math.max(pageY0, pageY1),
  ];

  for (const word of words) word.reason = reasonFromStateAndGeometry(word, items[word.item]!, pageBox);

  const undecided = words.filter((word) => word.reason === null);
  // A word whose glyphs could not be matched has no known paint state: only the raster can judge it.
  const hasUnmatchedWords = undecided.some((word) => word.run === null);
  // Text the colour of the paper may be painted over other text (white glyphs as a brush).
  const hasPaleText = drawing.runs.some((run) => contrastReason(run, WHITE) !== null);
  // Words other text is written over later: whether any of their ink is left, only a render shows.
  const underText = wordsUnderLaterText(undecided, drawing.runs);
  if ((drawing.needsRaster || hasUnmatchedWords || hasPaleText || underText.length > 0) && undecided.length > 0) {
    await checkWordsAgainstRaster(page, undecided, drawing, raster, underText);
  } else {
    // Only text on white paper: contrast against white decides.
    for (const word of undecided) {
      if (word.run) word.reason = contrastReason(word.run, WHITE);
    }
  }
  for (const word of words) word.isOverImage = isOverEarlierImage(word, drawing.paints);
  const analysis = assemble(items, itemChars, words);
  analysis.hiddenRuns.push(...droppedOffPageRuns(drawing, alignment, pageBox));
  return analysis;
}

/**
 * pdf.js leaves glyphs whose origin is outside the page box out of the text items, so text placed
 * off the page never reaches the item stream: it is found here, as show-text operations none of
 * whose characters were matched and that start and end outside the page.
 */
function droppedOffPageRuns(drawing: PageDrawing, alignment: Int32Array[], pageBox: Box): HiddenLineRun[] {
  const matchedPerRun = new Int32Array(drawing.runs.length);
  for (const matched of alignment) for (const j of matched) if (j >= 0) matchedPerRun[drawing.chars[j]!.run]!++;
  const runs: HiddenLineRun[] = [];
  let previousRun = -2;
  drawing.runs.forEach((run, index) => {
    const text = run.text.replace(/\s+/gu, ' ').trim();
    if (!text || matchedPerRun[index]! > 0) return;
    const box: Box = [
      Math.min(run.start[0], run.end[0]),
      Math.min(run.start[1], run.end[1]),
      Math.max(run.start[0], run.end[0]),
      Math.max(run.start[1], run.end[1]),
    ];
    if (overlapShare(box, pageBox) >= MIN_ON_PAGE_SHARE) return;
    const continuesPrevious = previousRun === index - 1;
    const last = runs.at(-1);
    if (last && continuesPrevious) last.text += ` ${text}`;
    else runs.push({ text, reason: 'off-page', isOverImage: false, line: -1, continuesPrevious: false });
    previousRun = index;
  });
  return runs;
}

// ---------------------------------------------------------------------------------------------
// 1. Matching pdf.js text items to the glyphs of the operator list

/**
 * For each character of each text item, the index of the shown glyph character it came from, or
 * -1. Both streams come from the same content stream in the same order; the text items add spaces
 * and line ends, so non-space characters are matched greedily with a bounded look-ahead (glyphs
 * the text layer leaves out, such as annotation text, are skipped).
 */
function alignCharacters(itemChars: string[][], drawing: PageDrawing): Int32Array[] {
  const { chars } = drawing;
  let cursor = 0;
  const LOOK_AHEAD = 400;
  return itemChars.map((charsOfItem) => {
    const matched = new Int32Array(charsOfItem.length).fill(-1);
    charsOfItem.forEach((char, index) => {
      const [normalized] = comparableChars(char);
      if (normalized === undefined) return; // whitespace
      const limit = Math.min(chars.length, cursor + LOOK_AHEAD);
      for (let j = cursor; j < limit; j++) {
        const shown = chars[j]!.char;
        if (shown === char || shown === normalized) {
          matched[index] = j;
          cursor = j + 1;
          return;
        }
      }
    });
    return matched;
  });
}

/** Words are runs of non-space characters painted by the same show-text operation. */
function splitIntoWords(
  items: TextItem[],
  itemChars: string[][],
  alignment: Int32Array[],
  drawing: PageDrawing,
): Word[] {
  const words: Word[] = [];
  items.forEach((item, itemIndex) => {
    const chars = itemChars[itemIndex]!;
    if (chars.length === 0) return;
    const matched = alignment[itemIndex]!;
    const offsets = characterOffsets(item, chars, matched, drawing);
    let start = -1;
    let runIndex = -1;
    const flush = (end: number) => {
      if (start < 0) return;
      words.push({
        item: itemIndex,
        start,
        end,
        run: runIndex >= 0 ? drawing.runs[runIndex]! : null,
        box: wordBox(item, offsets[start]!, offsets[end]!),
        length: offsets[end]! - offsets[start]!,
        ...fakeGlyphShares(matched, start, end, drawing),
        reason: null,
        isOverImage: false,
      });
      start = -1;
    };
    for (let k = 0; k < chars.length; k++) {
      if (/\s/u.test(chars[k]!)) {
        flush(k);
        continue;
      }
      const charRun = matched[k]! >= 0 ? drawing.chars[matched[k]!]!.run : -1;
      if (start >= 0 && charRun !== runIndex && charRun >= 0 && runIndex >= 0) flush(k);
      if (start < 0) {
        start = k;
        runIndex = charRun;
      } else if (runIndex < 0) {
        runIndex = charRun;
      }
    }
    flush(chars.length);
  });
  return words;
}

/** Shares of the matched characters in [start, end) whose glyphs draw nothing / draw something else. */
function fakeGlyphShares(matched: Int32Array, start: number, end: number, drawing: PageDrawing) {
  let count = 0;
  let blank = 0;
  let remapped = 0;
  for (let k = start; k < end; k++) {
    const j = matched[k]!;
    if (j < 0) continue;
    const shown = drawing.chars[j]!;
    count++;
    if (shown.glyph.isBlank) blank++;
    else if (shown.glyph.isRemapped) remapped++;
  }
  return { blankShare: count ? blank / count : 0, remappedShare: count ? remapped / count : 0 };
}

/** Distance of each character's left edge from the item's origin, in user-space units. */
function characterOffsets(item: TextItem, chars: string[], matched: Int32Array, drawing: PageDrawing): Float64Array {
  const weights = new Float64Array(chars.length);
  let knownTotal = 0;
  let knownCount = 0;
  chars.forEach((_, k) => {
    const j = matched[k]!;
    if (j >= 0 && drawing.chars[j]!.width > 0) {
      weights[k] = drawing.chars[j]!.width;
      knownTotal += weights[k]!;
      knownCount++;
    }
  });
  const average = knownCount > 0 ? knownTotal / knownCount : 500;
  chars.forEach((char, k) => {
    if (weights[k] === 0) weights[k] = /\s/u.test(char) ? average * 0.5 : average;
  });
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const width = item.width > 0 ? item.width : item.height * 0.5 * chars.length;
  const offsets = new Float64Array(chars.length + 1);
  for (let k = 0; k < chars.length; k++) offsets[k + 1] = offsets[k]! + (weights[k]! / total) * width;
  return offsets;
}

/** The word's box in user space, from the item's transform (rotation included). */
function wordBox(item: TextItem, from: number, to: number): Box {
  const [a, b, c, d, e, f] = item.transform as [number, number, number, number, number, number];
  const along = Math.hypot(a, b) || 1;
  const ux = a / along;
  const uy = b / along;
  const up = Math.hypot(c, d);
  const vx = up > 0 ? c / up : -uy;
  const vy = up > 0 ? d / up : ux;
  const height = item.height > 0 ? item.height : up;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const s of [from, to]) {
    for (const t of [-0.2, 0.8]) {
      xs.push(e + ux * s + vx * height * t);
      ys.push(f + uy * s + vy * height * t);
    }
  }
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

// ---------------------------------------------------------------------------------------------
// 2. Paint state and geometry

function reasonFromStateAndGeometry(word: Word, item: TextItem, pageBox: Box): HiddenTextReason | null {
  const { run } = word;
  if (run) {
    if (run.isInHiddenOptionalContent) return 'white-or-transparent';
    const mode = run.renderMode & 3; // 0 fill, 1 stroke, 2 fill+stroke, 3 invisible (+4: also clip)
    if (mode === 3) return 'white-or-transparent';
    const alpha = Math.max(paintsFill(run) ? run.fillAlpha : 0, paintsStroke(run) ? run.strokeAlpha : 0);
    if (alpha < MIN_VISIBLE_ALPHA) return 'white-or-transparent';
    // What the glyphs draw, whatever the text layer says they are.
    if (word.blankShare >= MIN_FAKE_GLYPH_SHARE) return 'blank-glyphs';
    if (word.remappedShare + word.blankShare >= MIN_FAKE_GLYPH_SHARE) return 'remapped-glyphs';
  }
  const height = item.height > 0 ? item.height : Math.hypot(item.transform[2]!, item.transform[3]!);
  if (height < TINY_HEIGHT_PT) return 'tiny';
  if (word.length / Math.max(1, word.end - word.start) < TINY_CHAR_WIDTH_PT) return 'tiny';
  if (overlapShare(word.box, pageBox) < MIN_ON_PAGE_SHARE) return 'off-page';
  return null;
}

const paintsFill = (run: TextRun) => [0, 2].includes(run.renderMode & 3);
const paintsStroke = (run: TextRun) => [1, 2].includes(run.renderMode & 3);

/**
 * Whether the text's paint is too close to the background to read: the colour of the paper
 * ('white-or-transparent'), or too faint ('low-contrast', a luminance ratio, allowing large text
 * less). Unknown paint (a pattern) is left to the raster's ink check.
 */
function contrastReason(run: TextRun, background: Rgb): HiddenTextReason | null {
  if (paintContrast(run, background) < MIN_VISIBLE_CONTRAST) return 'white-or-transparent';
  if ((paintsFill(run) && !run.fill) || (paintsStroke(run) && !run.stroke)) return null;
  let best = 1;
  if (paintsFill(run) && run.fill)
    best = Math.max(best, contrastRatio(blend(run.fill, run.fillAlpha, background), background));
  if (paintsStroke(run) && run.stroke) {
    best = Math.max(best, contrastRatio(blend(run.stroke, run.strokeAlpha, background), background));
  }
  const minimum = run.size >= LARGE_TEXT_PT ? MIN_READABLE_CONTRAST_RATIO_LARGE : MIN_READABLE_CONTRAST_RATIO;
  return best < minimum ? 'low-contrast' : null;
}

const blend = (colour: Rgb, alpha: number, background: Rgb): Rgb => [
  colour[0] * alpha + background[0] * (1 - alpha),
  colour[1] * alpha + background[1] * (1 - alpha),
  colour[2] * alpha + background[2] * (1 - alpha),
];

/** WCAG 2 relative luminance of an sRGB colour (0–255 channels). */
function luminance([r, g, b]: Rgb): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

function contrastRatio(a: Rgb, b: Rgb): number {
  const [lighter, darker] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/** How far the text's paint stands out from a background colour (0–255), alpha included. */
function paintContrast(run: TextRun, background: Rgb): number {
  let best = 0;
  if (paintsFill(run) && run.fill) best = Math.max(best, channelDistance(run.fill, background) * run.fillAlpha);
  if (paintsStroke(run) && run.stroke) best = Math.max(best, channelDistance(run.stroke, background) * run.strokeAlpha);
  // Unknown paint (a pattern): the raster's ink check decides.
  if ((paintsFill(run) && !run.fill) || (paintsStroke(run) && !run.stroke)) return 255;
  return best;
}

const channelDistance = (a: Rgb, b: Rgb) =>
  Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));

function overlapShare(box: Box, container: Box): number {
  const area = (box[2] - box[0]) * (box[3] - box[1]);
  if (area <= 0)
    return box[0] >= container[0] && box[2] <= container[2] && box[1] >= container[1] && box[3] <= container[3] ? 1 : 0;
  const width = Math.min(box[2], container[2]) - Math.max(box[0], container[0]);
  const height = Math.min(box[3], container[3]) - Math.max(box[1], container[1]);
  return width > 0 && height > 0 ? (width * height) / area : 0;
}

function isOverEarlierImage(word: Word, paints: PaintedArea[]): boolean {
  if (!word.run) return false;
  const opIndex = word.run.opIndex;
  return paints.some(
    (paint) => paint.kind === 'image' && paint.opIndex < opIndex && overlapShare(word.box, paint.box) >= 0.8,
  );
}

// ---------------------------------------------------------------------------------------------
// 3. The raster check

async function checkWordsAgainstRaster(
  page: PDFPageProxy,
  words: Word[],
  drawing: PageDrawing,
  options: RasterOptions,
  underText: Word[],
) {
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(options.scale, Math.sqrt(options.maxPixels / Math.max(1, base.width * base.height)));
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.ceil(viewport.width));
  const height = Math.max(1, Math.ceil(viewport.height));
  const withText = options.canvasFactory.create(width, height);
  const withoutText = options.canvasFactory.create(width, height);
  try {
    // Annotations with an appearance are drawn in both renders when the page has any (one can
    // cover text); only the page's own show-text operations are left out of the second.
    const annotationMode = drawing.paints.some((paint) => paint.kind === 'annotation')
      ? AnnotationMode.ENABLE
      : AnnotationMode.DISABLE;
    await page.render({
      canvasContext: withText.context as unknown as RenderParameters['canvasContext'],
      canvas: withText.canvas as unknown as RenderParameters['canvas'],
      viewport,
      annotationMode,
    }).promise;
    const isPageText = pageShowTextOps(renderedOperatorList(page));
    await page.render({
      canvasContext: withoutText.context as unknown as RenderParameters['canvasContext'],
      canvas: withoutText.canvas as unknown as RenderParameters['canvas'],
      viewport,
      annotationMode,
      // The render's list is pdf.js's optimized one, whose indexes differ from getOperatorList();
      // filtering by operation type against that same list is exact.
      operationsFilter: (index: number) => !isPageText[index],
    }).promise;
    const boxes = words.map((word) => {
      const [ax, ay, bx, by] = viewport.convertToViewportRectangle([...word.box]) as [number, number, number, number];
      return {
        x0: Math.max(0, Math.floor(Math.min(ax, bx))),
        x1: Math.min(width, Math.ceil(Math.max(ax, bx))),
        y0: Math.max(0, Math.floor(Math.min(ay, by))),
        y1: Math.min(height, Math.ceil(Math.max(ay, by))),
      };
    });
    // Only the band that holds the words is copied out of the canvases.
    const onCanvas = boxes.filter((box) => box.x1 > box.x0 && box.y1 > box.y0);
    const left = Math.min(...onCanvas.map((box) => box.x0));
    const top = Math.min(...onCanvas.map((box) => box.y0));
    const regionWidth = Math.max(...onCanvas.map((box) => box.x1)) - left;
    const regionHeight = Math.max(...onCanvas.map((box) => box.y1)) - top;
    const inked = onCanvas.length
      ? withText.context.getImageData(left, top, regionWidth, regionHeight).data
      : new Uint8ClampedArray();
    const blank = onCanvas.length
      ? withoutText.context.getImageData(left, top, regionWidth, regionHeight).data
      : new Uint8ClampedArray();
    const histogram = new Uint32Array(4096);
    const touchedBins: number[] = [];
    words.forEach((word, index) => {
      const { x0, x1, y0, y1 } = boxes[index]!;
      if (x1 <= x0 || y1 <= y0) {
        word.reason = 'off-page';
        return;
      }
      let inkPixels = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const p = ((y - top) * regionWidth + (x - left)) * 4;
          const r = blank[p]!;
          const g = blank[p + 1]!;
          const b = blank[p + 2]!;
          const bin = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
          if (histogram[bin]!++ === 0) touchedBins.push(bin);
          if (
            Math.abs(inked[p]! - r) > INK_DIFFERENCE ||
            Math.abs(inked[p + 1]! - g) > INK_DIFFERENCE ||
            Math.abs(inked[p + 2]! - b) > INK_DIFFERENCE
          ) {
            inkPixels++;
          }
        }
      }
      const background = dominantColour(histogram, touchedBins);
      const contrast = word.run ? contrastReason(word.run, background) : null;
      if (contrast) {
        word.reason = contrast;
      } else if (inkPixels <= MIN_INK_SHARE * (x1 - x0) * (y1 - y0)) {
        word.reason = coveringReason(word, drawing.paints) ?? 'clipped';
      }
    });
    const stillShown = underText.filter((word) => word.reason === null);
    if (stillShown.length > 0) {
      const keptPageText = pageTextOf(isPageText, drawing, stillShown);
      if (keptPageText) {
        // A third render without those words only: what they add to the page, under what came after.
        await page.render({
          canvasContext: withoutText.context as unknown as RenderParameters['canvasContext'],
          canvas: withoutText.canvas as unknown as RenderParameters['canvas'],
          viewport,
          annotationMode,
          operationsFilter: (index: number) => !isPageText[index] || keptPageText.has(index),
        }).promise;
        const without = withoutText.context.getImageData(left, top, regionWidth, regionHeight).data;
        for (const word of stillShown) {
          const { x0, x1, y0, y1 } = boxes[words.indexOf(word)]!;
          let inkPixels = 0;
          for (let y = y0; y < y1; y++) {
            for (let x = x0; x < x1; x++) {
              const p = ((y - top) * regionWidth + (x - left)) * 4;
              if (
                Math.abs(inked[p]! - without[p]!) > INK_DIFFERENCE ||
                Math.abs(inked[p + 1]! - without[p + 1]!) > INK_DIFFERENCE ||
                Math.abs(inked[p + 2]! - without[p + 2]!) > INK_DIFFERENCE
              )
                inkPixels++;
            }
          }
          if (inkPixels <= MIN_INK_SHARE * (x1 - x0) * (y1 - y0)) word.reason = 'covered-by-text';
        }
      }
    }
  } finally {
    options.canvasFactory.destroy(withText);
    options.canvasFactory.destroy(withoutText);
  }
}

/** The most common colour (4 bits a channel, centre of its bin); empties the histogram for the next word. */
function dominantColour(histogram: Uint32Array, touchedBins: number[]): Rgb {
  let best = touchedBins[0] ?? 0xfff;
  for (const bin of touchedBins) if (histogram[bin]! > histogram[best]!) best = bin;
  for (const bin of touchedBins) histogram[bin] = 0;
  touchedBins.length = 0;
  // Centre of the bin, except that the darkest and lightest bins stand for black and white (paper
  // is 255, not 248, when contrast is measured against it).
  const level = (bits: number) => (bits === 15 ? 255 : bits === 0 ? 0 : (bits << 4) + 8);
  return [level(best >> 8), level((best >> 4) & 15), level(best & 15)];
}

const COVER_REASONS: Record<PaintedArea['kind'], HiddenTextReason> = {
  image: 'covered-by-image',
  fill: 'covered-by-image',
  stroke: 'covered-by-image',
  'stroked-text': 'covered-by-text',
  annotation: 'covered-by-annotation',
};

/** What painted over the word after it (the last such paint): an image or opaque shape, outlined text, an annotation. */
function coveringReason(word: Word, paints: PaintedArea[]): HiddenTextReason | null {
  const opIndex = word.run?.opIndex ?? -1;
  let cover: PaintedArea | null = null;
  for (const paint of paints) {
    if (
      paint.opIndex > opIndex &&
      overlapShare(word.box, paint.box) >= 0.9 &&
      (!cover || paint.opIndex > cover.opIndex)
    ) {
      cover = paint;
    }
  }
  return cover ? COVER_REASONS[cover.kind] : null;
}

/**
 * The rendered list's page show-text operations that are not the runs of `leftOut`; null when the
 * list does not hold one such operation per run of the drawing (pdf.js's optimizer merges text
 * blocks but keeps each show-text operation, so it always should), and nothing is left out then.
 */
function pageTextOf(isPageText: Uint8Array, drawing: PageDrawing, leftOut: Word[]): Set<number> | null {
  const indexes: number[] = [];
  isPageText.forEach((flag, index) => {
    if (flag) indexes.push(index);
  });
  if (indexes.length !== drawing.runs.length) return null;
  const omitted = new Set(leftOut.map((word) => word.run));
  return new Set(indexes.filter((_, runIndex) => !omitted.has(drawing.runs[runIndex]!)));
}

interface RenderedOperatorList {
  fnArray: number[];
}

/** Which operations of the rendered list show the page's text (not text inside an annotation's appearance). */
function pageShowTextOps(list: RenderedOperatorList): Uint8Array {
  const isPageText = new Uint8Array(list.fnArray.length);
  let annotationDepth = 0;
  list.fnArray.forEach((fn, index) => {
    if (fn === OPS.beginAnnotation) annotationDepth++;
    else if (fn === OPS.endAnnotation) annotationDepth = Math.max(0, annotationDepth - 1);
    else if (annotationDepth === 0 && isShowTextOp(fn)) isPageText[index] = 1;
  });
  return isPageText;
}

/**
 * The operator list pdf.js just rendered for the display intent. pdf.js keeps it per intent on
 * the page; the public getOperatorList() returns an unoptimized list with other indexes, so the
 * filter of the second render must read this one. Pinned to pdfjs-dist 5.4.x (tested).
 */
function renderedOperatorList(page: PDFPageProxy): RenderedOperatorList {
  const states = (
    page as unknown as {
      _intentStates?: Map<
        string,
        { displayReadyCapability?: unknown; operatorList?: RenderedOperatorList & { lastChunk?: boolean } }
      >;
    }
  )._intentStates;
  for (const state of states?.values() ?? []) {
    if (state.displayReadyCapability && state.operatorList?.lastChunk) return state.operatorList;
  }
  throw new Error('pdf.js did not keep the rendered operator list (pdfjs-dist version changed?)');
}

// ---------------------------------------------------------------------------------------------
// 4. Visible text and hidden runs

function assemble(items: TextItem[], itemChars: string[][], words: Word[]): PageTextAnalysis {
  const lineOfItem = new Int32Array(items.length);
  let lineCount = 0;
  items.forEach((item, index) => {
    lineOfItem[index] = lineCount;
    if (item.hasEOL) lineCount++;
  });

  // Hidden runs: consecutive hidden words on one line with the same reason.
  const hiddenRuns: HiddenLineRun[] = [];
  const hiddenByItem = new Map<number, Word[]>();
  words.forEach((word, index) => {
    if (!word.reason) return;
    const list = hiddenByItem.get(word.item) ?? [];
    list.push(word);
    hiddenByItem.set(word.item, list);
    const text = itemChars[word.item]!.slice(word.start, word.end).join('');
    const line = lineOfItem[word.item]!;
    const previous = words[index - 1];
    const openRun = hiddenRuns.at(-1);
    if (openRun && previous?.reason === word.reason && openRun.line === line) {
      openRun.text += ` ${text}`;
      openRun.isOverImage &&= word.isOverImage;
    } else {
      const continuesPrevious = previous?.reason === word.reason;
      hiddenRuns.push({ text, reason: word.reason, isOverImage: word.isOverImage, line, continuesPrevious });
    }
  });

  // Visible lines: each item without its hidden words.
  const lines: { text: string; y: number; height: number }[] = [];
  let line = '';
  let lineY = Number.NaN;
  let lineHeight = 0;
  const endLine = () => {
    const text = line.replace(/[ \t]+/g, ' ').trim();
    if (text) lines.push({ text, y: lineY, height: lineHeight });
    line = '';
    lineY = Number.NaN;
    lineHeight = 0;
  };
  items.forEach((item, itemIndex) => {
    const chars = itemChars[itemIndex]!;
    let kept = '';
    let next = 0;
    for (const word of hiddenByItem.get(itemIndex) ?? []) {
      kept += chars.slice(next, word.start).join('');
      next = word.end;
    }
    kept += chars.slice(next).join('');
    if (/\S/u.test(kept)) {
      if (Number.isNaN(lineY)) lineY = item.transform[5]!;
      lineHeight = Math.max(lineHeight, item.height);
    }
    line += kept;
    if (item.hasEOL) endLine();
  });
  endLine();

  // A gap clearly wider than the page's usual line gap, or than two and a half lines, is a
  // paragraph break: keep it as a blank line (double-spaced pages have wide gaps everywhere, so
  // the usual gap is the yardstick when there are enough lines to have one).
  const gaps = lines.slice(1).map((current, index) => Math.abs(lines[index]!.y - current.y));
  const usualGap = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)] ?? 0;
  let text = '';
  lines.forEach((current, index) => {
    if (index > 0) {
      const gap = gaps[index - 1]!;
      const height = Math.max(lines[index - 1]!.height, current.height);
      const isParagraphBreak = gap > 1.6 * height && (gap > 1.4 * usualGap || gap > 2.5 * height);
      text += isParagraphBreak ? '\n\n' : '\n';
    }
    text += current.text;
  });
  const visibleCharCount = text.replace(/\s/gu, '').length;
  return { text, visibleCharCount, hiddenRuns };
}
