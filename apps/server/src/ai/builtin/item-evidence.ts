import {
  compareQuantity,
  isEquivalentQuantity,
  MATCH_CREDIT,
  parseQuantities,
  type Quantity,
  type QuantityMatch,
} from './quantities.ts';
import { formulaTargets, judgeFormula, type FormulaTarget } from './formula-check.ts';
import { resultQuantities } from './rubric-drafting.ts';
import { contentTerms, normaliseText, splitSentences, termBigrams, type Token } from './text-analysis.ts';

/**
 * Evidence for one rubric item: how much of what the item asks for (its criterion, its guidance
 * and the solution sentences that belong to it) the answer shows, in words, numbers and formulas.
 */

export interface TermWeights {
  weightOf(term: string): number;
  /** A readable name for a term (first spelling seen in the reference texts). */
  displayOf(term: string): string;
  /** Terms of the question itself (restating them proves little). */
  isQuestionTerm(term: string): boolean;
}

/** A bag of terms; a requirement is met by its best alternative. */
interface Requirement {
  alternatives: Token[][];
  weight: number;
  /** The "e.g." list of a guidance: naming any one of them is an example. */
  isExampleList?: boolean;
}

export interface NumericTarget {
  /** Equivalent expected values ("0.0227 A" and "22.7 mA"): one target. */
  expected: Quantity[];
  isResult: boolean;
}

export interface NumericOutcome {
  target: NumericTarget;
  match: QuantityMatch;
  actual: Quantity | null;
  /**
   * For a result the answer gets wrong (match 'none'): the value it states instead, of the
   * result's kind or, with no unit at all, a bare number it writes as a result ("a = 24 x 8 = 192").
   * Null when the answer states nothing for it: then the result is missing, not wrong.
   */
  stated: Quantity | null;
}

export interface NumericEvidence {
  score: number;
  hasResults: boolean;
  outcomes: NumericOutcome[];
  /** Formulas of the item ("6x+2", "v/r") and whether the answer writes them. */
  expressions: { expression: string; isFound: boolean; credit: number }[];
  /** How much of the item is numbers and formulas rather than words (0..1). */
  share: number;
  /** The item asks for a symbolic result ("T = 2 pi sqrt(L/g)"), judged or not. */
  hasFormulaTargets: boolean;
  /** Its symbolic results the answer writes a formula for: right or wrong (formula-check.ts). */
  formulaOutcomes: { symbol: string; outcome: 'right' | 'wrong' }[];
  /**
   * When the answer states a wrong value for one of the item's results: the most the item can
   * earn, its right results and a part of the working it shows (intermediate values, formulas).
   * Null otherwise.
   */
  wrongResultCap: number | null;
}

export interface ItemEvidence {
  lexical: number;
  requirementCoverage: number;
  solutionCoverage: number;
  alignment: number;
  bigramCoverage: number;
  /** Set when the item asks for an example and the answer offers one on the topic. */
  exampleEvidence: number | null;
  numeric: NumericEvidence | null;
  /** Reference terms the answer does not show, heaviest first (display names). */
  missingTerms: string[];
  foundTerms: string[];
  /** Solution sentences of this item with no matching answer sentence. */
  missingSteps: string[];
  alignedSolution: string[];
  /** For an item that counts key elements (key-elements.ts): how many the answer shows, of how many asked. */
  keyElements?: { shown: number; needed: number };
}

const EXAMPLE_MARKER = /\b(?:e\.\s?g\.?|eg\.|for example|for instance|such as|i\.e\.)\s*/i;

