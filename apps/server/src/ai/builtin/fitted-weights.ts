import type { SuggestionModel } from './suggestion-model.ts';

/**
 * Weights of the built-in grader's suggestion model (suggestion-model.ts), fitted on every family
 * below by `npx tsx bench/grader-agreement.ts --data DIR --write` on 2026-12-02.
 * The figures are that run's, each family held out: measured with weights fitted on the others.
 *
 * data:
 *   saf: SebOchs/SAF @ 09949e912d266777a752ac7d51cfcddb4b3f6978 (partial credit 0..1 (score); English; training + unseen answers + unseen questions)
 *   scientsbank: leocomelli/score-freetext-answer + tobiasvennemann2401/GradingApp @ 5fd154c863f8cf4df19463c02a1a3eb98e262aa6 + c602a0494c085b0136ee153ee75b2ea959b9e7ac (5-way (SRA_numeric): correct 1, partially_correct_incomplete 0.5, contradictory/irrelevant/non_domain 0; training + unseen answers + unseen questions (unseen domains left out: 2-way only))
 *   beetle: leocomelli/score-freetext-answer + tobiasvennemann2401/GradingApp @ 5fd154c863f8cf4df19463c02a1a3eb98e262aa6 + c602a0494c085b0136ee153ee75b2ea959b9e7ac (5-way (SRA_numeric): correct 1, partially_correct_incomplete 0.5, contradictory/irrelevant/non_domain 0; training + unseen answers + unseen questions)
 *   asap-sas: mariebexte/s-bert-similarity-based-content-scoring @ 80e97b6e69932897e26d918e695743cd653e2666 (Score1 / set maximum (0-3 sets 1, 2, 5, 6; 0-2 others); train_rel_2 (gold train + test); question, key elements and rubric of sets 1, 2, 5, 6 from lijiazheng99/aera@76ca952555aa, the others none)
 *   powergrading: malik-ali/generative-grading + beingRD/CPSC5306-DataMiningProject @ 86cc2f5c8ba7900a46dc1974d9441f3e06f0e0fc + 505ceaeddf1d6cb933633e63a5af4a498a6856f1 (mean of three graders 0/1 (0, 1/3, 2/3, 1); the ten graded questions x 698 answers)
 *   digiklausur: DigiKlausur/ASAG-Dataset @ 1bfa98fa7edbb0e86fd66e067c64927e4d89e0c7 (one examiner's 0/1/2 (share 0, 0.5, 1); the 17 mandatory questions; questions, no reference answers)
 * == saf held out (fitted on the other families only)
 *   k=0  n=2112  r 0.777  RMSE 0.243 (true mean 0.378, ratio 0.643)  bias +0.044  ECE 0.101  big errors in first 20% of the review queue: 1.65x random (lowest confidence first 1.15x)  salad over "I don't know." +0.045, over a wrong answer -0.191
 *   k=5  n=3960  r 0.806  RMSE 0.225 (mean of 5 0.387, ratio 0.581)  bias +0.036  ECE 0.069  big errors in first 20% of the review queue: 2.46x random (lowest confidence first 1.30x)  salad over "I don't know." +0.045, over a wrong answer -0.245
 *   k=10 n=3960  r 0.807  RMSE 0.224 (mean of 10 0.374, ratio 0.598)  bias +0.031  ECE 0.069  big errors in first 20% of the review queue: 2.65x random (lowest confidence first 1.26x)  salad over "I don't know." +0.045, over a wrong answer -0.268
 *   k=0 with the course (10 grades on each other question) n=2112 r 0.768  RMSE 0.243 (true mean 0.378, ratio 0.643)  bias +0.008  ECE 0.085  big errors in first 20% of the review queue: 2.13x random (lowest confidence first 1.05x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == scientsbank held out (fitted on the other families only)
 *   k=0  n=6242  r 0.453  RMSE 0.388 (true mean 0.429, ratio 0.904)  bias -0.059  ECE 0.092  big errors in first 20% of the review queue: 2.26x random (lowest confidence first 0.45x)  salad over "I don't know." +0.037, over a wrong answer -0.310
 *   k=5  n=4588  r 0.543  RMSE 0.360 (mean of 5 0.443, ratio 0.813)  bias -0.028  ECE 0.049  big errors in first 20% of the review queue: 2.37x random (lowest confidence first 0.66x)  salad over "I don't know." +0.034, over a wrong answer -0.330
 *   k=10 n=4588  r 0.589  RMSE 0.347 (mean of 10 0.425, ratio 0.816)  bias -0.025  ECE 0.058  big errors in first 20% of the review queue: 2.52x random (lowest confidence first 0.77x)  salad over "I don't know." +0.027, over a wrong answer -0.325
 *   k=0 with the course (10 grades on each other question) n=6242 r 0.453  RMSE 0.384 (true mean 0.429, ratio 0.894)  bias -0.003  ECE 0.030  big errors in first 20% of the review queue: 2.20x random (lowest confidence first 0.44x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == beetle held out (fitted on the other families only)
 *   k=0  n=5199  r 0.482  RMSE 0.438 (true mean 0.437, ratio 1.004)  bias +0.192  ECE 0.103  big errors in first 20% of the review queue: 1.37x random (lowest confidence first 0.88x)  salad over "I don't know." +0.044, over a wrong answer -0.478
 *   k=5  n=3180  r 0.521  RMSE 0.381 (mean of 5 0.459, ratio 0.829)  bias +0.027  ECE 0.055  big errors in first 20% of the review queue: 1.90x random (lowest confidence first 0.93x)  salad over "I don't know." +0.040, over a wrong answer -0.382
 *   k=10 n=3180  r 0.569  RMSE 0.365 (mean of 10 0.430, ratio 0.850)  bias +0.021  ECE 0.061  big errors in first 20% of the review queue: 2.20x random (lowest confidence first 1.08x)  salad over "I don't know." +0.044, over a wrong answer -0.367
 *   k=0 with the course (10 grades on each other question) n=5199 r 0.489  RMSE 0.394 (true mean 0.437, ratio 0.903)  bias -0.003  ECE 0.064  big errors in first 20% of the review queue: 1.79x random (lowest confidence first 0.84x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == asap-sas held out (fitted on the other families only)
 *   k=0  n=2500  r 0.550  RMSE 0.327 (true mean 0.387, ratio 0.845)  bias +0.031  ECE 0.096  big errors in first 20% of the review queue: 2.39x random (lowest confidence first 0.53x)  salad over "I don't know." +0.000, over a wrong answer -0.150
 *   k=5  n=3000  r 0.566  RMSE 0.324 (mean of 5 0.390, ratio 0.829)  bias +0.022  ECE 0.061  big errors in first 20% of the review queue: 2.28x random (lowest confidence first 0.68x)  salad over "I don't know." +0.000, over a wrong answer -0.325
 *   k=10 n=3000  r 0.608  RMSE 0.309 (mean of 10 0.363, ratio 0.852)  bias +0.010  ECE 0.058  big errors in first 20% of the review queue: 2.49x random (lowest confidence first 0.79x)  salad over "I don't know." +0.000, over a wrong answer -0.275
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.525  RMSE 0.332 (true mean 0.387, ratio 0.858)  bias +0.007  ECE 0.100  big errors in first 20% of the review queue: 2.26x random (lowest confidence first 0.72x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == powergrading held out (fitted on the other families only)
 *   k=0  n=2500  r 0.684  RMSE 0.348 (true mean 0.340, ratio 1.024)  bias -0.244  ECE 0.126  big errors in first 20% of the review queue: 1.88x random (lowest confidence first 2.59x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=3000  r 0.803  RMSE 0.210 (mean of 5 0.354, ratio 0.592)  bias -0.046  ECE 0.048  big errors in first 20% of the review queue: 4.07x random (lowest confidence first 1.07x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=3000  r 0.827  RMSE 0.194 (mean of 10 0.335, ratio 0.578)  bias -0.015  ECE 0.036  big errors in first 20% of the review queue: 4.46x random (lowest confidence first 3.21x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.705  RMSE 0.247 (true mean 0.340, ratio 0.725)  bias +0.031  ECE 0.034  big errors in first 20% of the review queue: 3.79x random (lowest confidence first 2.90x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == digiklausur held out (fitted on the other families only)
 *   k=0  n=611   r 0.592  RMSE 0.327 (true mean 0.364, ratio 0.900)  bias -0.139  ECE 0.098  big errors in first 20% of the review queue: 3.59x random (lowest confidence first 0.15x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=1323  r 0.632  RMSE 0.287 (mean of 5 0.363, ratio 0.792)  bias -0.057  ECE 0.076  big errors in first 20% of the review queue: 3.02x random (lowest confidence first 1.07x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=1323  r 0.637  RMSE 0.283 (mean of 10 0.355, ratio 0.799)  bias -0.041  ECE 0.098  big errors in first 20% of the review queue: 2.89x random (lowest confidence first 1.45x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=0 with the course (10 grades on each other question) n=611 r 0.562  RMSE 0.301 (true mean 0.364, ratio 0.828)  bias -0.005  ECE 0.064  big errors in first 20% of the review queue: 3.21x random (lowest confidence first 0.54x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == worst family (goal)
 *   |bias| at k=0 (<= 0.10)                      0.244 (powergrading)
 *   ECE at k=0 (<= 0.05)                         0.126 (powergrading)
 *   |bias| at k=0 with the course (<= 0.10)      0.031 (powergrading)
 *   ECE at k=0 with the course (<= 0.05)         0.100 (asap-sas)
 *   RMSE / mean of 5 at k=5 (<= 0.90)            0.829 (asap-sas)
 *   RMSE / mean of 10 at k=10 (<= 0.85)          0.852 (asap-sas)
 *   RMSE / true mean at k=0                      1.024 (powergrading)
 *   big errors in first 20%, x random, k=0 (>= 2) 1.368 (beetle)
 *   big errors in first 20%, x random, k=0 with the course (>= 2) 1.793 (beetle)
 *   big errors in first 20%, x random, k=5 (>= 2) 1.905 (beetle)
 *   big errors in first 20%, x random, k=10 (>= 2) 2.203 (beetle)
 *     the same, lowest confidence first, k=0     0.152 (digiklausur)
 *     the same, lowest confidence first, k=5     0.664 (scientsbank)
 *     the same, lowest confidence first, k=10    0.772 (scientsbank)
 *   salad over "I don't know.", k=0 (<= 0.05)    0.045 (saf)
 *   salad over "I don't know.", k=10 (<= 0.05)   0.045 (saf)
 *   leaking comments (<= 0.01)                   0.000 (saf)
 * time per answer: 19.1 ms (grading 3.5 ms + its meaning 15.7 ms; goal <= 150), resident memory 684 MB
 */
