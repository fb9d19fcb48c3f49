import { parseQuantities, writeNumberWordsAsDigits } from '../ai/builtin/quantities.ts';
import { normaliseText, tokenize } from '../ai/builtin/text-analysis.ts';
import { isSuggestionKept } from '@gradewise/shared/kept-suggestion';

/**
 * Alike answers to one question, for "Answer groups" and "Grade these first" (docs/decisions/0012-answer-groups.md).
 * Pure and deterministic: the same answers in the same order always give the same groups, the same
 * representatives and the same order, whatever the machine — callers pass answers in a stable
 * order (by student) and every tie is broken by that order.
 *
 * Two answers are alike when
 * - they say the same after normalisation (case, spacing, punctuation), or
 * - their terms (stems with synonyms folded and the numbers written, stop words out: the built-in
 *   grader's own reading) are near-identical: cosine >= NEAR_IDENTICAL_MIN, or
 * - they end on the same final value and share most key points: cosine >= SAME_VALUE_MIN;
 * and never when both end on a value and the values differ ("it is 4" and "it is 5" stay apart).
 * Terms are weighted by how rare they are in the class (smoothed idf), so words every answer copies
 * from the question count less than the points that set answers apart.
 *
 * Groups are formed around leaders rather than by chaining (single link would let A~B~C put A and
 * C together when they are not alike): the answer alike to the most others opens a group with
 * everything alike to it, and so on. Each group is shown around its medoid, the member most alike
 * to the rest. Only groups of two or more are kept.
 */

export interface AnswerText {
  id: string;
  text: string;
  /**
   * Words that identify the author (their name, their email), left out before comparing: a name
   * in the header would otherwise make every short answer look different from its copies.
   */
  ownWords?: readonly string[];
  /**
   * The instructor's saved grade on this answer as a share of the points, when it has one. Two
   * answers whose saved grades differ by more than a tenth of the points are never in one group,
   * however alike their words: the instructor has told them apart.
   */
  savedShare?: number | null;
}

/** Content-term cosine at or above which two answers without conflicting values are alike. */
export const NEAR_IDENTICAL_MIN = 0.85;
/** Content-term cosine at or above which two answers with the same final value are alike. */
export const SAME_VALUE_MIN = 0.6;
/** A member less alike than this to its group's representative is flagged "less alike". */
export const LESS_ALIKE_BELOW = 0.8;
/** A suggestion more than this share of the points away from its group's score is flagged. */
export const SCORE_GAP_SHARE = 0.2;
/** An answer this alike to a representative counts among the answers it represents. */
export const REPRESENTS_MIN = 0.5;
/** For "grade first", answers that end on different values count as half as alike. */
const DIFFERENT_VALUE_FACTOR = 0.5;
/** A representative must add at least this much cover (half an answer not yet covered) to be picked. */
export const REPRESENTATIVE_MIN_GAIN = 0.5;
/** Relative tolerance of "the same final value" (rounding noise only, not 9.8 vs 9.81). */
const VALUE_TOLERANCE = 1e-3;
const KEY_TERMS_SHOWN = 5;

interface FinalValue {
  si: number;
  /** Unit dimension as text, '' without a unit: 9.8 and 9.8 m/s^2 are different answers. */
  dimension: string;
  /** As written, for the UI ("9.8 m/s^2"). */
  display: string;
}

interface AnalysedAnswer {
  id: string;
  index: number;
  /** Lower-case letters and digits, single spaces. */
  literal: string;
  /** term -> weight (count x idf), and its Euclidean norm. */
  vector: Map<string, number>;
  norm: number;
  /** The same vector for fast dot products: term numbers ascending, and their weights. */
  termIds: Int32Array;
  weights: Float64Array;
  /** term -> the words as written, for key terms in the UI. */
  displays: Map<string, string>;
  finalValue: FinalValue | null;
  /** The instructor's saved grade as a share of the points; null when not graded. */
  savedShare: number | null;
}

interface Neighbour {
  index: number;
  similarity: number;
  isAlike: boolean;
  /** For "grade first": the similarity, halved when the two answers end on different values. */
  cover: number;
}

/** Pairs less alike than this are not kept as neighbours (unless alike by value): they cover nothing. */
const NEIGHBOUR_MIN = 0.2;

export interface AnswerSpace {
  answers: readonly AnalysedAnswer[];
  /** Per answer: the other answers at least NEIGHBOUR_MIN alike (or alike by value), by index. */
  neighbours: readonly Neighbour[][];
  /** term -> its weight for one occurrence (smoothed idf over the class). */
  idf: ReadonlyMap<string, number>;
}

export interface GroupMember {
  id: string;
  /** Similarity (0..1) to the group's representative; 1 for the representative itself. */
  similarity: number;
  /** Alike enough to join, but clearly less alike to the representative than a near copy. */
  isLessAlike: boolean;
}

