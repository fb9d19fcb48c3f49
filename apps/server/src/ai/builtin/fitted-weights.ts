/**
 * Weights of the built-in grader's suggestion model (suggestion-model.ts), written by
 * `npx tsx bench/fit-grader-model.ts --data DIR --write` from the FIT splits of the public
 * development sets (SAF training; SemEval-2013 SciEntsBank and Beetle training). Never fitted on
 * the evaluation splits the benchmark reports. Re-fit after changing any feature.
 */
export const FITTED = {
  cold: { intercept: -2.4475, weights: [0.6174, 0.0777, 0.9228, -0.4299, 0.7281, 0.2345, -0.4414, 1.0752, 0.3358] },
  warm: { intercept: 0.1915, weights: [0.1379, 0.7986, -0.0789, 0.308, 0.0856, -0.1166, 0.0914, 0.6546] },
  confidence: { intercept: -4.6001, weights: [2.3693, -0.0001, 4.5263, -0.3179, 0.2114, 0.1751, 0.2592] },
  calibrationRidge: 3,
  neighbourSharpness: 15,
} as const;
