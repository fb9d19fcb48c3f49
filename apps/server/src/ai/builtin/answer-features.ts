import type { TermWeights } from './item-evidence.ts';
import { contentTerms, tokenize, type Token } from './text-analysis.ts';

/**
 * What the built-in grader measures of an answer against the reference side (question, solution,
 * rubric), as plain numbers the suggestion model weighs. The weights of that model were fitted on
 * real human-scored answers (docs/decisions/0013-grader-fitted-on-real-answers.md), so every
 * feature here must mean the same thing for any question: shares and logs, never raw counts.
 */

export interface AnswerFeatures {
  /** Weighted share of the best reference alternative's terms that the answer has (0..1). */
  recall: number;
  /** Share of the best alternative's adjacent term pairs that the answer has (0..1). */
  pairRecall: number;
  /** Share of the answer's terms found anywhere on the reference side (0..1). */
  precision: number;
  /** Share of the answer's terms that come from the question only (copying the question). */
  questionCopy: number;
  /** log(1 + number of content terms in the answer). */
  logLength: number;
  /** log((1 + answer terms) / (1 + terms of the best alternative)). */
  lengthRatio: number;
  /** 1 when exactly one of answer and reference is negated ("not connected" vs "connected"). */
  negationMismatch: number;
  /** Share of the points the rubric evidence gives (item by item). */
  itemShare: number;
  /** 1 when the answer is complete by the rubric or gives a whole alternative: humans agree most here. */
  isComplete: number;
  /**
   * Share of the answer's words set aside (word salad, keyword lines, text to the grader). Kept
   * for audits, not a model input: what was set aside must neither help nor be the only judge.
   */
  setAsideShare: number;
}

/** The order the suggestion model reads the features in. */
export const FEATURE_NAMES = [
  'recall',
  'pairRecall',
  'precision',
  'questionCopy',
  'logLength',
  'lengthRatio',
  'negationMismatch',
  'itemShare',
  'isComplete',
] as const satisfies readonly (keyof AnswerFeatures)[];

export function featureVector(features: AnswerFeatures): number[] {
  return FEATURE_NAMES.map((name) => features[name]);
}

/**
 * Alternatives an instructor writes into one solution: lines starting with "Or", "Alternatively",
 * "Also accept"; and, in a short solution, the parts of a list of equivalent forms
 * ("The newton (N), kg m/s^2": "newton", "N" and "kg m/s^2" each answer it).
 */
export function referenceAlternatives(solutionText: string): string[] {
  const lines = solutionText
    .split(/\n+|\s(?=(?:or|alternatively|also accept(?:ed)?)\s*:)/i)
    .map((line) => line.replace(/^\s*(?:or|alternatively|also accept(?:ed)?)\s*:?\s*/i, '').trim())
    .filter(Boolean);
  const alternatives =
    lines.length > 1 && lines.every((line) => line.length < 400) ? [solutionText, ...lines] : [solutionText];
  const words = solutionText.split(/\s+/).filter(Boolean);
  if (words.length <= 12) {
    for (const part of solutionText.split(/,|;|\(|\)|\bor\b/i)) {
      const trimmed = part.trim();
      if (trimmed && contentTerms(trimmed).length > 0) alternatives.push(trimmed);
    }
  }
  return [...new Set(alternatives)];
}

/** Damerau-free edit distance with an early exit, for spelling slips ("recieve", "acknowlegement"). */
function editDistanceAtMost(left: string, right: string, limit: number): boolean {
  if (Math.abs(left.length - right.length) > limit) return false;
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    let best = row;
    for (let column = 1; column <= right.length; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      const value = Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + cost);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return false;
    previous = current;
  }
  return previous[right.length]! <= limit;
}

/**
 * Maps an answer's terms onto the reference vocabulary, forgiving one slip in words of five
 * letters or more and two in words of nine or more (same first letter). Concepts (#…) and numbers
 * match exactly only.
 */
export class TermMatcher {
  private readonly vocabulary: string[];
  private readonly known: Set<string>;
  private readonly cache = new Map<string, string>();

  constructor(vocabulary: Iterable<string>) {
    this.known = new Set(vocabulary);
    this.vocabulary = [...this.known].filter((term) => !term.startsWith('#') && term.length >= 4);
  }

  canonical(term: string): string {
    if (this.known.has(term) || term.startsWith('#') || term.length < 5 || /\d/.test(term)) return term;
    const cached = this.cache.get(term);
    if (cached !== undefined) return cached;
    const limit = term.length >= 9 ? 2 : 1;
    const match = this.vocabulary.find(
      (candidate) => candidate[0] === term[0] && editDistanceAtMost(term, candidate, limit),
    );
    this.cache.set(term, match ?? term);
    return match ?? term;
  }
}

