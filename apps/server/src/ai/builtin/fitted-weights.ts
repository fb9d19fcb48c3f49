import type { SuggestionModel } from './suggestion-model.ts';

/**
 * Weights of the built-in grader's suggestion model (suggestion-model.ts), fitted on every family
 * below by `npx tsx bench/grader-agreement.ts --data DIR --write` on 2026-11-29.
 * The figures are that run's, each family held out: measured with weights fitted on the others.
 *
 * data:
 *   saf: SebOchs/SAF @ 09949e912d266777a752ac7d51cfcddb4b3f6978 (partial credit 0..1 (score); English; training + unseen answers + unseen questions)
 *   scientsbank: leocomelli/score-freetext-answer + tobiasvennemann2401/GradingApp @ 5fd154c863f8cf4df19463c02a1a3eb98e262aa6 + c602a0494c085b0136ee153ee75b2ea959b9e7ac (5-way (SRA_numeric): correct 1, partially_correct_incomplete 0.5, contradictory/irrelevant/non_domain 0; training + unseen answers + unseen questions (unseen domains left out: 2-way only))
 *   beetle: leocomelli/score-freetext-answer + tobiasvennemann2401/GradingApp @ 5fd154c863f8cf4df19463c02a1a3eb98e262aa6 + c602a0494c085b0136ee153ee75b2ea959b9e7ac (5-way (SRA_numeric): correct 1, partially_correct_incomplete 0.5, contradictory/irrelevant/non_domain 0; training + unseen answers + unseen questions)
 *   asap-sas: mariebexte/s-bert-similarity-based-content-scoring @ 80e97b6e69932897e26d918e695743cd653e2666 (Score1 / set maximum (0-3 sets 1, 2, 5, 6; 0-2 others); train_rel_2 (gold train + test); no question texts or reference answers)
 *   powergrading: malik-ali/generative-grading + beingRD/CPSC5306-DataMiningProject @ 86cc2f5c8ba7900a46dc1974d9441f3e06f0e0fc + 505ceaeddf1d6cb933633e63a5af4a498a6856f1 (mean of three graders 0/1 (0, 1/3, 2/3, 1); the ten graded questions x 698 answers)
 * == saf held out (fitted on the other families only)
 *   k=0  n=2112  r 0.766  RMSE 0.243 (true mean 0.378, ratio 0.642)  bias -0.000  ECE 0.081  big errors in first 20% of the review queue: 3.04x random (lowest confidence first 0.72x)  salad over "I don't know." +0.045, over a wrong answer -0.182
 *   k=5  n=1320  r 0.807  RMSE 0.224 (mean of 5 0.388, ratio 0.578)  bias +0.023  ECE 0.065  big errors in first 20% of the review queue: 2.99x random (lowest confidence first 2.07x)  salad over "I don't know." +0.045, over a wrong answer -0.241
 *   k=10 n=1320  r 0.794  RMSE 0.231 (mean of 10 0.381, ratio 0.608)  bias +0.028  ECE 0.050  big errors in first 20% of the review queue: 2.47x random (lowest confidence first 2.02x)  salad over "I don't know." +0.045, over a wrong answer -0.268
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == scientsbank held out (fitted on the other families only)
 *   k=0  n=6242  r 0.462  RMSE 0.392 (true mean 0.429, ratio 0.914)  bias -0.091  ECE 0.079  big errors in first 20% of the review queue: 2.15x random (lowest confidence first 0.53x)  salad over "I don't know." +0.037, over a wrong answer -0.266
 *   k=5  n=4588  r 0.502  RMSE 0.376 (mean of 5 0.443, ratio 0.847)  bias +0.005  ECE 0.050  big errors in first 20% of the review queue: 2.23x random (lowest confidence first 1.08x)  salad over "I don't know." +0.033, over a wrong answer -0.369
 *   k=10 n=4588  r 0.552  RMSE 0.357 (mean of 10 0.425, ratio 0.841)  bias +0.010  ECE 0.067  big errors in first 20% of the review queue: 2.50x random (lowest confidence first 1.19x)  salad over "I don't know." +0.031, over a wrong answer -0.384
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == beetle held out (fitted on the other families only)
 *   k=0  n=5199  r 0.470  RMSE 0.450 (true mean 0.437, ratio 1.031)  bias +0.207  ECE 0.112  big errors in first 20% of the review queue: 1.33x random (lowest confidence first 0.91x)  salad over "I don't know." +0.044, over a wrong answer -0.502
 *   k=5  n=3180  r 0.489  RMSE 0.398 (mean of 5 0.459, ratio 0.866)  bias -0.037  ECE 0.091  big errors in first 20% of the review queue: 2.02x random (lowest confidence first 1.05x)  salad over "I don't know." +0.042, over a wrong answer -0.336
 *   k=10 n=3180  r 0.546  RMSE 0.374 (mean of 10 0.430, ratio 0.870)  bias -0.004  ECE 0.085  big errors in first 20% of the review queue: 2.13x random (lowest confidence first 1.04x)  salad over "I don't know." +0.044, over a wrong answer -0.351
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == asap-sas held out (fitted on the other families only)
 *   k=0  n=2500  r 0.341  RMSE 0.365 (true mean 0.387, ratio 0.943)  bias -0.014  ECE 0.047  big errors in first 20% of the review queue: 1.79x random (lowest confidence first 0.38x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=600   r 0.474  RMSE 0.373 (mean of 5 0.393, ratio 0.949)  bias +0.058  ECE 0.132  big errors in first 20% of the review queue: 1.99x random (lowest confidence first 0.93x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=600   r 0.529  RMSE 0.330 (mean of 10 0.350, ratio 0.942)  bias -0.005  ECE 0.086  big errors in first 20% of the review queue: 2.77x random (lowest confidence first 0.68x)  salad over "I don't know."   -  , over a wrong answer   -
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == powergrading held out (fitted on the other families only)
 *   k=0  n=2500  r 0.693  RMSE 0.340 (true mean 0.340, ratio 0.999)  bias -0.235  ECE 0.190  big errors in first 20% of the review queue: 1.86x random (lowest confidence first 1.04x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=600   r 0.814  RMSE 0.194 (mean of 5 0.348, ratio 0.556)  bias +0.014  ECE 0.096  big errors in first 20% of the review queue: 4.49x random (lowest confidence first 2.95x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=600   r 0.838  RMSE 0.181 (mean of 10 0.322, ratio 0.561)  bias +0.008  ECE 0.077  big errors in first 20% of the review queue: 4.12x random (lowest confidence first 4.56x)  salad over "I don't know."   -  , over a wrong answer   -
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == worst family (goal)
 *   |bias| at k=0 (<= 0.10)                      0.235 (powergrading)
 *   ECE at k=0 (<= 0.05)                         0.190 (powergrading)
 *   RMSE / mean of 5 at k=5 (<= 0.90)            0.949 (asap-sas)
 *   RMSE / mean of 10 at k=10 (<= 0.85)          0.942 (asap-sas)
 *   RMSE / true mean at k=0                      1.031 (beetle)
 *   big errors in first 20%, x random, k=0 (>= 2) 1.329 (beetle)
 *   big errors in first 20%, x random, k=5 (>= 2) 1.987 (asap-sas)
 *   big errors in first 20%, x random, k=10 (>= 2) 2.134 (beetle)
 *     the same, lowest confidence first, k=0     0.381 (asap-sas)
 *     the same, lowest confidence first, k=5     0.927 (asap-sas)
 *     the same, lowest confidence first, k=10    0.682 (asap-sas)
 *   salad over "I don't know.", k=0 (<= 0.05)    0.045 (saf)
 *   salad over "I don't know.", k=10 (<= 0.05)   0.045 (saf)
 *   leaking comments (<= 0.01)                   0.000 (saf)
 * time per answer: 25.8 ms (grading 3.1 ms + its meaning 22.7 ms; goal <= 150), resident memory 468 MB
 */
