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
    intercept: -2.9907,
    weights: [0.481, -0.0969, 1.1315, 0.3166, 0.6969, 0.1529, 0.1484, 0.0095, -0.2719, 3.0768, -0.3048, 1.3276, 0.2134],
  },
  confidencePrior: { slope: 0, shift: 0.5 },
  calibrationRidge: 3,
  neighbourSharpness: 15,
} as const;
