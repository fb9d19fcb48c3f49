/**
 * A scoring guideline written as levels rather than as a solution:
 *
 *   Full marks (10 points): explains that a page fault traps to the kernel, which loads the page.
 *   Partial credit (5 points): mentions the trap only.
 *   No credit: anything else.
 *
 * Read as a solution, each level would be a step an answer must show ("No credit: anything else"
 * worth 3 points) and the lower levels' words would be part of the reference every answer is
 * compared with. What a complete answer shows is the top level; the others say how the instructor
 * gives partial credit, which the built-in grader learns from their saved grades instead.
 */
const NUMBER = String.raw`\d{1,3}(?:\.\d{1,2})?`;
const UNIT = String.raw`(?:marks?|points?|pts?|credit)`;
/** A line's head naming a level: "Full marks (10 points):", "5 points -", "[2 marks]:", "- No credit:". */
const LEVEL_HEAD = new RegExp(
  String.raw`^\s*(?:[-*•]\s*)?(?:((?:full|complete|maximum|partial|half|some|little|no|zero)\s+${UNIT})|[[(]?(${NUMBER})\s*(?:[-–]\s*${NUMBER}\s*)?${UNIT}[\])]?)` +
    String.raw`\s*(?:[[(]\s*(${NUMBER})?\s*${UNIT}?\s*[\])])?\s*[:–—-]\s*`,
  'i',
);

interface Level {
  /** How high the level stands: its points, or 1e9 for "full marks", -1 for "no credit". */
  rank: number;
  text: string;
}

function levelOf(line: string): Level | null {
  const match = LEVEL_HEAD.exec(line);
  if (!match) return null;
  const text = line.slice(match[0].length).trim();
  if (!text) return null;
  const stated = match[3] ?? match[2];
  const word = match[1]?.toLowerCase() ?? '';
  const rank = /^(?:full|complete|maximum)/.test(word)
    ? 1e9
    : /^(?:no|zero)/.test(word)
      ? -1
      : stated !== undefined
        ? Number(stated)
        : 0;
  return { rank, text };
}

/** The lines of `lines` that head a level ("3 points: …", "No credit: …"), with where they stand. */
export function levelLines(lines: readonly string[]): (Level & { index: number })[] {
  return lines.flatMap((line, index) => {
    const level = levelOf(line);
    return level ? [{ ...level, index }] : [];
  });
}

/**
 * The top level's description when `solutionText` is a guideline of at least two levels that make
 * up most of its lines; otherwise the text as it is. Lines headed by points that add up to the
 * question's points ("2 marks: defines …", "4 marks: names …") are a split over items, not levels:
 * stated-points.ts reads them.
 */
export function referenceOfScoreLevels(solutionText: string, points: number): string {
  const lines = solutionText
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const levels = lines.map(levelOf);
  const found = levels.filter((level): level is Level => level !== null);
  if (found.length < 2 || found.length * 2 < lines.length) return solutionText;
  const total = found.reduce((sum, level) => sum + Math.max(0, level.rank), 0);
  const isSplit = found.every((level) => level.rank > 0 && level.rank < points) && Math.abs(total - points) < 1e-6;
  if (isSplit) return solutionText;
  const top = found.reduce((best, level) => (level.rank > best.rank ? level : best));
  // A top level that continues on the lines after it (until the next level) is one description.
  const start = levels.findIndex((level) => level === top);
  const next = levels.findIndex((level, index) => index > start && level !== null);
  const rest = lines.slice(start + 1, next < 0 ? lines.length : next);
  return [top.text, ...rest].join('\n');
}
