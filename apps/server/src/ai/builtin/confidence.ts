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
  /** Points-weighted mean of the items' certainties. */
  itemCertainty: number;
  /** Suggested score / points. */
  scoreShare: number;
  /** Kept for audits: share of answer words found in the question, solution or rubric. */
  relevance: number;
  lengthRatio: number;
  isNumericHeavy: boolean;
}

/**
 * Expected |suggested - human| as a share of the question's points:
 *   error = 0.125 - 0.12 x itemCertainty + 0.16 x middleness,  middleness = 1 - |2 x scoreShare - 1|
 * Least squares on the dev split (116 answers that were not blank): the two inputs that predicted
 * error best. Scores near 0 or near full marks are where humans and the grader agree most; scores
 * in the middle are partial-credit judgements where they differ most.
 */
export const CONFIDENCE_MODEL = { intercept: 0.125, itemCertainty: -0.12, middleness: 0.16 } as const;

/** Confidence 0 means an expected error of this share of the points (or more). */
export const ERROR_AT_ZERO_CONFIDENCE = 0.3;

export function expectedRelativeError(inputs: Pick<ConfidenceInputs, 'itemCertainty' | 'scoreShare'>): number {
  const middleness = 1 - Math.abs(2 * Math.min(1, Math.max(0, inputs.scoreShare)) - 1);
  const error =
    CONFIDENCE_MODEL.intercept +
    CONFIDENCE_MODEL.itemCertainty * inputs.itemCertainty +
    CONFIDENCE_MODEL.middleness * middleness;
  return Math.min(1, Math.max(0, error));
}

/** confidence = 100 x (1 - expected error / 0.3), clamped to 5..99 (never a promise of 100). */
export function estimateConfidence(status: AnswerStatus, inputs: ConfidenceInputs): number {
  // A blank answer or one that only repeats the question or talks to the grader: nothing to judge.
  if (status === 'blank' || status === 'restates-question' || status === 'instructions-only') return 97;
  const error = expectedRelativeError(inputs);
  return Math.round(Math.min(99, Math.max(5, 100 * (1 - error / ERROR_AT_ZERO_CONFIDENCE))));
}
