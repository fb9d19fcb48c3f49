import type { GradingInput } from '../grader-types.ts';
import {
  answerTerms,
  describeReference,
  measureAnswer,
  wordCount,
  type AnswerFeatures,
  type ReferenceSide,
} from './answer-features.ts';
import { referenceWordsOf, screenAnswer, type ReferenceWords } from './answer-screening.ts';
import { itemCertainty } from './confidence.ts';
import {
  coldLogit,
  confidenceInputs,
  estimateConfidence,
  LEXICAL_CONFIDENCE_CAP,
  predictShare,
  roundScore,
  type PreparedExample,
} from './suggestion-model.ts';
import { itemComment, statusComment } from './write-comments.ts';
import {
  cosine,
  gatherItemEvidence,
  numericTargets,
  viewAnswer,
  type ItemEvidence,
  type TermWeights,
} from './item-evidence.ts';
import { parseQuantities } from './quantities.ts';
import { contentTerms, splitSentences, type Token } from './text-analysis.ts';

/**
 * The built-in grader's judgement of one answer. It is what `requestGrading` returns as its raw
 * output (plain JSON, stored by the job), so a stored judgement can be re-read without grading
 * again and every number behind a deduction can be inspected.
 */

export const BUILTIN_GRADER_VERSION = '2.2.0';

export type AnswerStatus =
  'answered' | 'blank' | 'near-empty' | 'off-topic' | 'restates-question' | 'instructions-only';

export interface ItemJudgement {
  rubricItemId: string;
  /** 0..1 share of the item's points kept, after rounding the deduction. */
  credit: number;
  /** Combined evidence 0..1 before the credit ramp. */
  evidence: number;
  lexical: number;
  numeric: number | null;
  /** 0..1: how far the evidence is from the thresholds where the deduction would change. */
  certainty: number;
  pointsDeducted: number;
  comment: string;
}

export interface BuiltinJudgement {
  version: string;
  status: AnswerStatus;
  items: ItemJudgement[];
  /** General remarks (no deduction), e.g. that text addressed to the grader was ignored. */
  remarks: string[];
  confidence: number;
  /** What the suggestion and its confidence were computed from (kept for calibration and audits). */
  confidenceInputs: SuggestionInputs;
}

export interface SuggestionInputs {
  suggestedShare: number;
  predictedShare: number;
  /** Saved grades on this question that the suggestion was fitted to. */
  examplesUsed: number;
  /** Similarity (0..1) of the answer to the most alike saved grade. */
  nearestExample: number;
  features: AnswerFeatures;
  /** The confidence model's inputs (suggestion-model.ts). */
  model: number[];
}

/** Evidence -> credit: below LOW nothing, above HIGH everything, linear in between. */
export const LEXICAL_RAMP = { low: 0.15, high: 0.55 } as const;
export const NUMERIC_RAMP = { low: 0.1, high: 0.7 } as const;

export function rampCredit(evidence: number, ramp: { low: number; high: number }): number {
  return Math.min(1, Math.max(0, (evidence - ramp.low) / (ramp.high - ramp.low)));
}

/** Deductions move in half points on items of 2 points or more, quarter points below. */
export function roundDeduction(points: number, rawDeduction: number): number {
  if (rawDeduction <= 1e-9) return 0;
  if (rawDeduction >= points - 1e-9) return points;
  const step = points >= 2 ? 0.5 : 0.25;
  const rounded = Math.round(rawDeduction / step) * step;
  return Math.min(points, Math.max(0, rounded));
}

/**
 * Term weights are inverse document frequencies over the sentences of the question, the solution
 * and the rubric: the reference side only, so every answer to a question is weighed the same way.
 */
