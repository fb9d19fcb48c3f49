/**
 * Weights of the built-in grader's suggestion model (suggestion-model.ts), written by
 * `npx tsx bench/fit-grader-model.ts --data DIR --write` from the FIT splits of the public
 * development sets (SAF training; SemEval-2013 SciEntsBank and Beetle training). Never fitted on
 * the evaluation splits the benchmark reports. Re-fit after changing any feature.
 */
export const FITTED = {
  cold: { intercept: -2.4101, weights: [0.6185, 0.3482, 0.8993, -0.4219, 0.7159, 0.258, -0.4305, 1.049] },
  warm: { intercept: 0.1988, weights: [0.1573, 0.7845, 0.007, 0.3592, 0.0019, -0.117] },
  confidence: { intercept: -4.923, weights: [2.7919, -0.0534, 5.5292, -0.3437, 0.2661, 0.1069, 0.33] },
  calibrationRidge: 3,
  neighbourSharpness: 10,
} as const;
