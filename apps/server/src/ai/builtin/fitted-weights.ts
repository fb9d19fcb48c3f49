/**
 * Weights of the built-in grader's suggestion model (suggestion-model.ts), written by
 * `npx tsx bench/fit-grader-model.ts --data DIR --write` from the FIT splits of the public
 * development sets (SAF training; SemEval-2013 SciEntsBank and Beetle training). Never fitted on
 * the evaluation splits the benchmark reports. Re-fit after changing any feature.
 */
export const FITTED = {
  cold: { intercept: -2.4221, weights: [0.6229, 0.0893, 0.9075, -0.4378, 0.7231, 0.2314, -0.4444, 1.063, 0.3359] },
  warm: { intercept: 0.1863, weights: [0.1378, 0.7913, -0.0793, 0.3069, 0.0877, -0.1136, 0.0951, 0.6595] },
  confidence: { intercept: -4.2434, weights: [1.5424, -0.1711, 4.9647, -0.0369, 0.1004, 0.297, 0.2183] },
  calibrationRidge: 3,
  neighbourSharpness: 15,
} as const;