export function buildTermWeights(input: GradingInput): TermWeights & { vocabulary: Set<string> } {
  const documents = [
    ...splitSentences(input.questionText),
    ...splitSentences(input.solutionText),
    ...input.rubricItems.map((item) => `${item.criterion}. ${item.guidance}`),
  ].map((text) => contentTerms(text));
  const documentFrequency = new Map<string, number>();
  const display = new Map<string, string>();
  for (const tokens of documents) {
    for (const token of tokens) if (!display.has(token.term)) display.set(token.term, token.display);
    for (const term of new Set(tokens.map((token) => token.term)))
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const questionTerms = new Set(contentTerms(input.questionText).map((token) => token.term));
  const count = documents.length;
  return {
    vocabulary: new Set(documentFrequency.keys()),
    isQuestionTerm: (term: string) => questionTerms.has(term),
    weightOf(term: string) {
      const idf = 1 + Math.log((count + 1) / ((documentFrequency.get(term) ?? 0) + 1));
      // Words the question already uses prove little: copying them is free.
      // Single letters (f, x, v) are symbols shared by right and wrong formulas alike.
      const symbolFactor = term.length === 1 ? 0.3 : 1;
      return idf * (questionTerms.has(term) ? 0.35 : 1) * (term.startsWith('#') ? 1.2 : 1) * symbolFactor;
    },
    displayOf(term: string) {
      return display.get(term) ?? term.replace(/^#/, '').replace(/-/g, ' ');
    },
  };
}

/** Solution sentences that belong to each item: those most like the item's own text. */
function alignSolution(input: GradingInput, weights: TermWeights): string[][] {
  const sentences = splitSentences(input.solutionText);
  if (input.rubricItems.length <= 1) return input.rubricItems.map(() => sentences);
  const vectorOf = (tokens: Token[]) => {
    const vector = new Map<string, number>();
    for (const token of tokens) vector.set(token.term, (vector.get(token.term) ?? 0) + weights.weightOf(token.term));
    return vector;
  };
  const sentenceVectors = sentences.map((sentence) => vectorOf(contentTerms(sentence)));
  const itemVectors = input.rubricItems.map((item) => vectorOf(contentTerms(`${item.criterion}. ${item.guidance}`)));
  const partLabel = (text: string) =>
    /^\s*(\(?[a-h]\)|\(?[ivx]+\)|part\s+\w+)/i.exec(text)?.[1]?.replace(/[()]/g, '').toLowerCase();
  return input.rubricItems.map((item, itemIndex) => {
    const label = partLabel(item.criterion);
    const similarities = sentenceVectors.map((vector) => cosine(itemVectors[itemIndex]!, vector));
    const best = Math.max(0, ...similarities);
    return sentences.filter((sentence, index) => {
      if (label && partLabel(sentence) === label) return true;
      const similarity = similarities[index]!;
      return best >= 0.1 && similarity >= Math.max(0.2, best * 0.6);
    });
  });
}

/** Everything about a question that every answer to it is measured against (computed once). */
export interface QuestionContext {
  weights: TermWeights & { vocabulary: Set<string> };
  reference: ReferenceSide;
  referenceWords: ReferenceWords;
  questionQuantities: ReturnType<typeof parseQuantities>;
  alignedSolution: string[][];
  referenceTerms: Set<string>;
  allTargets: ReturnType<typeof numericTargets>;
  /** Measured answers by text: saved grades are measured once, not once per graded answer. */
  analyses: Map<string, AnswerAnalysis>;
}

const contexts = new Map<string, QuestionContext>();
const CONTEXT_CACHE_SIZE = 16;
const ANALYSIS_CACHE_SIZE = 4000;

export function questionContextFor(input: GradingInput): QuestionContext {
  const key = JSON.stringify([input.questionText, input.solutionText, input.rubricItems]);
  const cached = contexts.get(key);
  if (cached) return cached;
  const weights = buildTermWeights(input);
  const questionQuantities = parseQuantities(input.questionText);
  const questionTerms = new Set(contentTerms(input.questionText).map((token) => token.term));
  const rubricText = input.rubricItems.map((item) => `${item.criterion}. ${item.guidance}`).join('\n');
  const context: QuestionContext = {
    weights,
    reference: describeReference(input.questionText, input.solutionText, rubricText, weights),
    referenceWords: referenceWordsOf([input.questionText, input.solutionText], [rubricText]),
    questionQuantities,
    alignedSolution: alignSolution(input, weights),
    referenceTerms: new Set([...weights.vocabulary].filter((term) => !questionTerms.has(term))),
    allTargets: input.rubricItems.flatMap((item) =>
      numericTargets(`${item.criterion}. ${item.guidance}`, questionQuantities),
    ),
    analyses: new Map(),
  };
  if (contexts.size >= CONTEXT_CACHE_SIZE) contexts.delete(contexts.keys().next().value!);
  contexts.set(key, context);
  return context;
}

/** One answer measured against its question, before any saved grade is consulted. */
export interface AnswerAnalysis {
  status: AnswerStatus;
  items: ItemJudgement[];
  evidences: ItemEvidence[];
  answerQuantities: ReturnType<typeof viewAnswer>['quantities'];
  answerTopics: string[];
  hasInstructions: boolean;
  features: AnswerFeatures;
  coldLogit: number;
  /** Weighted terms, for finding the most alike saved grades. */
  vector: Map<string, number>;
  relevance: number;
  lengthRatio: number;
}

export function analyseAnswer(answerText: string, input: GradingInput, context: QuestionContext): AnswerAnalysis {
  const cached = context.analyses.get(answerText);
  if (cached) return cached;
  const { weights } = context;
  const screened = screenAnswer(answerText, input.questionText, context.referenceWords);
  const answer = viewAnswer(screened.evidenceSentences, context.questionQuantities);
  const answerTokens = screened.evidenceSentences.flatMap((sentence) => contentTerms(sentence));
  const uniqueAnswerTerms = [...new Set(answerTokens.map((token) => token.term))];
  const relevance = uniqueAnswerTerms.length
    ? uniqueAnswerTerms.filter((term) => weights.vocabulary.has(term)).length / uniqueAnswerTerms.length
    : 0;
  const referenceLength = Math.max(1, contentTerms(`${input.solutionText}`).length);

  let status: AnswerStatus = 'answered';
  if (screened.isBlank) status = 'blank';
  else if (screened.evidenceSentences.length === 0) {
    status = screened.instructionSentences.length > 0 ? 'instructions-only' : 'restates-question';
    // Only salad: there is nothing in sentences to judge; graded as an answer that shows nothing.
    if (screened.saladSentences.length > 0 && screened.instructionSentences.length === 0) status = 'answered';
  }

  const items: ItemJudgement[] = [];
  const evidences: ItemEvidence[] = [];
  input.rubricItems.forEach((item, index) => {
    const evidence = gatherItemEvidence({
      criterion: item.criterion,
      guidance: item.guidance,
      alignedSolution: context.alignedSolution[index] ?? [],
      answer,
      weights,
      questionText: input.questionText,
      questionQuantities: context.questionQuantities,
      referenceTerms: context.referenceTerms,
      allTargets: context.allTargets,
    });
    evidences.push(evidence);
    const numeric = evidence.numeric;
    const combined = numeric
      ? numeric.share * numeric.score + (1 - numeric.share) * evidence.lexical
      : evidence.lexical;
    const ramp = numeric?.hasResults ? NUMERIC_RAMP : LEXICAL_RAMP;
    let rawCredit = status === 'answered' ? rampCredit(combined, ramp) : 0;
    // A result that is only partly right (missing or wrong unit, sign, rounding) always costs
    // something, however good the words around it are.
    if (numeric?.hasResults && numeric.score < 1) rawCredit = Math.min(rawCredit, 1 - 0.5 * (1 - numeric.score));
    items.push({
      rubricItemId: item.id,
      credit: rawCredit,
      evidence: combined,
      lexical: evidence.lexical,
      numeric: numeric ? numeric.score : null,
      certainty: itemCertainty(combined, ramp, numeric),
      pointsDeducted: 0,
      comment: '',
    });
  });
  const totalPoints = input.rubricItems.reduce((sum, item) => sum + item.points, 0);
  const itemShare =
    totalPoints > 0
      ? items.reduce((sum, item, index) => sum + item.credit * input.rubricItems[index]!.points, 0) / totalPoints
      : 0;
  const setAside = [...screened.saladSentences, ...screened.instructionSentences].join('\n');
  const features = measureAnswer({
    evidenceText: screened.evidenceText,
    allWordsCount: wordCount(answerText),
    setAsideWordsCount: wordCount(setAside),
    reference: context.reference,
    itemShare,
  });

  const vector = new Map<string, number>();
  for (const term of answerTerms(screened.evidenceText, context.reference)) {
    const weight = context.reference.vocabulary.has(term) ? weights.weightOf(term) : 1;
    vector.set(term, Math.min(2 * weight, (vector.get(term) ?? 0) + weight));
  }

  // What an off-topic answer is about instead: its longest words that the reference never uses.
  const answerTopics = [
    ...new Set(
      answerTokens
        .filter((token) => !weights.vocabulary.has(token.term) && /^[a-z][a-z -]{5,}$/i.test(token.display))
        .map((token) => token.display),
    ),
  ].sort((left, right) => right.length - left.length);

  const analysis: AnswerAnalysis = {
    status,
    items,
    evidences,
    answerQuantities: answer.quantities,
    answerTopics,
    hasInstructions: screened.instructionSentences.length > 0,
    features,
    coldLogit: coldLogit(features),
    vector,
    relevance,
    lengthRatio: answerTokens.length / referenceLength,
  };
  if (context.analyses.size >= ANALYSIS_CACHE_SIZE) context.analyses.delete(context.analyses.keys().next().value!);
  context.analyses.set(answerText, analysis);
  return analysis;
}

/** The answer states a value with a unit of the same kind as an expected one (e.g. a time). */
function givesValueOfKind(
  expected: readonly { dimension: readonly number[] | null }[],
  answerQuantities: readonly { dimension: readonly number[] | null }[],
): boolean {
  return expected.some(
    (target) =>
      target.dimension !== null &&
      answerQuantities.some(
        (quantity) =>
          quantity.dimension !== null && quantity.dimension.every((power, axis) => power === target.dimension![axis]),
      ),
  );
}

/** Statuses with nothing to judge: no words, only the question again, only words to the grader. */
const NOTHING_TO_JUDGE: ReadonlySet<AnswerStatus> = new Set(['blank', 'restates-question', 'instructions-only']);

/** Saved grades usable as examples: real text, a score within the points. */
export function prepareExamples(input: GradingInput, context: QuestionContext): PreparedExample[] {
  const prepared: PreparedExample[] = [];
  for (const example of input.examples ?? []) {
    if (!Number.isFinite(example.score) || example.score < 0 || example.score > input.points + 1e-9) continue;
    if (typeof example.answerText !== 'string' || example.answerText === input.answerText) continue;
    const analysis = analyseAnswer(example.answerText, input, context);
    if (NOTHING_TO_JUDGE.has(analysis.status)) continue;
    prepared.push({
      coldLogit: analysis.coldLogit,
      vector: analysis.vector,
      share: input.points > 0 ? example.score / input.points : 0,
      suggestedShare:
        input.points > 0 && example.suggestedScore !== null && Number.isFinite(example.suggestedScore)
          ? Math.min(1, Math.max(0, example.suggestedScore / input.points))
          : null,
    });
  }
  return prepared;
}

/**
 * Spreads the total deduction over the rubric items in proportion to what each item's evidence
 * found missing (water-filling: no item loses more than it is worth), in steps of a quarter point
 * (a hundredth when the total is off that grid), so the items add up exactly to the suggestion.
 */
export function spreadDeduction(total: number, itemPoints: readonly number[], deficits: readonly number[]): number[] {
  const count = itemPoints.length;
  if (count === 0 || total <= 1e-9) return itemPoints.map(() => 0);
  const unit = Math.abs(Math.round(total / 0.25) * 0.25 - total) < 1e-9 ? 0.25 : 0.01;
  const capacity = itemPoints.map((points) => Math.floor(points / unit + 1e-9));
  let remaining = Math.round(total / unit);
  const units = itemPoints.map(() => 0);
  // First by the evidence's deficits, then (if the total asks for more) by the room left.
  for (const weights of [deficits, itemPoints.map((points, index) => points - (deficits[index] ?? 0))]) {
    let open = capacity
      .map((cap, index) => (units[index]! < cap && (weights[index] ?? 0) > 1e-9 ? index : -1))
      .filter((index) => index >= 0);
    while (remaining > 0 && open.length > 0) {
      const weightSum = open.reduce((sum, index) => sum + weights[index]!, 0);
      const ideal = open.map((index) => (remaining * weights[index]!) / weightSum);
      let given = 0;
      const order = open
        .map((index, position) => ({ index, share: ideal[position]! }))
        .sort((left, right) => (right.share % 1) - (left.share % 1) || left.index - right.index);
      for (const { index, share } of order) {
        const room = capacity[index]! - units[index]!;
        const take = Math.min(room, Math.floor(share + 1e-9));
        units[index]! += take;
        given += take;
      }
      let left = remaining - given;
      for (const { index } of order) {
        if (left <= 0) break;
        if (units[index]! < capacity[index]!) {
          units[index]!++;
          left--;
        }
      }
      const handedOut = remaining - left;
      remaining = left;
      if (handedOut === 0) break;
      open = open.filter((index) => units[index]! < capacity[index]!);
    }
  }
  return units.map((value) => Math.round(value * unit * 100) / 100);
}

export function gradeAnswer(input: GradingInput): BuiltinJudgement {
  const context = questionContextFor(input);
  const analysis = analyseAnswer(input.answerText, input, context);
  const remarks: string[] = [];
  if (analysis.hasInstructions) {
    remarks.push(
      'Part of the answer is addressed to the grader (asking for marks or to ignore the rubric); it was disregarded and earns no credit.',
    );
  }
  const examples = NOTHING_TO_JUDGE.has(analysis.status) ? [] : prepareExamples(input, context);
  const prediction = predictShare(analysis.coldLogit, analysis.vector, examples);
  // Before any saved grade, an answer that is complete by the rubric or gives one whole
  // alternative of the solution ("newton" for "The newton (N), kg m/s^2") gets full marks: on the
  // development sets people gave such answers 0.78-0.99 of the points, and a short answer is
  // not a worse one. Saved grades, once there, know this instructor better.
  if (examples.length === 0 && analysis.features.isComplete && !analysis.features.negationMismatch)
    prediction.share = Math.max(prediction.share, 0.9);
  // Numbers are judged by value and unit, which the word-based model cannot see (the real sets it
  // was fitted on are prose). Where results to compute carry most of the points, an exact result
  // earns what the rubric evidence gives, and a value with a flaw (unit, sign, power of ten,
  // rounding) or a wrong value with a unit never earns more. A bare number the evidence could not
  // match leaves the model to judge: on real answers (decimal commas, probabilities written in
  // words) such a miss is weak evidence, and deciding by it cost r 0.74 -> 0.59 on SAF.
  const resultOutcomes = analysis.evidences.flatMap((evidence) =>
    (evidence.numeric?.outcomes ?? []).filter((outcome) => outcome.target.isResult),
  );
  const numericPoints = input.rubricItems.reduce(
    (sum, item, index) => sum + (analysis.evidences[index]?.numeric?.hasResults ? item.points : 0),
    0,
  );
  const isNumericQuestion = examples.length === 0 && numericPoints >= 0.5 * input.points && resultOutcomes.length > 0;
  const isFlawedResult = resultOutcomes.some(
    (outcome) =>
      ['missing-unit', 'wrong-unit', 'sign-error', 'power-of-ten', 'rounded'].includes(outcome.match) ||
      (outcome.match === 'none' && givesValueOfKind(outcome.target.expected, analysis.answerQuantities)),
  );
  const isDecidedByNumbers = isNumericQuestion && isFlawedResult;
  if (isNumericQuestion && resultOutcomes.every((outcome) => outcome.match === 'exact'))
    prediction.share = Math.max(prediction.share, analysis.features.itemShare);
  if (isDecidedByNumbers) prediction.share = Math.min(prediction.share, analysis.features.itemShare);
  let status = analysis.status;
  // A result that is only partly right (a missing unit) keeps its deduction: no snapping to full.
  let score = NOTHING_TO_JUDGE.has(status) ? 0 : roundScore(input.points, prediction.share, !isDecidedByNumbers);
  // Off-topic: hardly a word in common with the question, solution or rubric, and none of the
  // reference given. Saved grades may say otherwise (the instructor credited alike answers).
  const isUnrelated = analysis.features.recall < 0.1 && analysis.relevance < 0.2 && analysis.features.itemShare < 0.1;
  if (status === 'answered' && isUnrelated && (examples.length === 0 || prediction.share <= 0.15)) status = 'off-topic';
  if (status === 'off-topic') score = 0;

  const itemPoints = input.rubricItems.map((item) => item.points);
  const deficits = analysis.items.map((item, index) => itemPoints[index]! * (1 - item.credit));
  const deductions = spreadDeduction(input.points - score, itemPoints, deficits);
  const items = analysis.items.map((item, index) => {
    const rubricItem = input.rubricItems[index]!;
    const pointsDeducted = deductions[index] ?? 0;
    const credit = rubricItem.points > 0 ? 1 - pointsDeducted / rubricItem.points : 1;
    return {
      ...item,
      credit,
      pointsDeducted,
      comment:
        status !== 'answered'
          ? statusComment(status, rubricItem, analysis.answerTopics)
          : itemComment(rubricItem, credit, analysis.evidences[index]!, analysis.answerQuantities, input.questionText),
    };
  });

  const confidenceInputsList = NOTHING_TO_JUDGE.has(status) ? [] : confidenceInputs(input.points, prediction, examples);
  return {
    version: BUILTIN_GRADER_VERSION,
    status,
    items,
    remarks,
    confidence: NOTHING_TO_JUDGE.has(status)
      ? status === 'blank'
        ? BLANK_CONFIDENCE
        : LEXICAL_CONFIDENCE_CAP
      : estimateConfidence(confidenceInputsList, examples, input.points),
    confidenceInputs: {
      suggestedShare: input.points > 0 ? score / input.points : 1,
      predictedShare: prediction.share,
      examplesUsed: examples.length,
      nearestExample: prediction.nearest,
      features: analysis.features,
      model: confidenceInputsList,
    },
  };
}

/** A blank answer: every human grader gives nothing too, so the suggestion is kept almost always. */
export const BLANK_CONFIDENCE = 95;
