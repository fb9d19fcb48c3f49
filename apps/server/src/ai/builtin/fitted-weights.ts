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
 *   digiklausur: DigiKlausur/ASAG-Dataset @ 1bfa98fa7edbb0e86fd66e067c64927e4d89e0c7 (one examiner's 0/1/2 (share 0, 0.5, 1); the 17 mandatory questions; questions, no reference answers)
 * == saf held out (fitted on the other families only)
 *   k=0  n=2112  r 0.777  RMSE 0.243 (true mean 0.378, ratio 0.643)  bias +0.044  ECE 0.101  big errors in first 20% of the review queue: 1.65x random (lowest confidence first 1.15x)  salad over "I don't know." +0.045, over a wrong answer -0.191
 *   k=5  n=3960  r 0.802  RMSE 0.227 (mean of 5 0.387, ratio 0.585)  bias +0.035  ECE 0.071  big errors in first 20% of the review queue: 2.48x random (lowest confidence first 1.06x)  salad over "I don't know." +0.045, over a wrong answer -0.259
 *   k=10 n=3960  r 0.810  RMSE 0.222 (mean of 10 0.374, ratio 0.593)  bias +0.032  ECE 0.065  big errors in first 20% of the review queue: 2.52x random (lowest confidence first 1.23x)  salad over "I don't know." +0.045, over a wrong answer -0.273
 *   k=0 with the course (10 grades on each other question) n=2112 r 0.768  RMSE 0.243 (true mean 0.378, ratio 0.643)  bias +0.008  ECE 0.085  big errors in first 20% of the review queue: 2.13x random (lowest confidence first 1.05x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == scientsbank held out (fitted on the other families only)
 *   k=0  n=6242  r 0.453  RMSE 0.388 (true mean 0.429, ratio 0.904)  bias -0.059  ECE 0.092  big errors in first 20% of the review queue: 2.26x random (lowest confidence first 0.45x)  salad over "I don't know." +0.037, over a wrong answer -0.310
 *   k=5  n=4588  r 0.535  RMSE 0.363 (mean of 5 0.443, ratio 0.818)  bias -0.029  ECE 0.051  big errors in first 20% of the review queue: 2.41x random (lowest confidence first 0.59x)  salad over "I don't know." +0.034, over a wrong answer -0.340
 *   k=10 n=4588  r 0.583  RMSE 0.349 (mean of 10 0.425, ratio 0.820)  bias -0.024  ECE 0.059  big errors in first 20% of the review queue: 2.52x random (lowest confidence first 0.77x)  salad over "I don't know." +0.030, over a wrong answer -0.331
 *   k=0 with the course (10 grades on each other question) n=6242 r 0.453  RMSE 0.384 (true mean 0.429, ratio 0.894)  bias -0.003  ECE 0.030  big errors in first 20% of the review queue: 2.20x random (lowest confidence first 0.44x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == beetle held out (fitted on the other families only)
 *   k=0  n=5199  r 0.482  RMSE 0.438 (true mean 0.437, ratio 1.004)  bias +0.192  ECE 0.103  big errors in first 20% of the review queue: 1.37x random (lowest confidence first 0.88x)  salad over "I don't know." +0.044, over a wrong answer -0.478
 *   k=5  n=3180  r 0.523  RMSE 0.381 (mean of 5 0.459, ratio 0.829)  bias +0.035  ECE 0.053  big errors in first 20% of the review queue: 1.79x random (lowest confidence first 0.89x)  salad over "I don't know." +0.040, over a wrong answer -0.387
 *   k=10 n=3180  r 0.561  RMSE 0.368 (mean of 10 0.430, ratio 0.856)  bias +0.024  ECE 0.071  big errors in first 20% of the review queue: 2.13x random (lowest confidence first 0.95x)  salad over "I don't know." +0.044, over a wrong answer -0.371
 *   k=0 with the course (10 grades on each other question) n=5199 r 0.489  RMSE 0.394 (true mean 0.437, ratio 0.903)  bias -0.003  ECE 0.064  big errors in first 20% of the review queue: 1.79x random (lowest confidence first 0.84x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == asap-sas held out (fitted on the other families only)
 *   k=0  n=2500  r 0.550  RMSE 0.327 (true mean 0.387, ratio 0.845)  bias +0.031  ECE 0.096  big errors in first 20% of the review queue: 2.39x random (lowest confidence first 0.53x)  salad over "I don't know." +0.000, over a wrong answer -0.150
 *   k=5  n=3000  r 0.562  RMSE 0.324 (mean of 5 0.390, ratio 0.831)  bias +0.020  ECE 0.061  big errors in first 20% of the review queue: 2.36x random (lowest confidence first 0.69x)  salad over "I don't know." +0.000, over a wrong answer -0.300
 *   k=10 n=3000  r 0.594  RMSE 0.313 (mean of 10 0.363, ratio 0.863)  bias +0.011  ECE 0.057  big errors in first 20% of the review queue: 2.40x random (lowest confidence first 0.81x)  salad over "I don't know." +0.000, over a wrong answer -0.250
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.525  RMSE 0.332 (true mean 0.387, ratio 0.858)  bias +0.007  ECE 0.100  big errors in first 20% of the review queue: 2.26x random (lowest confidence first 0.72x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == powergrading held out (fitted on the other families only)
 *   k=0  n=2500  r 0.684  RMSE 0.348 (true mean 0.340, ratio 1.024)  bias -0.244  ECE 0.126  big errors in first 20% of the review queue: 1.88x random (lowest confidence first 2.59x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=3000  r 0.804  RMSE 0.210 (mean of 5 0.354, ratio 0.593)  bias -0.051  ECE 0.042  big errors in first 20% of the review queue: 4.22x random (lowest confidence first 0.96x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=3000  r 0.834  RMSE 0.191 (mean of 10 0.335, ratio 0.569)  bias -0.020  ECE 0.038  big errors in first 20% of the review queue: 4.48x random (lowest confidence first 2.11x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.705  RMSE 0.247 (true mean 0.340, ratio 0.725)  bias +0.031  ECE 0.034  big errors in first 20% of the review queue: 3.79x random (lowest confidence first 2.90x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == digiklausur held out (fitted on the other families only)
 *   k=0  n=611   r 0.592  RMSE 0.327 (true mean 0.364, ratio 0.900)  bias -0.139  ECE 0.098  big errors in first 20% of the review queue: 3.59x random (lowest confidence first 0.15x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=1323  r 0.639  RMSE 0.286 (mean of 5 0.363, ratio 0.789)  bias -0.060  ECE 0.079  big errors in first 20% of the review queue: 3.15x random (lowest confidence first 0.88x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=1323  r 0.637  RMSE 0.283 (mean of 10 0.355, ratio 0.799)  bias -0.042  ECE 0.103  big errors in first 20% of the review queue: 2.94x random (lowest confidence first 1.37x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=0 with the course (10 grades on each other question) n=611 r 0.562  RMSE 0.301 (true mean 0.364, ratio 0.828)  bias -0.005  ECE 0.064  big errors in first 20% of the review queue: 3.21x random (lowest confidence first 0.54x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == worst family (goal)
 *   |bias| at k=0 (<= 0.10)                      0.244 (powergrading)
 *   ECE at k=0 (<= 0.05)                         0.126 (powergrading)
 *   |bias| at k=0 with the course (<= 0.10)      0.031 (powergrading)
 *   ECE at k=0 with the course (<= 0.05)         0.100 (asap-sas)
 *   RMSE / mean of 5 at k=5 (<= 0.90)            0.831 (asap-sas)
 *   RMSE / mean of 10 at k=10 (<= 0.85)          0.863 (asap-sas)
 *   RMSE / true mean at k=0                      1.024 (powergrading)
 *   big errors in first 20%, x random, k=0 (>= 2) 1.368 (beetle)
 *   big errors in first 20%, x random, k=0 with the course (>= 2) 1.793 (beetle)
 *   big errors in first 20%, x random, k=5 (>= 2) 1.785 (beetle)
 *   big errors in first 20%, x random, k=10 (>= 2) 2.129 (beetle)
 *     the same, lowest confidence first, k=0     0.152 (digiklausur)
 *     the same, lowest confidence first, k=5     0.589 (scientsbank)
 *     the same, lowest confidence first, k=10    0.768 (scientsbank)
 *   salad over "I don't know.", k=0 (<= 0.05)    0.045 (saf)
 *   salad over "I don't know.", k=10 (<= 0.05)   0.045 (saf)
 *   leaking comments (<= 0.01)                   0.000 (saf)
 * time per answer: 26.6 ms (grading 5.3 ms + its meaning 21.4 ms; goal <= 150), resident memory 594 MB
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
    [0.7778, 0.1444, -0.15, -0.0741, -0.0552, 0.1511, 0.0826, -0.0041, 0.0987, 0.6229, -0.0549, 0.0507],
    [0.7977, 0.0808, -0.0847, -0.0311, -0.074, 0.1379, 0.0544, 0.0181, 0.177, 0.4404, 0.0751, 0.0819],
    [0.6995, 0.0529, -0.057, 0.0181, -0.111, 0.0914, 0.0516, 0.0992, 0.0909, 0.2894, 0.1593, 0.129],
    [0.6414, 0.1626, -0.0909, -0.0284, -0.0551, 0.1703, 0.0462, 0.1896, -0.0505, 0.1818, 0.1857, 0.1313],
  ],
  confidence: {
    intercept: 0.3005,
    weights: [-2.7352, 2.5159, -0.5135, 0, 0.1325, -0.2419, -0.1821, 0.6901, 0.1213, 1.5851, -0.3602, 0.7983, -0.628],
  },
  miss: {
    intercept: -0.5942,
    weights: [-3.5108, 1.1041, 0.6655, 0, -0.1243, 0.3847, 0.4451, 0.2288, -0.6174, -0.7401, 0.2282, -0.2192, 0.1569],
  },
  confidenceCold: { intercept: -0.6409, weights: [-2.7775, 4.4093, -0.2753, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
  missCold: { intercept: -0.47, weights: [-2.8637, 1.0959, 0.0795, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
};
