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
 *   k=0  n=2112  r 0.760  RMSE 0.246 (true mean 0.378, ratio 0.650)  bias +0.010  ECE 0.075  big errors in first 20% of the review queue: 2.95x random (lowest confidence first 0.82x)  salad over "I don't know." +0.045, over a wrong answer -0.218
 *   k=5  n=3960  r 0.795  RMSE 0.230 (mean of 5 0.387, ratio 0.594)  bias +0.028  ECE 0.069  big errors in first 20% of the review queue: 2.64x random (lowest confidence first 0.98x)  salad over "I don't know." +0.045, over a wrong answer -0.277
 *   k=10 n=3960  r 0.804  RMSE 0.225 (mean of 10 0.374, ratio 0.602)  bias +0.032  ECE 0.060  big errors in first 20% of the review queue: 2.73x random (lowest confidence first 1.15x)  salad over "I don't know." +0.045, over a wrong answer -0.286
 *   k=0 with the course (10 grades on each other question) n=2112 r 0.751  RMSE 0.250 (true mean 0.378, ratio 0.661)  bias +0.006  ECE 0.068  big errors in first 20% of the review queue: 2.87x random (lowest confidence first 0.71x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == scientsbank held out (fitted on the other families only)
 *   k=0  n=6242  r 0.471  RMSE 0.382 (true mean 0.429, ratio 0.889)  bias -0.046  ECE 0.102  big errors in first 20% of the review queue: 2.34x random (lowest confidence first 0.40x)  salad over "I don't know." +0.037, over a wrong answer -0.322
 *   k=5  n=4588  r 0.524  RMSE 0.365 (mean of 5 0.443, ratio 0.823)  bias -0.015  ECE 0.057  big errors in first 20% of the review queue: 2.60x random (lowest confidence first 0.58x)  salad over "I don't know." +0.032, over a wrong answer -0.369
 *   k=10 n=4588  r 0.564  RMSE 0.354 (mean of 10 0.425, ratio 0.833)  bias -0.001  ECE 0.069  big errors in first 20% of the review queue: 2.58x random (lowest confidence first 0.76x)  salad over "I don't know." +0.029, over a wrong answer -0.378
 *   k=0 with the course (10 grades on each other question) n=6242 r 0.466  RMSE 0.380 (true mean 0.429, ratio 0.885)  bias -0.004  ECE 0.038  big errors in first 20% of the review queue: 2.32x random (lowest confidence first 0.37x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == beetle held out (fitted on the other families only)
 *   k=0  n=5199  r 0.470  RMSE 0.449 (true mean 0.437, ratio 1.027)  bias +0.208  ECE 0.162  big errors in first 20% of the review queue: 1.36x random (lowest confidence first 0.88x)  salad over "I don't know." +0.044, over a wrong answer -0.502
 *   k=5  n=3180  r 0.513  RMSE 0.386 (mean of 5 0.459, ratio 0.840)  bias +0.055  ECE 0.058  big errors in first 20% of the review queue: 1.85x random (lowest confidence first 0.90x)  salad over "I don't know." +0.040, over a wrong answer -0.427
 *   k=10 n=3180  r 0.558  RMSE 0.371 (mean of 10 0.430, ratio 0.862)  bias +0.054  ECE 0.059  big errors in first 20% of the review queue: 2.17x random (lowest confidence first 1.09x)  salad over "I don't know." +0.044, over a wrong answer -0.402
 *   k=0 with the course (10 grades on each other question) n=5199 r 0.490  RMSE 0.395 (true mean 0.437, ratio 0.905)  bias -0.003  ECE 0.077  big errors in first 20% of the review queue: 1.81x random (lowest confidence first 0.86x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == asap-sas held out (fitted on the other families only)
 *   k=0  n=2500  r 0.499  RMSE 0.343 (true mean 0.387, ratio 0.886)  bias -0.063  ECE 0.093  big errors in first 20% of the review queue: 2.18x random (lowest confidence first 0.53x)  salad over "I don't know." +0.000, over a wrong answer -0.150
 *   k=5  n=3000  r 0.509  RMSE 0.339 (mean of 5 0.390, ratio 0.869)  bias -0.018  ECE 0.062  big errors in first 20% of the review queue: 2.30x random (lowest confidence first 0.66x)  salad over "I don't know." +0.000, over a wrong answer -0.275
 *   k=10 n=3000  r 0.536  RMSE 0.330 (mean of 10 0.363, ratio 0.909)  bias -0.007  ECE 0.043  big errors in first 20% of the review queue: 2.40x random (lowest confidence first 0.73x)  salad over "I don't know." +0.000, over a wrong answer -0.225
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.506  RMSE 0.337 (true mean 0.387, ratio 0.870)  bias -0.003  ECE 0.122  big errors in first 20% of the review queue: 2.50x random (lowest confidence first 0.54x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == powergrading held out (fitted on the other families only)
 *   k=0  n=2500  r 0.710  RMSE 0.330 (true mean 0.340, ratio 0.971)  bias -0.227  ECE 0.136  big errors in first 20% of the review queue: 1.84x random (lowest confidence first 0.77x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=3000  r 0.803  RMSE 0.210 (mean of 5 0.354, ratio 0.591)  bias -0.045  ECE 0.043  big errors in first 20% of the review queue: 4.25x random (lowest confidence first 0.84x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=3000  r 0.829  RMSE 0.193 (mean of 10 0.335, ratio 0.575)  bias -0.011  ECE 0.030  big errors in first 20% of the review queue: 4.45x random (lowest confidence first 3.19x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.711  RMSE 0.245 (true mean 0.340, ratio 0.721)  bias +0.032  ECE 0.027  big errors in first 20% of the review queue: 3.87x random (lowest confidence first 2.53x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == worst family (goal)
 *   |bias| at k=0 (<= 0.10)                      0.227 (powergrading)
 *   ECE at k=0 (<= 0.05)                         0.162 (beetle)
 *   |bias| at k=0 with the course (<= 0.10)      0.032 (powergrading)
 *   ECE at k=0 with the course (<= 0.05)         0.122 (asap-sas)
 *   RMSE / mean of 5 at k=5 (<= 0.90)            0.869 (asap-sas)
 *   RMSE / mean of 10 at k=10 (<= 0.85)          0.909 (asap-sas)
 *   RMSE / true mean at k=0                      1.027 (beetle)
 *   big errors in first 20%, x random, k=0 (>= 2) 1.355 (beetle)
 *   big errors in first 20%, x random, k=0 with the course (>= 2) 1.813 (beetle)
 *   big errors in first 20%, x random, k=5 (>= 2) 1.851 (beetle)
 *   big errors in first 20%, x random, k=10 (>= 2) 2.167 (beetle)
 *     the same, lowest confidence first, k=0     0.401 (scientsbank)
 *     the same, lowest confidence first, k=5     0.581 (scientsbank)
 *     the same, lowest confidence first, k=10    0.729 (asap-sas)
 *   salad over "I don't know.", k=0 (<= 0.05)    0.045 (saf)
 *   salad over "I don't know.", k=10 (<= 0.05)   0.045 (saf)
 *   leaking comments (<= 0.01)                   0.000 (saf)
 * time per answer: 16.8 ms (grading 3.7 ms + its meaning 13.1 ms; goal <= 150), resident memory 716 MB
 */
export const FITTED: SuggestionModel = {
  cold: {
    intercept: -1.3524,
    weights: [
      0.3969, 0.0467, 0.9152, -0.8225, 0.3553, 0.1478, -0.4734, 0.5456, 0.9919, 0.9384, -0.3448, 0.1489, 0.7895, 0.9655,
      1.7167,
    ],
  },
  warm: [
    [0.6766, 0.1596, -0.2183, -0.0472, -0.033, 0.1439, 0.1237, -0.0237, 0.2413, 0.6113],
    [0.716, 0.1166, -0.0686, 0.0317, -0.0533, 0.3575, 0.0536, -0.0001, 0.2523, 0.4632],
    [0.6333, 0.0572, 0.0942, 0.0374, -0.0281, 0.2531, 0.0618, 0.1235, 0.1017, 0.3048],
    [0.659, 0.1243, 0.1179, -0.0204, 0.0068, 0.1877, 0.0691, 0.2557, -0.082, 0.2022],
  ],
  confidence: {
    intercept: -0.0191,
    weights: [-2.181, 2.1859, -0.1659, 0, 0.0568, -0.2283, -0.0201, 0.5327, 0.3445, 1.6303, -0.5956, 0.7526, -0.6953],
  },
  miss: {
    intercept: -0.6011,
    weights: [-3.4005, 1.2356, 0.4011, 0, -0.0987, 0.3035, 0.2565, 0.2033, -0.2265, -0.8614, 0.2504, -0.191, 0.3118],
  },
  confidenceCold: { intercept: -0.884, weights: [-1.9655, 4.4188, 0.0431, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
  missCold: { intercept: -0.2079, weights: [-3.344, 0.538, 0.0074, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
};