/** "(or 20 °C)" is an alternative; "(worst case O(n))" is an optional detail. */
function splitParentheticals(clause: string): { main: string; alternatives: string[]; optional: string[] } {
  const alternatives: string[] = [];
  const optional: string[] = [];
  const main = clause.replace(/\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g, (whole, inner: string, offset: number) => {
    const trimmed = inner.trim();
    // "f(x)", "O(n)", "(bucket)" right after a word without a space: part of the main text.
    if (/^[a-z0-9]{1,2}$/i.test(trimmed) || /\w$/.test(clause.slice(0, offset))) return whole;
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
      if (choices.length > 0) requirements.push({ alternatives: choices, weight: 1, isExampleList: true });
    }
    for (const clause of text.split(/;\s*|:\s+/)) {
      const { main, alternatives, optional } = splitParentheticals(clause);
      const hasChoice = /\s+(?:or|\/)\s+/i.test(main) && !/\bor\b.*\bor\b/i.test(main);
      const mainChoices = hasChoice ? alternativesOf(main.replace(/,\s*/g, ' ')) : [];
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
  /** Values the answer states, without the ones it only copies from the question. */
  quantities: Quantity[];
  /** Of those, the ones written as a result (after "=", "is" or ":", ending the clause), in order. */
  statedResults: Quantity[];
  /** The answer squeezed for formula matching: lower case, no spaces or multiplication signs. */
  compactText: string;
}

/** Lower case, no spaces, no multiplication signs, ½ as 1/2, ² as ^2: "½ m v²" -> "1/2mv^2". */
export function compactFormula(text: string): string {
  return normaliseText(text)
    .toLowerCase()
    .replace(/\b(?:sqrt|√)\s*/g, '√')
    .replace(/[\s*×·⋅]/g, '')
    .replace(/\^\(([^()]*)\)/g, '^$1');
}

export function viewAnswer(sentences: string[], questionQuantities: readonly Quantity[] = []): AnswerView {
  const perSentence = sentences.map((sentence) => contentTerms(sentence));
  // Each window once: only the best match of each is read, and an answer of one sentence pasted a
  // thousand times would otherwise be compared a thousand times with every solution sentence.
  const windows = new Map<string, Token[]>();
  const addWindow = (tokens: Token[]) => windows.set(tokens.map((token) => token.term).join(' '), tokens);
  perSentence.forEach(addWindow);
  for (let index = 0; index + 1 < perSentence.length; index++)
    addWindow([...perSentence[index]!, ...perSentence[index + 1]!]);
  const all = perSentence.flat();
  // A value copied from the question ("25 °C = 248 K" repeats the 25 °C) is not evidence of a result.
  const isGiven = (quantity: Quantity) =>
    questionQuantities.some(
      (given) =>
        Math.abs(given.value - quantity.value) <= 1e-9 * Math.max(1, Math.abs(given.value)) &&
        (given.dimension === null) === (quantity.dimension === null) &&
        (given.dimension === null || given.dimension.every((exponent, axis) => exponent === quantity.dimension![axis])),
    );
  return {
    sentences,
    terms: new Set(all.map((token) => token.term)),
    bigrams: new Set(perSentence.flatMap((tokens) => [...termBigrams(tokens)])),
    windows: [...windows.values()],
    quantities: sentences.flatMap((sentence) => parseQuantities(sentence)).filter((quantity) => !isGiven(quantity)),
    statedResults: sentences
      .flatMap((sentence) => resultQuantities(sentence))
      // A value the question gives, with or without its unit, is a restatement, not a result.
      .filter((quantity) => !questionQuantities.some((given) => sameValue(given, quantity))),
    compactText: compactFormula(sentences.join(' ')),
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
  for (const quantity of parseQuantities(itemText, { readNumberWords: false })) {
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

/**
 * Formulas in the item worth looking for verbatim: right-hand sides like "6x + 2" or "V/R" (and the
 * left side of a rearranged one such as "2h/g"). Short or purely numeric pieces are skipped.
 */
export function formulaExpressions(itemText: string, questionText: string): string[] {
  const question = compactFormula(questionText);
  const expressions = new Set<string>();
  for (const clause of normaliseText(itemText).split(/[;,]\s+|\.\s+|\.$|\s(?:with|using|where|so|and|or)\s/i)) {
    if (!clause.includes('=')) continue;
    for (const side of clause.split('=')) {
      const compact = compactFormula(side)
        .replace(/^[a-z]{3,}[a-z\s]*:/, '')
        .replace(/[.,;:]+$/, '');
      const hasLetter = /[a-zδ]/.test(compact);
      const hasOperator = /[-+/^√]/.test(compact);
      const isPlainWord = /^[a-z]{3,}$/.test(compact);
      if (!hasLetter || !hasOperator || isPlainWord || compact.length < 3 || compact.length > 24) continue;
      if (question.includes(compact)) continue;
      expressions.add(compact);
    }
  }
  return [...expressions];
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

function sameDimension(left: Quantity, right: Quantity): boolean {
  return (
    left.dimension !== null && right.dimension !== null && left.dimension.every((d, i) => d === right.dimension![i])
  );
}

/** Best outcome over candidates; on a tie the later value wins (the result, not the working). */
function bestOutcome(
  target: NumericTarget,
  candidates: readonly Quantity[],
): { match: QuantityMatch; actual: Quantity | null } {
  const withUnits = target.expected.filter((quantity) => quantity.dimension !== null);
  const references = withUnits.length > 0 ? withUnits : target.expected;
  let best: { match: QuantityMatch; actual: Quantity | null } = { match: 'none', actual: null };
  for (const actual of candidates) {
    for (const expected of references) {
      const match = compareQuantity(actual, expected);
      if (MATCH_ORDER.indexOf(match) <= MATCH_ORDER.indexOf(best.match) && match !== 'none') best = { match, actual };
    }
  }
  return best;
}

/** The same number as written, whatever the unit ("24" and "24 m/s"). */
function sameValue(left: Quantity, right: Quantity): boolean {
  return Math.abs(left.value - right.value) <= 1e-9 * Math.max(1, Math.abs(left.value));
}

/** The same value in the same unit kind (two parses of "96 m" are different objects). */
function sameQuantity(left: Quantity, right: Quantity): boolean {
  return (
    Math.abs(left.si - right.si) <= 1e-9 * Math.max(1, Math.abs(left.si)) &&
    (left.dimension === null ? right.dimension === null : sameDimension(left, right))
  );
}

export function isSameTarget(left: NumericTarget, right: NumericTarget): boolean {
  return left.expected.some((expected) => right.expected.some((other) => sameQuantity(expected, other)));
}

/** Relative distance between two values of one dimension (for deciding which target a value answers). */
function distance(left: Quantity, right: Quantity): number {
  return Math.abs(left.si - right.si) / Math.max(Math.abs(right.si), 1e-12);
}

function outcomeFor(
  target: NumericTarget,
  answer: Pick<AnswerView, 'quantities' | 'statedResults'>,
  allTargets: readonly NumericTarget[],
): NumericOutcome {
  const answerQuantities = answer.quantities;
  const hasUnit = target.expected.some((quantity) => quantity.dimension !== null);
  if (!hasUnit) return withStated(target, bestOutcome(target, answerQuantities), answer, allTargets);
  const withUnits = answerQuantities.filter((quantity) => quantity.dimension !== null);
  const fromUnits = bestOutcome(target, withUnits);
  if (fromUnits.match !== 'none') return { target, ...fromUnits, stated: null };
  // The answer states a value of this kind (say, 200 J) and it is wrong: a bare 100 somewhere in
  // its working is not "the right value without a unit".
  // A value answers the target of its kind it is closest to: "248 K" is a wrong Kelvin conversion,
  // not a wrong temperature change.
  const unitBearing = target.expected.find((quantity) => quantity.dimension !== null)!;
  const answersThisTarget = (quantity: Quantity) => {
    const candidates = allTargets
      .map((other) => other.expected.find((expected) => sameDimension(expected, quantity)))
      .filter((expected): expected is Quantity => expected !== undefined);
    const closest = candidates.reduce<Quantity | null>(
      (best, expected) => (best === null || distance(quantity, expected) < distance(quantity, best) ? expected : best),
      null,
    );
    return closest !== null && target.expected.some((expected) => sameQuantity(expected, closest));
  };
  const wrongOfKind = withUnits.filter(
    (quantity) => sameDimension(quantity, unitBearing) && answersThisTarget(quantity),
  );
  if (wrongOfKind.length > 0)
    return { target, match: 'none', actual: null, stated: target.isResult ? wrongOfKind.at(-1)! : null };
  const bare = answerQuantities.filter((quantity) => quantity.dimension === null);
  return withStated(target, bestOutcome(target, bare), answer, allTargets);
}

/**
 * A result the answer does not match, where it writes bare numbers as results: the one it gives
 * for this result. Results and written results are paired in order when they are as many (part
 * (a)'s value, then part (b)'s), else each written value goes to the result nearest in size.
 */
function withStated(
  target: NumericTarget,
  outcome: { match: QuantityMatch; actual: Quantity | null },
  answer: Pick<AnswerView, 'statedResults'>,
  allTargets: readonly NumericTarget[],
): NumericOutcome {
  if (outcome.match !== 'none' || !target.isResult) return { target, ...outcome, stated: null };
  const written = answer.statedResults.filter((quantity) => quantity.dimension === null && !quantity.isCoefficient);
  if (written.length === 0) return { target, ...outcome, stated: null };
  // Each item finds its targets anew: one result is the same target wherever it appears.
  const results = allTargets
    .filter((other) => other.isResult)
    .filter((other, index, all) => all.findIndex((first) => isSameTarget(first, other)) === index);
  const index = results.findIndex((other) => isSameTarget(other, target));
  if (written.length === results.length && index >= 0) return { target, ...outcome, stated: written[index]! };
  const gap = (quantity: Quantity, other: NumericTarget) =>
    Math.min(
      ...other.expected.map((expected) =>
        Math.abs(Math.log(Math.abs(quantity.value) + 1e-12) - Math.log(Math.abs(expected.value) + 1e-12)),
      ),
    );
  const mine = written.filter((quantity) => {
    const nearest = results.reduce(
      (best, other) => (gap(quantity, other) < gap(quantity, best) ? other : best),
      results[0] ?? target,
    );
    return isSameTarget(nearest, target);
  });
  return { target, ...outcome, stated: mine.at(-1) ?? null };
}

/** Of the points of a result stated wrong, the most its working (all intermediate steps shown) keeps. */
const WORKING_SHARE_OF_WRONG_RESULT = 0.6;

export function judgeNumbers(
  targets: readonly NumericTarget[],
  expressions: readonly string[],
  answer: Pick<AnswerView, 'sentences' | 'quantities' | 'statedResults' | 'compactText'>,
  wordCount: number,
  allTargets: readonly NumericTarget[] = targets,
  formulas: readonly FormulaTarget[] = [],
): NumericEvidence | null {
  if (targets.length === 0 && expressions.length === 0 && formulas.length === 0) return null;
  const outcomes = targets.map((target) => outcomeFor(target, answer, allTargets));
  // Symbolic results ("T = 2 pi sqrt(L/g)") judged by value when the answer writes a formula for
  // the same symbol; one it says in words, or not at all, is left to the other evidence.
  const answerText = answer.sentences.join('\n');
  const formulaOutcomes = formulas.flatMap((formula) => {
    const outcome = judgeFormula(formula, answerText);
    return outcome === 'unknown' ? [] : [{ symbol: formula.symbol, outcome }];
  });
  // Formulas count when written out as in the item. (Rearranged forms are not credited here:
  // wrong formulas such as t = h/g share every symbol with right ones, so symbols prove nothing.)
  const answerFormulas = answer.compactText.split(/[,;]|\.(?!\d)/).filter((piece) => piece.includes('='));
  const expressionResults = expressions.map((expression) => {
    const isFound = answer.compactText.includes(expression);
    return { expression, isFound, credit: isFound ? 1 : 0 };
  });
  const hasWorking = answerFormulas.length > 0 || answer.quantities.length > 1;
  const results = outcomes.filter((outcome) => outcome.target.isResult);
  const resultCredits = [
    ...results.map((outcome) => MATCH_CREDIT[outcome.match]),
    ...formulaOutcomes.map((formula) => (formula.outcome === 'right' ? 1 : 0)),
  ];
  const intermediateCredits = [
    ...outcomes.filter((outcome) => !outcome.target.isResult).map((outcome) => MATCH_CREDIT[outcome.match]),
    ...expressionResults.map((result) => result.credit),
  ];
  const mean = (values: number[]) =>
    values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0;
  const hasResults = resultCredits.length > 0;
  const resultScore = mean(resultCredits);
  let score: number;
  if (hasResults) {
    // A right result implies the working; intermediate values only help a wrong one.
    if (resultScore >= 0.999) {
      // A bare right result with no working at all, where the item names a method: a little less.
      score = intermediateCredits.length > 0 && !hasWorking && Math.max(...intermediateCredits) === 0 ? 0.85 : 1;
    } else {
      score = intermediateCredits.length === 0 ? resultScore : 0.8 * resultScore + 0.2 * mean(intermediateCredits);
    }
  } else {
    // Method items: any one formula or value written out shows the method.
    score = Math.max(mean(intermediateCredits), ...expressionResults.map((result) => result.credit));
  }
  const symbolCount = targets.length + expressions.length;
  const share = hasResults ? 0.75 : Math.min(0.6, (2 * symbolCount) / (symbolCount + Math.max(1, wordCount)));
  // A wrong value is not a right value half-seen: the item earns its right results, and of the
  // rest only what the working shows (a slip in the last step keeps most of it, none keeps none).
  const isResultWrong =
    results.some((outcome) => outcome.match === 'none' && outcome.stated !== null) ||
    formulaOutcomes.some((formula) => formula.outcome === 'wrong');
  const working = mean(intermediateCredits);
  const wrongResultCap = isResultWrong
    ? resultScore + (1 - resultScore) * WORKING_SHARE_OF_WRONG_RESULT * working
    : null;
  return {
    score,
    hasResults,
    hasFormulaTargets: formulas.length > 0,
    outcomes,
    formulaOutcomes,
    expressions: expressionResults,
    share,
    wrongResultCap,
  };
}

const EXAMPLE_CRITERION = /\b(?:example|illustrat\w*|application|instance)\b/i;
const EXAMPLE_IN_ANSWER =
  /\b(?:e\.\s?g\.?|eg|for example|for instance|example|such as|imagine|suppose)\b|^\s*(?:if|when)\b/i;

/**
 * "Give an example" items: any on-topic example counts, not just the solution's. An answer
 * sentence that reads as an example and shares subject words with the solution is evidence.
 */
function exampleEvidenceFor(
  criterion: string,
  guidance: string,
  answer: AnswerView,
  referenceTerms: ReadonlySet<string>,
  weights: TermWeights,
): number | null {
  if (!EXAMPLE_CRITERION.test(criterion) && !/^\s*(?:an?\s+)?(?:valid\s+)?example/i.test(guidance)) return null;
  let best = 0;
  for (const sentence of answer.sentences) {
    if (!EXAMPLE_IN_ANSWER.test(sentence)) continue;
    const onTopic = new Set(
      contentTerms(sentence)
        .map((token) => token.term)
        .filter((term) => referenceTerms.has(term) && !weights.isQuestionTerm(term)),
    );
    const score = onTopic.size >= 2 ? 0.8 : onTopic.size === 1 ? 0.45 : 0;
    best = Math.max(best, score);
  }
  return best;
}

export function gatherItemEvidence(options: {
  criterion: string;
  guidance: string;
  alignedSolution: string[];
  answer: AnswerView;
  weights: TermWeights;
  questionText: string;
  questionQuantities: readonly Quantity[];
  /** Terms of the solution and rubric: what an on-topic example shares. */
  referenceTerms: ReadonlySet<string>;
  /** This item's expected values, when the caller has found them (else from its text). */
  targets?: readonly NumericTarget[];
  /** Every item's expected values, so an answer value is judged against the target it answers. */
  allTargets?: readonly NumericTarget[];
}): ItemEvidence {
  const { criterion, guidance, alignedSolution, answer, weights } = options;
  const requirements = parseRequirements(criterion, guidance);

  let requirementScore = 0;
  let requirementWeight = 0;
  let exampleListCoverage = 0;
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
    // A requirement made only of the question's own words proves little when met.
    const questionShare =
      bestAlternative.filter((token) => weights.isQuestionTerm(token.term)).length /
      Math.max(1, bestAlternative.length);
    const weight = requirement.weight * (1 - 0.65 * questionShare);
    requirementScore += best * weight;
    if (requirement.isExampleList) exampleListCoverage = Math.max(exampleListCoverage, best);
    requirementWeight += weight;
    for (const token of bestAlternative) {
      const termWeight = weights.weightOf(token.term) * weight;
      const bucket = answer.terms.has(token.term) ? found : missing;
      bucket.set(token.term, Math.max(bucket.get(token.term) ?? 0, termWeight));
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
  let lexical = Math.min(1, 0.9 * Math.max(requirementCoverage, viaSolution) + 0.1 * Math.min(1, bigramCoverage * 2));
  const exampleEvidence = exampleEvidenceFor(criterion, guidance, answer, options.referenceTerms, weights);
  if (exampleEvidence !== null) {
    // An example item is met by an example: one of those the guidance names, or any on-topic one.
    // The definition's words appearing elsewhere in the answer are not an example.
    lexical = Math.max(exampleEvidence, exampleListCoverage, 0.4 * lexical);
  }

  const itemText = `${criterion}. ${guidance}`;
  const targets = options.targets ?? numericTargets(itemText, options.questionQuantities);
  const expressions = formulaExpressions(guidance || criterion, options.questionText);
  const wordCount = new Set(contentTerms(itemText).map((token) => token.term)).size;
  const numeric = judgeNumbers(
    targets,
    expressions,
    answer,
    wordCount,
    options.allTargets ?? targets,
    formulaTargets(itemText),
  );

  const byWeight = (map: Map<string, number>) =>
    [...map.entries()].sort((left, right) => right[1] - left[1]).map(([term]) => weights.displayOf(term));
  return {
    lexical,
    requirementCoverage,
    solutionCoverage,
    alignment,
    bigramCoverage,
    exampleEvidence,
    numeric,
    missingTerms: byWeight(missing),
    foundTerms: byWeight(found),
    missingSteps,
    alignedSolution,
  };
}
