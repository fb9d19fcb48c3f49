import type { GradingInput } from '../grader-types.ts';
import { screenAnswer } from './answer-screening.ts';
import { estimateConfidence, itemCertainty, type ConfidenceInputs } from './confidence.ts';
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

export const BUILTIN_GRADER_VERSION = '1.0.0';

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
  /** What the confidence was computed from (kept for calibration and audits). */
  confidenceInputs: ConfidenceInputs;
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
function buildTermWeights(input: GradingInput): TermWeights & { vocabulary: Set<string> } {
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

export function gradeAnswer(input: GradingInput): BuiltinJudgement {
  const screened = screenAnswer(input.answerText, input.questionText);
  const weights = buildTermWeights(input);
  const questionQuantities = parseQuantities(input.questionText);
  const answer = viewAnswer(screened.evidenceSentences, questionQuantities);
  const questionTerms = new Set(contentTerms(input.questionText).map((token) => token.term));
  const referenceTerms = new Set([...weights.vocabulary].filter((term) => !questionTerms.has(term)));
  const alignedSolution = alignSolution(input, weights);
  const allTargets = input.rubricItems.flatMap((item) =>
    numericTargets(`${item.criterion}. ${item.guidance}`, questionQuantities),
  );

  const answerTokens = screened.evidenceSentences.flatMap((sentence) => contentTerms(sentence));
  const uniqueAnswerTerms = [...new Set(answerTokens.map((token) => token.term))];
  const relevance = uniqueAnswerTerms.length
    ? uniqueAnswerTerms.filter((term) => weights.vocabulary.has(term)).length / uniqueAnswerTerms.length
    : 0;
  const referenceLength = Math.max(1, contentTerms(`${input.solutionText}`).length);
  const lengthRatio = answerTokens.length / referenceLength;

  const remarks: string[] = [];
  if (screened.instructionSentences.length > 0) {
    remarks.push(
      'Part of the answer is addressed to the grader (asking for marks or to ignore the rubric); it was disregarded and earns no credit.',
    );
  }

  let status: AnswerStatus = 'answered';
  if (screened.isBlank) status = 'blank';
  else if (screened.evidenceSentences.length === 0)
    status = screened.instructionSentences.length > 0 ? 'instructions-only' : 'restates-question';
  else if (uniqueAnswerTerms.length < 2 && answer.quantities.length === 0) status = 'near-empty';

  const items: ItemJudgement[] = [];
  const evidences: ItemEvidence[] = [];
  input.rubricItems.forEach((item, index) => {
    const evidence = gatherItemEvidence({
      criterion: item.criterion,
      guidance: item.guidance,
      alignedSolution: alignedSolution[index] ?? [],
      answer,
      weights,
      questionText: input.questionText,
      questionQuantities,
      referenceTerms,
      allTargets,
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
    const pointsDeducted = roundDeduction(item.points, item.points * (1 - rawCredit));
    const credit = item.points > 0 ? 1 - pointsDeducted / item.points : 1;
    items.push({
      rubricItemId: item.id,
      credit,
      evidence: combined,
      lexical: evidence.lexical,
      numeric: numeric ? numeric.score : null,
      certainty: itemCertainty(combined, ramp, numeric),
      pointsDeducted,
      comment: '',
    });
  });

  // Off-topic: nothing earned and hardly a word in common with the question, solution or rubric.
  const creditShare =
    items.reduce((sum, item, index) => sum + item.credit * input.rubricItems[index]!.points, 0) /
    Math.max(
      1e-9,
      input.rubricItems.reduce((sum, item) => sum + item.points, 0),
    );
  if (status === 'answered' && creditShare <= 0.15 && relevance < 0.2) status = 'off-topic';

  // What an off-topic answer is about instead: its longest words that the reference never uses.
  const answerTopics = [
    ...new Set(
      answerTokens
        .filter((token) => !weights.vocabulary.has(token.term) && /^[a-z][a-z -]{5,}$/i.test(token.display))
        .map((token) => token.display),
    ),
  ].sort((left, right) => right.length - left.length);
  input.rubricItems.forEach((item, index) => {
    const judgement = items[index]!;
    if (status !== 'answered') {
      judgement.pointsDeducted = item.points;
      judgement.credit = 0;
      judgement.certainty = 1;
      judgement.comment = statusComment(status, item, answerTopics);
    } else {
      judgement.comment = itemComment(item, judgement.credit, evidences[index]!, answer.quantities);
    }
  });

  const deducted = items.reduce((sum, item) => sum + item.pointsDeducted, 0);
  const confidenceInputs = {
    itemCertainty: items.length
      ? items.reduce((sum, item, index) => sum + item.certainty * (input.rubricItems[index]!.points || 1), 0) /
        input.rubricItems.reduce((sum, item) => sum + (item.points || 1), 0)
      : 1,
    scoreShare: input.points > 0 ? Math.min(input.points, Math.max(0, input.points - deducted)) / input.points : 1,
    relevance,
    lengthRatio,
    isNumericHeavy: evidences.some((evidence) => evidence.numeric?.hasResults),
  };
  return {
    version: BUILTIN_GRADER_VERSION,
    status,
    items,
    remarks,
    confidence: estimateConfidence(status, confidenceInputs),
    confidenceInputs,
  };
}
