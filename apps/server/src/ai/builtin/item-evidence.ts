import {
  compareQuantity,
  formatQuantity,
  isEquivalentQuantity,
  MATCH_CREDIT,
  parseQuantities,
  type Quantity,
  type QuantityMatch,
} from './quantities.ts';
import { resultQuantities } from './rubric-drafting.ts';
import { contentTerms, normaliseText, splitSentences, termBigrams, type Token } from './text-analysis.ts';

/**
 * Evidence for one rubric item: how much of what the item asks for (its criterion, its guidance
 * and the solution sentences that belong to it) the answer shows, in words and in numbers.
 */

export interface TermWeights {
  weightOf(term: string): number;
  /** A readable name for a term (first spelling seen in the reference texts). */
  displayOf(term: string): string;
}

/** A bag of terms; a requirement is met by its best alternative. */
interface Requirement {
  alternatives: Token[][];
  weight: number;
}

export interface NumericTarget {
  /** Equivalent expected values ("0.0227 A" and "22.7 mA"): one target. */
  expected: Quantity[];
  isResult: boolean;
}

export interface NumericEvidence {
  score: number;
  hasResults: boolean;
  /** Per target: the best outcome and the answer value behind it. */
  outcomes: { target: NumericTarget; match: QuantityMatch; actual: Quantity | null }[];
}

export interface ItemEvidence {
  lexical: number;
  requirementCoverage: number;
  solutionCoverage: number;
  alignment: number;
  bigramCoverage: number;
  numeric: NumericEvidence | null;
  /** Reference terms the answer does not show, heaviest first (display names). */
  missingTerms: string[];
  foundTerms: string[];
  /** Solution sentences of this item with no matching answer sentence. */
  missingSteps: string[];
  alignedSolution: string[];
}

const EXAMPLE_MARKER = /\b(?:e\.\s?g\.?|eg\.|for example|for instance|such as|i\.e\.)\s*/i;

/** "(or 20 °C)" is an alternative; "(worst case O(n))" is an optional detail. */
function splitParentheticals(clause: string): { main: string; alternatives: string[]; optional: string[] } {
  const alternatives: string[] = [];
  const optional: string[] = [];
  const main = clause.replace(/\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g, (whole, inner: string) => {
    const trimmed = inner.trim();
    // "(bucket)" right after a word, or "(x)" in a formula: part of the main text.
    if (/^[a-z0-9]{1,2}$/i.test(trimmed) || /\w\($/.test(clause.slice(0, clause.indexOf(whole) + 1))) return whole;
    if (/^or\b/i.test(trimmed)) alternatives.push(trimmed.replace(/^or\s+/i, ''));
    else optional.push(trimmed);
    return ' ';
  });
  return { main, alternatives, optional };
}

function alternativesOf(text: string): Token[][] {
  return text
    .split(/\s+or\s+|\s+\/\s+|,\s*/i)
    .map((piece) => contentTerms(piece))
    .filter((terms) => terms.length > 0);
}

/** Guidance -> requirements: clauses, "X or Y" choices, and an "e.g." list that any one item meets. */
export function parseRequirements(criterion: string, guidance: string): Requirement[] {
  const requirements: Requirement[] = [];
  const cleanedGuidance = normaliseText(guidance)
    .replace(/\bA correct answer shows:\s*/i, '')
    .replace(/\bExpected values?:[^\n]*$/i, '');
  const keyTermsMatch = /\bKey terms:\s*([^\n]*)$/i.exec(cleanedGuidance);
  const body = keyTermsMatch ? cleanedGuidance.slice(0, keyTermsMatch.index) : cleanedGuidance;

  for (const sentence of splitSentences(body)) {
    let text = sentence;
    const example = EXAMPLE_MARKER.exec(text);
    if (example) {
      const tail = text.slice(example.index + example[0].length).replace(/[).]+\s*$/, '');
      text = text.slice(0, example.index).replace(/[(\s,;:]+$/, '');
      const choices = alternativesOf(tail);
      if (choices.length > 0) requirements.push({ alternatives: choices, weight: 1 });
    }
    for (const clause of text.split(/;\s*|:\s+/)) {
      const { main, alternatives, optional } = splitParentheticals(clause);
      const mainChoices =
        /\s+or\s+/i.test(main) && !/\bor\b.*\bor\b/i.test(main) ? alternativesOf(main.replace(/,\s*/g, ' ')) : [];
      const mainTerms = contentTerms(main);
      const choices = [
        ...(mainChoices.length >= 2 ? mainChoices : mainTerms.length > 0 ? [mainTerms] : []),
        ...alternatives.map((alternative) => contentTerms(alternative)).filter((terms) => terms.length > 0),
      ];
      if (choices.length > 0) requirements.push({ alternatives: choices, weight: 1 });
      const optionalTerms = optional.flatMap((piece) => contentTerms(piece));
      if (optionalTerms.length > 0) requirements.push({ alternatives: [optionalTerms], weight: 0.3 });
    }
  }
  if (keyTermsMatch) {
    const keyTerms = contentTerms(keyTermsMatch[1]!);
    if (keyTerms.length > 0) requirements.push({ alternatives: [keyTerms], weight: 0.5 });
  }
  const criterionTerms = contentTerms(
    criterion.replace(/^\s*(?:\(?[a-h]\)|\(?[ivx]+\)|part\s+\w+|step\s+\d+)\s*:?/i, ''),
  );
  if (criterionTerms.length > 0)
    requirements.push({ alternatives: [criterionTerms], weight: requirements.length ? 0.35 : 1 });
  return requirements;
}

function coverage(terms: readonly Token[], answerTerms: ReadonlySet<string>, weights: TermWeights): number {
  let total = 0;
  let found = 0;
  const seen = new Set<string>();
  for (const token of terms) {
    if (seen.has(token.term)) continue;
    seen.add(token.term);
    const weight = weights.weightOf(token.term);
    total += weight;
    if (answerTerms.has(token.term)) found += weight;
  }
  return total > 0 ? found / total : 0;
}

function weightedVector(tokens: readonly Token[], weights: TermWeights): Map<string, number> {
  const vector = new Map<string, number>();
  for (const token of tokens) vector.set(token.term, (vector.get(token.term) ?? 0) + weights.weightOf(token.term));
  return vector;
}

export function cosine(left: Map<string, number>, right: Map<string, number>): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (const [term, value] of left) {
    leftNorm += value * value;
    const other = right.get(term);
    if (other !== undefined) dot += value * other;
  }
  for (const value of right.values()) rightNorm += value * value;
  return leftNorm > 0 && rightNorm > 0 ? dot / Math.sqrt(leftNorm * rightNorm) : 0;
}

