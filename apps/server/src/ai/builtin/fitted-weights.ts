/**
 * Weights of the built-in grader's suggestion model (suggestion-model.ts), written by
 * `npx tsx bench/fit-grader-model.ts --data DIR --write` from the FIT splits of the public
 * development sets (SAF training; SemEval-2013 SciEntsBank and Beetle training). Never fitted on
 * the evaluation splits the benchmark reports. Re-fit after changing any feature.
 */
export const FITTED = {
  cold: { intercept: -2.4086, weights: [0.6582, 0.3296, 0.8756, -0.4155, 0.7079, 0.2435, -0.4449, 1.0746] },
  warm: { intercept: 0.1917, weights: [0.1284, 0.8088, -0.0787, 0.3073, 0.0834, -0.1171, 0.0959, 0.6548] },
  confidence: { intercept: -4.9725, weights: [2.8322, -0.0373, 5.5034, -0.2679, 0.2133, 0.1437, 0.3294] },
  calibrationRidge: 3,
  neighbourSharpness: 15,
} as const;
