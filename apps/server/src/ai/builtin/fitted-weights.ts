/**
 * Weights of the built-in grader's suggestion model (suggestion-model.ts), written by
 * `npx tsx bench/_fit-grader-model.ts --data DIR --write` from the FIT splits of the public
 * development sets (SAF training; SemEval-2013 SciEntsBank and Beetle training). Never fitted on
 * the evaluation splits the benchmark reports. Re-fit after changing any feature.
 */
export const FITTED = {
  cold: { intercept: -2.4399, weights: [0.63, 0.0792, 0.9044, -0.4304, 0.7353, 0.2253, -0.4466, 1.0589, 0.3552] },
  warm: { intercept: 0.2047, weights: [0.1128, 0.8181, -0.1267, 0.3567, 0.1292, -0.1464, -0.0331, 0.4234, 0.2846] },
  confidence: {
    intercept: -4.38,
    weights: [2.032, -0.0357, 4.9029, 0.267, 0.2838, 0.1708, 0.2521, -1.8604, 1.3923, -0.7527, 0.1346],
  },
  confidencePrior: { slope: 0, shift: 0.5 },
  calibrationRidge: 3,
  neighbourSharpness: 15,
} as const;