export interface AnswerGroup {
  /** The medoid: the member most alike to the others. */
  representativeId: string;
  /** The representative first, then by similarity to it, then in input order. */
  members: GroupMember[];
  /** The final value the members share, as the representative wrote it; null when none. */
  finalValue: string | null;
  /** Key terms every member uses, rarest in the class first (at most five), as the representative wrote them. */
  keyTerms: string[];
}

export interface Representative {
  id: string;
  /** How many answers (itself included) are closest to this one and at least REPRESENTS_MIN alike. */
  represents: number;
}

/** Reads each answer once: literal form, weighted terms, final value; answers without text are left out. */
export function analyseAnswers(input: readonly AnswerText[]): AnswerSpace {
  const withText = input
    .map((answer) => ({
      id: answer.id,
      text: withoutOwnWords(answer.text, answer.ownWords ?? []),
      savedShare: answer.savedShare ?? null,
    }))
    .filter((answer) => answer.text.trim().length > 0);
  // "four" and "4" are the same term: number words are read as digits first, as for values.
  const termLists = withText.map((answer) =>
    tokenize(writeNumberWordsAsDigits(normaliseText(answer.text))).filter((token) => !token.isStop),
  );
  const documentFrequency = new Map<string, number>();
  for (const terms of termLists) {
    for (const term of new Set(terms.map((token) => token.term))) {
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
  }
  const count = withText.length;
  const idf = new Map<string, number>();
  for (const [term, frequency] of documentFrequency) idf.set(term, Math.log((1 + count) / (1 + frequency)) + 1);
  const termNumbers = new Map([...idf.keys()].map((term, position) => [term, position]));
  const answers = withText.map((answer, index): AnalysedAnswer => {
    const vector = new Map<string, number>();
    const displays = new Map<string, string>();
    for (const token of termLists[index]!) {
      vector.set(token.term, (vector.get(token.term) ?? 0) + idf.get(token.term)!);
      if (!displays.has(token.term)) displays.set(token.term, token.display);
    }
    let squares = 0;
    for (const weight of vector.values()) squares += weight * weight;
    const ordered = [...vector].sort((left, right) => termNumbers.get(left[0])! - termNumbers.get(right[0])!);
    return {
      termIds: Int32Array.from(ordered.map(([term]) => termNumbers.get(term)!)),
      weights: Float64Array.from(ordered.map(([, weight]) => weight)),
      id: answer.id,
      index,
      literal: literalOf(answer.text),
      vector,
      norm: Math.sqrt(squares),
      displays,
      finalValue: finalValueOf(answer.text),
      savedShare: answer.savedShare,
    };
  });
  const neighbours: Neighbour[][] = answers.map(() => []);
  for (let left = 0; left < answers.length; left++) {
    for (let right = left + 1; right < answers.length; right++) {
      const a = answers[left]!;
      const b = answers[right]!;
      const similarity = similarityOf(a, b);
      const isAlike = isAlikePair(a, b, similarity);
      if (similarity < NEIGHBOUR_MIN && !isAlike) continue;
      const cover =
        valuesAgree(a.finalValue, b.finalValue) === 'different' ? similarity * DIFFERENT_VALUE_FACTOR : similarity;
      neighbours[left]!.push({ index: right, similarity, isAlike, cover });
      neighbours[right]!.push({ index: left, similarity, isAlike, cover });
    }
  }
  return { answers, neighbours, idf };
}

/** Groups of two or more alike answers, biggest first (ties: the representative's input order). */
export function groupAnswers(space: AnswerSpace): AnswerGroup[] {
  const { answers, neighbours } = space;
  const isAssigned = new Array<boolean>(answers.length).fill(false);
  const groups: AnswerGroup[] = [];
  for (;;) {
    let leader = -1;
    let leaderCount = 0;
    let leaderWeight = 0;
    for (let index = 0; index < answers.length; index++) {
      if (isAssigned[index]) continue;
      let alikeCount = 0;
      let weight = 0;
      for (const neighbour of neighbours[index]!) {
        if (!neighbour.isAlike || isAssigned[neighbour.index]) continue;
        alikeCount++;
        weight += neighbour.similarity;
      }
      if (alikeCount > leaderCount || (alikeCount === leaderCount && alikeCount > 0 && weight > leaderWeight)) {
        leader = index;
        leaderCount = alikeCount;
        leaderWeight = weight;
      }
    }
    if (leader < 0) break;
    // Most alike first; an answer whose saved grade disagrees with a member's already taken waits
    // for a group of its own.
    const memberIndexes = [leader];
    const candidates = neighbours[leader]!.filter((n) => n.isAlike && !isAssigned[n.index]).sort(
      (a, b) => b.similarity - a.similarity || a.index - b.index,
    );
    for (const candidate of candidates) {
      const share = answers[candidate.index]!.savedShare;
      const disagrees =
        share !== null &&
        memberIndexes.some((index) => {
          const other = answers[index]!.savedShare;
          return other !== null && !isSuggestionKept(share, other, 1);
        });
      if (!disagrees) memberIndexes.push(candidate.index);
    }
    memberIndexes.sort((a, b) => a - b);
    for (const index of memberIndexes) isAssigned[index] = true;
    groups.push(describeGroup(space, memberIndexes));
  }
  return groups.sort(
    (a, b) =>
      b.members.length - a.members.length ||
      indexOfId(space, a.representativeId) - indexOfId(space, b.representativeId),
  );
}

/**
 * The answers that best represent the class, best first: a greedy cover (facility location) that
 * first takes the answer alike to the most others, then each time the one that covers most of what
 * the chosen ones do not cover yet — in effect the medoids of the biggest clusters, then of
 * smaller ones. Grading these first teaches the most per grade. At most `count`, and fewer when
 * the next one would add less than REPRESENTATIVE_MIN_GAIN (a near copy of one already chosen).
 */
export function pickRepresentatives(space: AnswerSpace, count: number): Representative[] {
  const { answers, neighbours } = space;
  const covered = new Array<number>(answers.length).fill(0);
  const chosen: number[] = [];
  const isChosen = new Array<boolean>(answers.length).fill(false);
  const limit = Math.min(Math.max(0, Math.floor(count)), answers.length);
  while (chosen.length < limit) {
    let best = -1;
    let bestGain = -1;
    for (let candidate = 0; candidate < answers.length; candidate++) {
      if (isChosen[candidate]) continue;
      let gain = 1 - covered[candidate]!;
      for (const neighbour of neighbours[candidate]!) {
        gain += Math.max(0, neighbour.cover - covered[neighbour.index]!);
      }
      // Strictly greater: ties keep the earlier answer.
      if (gain > bestGain + 1e-12) {
        best = candidate;
        bestGain = gain;
      }
    }
    // A near copy of an answer already chosen teaches nothing new: stop rather than pad to `count`.
    if (best < 0 || bestGain < REPRESENTATIVE_MIN_GAIN - 1e-12) break;
    chosen.push(best);
    isChosen[best] = true;
    covered[best] = 1;
    for (const neighbour of neighbours[best]!) {
      covered[neighbour.index] = Math.max(covered[neighbour.index]!, neighbour.cover);
    }
  }
  // Each other answer counts for the chosen answer it is most alike to (ties: the one chosen first).
  const represents = new Map<number, number>(chosen.map((index) => [index, 1]));
  const rank = new Map(chosen.map((index, position) => [index, position]));
  for (let index = 0; index < answers.length; index++) {
    if (isChosen[index]) continue;
    let nearest = -1;
    let nearestSimilarity = 0;
    for (const neighbour of neighbours[index]!) {
      if (!isChosen[neighbour.index]) continue;
      const similarity = neighbour.cover;
      if (similarity < REPRESENTS_MIN - 1e-12) continue;
      const isCloser = similarity > nearestSimilarity + 1e-12;
      const isTieChosenEarlier =
        Math.abs(similarity - nearestSimilarity) <= 1e-12 && rank.get(neighbour.index)! < rank.get(nearest)!;
      if (nearest < 0 || isCloser || isTieChosenEarlier) {
        nearest = neighbour.index;
        nearestSimilarity = similarity;
      }
    }
    if (nearest >= 0) represents.set(nearest, represents.get(nearest)! + 1);
  }
  return chosen.map((index) => ({ id: answers[index]!.id, represents: represents.get(index)! }));
}

/**
 * Members whose own AI suggestion is far from their group's: more than SCORE_GAP_SHARE of the
 * points from the median suggestion of the whole group. The AI reading alike answers differently
 * says one of them is not what it seems. Saved grades play no part: the instructor's word on one
 * member says nothing about whether another differs from its group, and a member with a saved
 * grade is never flagged — it has been read.
 */
export function findScoreOutliers(
  memberIds: readonly string[],
  scores: ReadonlyMap<string, { suggestedScore: number | null; isGraded: boolean }>,
  points: number,
): Set<string> {
  const suggested = memberIds.map((id) => scores.get(id)?.suggestedScore ?? null).filter(isNumber);
  const groupScore = median(suggested);
  const outliers = new Set<string>();
  if (groupScore === null || points <= 0) return outliers;
  for (const id of memberIds) {
    const score = scores.get(id);
    if (!score || score.isGraded || score.suggestedScore === null) continue;
    if (Math.abs(score.suggestedScore - groupScore) > SCORE_GAP_SHARE * points + 1e-9) outliers.add(id);
  }
  return outliers;
}

// ---------------------------------------------------------------- internals

function describeGroup(space: AnswerSpace, memberIndexes: number[]): AnswerGroup {
  const similarity = (a: number, b: number) =>
    a === b ? 1 : (space.neighbours[a]!.find((n) => n.index === b)?.similarity ?? 0);
  let medoid = memberIndexes[0]!;
  let medoidTotal = -1;
  for (const candidate of memberIndexes) {
    let total = 0;
    for (const other of memberIndexes) total += similarity(candidate, other);
    if (total > medoidTotal + 1e-12) {
      medoid = candidate;
      medoidTotal = total;
    }
  }
  const members = memberIndexes
    .map((index) => ({ index, similarity: similarity(medoid, index) }))
    .sort((a, b) =>
      a.index === medoid ? -1 : b.index === medoid ? 1 : b.similarity - a.similarity || a.index - b.index,
    )
    .map(({ index, similarity: value }) => ({
      id: space.answers[index]!.id,
      similarity: round(value),
      isLessAlike: index !== medoid && value < LESS_ALIKE_BELOW,
    }));
  const representative = space.answers[medoid]!;
  const shared = [...representative.vector.keys()].filter((term) =>
    memberIndexes.every((index) => space.answers[index]!.vector.has(term)),
  );
  const idfOf = (term: string) => space.idf.get(term)!;
  const keyTerms = shared
    .filter((term) => !/^\d/.test(term) && representative.displays.get(term)!.length > 1)
    .sort((a, b) => idfOf(b) - idfOf(a) || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, KEY_TERMS_SHOWN)
    .map((term) => representative.displays.get(term)!);
  const sharesValue =
    representative.finalValue !== null &&
    memberIndexes.every((index) => valuesAgree(space.answers[index]!.finalValue, representative.finalValue) === 'same');
  return {
    representativeId: representative.id,
    members,
    finalValue: sharesValue ? representative.finalValue!.display : null,
    keyTerms,
  };
}

function indexOfId(space: AnswerSpace, id: string): number {
  return space.answers.findIndex((answer) => answer.id === id);
}

function similarityOf(a: AnalysedAnswer, b: AnalysedAnswer): number {
  if (a.literal === b.literal) return 1;
  if (a.norm === 0 || b.norm === 0) return 0;
  // Merge of two ascending term lists: the hot loop of the whole module (n²/2 pairs).
  let dot = 0;
  let i = 0;
  let j = 0;
  const left = a.termIds;
  const right = b.termIds;
  while (i < left.length && j < right.length) {
    const difference = left[i]! - right[j]!;
    if (difference === 0) dot += a.weights[i++]! * b.weights[j++]!;
    else if (difference < 0) i++;
    else j++;
  }
  return Math.min(1, dot / (a.norm * b.norm));
}

function isAlikePair(a: AnalysedAnswer, b: AnalysedAnswer, similarity: number): boolean {
  const values = valuesAgree(a.finalValue, b.finalValue);
  if (values === 'different') return false;
  if (a.literal === b.literal) return true;
  if (values === 'same') return (a.norm === 0 && b.norm === 0) || similarity >= SAME_VALUE_MIN - 1e-12;
  return similarity >= NEAR_IDENTICAL_MIN - 1e-12;
}

function valuesAgree(a: FinalValue | null, b: FinalValue | null): 'same' | 'different' | 'unknown' {
  if (!a || !b) return 'unknown';
  if (a.dimension !== b.dimension) return 'different';
  const scale = Math.max(Math.abs(a.si), Math.abs(b.si));
  return Math.abs(a.si - b.si) <= 1e-12 + VALUE_TOLERANCE * scale ? 'same' : 'different';
}

/** The text with the author's own words (whole words, any case) blanked out. */
function withoutOwnWords(text: string, ownWords: readonly string[]): string {
  const words = ownWords
    .flatMap((word) => word.split(/[\s,;]+/))
    .filter((word) => word.length >= 2)
    // Longest first, so an email goes whole rather than as the name it starts with.
    .sort((left, right) => right.length - left.length)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (words.length === 0) return text;
  return text.replace(new RegExp(`(?<![\\p{L}\\p{N}@.])(?:${words.join('|')})(?![\\p{L}\\p{N}@])`, 'giu'), ' ');
}

/** "The Answer is: 4!" -> "the answer is 4". */
function literalOf(text: string): string {
  return normaliseText(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The last value written that is a result rather than a coefficient ("6CO2"), with its unit. */
function finalValueOf(text: string): FinalValue | null {
  const quantities = parseQuantities(text).filter((quantity) => !quantity.isCoefficient);
  const last = quantities.at(-1);
  if (!last || !Number.isFinite(last.si)) return null;
  return {
    si: last.si,
    dimension: last.dimension ? last.dimension.join(',') : '',
    display: last.text.slice(last.start, last.end).trim(),
  };
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function isNumber(value: number | null): value is number {
  return value !== null;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
