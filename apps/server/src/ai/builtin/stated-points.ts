/**
 * Points an instructor wrote beside a part or a step: "(a) Define a process. [2 marks]",
 * "- Names the four conditions (4 points)", "Gives one example – 1 pt". A marking scheme says how
 * the question's points are split; the drafted rubric takes that split instead of guessing one
 * (rubric-drafting.ts), and the note itself is no part of what a student must show.
 *
 * Only a number with its unit (mark, point, pt) in brackets, after a dash or colon at the end of a
 * line, or heading a line ("2 marks: defines …") is read: "within 10 points of", "[2]" (a
 * citation) and "2 marks the spot" are not.
 */
const UNIT = String.raw`(?:marks?|points?|pts?\.?|pt\.?)`;
const NUMBER = String.raw`(\d{1,3}(?:\.\d{1,2})?)`;
const BRACKETED = String.raw`[[(]\s*${NUMBER}\s*${UNIT}\s*[\])]`;
const TRAILING = String.raw`(?<=\S)[ \t]*[-–—:][ \t]*${NUMBER}[ \t]*${UNIT}(?:[ \t]*\.)?[ \t]*$`;
const LEADING = String.raw`^[ \t]*(?:[-*•][ \t]*)?${NUMBER}[ \t]*${UNIT}[ \t]*[:–—-][ \t]*(?=\S)`;
const STATED_POINTS = new RegExp(`${BRACKETED}|${TRAILING}|${LEADING}`, 'gim');
/**
 * A line holding nothing but such a note: it belongs to the line before it. (A note never spans
 * lines, and no two runs of spaces meet around an optional part in these patterns: tried at every
 * line start of thousands of empty lines, or split on a long run of spaces, either is quadratic.)
 */
const NOTE_ALONE = new RegExp(String.raw`^\s*(?:${BRACKETED}|${NUMBER}\s*${UNIT})(?:\s*\.)?\s*$`, 'i');

/** The points stated in `text` (their sum: a merged step keeps each of its notes); null when none is. */
export function statedPointsIn(text: string): number | null {
  let total: number | null = null;
  for (const match of text.matchAll(STATED_POINTS)) total = (total ?? 0) + Number(match[1] ?? match[2] ?? match[3]);
  return total;
}

/**
 * The text without its point notes, spaces tidied where one was ("… threads [6 marks]." → "…
 * threads.", trimmed); a text with none is returned as it is.
 */
export function withoutStatedPoints(text: string): string {
  if (statedPointsIn(text) === null) return text;
  return text
    .replace(STATED_POINTS, '')
    .replace(/(?<![ \t])[ \t]+([.,;:])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/(?<![ \t])[ \t]+$/gm, '')
    .trim();
}

/**
 * Lines that only frame a marking scheme: a question's label with its total ("Question 3 (10
 * marks)") or the total itself ("Total: 10 marks"). They are neither a step nor part of one.
 */
export function withoutSchemeFrames(text: string): string {
  const frame = /^(?:q(?:uestion)?\s*\d+[a-z]?|total|in total)\s*[-–—:.)]?$/i;
  return text
    .split('\n')
    .filter((line) => statedPointsIn(line) === null || !frame.test(withoutStatedPoints(line)))
    .join('\n');
}

/** A note alone on its line ("[2 marks]" under a part) is joined to the line before it. */
export function withNotesOnTheirLines(text: string): string {
  const joined: string[] = [];
  // The last line with something on it, kept as lines are read (a search back from each line
  // would be quadratic in a text of many empty lines).
  let previous = -1;
  for (const line of text.split('\n')) {
    if (NOTE_ALONE.test(line) && previous >= 0) {
      const note = line.trim();
      joined[previous] = `${joined[previous]!.trimEnd()} ${/^[[(]/.test(note) ? note : `(${note.replace(/\.$/, '')})`}`;
      continue;
    }
    joined.push(line);
    if (line.trim().length > 0) previous = joined.length - 1;
  }
  return joined.join('\n');
}

/**
 * The items' points when the instructor stated them, else null (the caller splits by weight):
 * - every item stated and their sum is the question's points: exactly those;
 * - every item stated, another total (a scheme out of 20 for a question worth 10): in proportion;
 * - some stated, less than the points in all: those, and the rest split over the others by weight.
 * A stated 0, or notes that leave nothing for the items without one, are not a split to follow.
 */
export function statedAllocation(
  points: number,
  stated: readonly (number | null)[],
  weights: readonly number[],
  allocate: (points: number, weights: readonly number[]) => number[],
): number[] | null {
  if (stated.every((value) => value === null)) return null;
  if (stated.some((value) => value !== null && !(value > 0))) return null;
  const statedTotal = stated.reduce<number>((sum, value) => sum + (value ?? 0), 0);
  if (stated.every((value) => value !== null)) {
    if (Math.abs(statedTotal - points) < 1e-6) return stated.map((value) => value!);
    return allocate(points, stated as readonly number[]);
  }
  const rest = points - statedTotal;
  const open = stated.flatMap((value, index) => (value === null ? [index] : []));
  // Each item left needs at least a hundredth of a point.
  if (rest < open.length * 0.01 - 1e-9) return null;
  const restAllocation = allocate(
    rest,
    open.map((index) => weights[index]!),
  );
  return stated.map((value, index) => value ?? restAllocation[open.indexOf(index)]!);
}
