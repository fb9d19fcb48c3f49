import { withoutSolutionHeading } from './rubric-drafting.ts';
import { SMALL_NUMBERS } from './quantities.ts';
import { levelLines } from './score-levels.ts';
import { tokenize } from './text-analysis.ts';

/**
 * A marking scheme that counts: a list of key elements, any of which counts as one, and points by
 * how many an answer shows (decision 0131):
 *
 *   Key elements:
 *   mRNA exits nucleus via nuclear pore.
 *   mRNA bases are read in triplets called codons.
 *   ...
 *   3 points: Four key elements;
 *   2 points: Three key elements;
 *   1 point: One or two key elements;
 *   0 points: Other.
 *
 * Read as a solution, every listed element would be a step every answer must show (eight steps for
 * "any four"), and the level lines would be more steps. Read as levels alone, the top level's text
 * ("Four key elements") says nothing of what to show. What the instructor wrote is a count: each
 * element is judged on its own and the count decides the level.
 */
export interface KeyElementScheme {
  /** What counts, each on its own line as written (bullets and numbering taken off). */
  elements: string[];
  /** Count -> share of the points, by level, the lowest count first; the top level's share is 1. */
  levels: { count: number; share: number }[];
  /** The level lines as written, for the drafted rubric item. */
  levelText: string[];
  /** The top level's points: what the scheme is out of. */
  top: number;
}

const COUNT_WORDS: Record<string, number> = { ...SMALL_NUMBERS, single: 1 };
const COUNT = new RegExp(String.raw`\b(${Object.keys(COUNT_WORDS).join('|')}|\d{1,2})\b`, 'i');
/** A level that gives nothing: "Other.", "little or no accurate information", "None of the above". */
const NOTHING_LEVEL =
  /^(?:other\b|none\b|no\b|nothing\b|[^.;]*\blittle or no\b|[^.;]*\bno (?:key|correct|relevant)\b)/i;
/** Lines that head the list rather than belong to it: "Key elements:", "Needed Information:". */
const HEADING = /^[^.;]{1,100}:$/;
/** "Other acceptable responses.", "Other reasonable conclusions": room for answers not listed. */
const OTHERS_ALLOWED = /^other\s+(?:acceptable|reasonable|correct|valid|possible)\b[^.]*\.?$/i;
const BULLET = /^\s*(?:[-*•]|\(?\d{1,2}[.)]|\(?[a-h][.)])\s+/;

/**
 * Lines a PDF wrapped joined again: a line that does not end a sentence or a heading, followed by
 * one that starts in lower case, is one line ("Leaves reduced to spines lower the surface" /
 * "area that loses water.").
 */
function unwrapped(lines: readonly string[]): string[] {
  // Pieces of each line, joined once at the end, and only their last character read: a text of
  // many short lines must not be copied or scanned again for each (decision 0128).
  const joined: string[][] = [];
  for (const line of lines) {
    const previous = joined.at(-1)?.at(-1);
    if (previous && !/[.;:!?)]/.test(previous.at(-1)!) && /^\p{Ll}/u.test(line)) joined.at(-1)!.push(line);
    else joined.push([line]);
  }
  return joined.map((pieces) => pieces.join(' '));
}

function countOf(levelText: string): number | null {
  if (NOTHING_LEVEL.test(levelText.trim())) return 0;
  const match = COUNT.exec(levelText);
  if (!match) return null;
  const word = match[1]!.toLowerCase();
  return COUNT_WORDS[word] ?? Number(word);
}

/**
 * The counting scheme `text` states, or null when it is not one: at least two levels with points
 * that each name a count (or give nothing), higher points for more elements, and at least as many
 * elements listed as the top level asks for.
 */
