/**
 * Weights of the built-in grader's suggestion model (suggestion-model.ts), written by
 * `npx tsx bench/fit-grader-model.ts --data DIR --write` from the FIT splits of the public
 * development sets (SAF training; SemEval-2013 SciEntsBank and Beetle training). Never fitted on
 * the evaluation splits the benchmark reports. Re-fit after changing any feature.
 */
export const FITTED = {
  cold: { intercept: -2.4476, weights: [0.6185, 0.0773, 0.9225, -0.4298, 0.7281, 0.2346, -0.4412, 1.0744, 0.3359] },
  warm: { intercept: 0.1914, weights: [0.1377, 0.7987, -0.0789, 0.308, 0.0855, -0.1166, 0.0915, 0.6546] },
  confidence: { intercept: -4.597, weights: [2.3693, -0.0043, 4.521, -0.3169, 0.2108, 0.1778, 0.2592] },
  calibrationRidge: 3,
  neighbourSharpness: 15,
} as const;
