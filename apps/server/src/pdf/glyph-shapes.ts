import { createCanvas, Path2D } from '@napi-rs/canvas';
import { recognizeSymbols, type OcrSymbol } from './ocr.ts';

/**
 * READING WHAT GLYPH OUTLINES DRAW (see docs/decisions/0034-glyph-shapes-of-cid-fonts.md).
 *
 * A font's ToUnicode map can say any text for any glyph. For most embedded fonts, Identity-H (CID)
 * fonts above all, no glyph name tells which letter a glyph is, so the only witness is its shape.
 * This draws the outlines pdf.js compiled for the glyphs (SVG path data in text space, one font
 * size = 1) as a grid of large, well-spaced specimens, black on white, reads the grid once with
 * tesseract, and gives back what it read in each cell.
 */

/** Specimen size in pixels per font size: an x-height of about 25 px, where tesseract reads best. */
const EM_PX = 48;
/** Each glyph gets a cell two font sizes wide and tall, so neighbours never merge into one word. */
const CELL_PX = 2 * EM_PX;
const BASELINE_PX = Math.round(1.35 * EM_PX);
const CELLS_PER_ROW = 16;
const MARGIN_PX = EM_PX / 2;

/** What tesseract read in each outline's cell ('' for nothing), in the order given. */
export async function readGlyphOutlines(outlines: string[]): Promise<string[]> {
  if (outlines.length === 0) return [];
  const rows = Math.ceil(outlines.length / CELLS_PER_ROW);
  const canvas = createCanvas(
    2 * MARGIN_PX + Math.min(outlines.length, CELLS_PER_ROW) * CELL_PX,
    2 * MARGIN_PX + rows * CELL_PX,
  );
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000000';
  outlines.forEach((outline, index) => {
    const left = MARGIN_PX + (index % CELLS_PER_ROW) * CELL_PX;
    const top = MARGIN_PX + Math.floor(index / CELLS_PER_ROW) * CELL_PX;
    context.save();
    // Clip to the cell: a glyph drawn huge or far from its origin must not spill into another's.
    context.beginPath();
    context.rect(left, top, CELL_PX, CELL_PX);
    context.clip();
    context.translate(left + EM_PX / 2, top + BASELINE_PX);
    context.scale(EM_PX, -EM_PX);
    context.fill(new Path2D(outline));
    context.restore();
  });
  const symbols = await recognizeSymbols(await canvas.encode('png'));
  const reads = outlines.map(() => '');
  for (const symbol of symbols) {
    const cell = cellOf(symbol);
    if (cell !== null && cell < reads.length) reads[cell] += symbol.text;
  }
  return reads;
}

function cellOf(symbol: OcrSymbol): number | null {
  const x = (symbol.box.x0 + symbol.box.x1) / 2 - MARGIN_PX;
  const y = (symbol.box.y0 + symbol.box.y1) / 2 - MARGIN_PX;
  if (x < 0 || y < 0) return null;
  const column = Math.floor(x / CELL_PX);
  if (column >= CELLS_PER_ROW) return null;
  return Math.floor(y / CELL_PX) * CELLS_PER_ROW + column;
}

/**
 * Characters OCR confuses on a lone glyph, folded to one: l, i, 1 and bars; o and 0; c and ¢...
 * A read "agrees" when it holds the claimed character after folding; it "contradicts" only when
 * it holds a letter or digit and not the claimed one.
 */
const LOOK_ALIKES: Record<string, string> = {
  i: 'l',
  j: 'l',
  '1': 'l',
  '|': 'l',
  '!': 'l',
  ']': 'l',
  '[': 'l',
  ı: 'l',
  '¡': 'l',
  '0': 'o',
  ø: 'o',
  '°': 'o',
  '¢': 'c',
  '©': 'c',
  '(': 'c',
  '5': 's',
  $: 's',
  '2': 'z',
  '6': 'b',
  '8': 'b',
  '9': 'g',
  q: 'g',
  v: 'u',
  y: 'u',
};

const fold = (text: string) =>
  Array.from(text.normalize('NFKC').toLowerCase(), (char) => LOOK_ALIKES[char] ?? char).join('');

export type ShapeVerdict = 'agrees' | 'contradicts' | 'unknown';

/**
 * Whether what OCR read in a glyph's cell is the text the text layer claims for it. A ligature
 * (fi, ffl) agrees when its first letter was read.
 */
export function compareRead(claim: string, read: string): ShapeVerdict {
  if (!/[\p{L}\p{N}]/u.test(read)) return 'unknown';
  const claimed = fold(claim);
  return fold(read).includes(claimed.length > 1 ? claimed[0]! : claimed) ? 'agrees' : 'contradicts';
}
