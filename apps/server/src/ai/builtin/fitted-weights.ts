import type { SuggestionModel } from './suggestion-model.ts';

/**
 * Weights of the built-in grader's suggestion model (suggestion-model.ts), fitted on every family
 * below by `npx tsx bench/grader-agreement.ts --data DIR --write` on 2026-12-01.
 * The figures are that run's, each family held out: measured with weights fitted on the others.
 *
 * data:
 *   saf: SebOchs/SAF @ 09949e912d266777a752ac7d51cfcddb4b3f6978 (partial credit 0..1 (score); English; training + unseen answers + unseen questions)
 *   scientsbank: leocomelli/score-freetext-answer + tobiasvennemann2401/GradingApp @ 5fd154c863f8cf4df19463c02a1a3eb98e262aa6 + c602a0494c085b0136ee153ee75b2ea959b9e7ac (5-way (SRA_numeric): correct 1, partially_correct_incomplete 0.5, contradictory/irrelevant/non_domain 0; training + unseen answers + unseen questions (unseen domains left out: 2-way only))
 *   beetle: leocomelli/score-freetext-answer + tobiasvennemann2401/GradingApp @ 5fd154c863f8cf4df19463c02a1a3eb98e262aa6 + c602a0494c085b0136ee153ee75b2ea959b9e7ac (5-way (SRA_numeric): correct 1, partially_correct_incomplete 0.5, contradictory/irrelevant/non_domain 0; training + unseen answers + unseen questions)
 *   asap-sas: mariebexte/s-bert-similarity-based-content-scoring @ 80e97b6e69932897e26d918e695743cd653e2666 (Score1 / set maximum (0-3 sets 1, 2, 5, 6; 0-2 others); train_rel_2 (gold train + test); question, key elements and rubric of sets 1, 2, 5, 6 from lijiazheng99/aera@76ca952555aa, the others none)
 *   powergrading: malik-ali/generative-grading + beingRD/CPSC5306-DataMiningProject @ 86cc2f5c8ba7900a46dc1974d9441f3e06f0e0fc + 505ceaeddf1d6cb933633e63a5af4a498a6856f1 (mean of three graders 0/1 (0, 1/3, 2/3, 1); the ten graded questions x 698 answers)
 * == saf held out (fitted on the other families only)
 *   k=0  n=2112  r 0.762  RMSE 0.245 (true mean 0.378, ratio 0.648)  bias +0.009  ECE 0.117  big errors in first 20% of the review queue: 2.24x random (lowest confidence first 0.79x)  salad over "I don't know." +0.045, over a wrong answer -0.205
 *   k=5  n=3960  r 0.797  RMSE 0.228 (mean of 5 0.387, ratio 0.588)  bias +0.012  ECE 0.070  big errors in first 20% of the review queue: 2.73x random (lowest confidence first 0.92x)  salad over "I don't know." +0.045, over a wrong answer -0.250
 *   k=10 n=3960  r 0.803  RMSE 0.225 (mean of 10 0.374, ratio 0.600)  bias +0.014  ECE 0.061  big errors in first 20% of the review queue: 2.85x random (lowest confidence first 1.13x)  salad over "I don't know." +0.045, over a wrong answer -0.277
 *   k=0 with the course (10 grades on each other question) n=2112 r 0.755  RMSE 0.248 (true mean 0.378, ratio 0.656)  bias +0.006  ECE 0.083  big errors in first 20% of the review queue: 2.30x random (lowest confidence first 0.60x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == scientsbank held out (fitted on the other families only)
 *   k=0  n=6242  r 0.471  RMSE 0.382 (true mean 0.429, ratio 0.890)  bias -0.048  ECE 0.066  big errors in first 20% of the review queue: 2.35x random (lowest confidence first 0.42x)  salad over "I don't know." +0.037, over a wrong answer -0.316
 *   k=5  n=4588  r 0.543  RMSE 0.360 (mean of 5 0.443, ratio 0.812)  bias -0.023  ECE 0.058  big errors in first 20% of the review queue: 2.57x random (lowest confidence first 0.60x)  salad over "I don't know." +0.032, over a wrong answer -0.352
 *   k=10 n=4588  r 0.586  RMSE 0.347 (mean of 10 0.425, ratio 0.817)  bias -0.020  ECE 0.061  big errors in first 20% of the review queue: 2.54x random (lowest confidence first 0.78x)  salad over "I don't know." +0.030, over a wrong answer -0.337
 *   k=0 with the course (10 grades on each other question) n=6242 r 0.466  RMSE 0.380 (true mean 0.429, ratio 0.885)  bias -0.004  ECE 0.041  big errors in first 20% of the review queue: 2.24x random (lowest confidence first 0.41x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == beetle held out (fitted on the other families only)
 *   k=0  n=5199  r 0.480  RMSE 0.446 (true mean 0.437, ratio 1.022)  bias +0.211  ECE 0.119  big errors in first 20% of the review queue: 1.37x random (lowest confidence first 0.87x)  salad over "I don't know." +0.044, over a wrong answer -0.500
 *   k=5  n=3180  r 0.517  RMSE 0.383 (mean of 5 0.459, ratio 0.835)  bias +0.042  ECE 0.070  big errors in first 20% of the review queue: 1.87x random (lowest confidence first 0.99x)  salad over "I don't know." +0.040, over a wrong answer -0.398
 *   k=10 n=3180  r 0.567  RMSE 0.366 (mean of 10 0.430, ratio 0.852)  bias +0.032  ECE 0.068  big errors in first 20% of the review queue: 2.22x random (lowest confidence first 1.05x)  salad over "I don't know." +0.044, over a wrong answer -0.376
 *   k=0 with the course (10 grades on each other question) n=5199 r 0.495  RMSE 0.393 (true mean 0.437, ratio 0.900)  bias -0.003  ECE 0.102  big errors in first 20% of the review queue: 1.83x random (lowest confidence first 0.83x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == asap-sas held out (fitted on the other families only)
 *   k=0  n=2500  r 0.542  RMSE 0.332 (true mean 0.387, ratio 0.858)  bias -0.066  ECE 0.135  big errors in first 20% of the review queue: 2.10x random (lowest confidence first 0.45x)  salad over "I don't know." +0.000, over a wrong answer -0.150
 *   k=5  n=3000  r 0.537  RMSE 0.330 (mean of 5 0.390, ratio 0.845)  bias -0.013  ECE 0.050  big errors in first 20% of the review queue: 2.45x random (lowest confidence first 0.76x)  salad over "I don't know." +0.000, over a wrong answer -0.300
 *   k=10 n=3000  r 0.569  RMSE 0.320 (mean of 10 0.363, ratio 0.882)  bias -0.010  ECE 0.041  big errors in first 20% of the review queue: 2.53x random (lowest confidence first 0.83x)  salad over "I don't know." +0.000, over a wrong answer -0.250
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.540  RMSE 0.327 (true mean 0.387, ratio 0.844)  bias +0.007  ECE 0.095  big errors in first 20% of the review queue: 2.73x random (lowest confidence first 0.51x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == powergrading held out (fitted on the other families only)
 *   k=0  n=2500  r 0.714  RMSE 0.331 (true mean 0.340, ratio 0.973)  bias -0.230  ECE 0.135  big errors in first 20% of the review queue: 1.86x random (lowest confidence first 0.74x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=3000  r 0.806  RMSE 0.209 (mean of 5 0.354, ratio 0.590)  bias -0.051  ECE 0.042  big errors in first 20% of the review queue: 4.27x random (lowest confidence first 0.99x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=3000  r 0.833  RMSE 0.191 (mean of 10 0.335, ratio 0.571)  bias -0.020  ECE 0.029  big errors in first 20% of the review queue: 4.53x random (lowest confidence first 3.00x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.718  RMSE 0.242 (true mean 0.340, ratio 0.712)  bias +0.030  ECE 0.020  big errors in first 20% of the review queue: 3.72x random (lowest confidence first 3.02x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == worst family (goal)
 *   |bias| at k=0 (<= 0.10)                      0.230 (powergrading)
 *   ECE at k=0 (<= 0.05)                         0.135 (asap-sas)
 *   |bias| at k=0 with the course (<= 0.10)      0.030 (powergrading)
 *   ECE at k=0 with the course (<= 0.05)         0.102 (beetle)
 *   RMSE / mean of 5 at k=5 (<= 0.90)            0.845 (asap-sas)
 *   RMSE / mean of 10 at k=10 (<= 0.85)          0.882 (asap-sas)
 *   RMSE / true mean at k=0                      1.022 (beetle)
 *   big errors in first 20%, x random, k=0 (>= 2) 1.370 (beetle)
 *   big errors in first 20%, x random, k=0 with the course (>= 2) 1.833 (beetle)
 *   big errors in first 20%, x random, k=5 (>= 2) 1.865 (beetle)
 *   big errors in first 20%, x random, k=10 (>= 2) 2.221 (beetle)
 *     the same, lowest confidence first, k=0     0.421 (scientsbank)
 *     the same, lowest confidence first, k=5     0.599 (scientsbank)
 *     the same, lowest confidence first, k=10    0.777 (scientsbank)
 *   salad over "I don't know.", k=0 (<= 0.05)    0.045 (saf)
 *   salad over "I don't know.", k=10 (<= 0.05)   0.045 (saf)
 *   leaking comments (<= 0.01)                   0.000 (saf)
 * time per answer: 24.9 ms (grading 4.2 ms + its meaning 20.7 ms; goal <= 150), resident memory 546 MB
 */