export interface AnswerView {
  sentences: string[];
  terms: Set<string>;
  bigrams: Set<string>;
  /** Sentence and two-sentence windows, for best-match alignment. */
  windows: Token[][];
  quantities: Quantity[];
}

export function viewAnswer(sentences: string[]): AnswerView {
  const perSentence = sentences.map((sentence) => contentTerms(sentence));
  const windows: Token[][] = [...perSentence];
  for (let index = 0; index + 1 < perSentence.length; index++)
    windows.push([...perSentence[index]!, ...perSentence[index + 1]!]);
  const all = perSentence.flat();
  return {
    sentences,
    terms: new Set(all.map((token) => token.term)),
    bigrams: new Set(perSentence.flatMap((tokens) => [...termBigrams(tokens)])),
    windows,
    quantities: sentences.flatMap((sentence) => parseQuantities(sentence)),
  };
}

/** Expected values: numbers in the item that the question does not already give (and not 0). */
export function numericTargets(itemText: string, questionQuantities: readonly Quantity[]): NumericTarget[] {
  const results = resultQuantities(itemText);
  const isGiven = (quantity: Quantity) =>
    questionQuantities.some(
      (given) => Math.abs(given.value - quantity.value) <= 1e-6 * Math.max(1, Math.abs(given.value)),
    );
  const targets: NumericTarget[] = [];
  for (const quantity of parseQuantities(itemText)) {
    if (quantity.value === 0 || isGiven(quantity)) continue;
    const isResult = results.some((result) => result.start === quantity.start);
    const existing = targets.find((target) => target.expected.some((other) => isEquivalentQuantity(other, quantity)));
    if (existing) {
      existing.expected.push(quantity);
      existing.isResult ||= isResult;
    } else {
      targets.push({ expected: [quantity], isResult });
    }
  }
  return targets;
}

const MATCH_ORDER: QuantityMatch[] = [
  'exact',
  'rounded',
  'missing-unit',
  'wrong-unit',
  'sign-error',
  'power-of-ten',
  'none',
];