export function keyElementSchemeOf(text: string): KeyElementScheme | null {
  const lines = unwrapped(
    withoutSolutionHeading(text)
      .split('\n')
      .map((line) => line.trim()),
  );
  const levels = levelLines(lines);
  if (levels.length < 2) return null;
  const counted: { count: number; points: number; line: string }[] = [];
  for (const level of levels) {
    const count = countOf(level.text);
    if (count === null || level.rank < 0 || level.rank >= 1e9) return null;
    counted.push({ count, points: level.rank, line: lines[level.index]! });
  }
  counted.sort((left, right) => left.points - right.points);
  const top = counted.at(-1)!;
  if (top.points <= 0 || counted.filter((level) => level.count > 0).length < 2) return null;
  for (let index = 1; index < counted.length; index++)
    if (counted[index]!.count <= counted[index - 1]!.count || counted[index]!.points <= counted[index - 1]!.points)
      return null;
  const levelIndexes = new Set(levels.map((level) => level.index));
  const elements = lines
    .filter((line, index) => !levelIndexes.has(index) && line.length > 0)
    .filter((line) => !HEADING.test(line) && !OTHERS_ALLOWED.test(line))
    .map((line) => line.replace(BULLET, '').trim())
    .filter((line) => /\p{L}/u.test(line));
  if (elements.length < top.count) return null;
  return {
    elements,
    levels: counted.map((level) => ({ count: level.count, share: level.points / top.points })),
    levelText: counted.map((level) => level.line).reverse(),
    top: top.points,
  };
}

/**
 * The share of the points for `count` elements shown: the level a whole count reaches ("one or
 * two" is one level), and for a fraction of an element the same fraction of the way to the next.
 */
export function levelShareOf(scheme: KeyElementScheme, count: number): number {
  // The level a whole number of elements reaches: the highest whose count it meets.
  const reached = (whole: number) =>
    scheme.levels.reduce((share, level) => (whole >= level.count ? Math.max(share, level.share) : share), 0);
  const below = Math.floor(Math.max(0, count));
  return reached(below) + (reached(below + 1) - reached(below)) * (Math.max(0, count) - below);
}

/**
 * What each element is judged by: its words less the words most of the list shares. A list written
 * in one frame ("You need to know how much vinegar …", "You need to know what drying method to
 * use") would otherwise have every element half met by any answer that says "you would need to
 * know": the frame says nothing about which element the answer shows. More than half of the
 * elements is what makes a frame (a word the list shares that widely cannot tell its elements
 * apart). An element with no content word of its own keeps all its words.
 */
export function distinctiveElements(elements: readonly string[]): string[] {
  const known = distinctiveCache.get(elements);
  if (known) return known;
  const tokensOf = elements.map((element) => tokenize(element));
  const spread = new Map<string, number>();
  for (const tokens of tokensOf)
    for (const term of new Set(tokens.filter(isContent).map((token) => token.term)))
      spread.set(term, (spread.get(term) ?? 0) + 1);
  const isFrame = (term: string) => elements.length >= 3 && (spread.get(term) ?? 0) > elements.length / 2;
  const distinctive = elements.map((element, index) => {
    const tokens = tokensOf[index]!;
    const hasFrame = tokens.some((token) => isContent(token) && isFrame(token.term));
    if (!hasFrame || !tokens.some((token) => isContent(token) && !isFrame(token.term))) return element;
    return tokens
      .filter((token) => !isContent(token) || !isFrame(token.term))
      .map((token) => token.display)
      .join(' ');
  });
  distinctiveCache.set(elements, distinctive);
  return distinctive;
}

const isContent = (token: { isStop: boolean; isNumber: boolean }) => !token.isStop && !token.isNumber;
const distinctiveCache = new WeakMap<readonly string[], string[]>();

/** The rubric item a counting scheme is drafted as: one item, its levels and its elements. */
export function keyElementItem(scheme: KeyElementScheme, points: number) {
  const needed = scheme.levels.at(-1)!.count;
  const word = Object.keys(SMALL_NUMBERS).find((key) => SMALL_NUMBERS[key] === needed);
  const amount = word ? word[0]!.toUpperCase() + word.slice(1) : String(needed);
  return {
    criterion: `${amount} of the listed key elements`,
    // The levels first: a guidance cut at its limit loses elements, never the levels.
    guidance: [
      scheme.top === points
        ? 'Points by how many key elements the answer shows:'
        : `Points by how many key elements the answer shows (out of ${scheme.top}, in proportion to this item's ${points}):`,
      ...scheme.levelText,
      'Key elements (any of these counts as one):',
      ...scheme.elements.map((element) => `- ${element}`),
    ].join('\n'),
    points,
  };
}
