import type { Box, TextRun } from './page-drawing.ts';

/**
 * Text drawn first and then written over by other text: heavy glyphs, a row of block characters
 * or underscores over a sentence hide it from a reader, while the text layer still hands it to
 * the grader. Paint state cannot tell (both are black on white), and the raster's usual check
 * cannot either (the covering text's ink lies in the word's box). This finds the words that may be
 * under later text, by geometry; hidden-text.ts then renders the page without them and keeps as
 * hidden those whose removal changes nothing a reader sees.
 *
 * A later run that repeats the word (the same text drawn twice, a little offset, as a fake bold)
 * is not a cover: the reader sees the words, and the grader reads them once in the visible copy.
 */

/** Share of a word's box a later run's box must cover for the word to be checked. */
const MIN_COVERED_SHARE = 0.5;
/** Grid cell of the search, in points. */
const CELL_PT = 16;
/** Cells filled at most; past it every word is checked by the raster rather than by the grid. */
const MAX_CELL_ENTRIES = 500_000;

export interface PlacedWord {
  run: TextRun | null;
  box: Box;
}

/** The words (of `words`) lying under a later show-text run of other text, in the page's runs. */
export function wordsUnderLaterText<W extends PlacedWord>(words: W[], runs: TextRun[]): W[] {
  if (runs.length < 2 || words.length === 0) return [];
  const indexOf = new Map(runs.map((run, index) => [run, index]));
  const boxes = runs.map(runBox);
  const grid = new Map<string, number[]>();
  let entries = 0;
  for (const [index, box] of boxes.entries()) {
    if (!isUsableBox(box)) continue;
    for (const key of cellsOf(box)) {
      if ((entries += 1) > MAX_CELL_ENTRIES) return words.filter((word) => word.run !== null);
      const list = grid.get(key);
      if (list) list.push(index);
      else grid.set(key, [index]);
    }
  }
  return words.filter((word) => {
    const own = word.run ? indexOf.get(word.run) : undefined;
    if (own === undefined || !isUsableBox(word.box)) return false;
    if (cellCount(word.box) > MAX_CELLS_OF_WORD) return true; // a word that large is judged by the raster
    const ownText = comparable(word.run!.text);
    const seen = new Set<number>();
    for (const key of cellsOf(word.box)) {
      for (const later of grid.get(key) ?? []) {
        if (later <= own || seen.has(later)) continue;
        seen.add(later);
        if (coveredShare(word.box, boxes[later]!) < MIN_COVERED_SHARE) continue;
        if (!comparable(runs[later]!.text).includes(ownText)) return true;
      }
    }
    return false;
  });
}

const comparable = (text: string) => text.replace(/\s+/gu, '');

const isUsableBox = (box: Box) => box.every(Number.isFinite) && box[2] > box[0] && box[3] > box[1];

/** Where a run's glyphs lie: from its start to its end along the baseline, 0.2 of its size below and 0.8 above. */
function runBox(run: TextRun): Box {
  const [sx, sy] = run.start;
  const [ex, ey] = run.end;
  const along = Math.hypot(ex - sx, ey - sy);
  // Up from the baseline: perpendicular to the run's direction (upright when it advanced nowhere).
  const [ux, uy] = along > 0 ? [-(ey - sy) / along, (ex - sx) / along] : [0, 1];
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [run.start, run.end]) {
    for (const t of [-0.2, 0.8]) {
      xs.push(x + ux * run.size * t);
      ys.push(y + uy * run.size * t);
    }
  }
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** Cells one word's box may span and still be looked up (a 400 pt word spans 30 by 3). */
const MAX_CELLS_OF_WORD = 2_000;

const cellCount = (box: Box) =>
  (Math.floor(box[2] / CELL_PT) - Math.floor(box[0] / CELL_PT) + 1) *
  (Math.floor(box[3] / CELL_PT) - Math.floor(box[1] / CELL_PT) + 1);

function* cellsOf(box: Box): Generator<string> {
  for (let x = Math.floor(box[0] / CELL_PT); x <= Math.floor(box[2] / CELL_PT); x++)
    for (let y = Math.floor(box[1] / CELL_PT); y <= Math.floor(box[3] / CELL_PT); y++) yield `${x},${y}`;
}

/** Share of `box` inside `cover`. */
function coveredShare(box: Box, cover: Box): number {
  const width = Math.min(box[2], cover[2]) - Math.max(box[0], cover[0]);
  const height = Math.min(box[3], cover[3]) - Math.max(box[1], cover[1]);
  return width > 0 && height > 0 ? (width * height) / ((box[2] - box[0]) * (box[3] - box[1])) : 0;
}