export const FITTED: SuggestionModel = {
  cold: {
    intercept: -1.6045,
    weights: [
      0.4313, 0.0275, 0.9281, -0.8994, 0.3076, 0.2038, -0.442, 0.5415, 0.9785, 1.0265, 0.0688, 0.1718, 0.8547, 0.8125,
      1.4129,
    ],
  },
  warm: [
    [1.0404, 0.1176, -0.3599, -0.031, -0.2381, -0.0239, 0.2785, 0.0076, 0.1909],
    [0.8898, 0.051, -0.0007, -0.0047, -0.1354, 0.3093, 0.0415, 0.057, 0.1939],
    [0.7732, 0.0494, 0.1191, -0.0369, -0.0718, 0.2329, 0.0547, 0.1413, 0.0496],
    [0.7324, 0.1606, 0.1057, -0.0605, -0.038, 0.1635, 0.0627, 0.2776, -0.0718],
  ],
  confidence: {
    intercept: -0.3501,
    weights: [-1.7704, 3.1659, -1.5415, -0.065, 0.191, 0.1411, -0.45, -0.5439, 0.4666, 1.687, -0.1915, 0.5814, -0.5465],
  },
  miss: {
    intercept: -0.5674,
    weights: [
      -2.9756, 0.9546, 1.2672, 0.3646, -0.2473, -0.3296, 0.8163, 0.8578, -0.5156, -1.1629, -0.7517, -0.1403, 0.4213,
    ],
  },
};
