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
 *   k=0  n=2112  r 0.762  RMSE 0.245 (true mean 0.378, ratio 0.648)  bias +0.009  ECE 0.086  big errors in first 20% of the review queue: 2.88x random (lowest confidence first 0.79x)  salad over "I don't know." +0.045, over a wrong answer -0.205
 *   k=5  n=3960  r 0.800  RMSE 0.226 (mean of 5 0.387, ratio 0.583)  bias +0.010  ECE 0.073  big errors in first 20% of the review queue: 2.62x random (lowest confidence first 0.89x)  salad over "I don't know." +0.045, over a wrong answer -0.236
 *   k=10 n=3960  r 0.808  RMSE 0.222 (mean of 10 0.374, ratio 0.593)  bias +0.013  ECE 0.067  big errors in first 20% of the review queue: 2.88x random (lowest confidence first 1.13x)  salad over "I don't know." +0.045, over a wrong answer -0.264
 *   k=0 with the course (10 grades on each other question) n=2112 r 0.755  RMSE 0.248 (true mean 0.378, ratio 0.656)  bias +0.006  ECE 0.084  big errors in first 20% of the review queue: 2.87x random (lowest confidence first 0.57x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == scientsbank held out (fitted on the other families only)
 *   k=0  n=6242  r 0.471  RMSE 0.382 (true mean 0.429, ratio 0.890)  bias -0.048  ECE 0.104  big errors in first 20% of the review queue: 2.35x random (lowest confidence first 0.42x)  salad over "I don't know." +0.037, over a wrong answer -0.316
 *   k=5  n=4588  r 0.536  RMSE 0.362 (mean of 5 0.443, ratio 0.817)  bias -0.023  ECE 0.058  big errors in first 20% of the review queue: 2.55x random (lowest confidence first 0.63x)  salad over "I don't know." +0.032, over a wrong answer -0.352
 *   k=10 n=4588  r 0.574  RMSE 0.351 (mean of 10 0.425, ratio 0.827)  bias -0.019  ECE 0.062  big errors in first 20% of the review queue: 2.65x random (lowest confidence first 0.74x)  salad over "I don't know." +0.029, over a wrong answer -0.350
 *   k=0 with the course (10 grades on each other question) n=6242 r 0.466  RMSE 0.380 (true mean 0.429, ratio 0.885)  bias -0.004  ECE 0.043  big errors in first 20% of the review queue: 2.28x random (lowest confidence first 0.40x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == beetle held out (fitted on the other families only)
 *   k=0  n=5199  r 0.480  RMSE 0.446 (true mean 0.437, ratio 1.022)  bias +0.211  ECE 0.167  big errors in first 20% of the review queue: 1.37x random (lowest confidence first 0.87x)  salad over "I don't know." +0.044, over a wrong answer -0.500
 *   k=5  n=3180  r 0.515  RMSE 0.384 (mean of 5 0.459, ratio 0.835)  bias +0.042  ECE 0.068  big errors in first 20% of the review queue: 1.85x random (lowest confidence first 0.99x)  salad over "I don't know." +0.040, over a wrong answer -0.398
 *   k=10 n=3180  r 0.560  RMSE 0.367 (mean of 10 0.430, ratio 0.854)  bias +0.030  ECE 0.066  big errors in first 20% of the review queue: 2.30x random (lowest confidence first 1.03x)  salad over "I don't know." +0.040, over a wrong answer -0.380
 *   k=0 with the course (10 grades on each other question) n=5199 r 0.495  RMSE 0.393 (true mean 0.437, ratio 0.900)  bias -0.003  ECE 0.076  big errors in first 20% of the review queue: 1.82x random (lowest confidence first 0.86x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == asap-sas held out (fitted on the other families only)
 *   k=0  n=2500  r 0.542  RMSE 0.332 (true mean 0.387, ratio 0.858)  bias -0.066  ECE 0.086  big errors in first 20% of the review queue: 2.10x random (lowest confidence first 0.45x)  salad over "I don't know." +0.000, over a wrong answer -0.150
 *   k=5  n=3000  r 0.534  RMSE 0.331 (mean of 5 0.390, ratio 0.847)  bias -0.015  ECE 0.049  big errors in first 20% of the review queue: 2.44x random (lowest confidence first 0.71x)  salad over "I don't know." +0.000, over a wrong answer -0.300
 *   k=10 n=3000  r 0.557  RMSE 0.323 (mean of 10 0.363, ratio 0.891)  bias -0.010  ECE 0.041  big errors in first 20% of the review queue: 2.45x random (lowest confidence first 0.75x)  salad over "I don't know." +0.000, over a wrong answer -0.275
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.540  RMSE 0.327 (true mean 0.387, ratio 0.844)  bias +0.007  ECE 0.098  big errors in first 20% of the review queue: 2.73x random (lowest confidence first 0.54x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == powergrading held out (fitted on the other families only)
 *   k=0  n=2500  r 0.714  RMSE 0.331 (true mean 0.340, ratio 0.973)  bias -0.230  ECE 0.131  big errors in first 20% of the review queue: 1.86x random (lowest confidence first 0.74x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=3000  r 0.804  RMSE 0.210 (mean of 5 0.354, ratio 0.594)  bias -0.052  ECE 0.039  big errors in first 20% of the review queue: 4.18x random (lowest confidence first 1.02x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=3000  r 0.830  RMSE 0.192 (mean of 10 0.335, ratio 0.575)  bias -0.021  ECE 0.030  big errors in first 20% of the review queue: 4.45x random (lowest confidence first 2.91x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.718  RMSE 0.242 (true mean 0.340, ratio 0.712)  bias +0.030  ECE 0.020  big errors in first 20% of the review queue: 3.80x random (lowest confidence first 3.02x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == worst family (goal)
 *   |bias| at k=0 (<= 0.10)                      0.230 (powergrading)
 *   ECE at k=0 (<= 0.05)                         0.167 (beetle)
 *   |bias| at k=0 with the course (<= 0.10)      0.030 (powergrading)
 *   ECE at k=0 with the course (<= 0.05)         0.098 (asap-sas)
 *   RMSE / mean of 5 at k=5 (<= 0.90)            0.847 (asap-sas)
 *   RMSE / mean of 10 at k=10 (<= 0.85)          0.891 (asap-sas)
 *   RMSE / true mean at k=0                      1.022 (beetle)
 *   big errors in first 20%, x random, k=0 (>= 2) 1.370 (beetle)
 *   big errors in first 20%, x random, k=0 with the course (>= 2) 1.817 (beetle)
 *   big errors in first 20%, x random, k=5 (>= 2) 1.850 (beetle)
 *   big errors in first 20%, x random, k=10 (>= 2) 2.302 (beetle)
 *     the same, lowest confidence first, k=0     0.421 (scientsbank)
 *     the same, lowest confidence first, k=5     0.633 (scientsbank)
 *     the same, lowest confidence first, k=10    0.743 (scientsbank)
 *   salad over "I don't know.", k=0 (<= 0.05)    0.045 (saf)
 *   salad over "I don't know.", k=10 (<= 0.05)   0.045 (saf)
 *   leaking comments (<= 0.01)                   0.000 (saf)
 * time per answer: 27.1 ms (grading 5.1 ms + its meaning 22.0 ms; goal <= 150), resident memory 513 MB
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
    [0.778, 0.1413, -0.1927, -0.0634, -0.072, 0.1435, 0.1063, -0.0127, 0.1481, 0.5934],
    [0.7853, 0.0861, -0.0241, -0.0114, -0.0659, 0.1701, 0.0732, 0.0218, 0.1951, 0.434],
    [0.7034, 0.1135, 0.0611, 0.0095, -0.0476, 0.1554, 0.0773, 0.1496, 0.0621, 0.2826],
    [0.6757, 0.25, 0.0337, -0.0258, -0.0151, 0.2023, 0.0741, 0.2904, -0.1008, 0.176],
  ],
  confidence: {
    intercept: -0.0501,
    weights: [-2.1903, 2.4351, -0.3049, 0, 0.1053, -0.2198, 0.0123, 0.4699, 0.3308, 1.5494, -0.5295, 0.7831, -0.6109],
  },
  miss: {
    intercept: -0.5809,
    weights: [-3.5226, 1.1454, 0.613, 0, -0.1332, 0.2716, 0.323, 0.2603, -0.2976, -0.8087, 0.1818, -0.1977, 0.2482],
  },
  confidenceCold: { intercept: -0.8441, weights: [-1.9686, 4.5011, -0.1638, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
  missCold: { intercept: -0.2397, weights: [-3.3653, 0.4868, 0.0629, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
};
