import type { NumericEvidence } from './item-evidence.ts';
import type { AnswerStatus } from './grade-answer.ts';

/**
 * Confidence means: how close we expect the suggested score to be to a careful human's. It is
 * built from how far each item's evidence sits from the thresholds where its deduction would
 * change (margins), whether numbers matched exactly, and whether the answer looks like something
 * the lexical evidence can judge (on-topic vocabulary, a sensible length). The mapping from those
 * inputs to a percentage was fitted on the development set: see
 * docs/decisions/0003-builtin-grader-and-confidence.md.
 */

/** 0..1 for one item: 0.5 on a threshold, 1 when a quarter of the scale away from both. */
export function itemCertainty(
  evidence: number,
  ramp: { low: number; high: number },
  numeric: NumericEvidence | null,
): number {
  const margin =
    evidence <= ramp.low
      ? ramp.low - evidence
      : evidence >= ramp.high
        ? evidence - ramp.high
        : -Math.min(evidence - ramp.low, ramp.high - evidence);
  let certainty = Math.min(1, Math.max(0, 0.5 + margin / 0.25));
  if (numeric?.hasResults) {
    const resultOutcomes = numeric.outcomes.filter((outcome) => outcome.target.isResult);
    const allExact = resultOutcomes.every((outcome) => outcome.match === 'exact');
    const someNumberCompared = resultOutcomes.some((outcome) => outcome.actual !== null);
    // An exact value is the clearest evidence there is; a parsed value that is wrong is clear too.
    if (allExact) certainty = Math.max(certainty, 0.95);
    else if (someNumberCompared) certainty = Math.max(certainty, 0.7);
  }
  return certainty;
}

export interface ConfidenceInputs {
  itemCertainty: number;
  relevance: number;
  lengthRatio: number;
  isNumericHeavy: boolean;
}

/**
 * Expected absolute error as a share of the question's points, from the inputs. Coefficients
 * fitted on the dev split (least squares on |score - human| / points); see the ADR.
 */
export const CONFIDENCE_MODEL = {
  intercept: 0.3,
  perItemCertainty: -0.25,
  offVocabulary: 0.05,
  lengthOutOfRange: 0.05,
  numericHeavy: -0.02,
} as const;

export function expectedRelativeError(inputs: ConfidenceInputs): number {
  const model = CONFIDENCE_MODEL;
  const offVocabulary = 1 - inputs.relevance;
  const lengthOutOfRange = inputs.lengthRatio < 0.25 || inputs.lengthRatio > 2.5 ? 1 : 0;
  const error =
    model.intercept +
    model.perItemCertainty * inputs.itemCertainty +
    model.offVocabulary * offVocabulary +
    model.lengthOutOfRange * lengthOutOfRange +
    model.numericHeavy * (inputs.isNumericHeavy ? 1 : 0);
  return Math.min(1, Math.max(0.01, error));
}

/** Confidence = 100 x (1 - expected error / MAX_EXPECTED_ERROR), clamped to 5..99. */
export const MAX_EXPECTED_ERROR = 0.4;

export function estimateConfidence(status: AnswerStatus, inputs: ConfidenceInputs): number {
  // A blank answer or one that only repeats the question is as certain as grading gets.
  if (status === 'blank' || status === 'restates-question' || status === 'instructions-only') return 97;
  const error = expectedRelativeError(inputs);
  return Math.round(Math.min(99, Math.max(5, 100 * (1 - error / MAX_EXPECTED_ERROR))));
}