export function judgeNumbers(
  targets: readonly NumericTarget[],
  answerQuantities: readonly Quantity[],
): NumericEvidence | null {
  if (targets.length === 0) return null;
  const outcomes = targets.map((target) => {
    let best: { match: QuantityMatch; actual: Quantity | null } = { match: 'none', actual: null };
    for (const actual of answerQuantities) {
      for (const expected of target.expected) {
        const match = compareQuantity(actual, expected);
        if (MATCH_ORDER.indexOf(match) < MATCH_ORDER.indexOf(best.match)) best = { match, actual };
      }
    }
    return { target, ...best };
  });
  const results = outcomes.filter((outcome) => outcome.target.isResult);
  const intermediates = outcomes.filter((outcome) => !outcome.target.isResult);
  const mean = (list: typeof outcomes) =>
    list.length ? list.reduce((sum, outcome) => sum + MATCH_CREDIT[outcome.match], 0) / list.length : 0;
  let score: number;
  if (results.length > 0) {
    const resultScore = mean(results);
    // A right result implies the working; intermediate values only help a wrong one.
    score =
      resultScore >= 0.999 || intermediates.length === 0 ? resultScore : 0.8 * resultScore + 0.2 * mean(intermediates);
  } else {
    score = mean(intermediates);
  }
  return { score, hasResults: results.length > 0, outcomes };
}

export function describeTarget(target: NumericTarget): string {
  const withUnit = target.expected.find((quantity) => quantity.unitText) ?? target.expected[0]!;
  return formatQuantity(withUnit);
}

export function gatherItemEvidence(options: {
  criterion: string;
  guidance: string;
  alignedSolution: string[];
  answer: AnswerView;
  weights: TermWeights;
  questionQuantities: readonly Quantity[];
}): ItemEvidence {
  const { criterion, guidance, alignedSolution, answer, weights } = options;
  const requirements = parseRequirements(criterion, guidance);

  let requirementScore = 0;
  let requirementWeight = 0;
  const missing = new Map<string, number>();
  const found = new Map<string, number>();
  for (const requirement of requirements) {
    let best = 0;
    let bestAlternative = requirement.alternatives[0]!;
    for (const alternative of requirement.alternatives) {
      const score = coverage(alternative, answer.terms, weights);
      if (score > best) {
        best = score;
        bestAlternative = alternative;
      }
    }
    requirementScore += best * requirement.weight;
    requirementWeight += requirement.weight;
    for (const token of bestAlternative) {
      const weight = weights.weightOf(token.term) * requirement.weight;
      const target = answer.terms.has(token.term) ? found : missing;
      target.set(token.term, Math.max(target.get(token.term) ?? 0, weight));
    }
  }
  const requirementCoverage = requirementWeight > 0 ? requirementScore / requirementWeight : 0;

  const solutionTokens = alignedSolution.flatMap((sentence) => contentTerms(sentence));
  const solutionCoverage = solutionTokens.length ? coverage(solutionTokens, answer.terms, weights) : 0;
  const missingSteps: string[] = [];
  let alignmentTotal = 0;
  for (const sentence of alignedSolution) {
    const vector = weightedVector(contentTerms(sentence), weights);
    if (vector.size === 0) continue;
    const best = Math.max(0, ...answer.windows.map((window) => cosine(vector, weightedVector(window, weights))));
    alignmentTotal += best;
    if (best < 0.2) missingSteps.push(sentence);
  }
  const alignment = alignedSolution.length ? alignmentTotal / alignedSolution.length : 0;

  const referenceTokens = [...contentTerms(guidance), ...solutionTokens];
  const referenceBigrams = termBigrams(referenceTokens);
  let bigramHits = 0;
  for (const pair of referenceBigrams) if (answer.bigrams.has(pair)) bigramHits++;
  const bigramCoverage = referenceBigrams.size ? bigramHits / referenceBigrams.size : 0;

  const viaSolution = alignedSolution.length
    ? 0.55 * requirementCoverage + 0.25 * solutionCoverage + 0.2 * alignment
    : 0;
  const lexical = Math.min(1, 0.9 * Math.max(requirementCoverage, viaSolution) + 0.1 * Math.min(1, bigramCoverage * 2));

  const targets = numericTargets(`${criterion}. ${guidance}`, options.questionQuantities);
  const numeric = judgeNumbers(targets, answer.quantities);

  const byWeight = (map: Map<string, number>) =>
    [...map.entries()]
      .filter(([term]) => !found.has(term) || map === found)
      .sort((left, right) => right[1] - left[1])
      .map(([term]) => weights.displayOf(term));
  return {
    lexical,
    requirementCoverage,
    solutionCoverage,
    alignment,
    bigramCoverage,
    numeric,
    missingTerms: byWeight(missing),
    foundTerms: byWeight(found),
    missingSteps,
    alignedSolution,
  };
}
