/**
 * Weights of the built-in grader's suggestion model (suggestion-model.ts), written by
 * `npx tsx bench/_fit-grader-model.ts --data DIR --write` from the FIT splits of the public
 * development sets (SAF training; SemEval-2013 SciEntsBank and Beetle training). Never fitted on
 * the evaluation splits the benchmark reports. Re-fit after changing any feature.
 */
export const FITTED = {
  cold: { intercept: -2.4221, weights: [0.6229, 0.0893, 0.9075, -0.4378, 0.7231, 0.2314, -0.4444, 1.063, 0.3359] },
  warm: { intercept: 0.2053, weights: [0.1143, 0.8165, -0.1269, 0.3564, 0.1299, -0.1465, -0.0352, 0.4241, 0.2849] },
  confidence: {
    intercept: -4.2297,
    weights: [1.4244, -0.2262, 5.3534, 1.097, 0.196, 0.3958, 0.232, -2.0432, 0.8161, -0.5531, -0.1041],
  },
  calibrationRidge: 3,
  neighbourSharpness: 15,
} as const;