export const FITTED: SuggestionModel = {
  cold: {
    intercept: -1.6261,
    weights: [
      0.2346, -0.0003, 1.0656, -0.9397, 0.3767, 0.2543, -0.4513, 0.5185, 1.0329, 0.44, -0.3321, 1.1309, 1.4569, 0.9283,
      1.2273,
    ],
  },
  warm: [
    [0.7923, 0.1544, -0.1326, -0.0822, -0.0455, 0.1629, 0.0772, -0.005, 0.0903, 0.6255, -0.0681, 0.0253, 0],
    [0.8007, 0.088, -0.0984, -0.0218, -0.0739, 0.1522, 0.0531, 0.0246, 0.1842, 0.4179, 0.0741, 0.0792, 0.0132],
    [0.6476, 0.0374, -0.0659, 0.0119, -0.1023, 0.0605, 0.0465, 0.0951, 0.1021, 0.28, 0.1413, 0.131, 0.0942],
    [0.553, 0.1622, -0.0731, -0.0333, -0.0351, 0.1069, 0.0333, 0.1758, -0.0434, 0.1732, 0.1359, 0.1452, 0.149],
  ],
  confidence: {
    intercept: 0.2859,
    weights: [-2.7265, 2.5438, -0.5806, 0, 0.1503, -0.2612, -0.1667, 0.7035, 0.1589, 1.5694, -0.3132, 0.8342, -0.5754],
  },
  miss: {
    intercept: -0.5562,
    weights: [-3.4155, 1.1196, 0.6441, 0, -0.1305, 0.3793, 0.4102, 0.2354, -0.6785, -0.7407, 0.1917, -0.2446, 0.171],
  },
  confidenceCold: { intercept: -0.6409, weights: [-2.7775, 4.4093, -0.2753, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
  missCold: { intercept: -0.47, weights: [-2.8637, 1.0959, 0.0795, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
  trustPrior: 10,
};
