import type { SuggestionModel } from './suggestion-model.ts';

/**
 * Weights of the built-in grader's suggestion model (suggestion-model.ts), fitted on every family
 * below by `npx tsx bench/grader-agreement.ts --data DIR --write` on 2026-11-30.
 * The figures are that run's, each family held out: measured with weights fitted on the others.
 *
 * data:
 *   saf: SebOchs/SAF @ 09949e912d266777a752ac7d51cfcddb4b3f6978 (partial credit 0..1 (score); English; training + unseen answers + unseen questions)
 *   scientsbank: leocomelli/score-freetext-answer + tobiasvennemann2401/GradingApp @ 5fd154c863f8cf4df19463c02a1a3eb98e262aa6 + c602a0494c085b0136ee153ee75b2ea959b9e7ac (5-way (SRA_numeric): correct 1, partially_correct_incomplete 0.5, contradictory/irrelevant/non_domain 0; training + unseen answers + unseen questions (unseen domains left out: 2-way only))
 *   beetle: leocomelli/score-freetext-answer + tobiasvennemann2401/GradingApp @ 5fd154c863f8cf4df19463c02a1a3eb98e262aa6 + c602a0494c085b0136ee153ee75b2ea959b9e7ac (5-way (SRA_numeric): correct 1, partially_correct_incomplete 0.5, contradictory/irrelevant/non_domain 0; training + unseen answers + unseen questions)
 *   asap-sas: mariebexte/s-bert-similarity-based-content-scoring @ 80e97b6e69932897e26d918e695743cd653e2666 (Score1 / set maximum (0-3 sets 1, 2, 5, 6; 0-2 others); train_rel_2 (gold train + test); no question texts or reference answers)
 *   powergrading: malik-ali/generative-grading + beingRD/CPSC5306-DataMiningProject @ 86cc2f5c8ba7900a46dc1974d9441f3e06f0e0fc + 505ceaeddf1d6cb933633e63a5af4a498a6856f1 (mean of three graders 0/1 (0, 1/3, 2/3, 1); the ten graded questions x 698 answers)
 * == saf held out (fitted on the other families only)
 *   k=0  n=2112  r 0.766  RMSE 0.243 (true mean 0.378, ratio 0.642)  bias -0.000  ECE 0.071  big errors in first 20% of the review queue: 2.98x random (lowest confidence first 0.75x)  salad over "I don't know." +0.045, over a wrong answer -0.182
 *   k=5  n=3960  r 0.802  RMSE 0.225 (mean of 5 0.387, ratio 0.582)  bias +0.023  ECE 0.071  big errors in first 20% of the review queue: 2.64x random (lowest confidence first 1.13x)  salad over "I don't know." +0.045, over a wrong answer -0.250
 *   k=10 n=3960  r 0.808  RMSE 0.223 (mean of 10 0.374, ratio 0.595)  bias +0.028  ECE 0.060  big errors in first 20% of the review queue: 2.74x random (lowest confidence first 1.32x)  salad over "I don't know." +0.045, over a wrong answer -0.282
 *   k=0 with the course (10 grades on each other question) n=2112 r 0.761  RMSE 0.245 (true mean 0.378, ratio 0.649)  bias +0.005  ECE 0.073  big errors in first 20% of the review queue: 2.92x random (lowest confidence first 0.61x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == scientsbank held out (fitted on the other families only)
 *   k=0  n=6242  r 0.462  RMSE 0.392 (true mean 0.429, ratio 0.914)  bias -0.091  ECE 0.050  big errors in first 20% of the review queue: 2.11x random (lowest confidence first 0.53x)  salad over "I don't know." +0.037, over a wrong answer -0.266
 *   k=5  n=4588  r 0.530  RMSE 0.364 (mean of 5 0.443, ratio 0.821)  bias -0.031  ECE 0.059  big errors in first 20% of the review queue: 2.50x random (lowest confidence first 0.63x)  salad over "I don't know." +0.032, over a wrong answer -0.348
 *   k=10 n=4588  r 0.570  RMSE 0.352 (mean of 10 0.425, ratio 0.829)  bias -0.011  ECE 0.057  big errors in first 20% of the review queue: 2.60x random (lowest confidence first 0.83x)  salad over "I don't know." +0.030, over a wrong answer -0.363
 *   k=0 with the course (10 grades on each other question) n=6242 r 0.463  RMSE 0.381 (true mean 0.429, ratio 0.889)  bias -0.004  ECE 0.049  big errors in first 20% of the review queue: 2.14x random (lowest confidence first 0.43x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == beetle held out (fitted on the other families only)
 *   k=0  n=5199  r 0.470  RMSE 0.450 (true mean 0.437, ratio 1.031)  bias +0.207  ECE 0.182  big errors in first 20% of the review queue: 1.31x random (lowest confidence first 0.92x)  salad over "I don't know." +0.044, over a wrong answer -0.502
 *   k=5  n=3180  r 0.510  RMSE 0.387 (mean of 5 0.459, ratio 0.843)  bias +0.045  ECE 0.066  big errors in first 20% of the review queue: 1.78x random (lowest confidence first 1.08x)  salad over "I don't know." +0.042, over a wrong answer -0.402
 *   k=10 n=3180  r 0.553  RMSE 0.372 (mean of 10 0.430, ratio 0.865)  bias +0.042  ECE 0.068  big errors in first 20% of the review queue: 2.13x random (lowest confidence first 1.09x)  salad over "I don't know." +0.044, over a wrong answer -0.389
 *   k=0 with the course (10 grades on each other question) n=5199 r 0.488  RMSE 0.397 (true mean 0.437, ratio 0.910)  bias -0.004  ECE 0.057  big errors in first 20% of the review queue: 1.75x random (lowest confidence first 0.78x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == asap-sas held out (fitted on the other families only)
 *   k=0  n=2500  r 0.341  RMSE 0.365 (true mean 0.387, ratio 0.943)  bias -0.014  ECE 0.027  big errors in first 20% of the review queue: 1.52x random (lowest confidence first 0.30x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=3000  r 0.469  RMSE 0.344 (mean of 5 0.390, ratio 0.882)  bias +0.003  ECE 0.049  big errors in first 20% of the review queue: 2.31x random (lowest confidence first 0.61x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=3000  r 0.514  RMSE 0.333 (mean of 10 0.363, ratio 0.918)  bias +0.008  ECE 0.048  big errors in first 20% of the review queue: 2.42x random (lowest confidence first 0.63x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.245  RMSE 0.376 (true mean 0.387, ratio 0.971)  bias -0.007  ECE 0.088  big errors in first 20% of the review queue: 1.61x random (lowest confidence first 0.37x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == powergrading held out (fitted on the other families only)
 *   k=0  n=2500  r 0.693  RMSE 0.340 (true mean 0.340, ratio 0.999)  bias -0.235  ECE 0.132  big errors in first 20% of the review queue: 1.67x random (lowest confidence first 1.01x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=3000  r 0.807  RMSE 0.206 (mean of 5 0.354, ratio 0.582)  bias -0.040  ECE 0.041  big errors in first 20% of the review queue: 4.20x random (lowest confidence first 0.99x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=3000  r 0.835  RMSE 0.189 (mean of 10 0.335, ratio 0.565)  bias -0.008  ECE 0.030  big errors in first 20% of the review queue: 4.40x random (lowest confidence first 3.36x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.709  RMSE 0.245 (true mean 0.340, ratio 0.721)  bias +0.030  ECE 0.025  big errors in first 20% of the review queue: 3.87x random (lowest confidence first 2.69x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == worst family (goal)
 *   |bias| at k=0 (<= 0.10)                      0.235 (powergrading)
 *   ECE at k=0 (<= 0.05)                         0.182 (beetle)
 *   |bias| at k=0 with the course (<= 0.10)      0.030 (powergrading)
 *   ECE at k=0 with the course (<= 0.05)         0.088 (asap-sas)
 *   RMSE / mean of 5 at k=5 (<= 0.90)            0.882 (asap-sas)
 *   RMSE / mean of 10 at k=10 (<= 0.85)          0.918 (asap-sas)
 *   RMSE / true mean at k=0                      1.031 (beetle)
 *   big errors in first 20%, x random, k=0 (>= 2) 1.310 (beetle)
 *   big errors in first 20%, x random, k=0 with the course (>= 2) 1.615 (asap-sas)
 *   big errors in first 20%, x random, k=5 (>= 2) 1.781 (beetle)
 *   big errors in first 20%, x random, k=10 (>= 2) 2.130 (beetle)
 *     the same, lowest confidence first, k=0     0.300 (asap-sas)
 *     the same, lowest confidence first, k=5     0.606 (asap-sas)
 *     the same, lowest confidence first, k=10    0.630 (asap-sas)
 *   salad over "I don't know.", k=0 (<= 0.05)    0.045 (saf)
 *   salad over "I don't know.", k=10 (<= 0.05)   0.045 (saf)
 *   leaking comments (<= 0.01)                   0.000 (saf)
 * time per answer: 39.3 ms (grading 10.0 ms + its meaning 29.3 ms; goal <= 150), resident memory 449 MB
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
    [0.8009, 0.155, -0.1795, -0.0736, -0.1028, 0.104, 0.1125, -0.031, 0.1592, 0.5763],
    [0.821, 0.0937, -0.0794, -0.0106, -0.1102, 0.3355, 0.0573, -0.0097, 0.2225, 0.4248],
    [0.74, 0.06, 0.0795, -0.0251, -0.071, 0.2275, 0.0622, 0.1272, 0.0739, 0.2655],
    [0.7155, 0.1637, 0.0837, -0.0567, -0.0363, 0.1582, 0.0689, 0.2732, -0.0602, 0.189],
  ],
  confidence: {
    intercept: -0.1925,
    weights: [-2.0372, 2.2978, -0.1998, 0, 0.0792, -0.1458, -0.1135, 0.4765, 0.4308, 1.5938, -0.3783, 0.7424, -0.6352],
  },
  miss: {
    intercept: -0.5394,
    weights: [-3.4797, 1.1466, 0.3927, 0, -0.1181, 0.2608, 0.3706, 0.3443, -0.3032, -0.8748, 0.0606, -0.1941, 0.2779],
  },
  confidenceCold: { intercept: -1.0719, weights: [-1.7203, 4.4991, 0.001, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
  missCold: { intercept: -0.0459, weights: [-3.7445, 0.6198, 0.1198, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
};