export const FITTED: SuggestionModel = {
  cold: {
    intercept: -1.3762,
    weights: [
      0.3789, 0.0327, 0.9361, -0.8358, 0.3469, 0.1648, -0.471, 0.5346, 0.9951, 0.9679, -0.3242, 0.169, 0.7988, 1.093,
      1.7207,
    ],
  },
  warm: [
    [0.778, 0.1493, -0.1715, -0.0639, -0.072, 0.1467, 0.1078, -0.0108, 0.1463, 0.5932, -0.0424],
    [0.7822, 0.0599, -0.0687, -0.0067, -0.0743, 0.1864, 0.0661, -0.0011, 0.2131, 0.4315, 0.081],
    [0.6896, 0.0428, -0.0387, 0.051, -0.1033, 0.1681, 0.0665, 0.0853, 0.1004, 0.2859, 0.1707],
    [0.6471, 0.1645, -0.0828, -0.0041, -0.0621, 0.2175, 0.062, 0.1958, -0.0563, 0.1777, 0.2123],
  ],
  confidence: {
    intercept: -0.0572,
    weights: [-2.1436, 2.3835, -0.3836, 0, 0.101, -0.2227, -0.0195, 0.4683, 0.327, 1.5556, -0.4608, 0.7629, -0.6298],
  },
  miss: {
    intercept: -0.5828,
    weights: [-3.4502, 1.131, 0.6116, 0, -0.1227, 0.2516, 0.2968, 0.2833, -0.3163, -0.8225, 0.1641, -0.203, 0.2575],
  },
  confidenceCold: { intercept: -0.8793, weights: [-2.5158, 4.487, -0.3487, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
  missCold: { intercept: -0.2517, weights: [-3.1141, 1.0975, 0.0233, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
};