const NEGATION =
  /\b(?:not|no|never|cannot|can't|won't|isn't|aren't|doesn't|don't|didn't|wasn't|weren't|neither|nor|without|none)\b/i;

export function isNegated(text: string): boolean {
  return NEGATION.test(text);
}

export interface ReferenceSide {
  alternatives: { terms: Token[]; text: string }[];
  questionTerms: Set<string>;
  vocabulary: Set<string>;
  matcher: TermMatcher;
  weights: TermWeights;
  isNegated: boolean;
}

export function describeReference(
  questionText: string,
  solutionText: string,
  rubricText: string,
  weights: TermWeights & { vocabulary: Set<string> },
): ReferenceSide {
  const questionTerms = new Set(contentTerms(questionText).map((token) => token.term));
  const alternatives = referenceAlternatives(solutionText).map((text) => ({ text, terms: contentTerms(text) }));
  const vocabulary = new Set([...weights.vocabulary, ...contentTerms(rubricText).map((token) => token.term)]);
  return {
    alternatives,
    questionTerms,
    vocabulary,
    matcher: new TermMatcher(vocabulary),
    weights,
    isNegated: isNegated(solutionText),
  };
}

function pairsOf(terms: readonly string[]): Set<string> {
  const pairs = new Set<string>();
  for (let index = 1; index < terms.length; index++) {
    const left = terms[index - 1]!;
    const right = terms[index]!;
    if (left !== right) pairs.add(left < right ? `${left}|${right}` : `${right}|${left}`);
  }
  return pairs;
}

/** The answer's content terms, spelling slips mapped onto the reference's words. */
export function answerTerms(text: string, reference: ReferenceSide): string[] {
  return contentTerms(text).map((token) => reference.matcher.canonical(token.term));
}

export function measureAnswer(options: {
  evidenceText: string;
  allWordsCount: number;
  setAsideWordsCount: number;
  reference: ReferenceSide;
  itemShare: number;
}): AnswerFeatures {
  const { reference } = options;
  const terms = answerTerms(options.evidenceText, reference);
  const termSet = new Set(terms);
  const answerPairs = pairsOf(terms);
  let bestRecall = 0;
  let bestPairRecall = 0;
  let bestLength = reference.alternatives[0]?.terms.length ?? 0;
  for (const alternative of reference.alternatives) {
    const alternativeTerms = [...new Set(alternative.terms.map((token) => token.term))];
    const total = alternativeTerms.reduce((sum, term) => sum + reference.weights.weightOf(term), 0);
    if (total <= 0) continue;
    const found = alternativeTerms
      .filter((term) => termSet.has(term))
      .reduce((sum, term) => sum + reference.weights.weightOf(term), 0);
    const recall = found / total;
    const pairs = pairsOf(alternative.terms.map((token) => token.term));
    const pairRecall = pairs.size ? [...pairs].filter((pair) => answerPairs.has(pair)).length / pairs.size : recall;
    if (recall > bestRecall || (recall === bestRecall && pairRecall > bestPairRecall)) {
      bestRecall = recall;
      bestPairRecall = pairRecall;
      bestLength = alternativeTerms.length;
    }
  }
  const uniqueTerms = [...termSet];
  const precision = uniqueTerms.length
    ? uniqueTerms.filter((term) => reference.vocabulary.has(term)).length / uniqueTerms.length
    : 0;
  const questionCopy = uniqueTerms.length
    ? uniqueTerms.filter((term) => reference.questionTerms.has(term)).length / uniqueTerms.length
    : 0;
  return {
    recall: bestRecall,
    pairRecall: bestPairRecall,
    precision,
    questionCopy,
    logLength: Math.log1p(terms.length),
    lengthRatio: Math.log((1 + terms.length) / (1 + bestLength)),
    negationMismatch: terms.length > 0 && isNegated(options.evidenceText) !== reference.isNegated ? 1 : 0,
    itemShare: options.itemShare,
    // Every rubric item met with most of the reference, or the whole of one alternative given
    // ("newton" for "The newton (N), kg m/s^2").
    isComplete:
      (options.itemShare >= 0.99 && bestRecall >= 0.8) || (bestRecall >= 0.99 && bestPairRecall >= 0.99) ? 1 : 0,
    setAsideShare: options.allWordsCount > 0 ? options.setAsideWordsCount / options.allWordsCount : 0,
  };
}

export function wordCount(text: string): number {
  return tokenize(text).length;
}
