import type { NumericEvidence } from './item-evidence.ts';

/**
 * How settled one rubric item's judgement is: how far its evidence sits from the thresholds where
 * its deduction would change, and whether numbers matched exactly. Kept per item in the judgement
 * for audits; the suggestion's confidence itself comes from suggestion-model.ts (decision 0013).
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
    const allExact =
      resultOutcomes.every((outcome) => outcome.match === 'exact') &&
      numeric.formulaOutcomes.every((formula) => formula.outcome === 'right');
    const someNumberCompared =
      resultOutcomes.some((outcome) => outcome.actual !== null || outcome.stated !== null) ||
      numeric.formulaOutcomes.length > 0;
    // An exact value is the clearest evidence there is; a parsed value that is wrong is clear too.
    if (allExact) certainty = Math.max(certainty, 0.95);
    else if (someNumberCompared) certainty = Math.max(certainty, 0.7);
  }
  return certainty;
}
