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
 *   k=0  n=2112  r 0.760  RMSE 0.246 (true mean 0.378, ratio 0.650)  bias +0.010  ECE 0.082  big errors in first 20% of the review queue: 2.89x random (lowest confidence first 0.82x)  salad over "I don't know." +0.045, over a wrong answer -0.218
 *   k=5  n=3960  r 0.797  RMSE 0.229 (mean of 5 0.387, ratio 0.592)  bias +0.028  ECE 0.070  big errors in first 20% of the review queue: 2.68x random (lowest confidence first 0.94x)  salad over "I don't know." +0.045, over a wrong answer -0.268
 *   k=10 n=3960  r 0.808  RMSE 0.224 (mean of 10 0.374, ratio 0.597)  bias +0.030  ECE 0.062  big errors in first 20% of the review queue: 2.80x random (lowest confidence first 1.20x)  salad over "I don't know." +0.045, over a wrong answer -0.277
 *   k=0 with the course (10 grades on each other question) n=2112 r 0.751  RMSE 0.250 (true mean 0.378, ratio 0.661)  bias +0.006  ECE 0.075  big errors in first 20% of the review queue: 2.87x random (lowest confidence first 0.63x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == scientsbank held out (fitted on the other families only)
 *   k=0  n=6242  r 0.471  RMSE 0.382 (true mean 0.429, ratio 0.889)  bias -0.046  ECE 0.107  big errors in first 20% of the review queue: 2.35x random (lowest confidence first 0.40x)  salad over "I don't know." +0.037, over a wrong answer -0.322
 *   k=5  n=4588  r 0.528  RMSE 0.364 (mean of 5 0.443, ratio 0.820)  bias -0.015  ECE 0.059  big errors in first 20% of the review queue: 2.54x random (lowest confidence first 0.60x)  salad over "I don't know." +0.032, over a wrong answer -0.365
 *   k=10 n=4588  r 0.567  RMSE 0.353 (mean of 10 0.425, ratio 0.831)  bias -0.001  ECE 0.068  big errors in first 20% of the review queue: 2.61x random (lowest confidence first 0.79x)  salad over "I don't know." +0.030, over a wrong answer -0.375
 *   k=0 with the course (10 grades on each other question) n=6242 r 0.466  RMSE 0.380 (true mean 0.429, ratio 0.885)  bias -0.004  ECE 0.044  big errors in first 20% of the review queue: 2.31x random (lowest confidence first 0.39x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == beetle held out (fitted on the other families only)
 *   k=0  n=5199  r 0.470  RMSE 0.449 (true mean 0.437, ratio 1.027)  bias +0.208  ECE 0.170  big errors in first 20% of the review queue: 1.35x random (lowest confidence first 0.91x)  salad over "I don't know." +0.044, over a wrong answer -0.502
 *   k=5  n=3180  r 0.514  RMSE 0.386 (mean of 5 0.459, ratio 0.840)  bias +0.053  ECE 0.066  big errors in first 20% of the review queue: 1.80x random (lowest confidence first 0.92x)  salad over "I don't know." +0.040, over a wrong answer -0.420
 *   k=10 n=3180  r 0.556  RMSE 0.371 (mean of 10 0.430, ratio 0.864)  bias +0.050  ECE 0.063  big errors in first 20% of the review queue: 2.16x random (lowest confidence first 1.11x)  salad over "I don't know." +0.044, over a wrong answer -0.402
 *   k=0 with the course (10 grades on each other question) n=5199 r 0.490  RMSE 0.395 (true mean 0.437, ratio 0.905)  bias -0.003  ECE 0.075  big errors in first 20% of the review queue: 1.76x random (lowest confidence first 0.86x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == asap-sas held out (fitted on the other families only)
 *   k=0  n=2500  r 0.539  RMSE 0.334 (true mean 0.387, ratio 0.864)  bias -0.074  ECE 0.076  big errors in first 20% of the review queue: 2.16x random (lowest confidence first 0.42x)  salad over "I don't know." +0.000, over a wrong answer -0.150
 *   k=5  n=3000  r 0.523  RMSE 0.334 (mean of 5 0.390, ratio 0.855)  bias -0.021  ECE 0.054  big errors in first 20% of the review queue: 2.37x random (lowest confidence first 0.71x)  salad over "I don't know." +0.000, over a wrong answer -0.300
 *   k=10 n=3000  r 0.551  RMSE 0.325 (mean of 10 0.363, ratio 0.895)  bias -0.008  ECE 0.043  big errors in first 20% of the review queue: 2.42x random (lowest confidence first 0.76x)  salad over "I don't know." +0.000, over a wrong answer -0.275
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.536  RMSE 0.328 (true mean 0.387, ratio 0.846)  bias +0.005  ECE 0.097  big errors in first 20% of the review queue: 2.70x random (lowest confidence first 0.76x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == powergrading held out (fitted on the other families only)
 *   k=0  n=2500  r 0.710  RMSE 0.330 (true mean 0.340, ratio 0.971)  bias -0.227  ECE 0.133  big errors in first 20% of the review queue: 1.84x random (lowest confidence first 0.77x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=3000  r 0.810  RMSE 0.206 (mean of 5 0.354, ratio 0.582)  bias -0.044  ECE 0.041  big errors in first 20% of the review queue: 4.25x random (lowest confidence first 1.02x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=3000  r 0.835  RMSE 0.190 (mean of 10 0.335, ratio 0.567)  bias -0.010  ECE 0.030  big errors in first 20% of the review queue: 4.50x random (lowest confidence first 3.26x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.711  RMSE 0.245 (true mean 0.340, ratio 0.721)  bias +0.032  ECE 0.023  big errors in first 20% of the review queue: 3.85x random (lowest confidence first 2.53x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == worst family (goal)
 *   |bias| at k=0 (<= 0.10)                      0.227 (powergrading)
 *   ECE at k=0 (<= 0.05)                         0.170 (beetle)
 *   |bias| at k=0 with the course (<= 0.10)      0.032 (powergrading)
 *   ECE at k=0 with the course (<= 0.05)         0.097 (asap-sas)
 *   RMSE / mean of 5 at k=5 (<= 0.90)            0.855 (asap-sas)
 *   RMSE / mean of 10 at k=10 (<= 0.85)          0.895 (asap-sas)
 *   RMSE / true mean at k=0                      1.027 (beetle)
 *   big errors in first 20%, x random, k=0 (>= 2) 1.346 (beetle)
 *   big errors in first 20%, x random, k=0 with the course (>= 2) 1.764 (beetle)
 *   big errors in first 20%, x random, k=5 (>= 2) 1.804 (beetle)
 *   big errors in first 20%, x random, k=10 (>= 2) 2.157 (beetle)
 *     the same, lowest confidence first, k=0     0.401 (scientsbank)
 *     the same, lowest confidence first, k=5     0.600 (scientsbank)
 *     the same, lowest confidence first, k=10    0.763 (asap-sas)
 *   salad over "I don't know.", k=0 (<= 0.05)    0.045 (saf)
 *   salad over "I don't know.", k=10 (<= 0.05)   0.045 (saf)
 *   leaking comments (<= 0.01)                   0.000 (saf)
 * time per answer: 12.3 ms (grading 2.8 ms + its meaning 9.4 ms; goal <= 150), resident memory 531 MB
 */
export const FITTED: SuggestionModel = {"cold":{"intercept":-1.3524,"weights":[0.3969,0.0467,0.9152,-0.8225,0.3553,0.1478,-0.4734,0.5456,0.9919,0.9384,-0.3448,0.1489,0.7895,0.9655,1.7167]},"warm":[[0.7775,0.1341,-0.1931,-0.0679,-0.0628,0.122,0.1158,-0.0263,0.1508,0.6065],[0.7931,0.1161,-0.0681,-0.0003,-0.0638,0.3377,0.0519,-0.0103,0.2042,0.4585],[0.7218,0.0571,0.0869,0.0037,-0.0437,0.2412,0.0586,0.1063,0.0623,0.295],[0.6967,0.1249,0.1063,-0.0292,-0.0075,0.1869,0.0678,0.2479,-0.0877,0.2056]],"confidence":{"intercept":-0.0874,"weights":[-2.1642,2.3118,-0.3025,0,0.0788,-0.2341,0.0223,0.5338,0.4044,1.578,-0.4895,0.7714,-0.6119]},"miss":{"intercept":-0.6217,"weights":[-3.3542,1.1521,0.5223,0,-0.0962,0.2553,0.3338,0.204,-0.3065,-0.8363,0.111,-0.1945,0.2862]},"confidenceCold":{"intercept":-0.8634,"weights":[-1.9336,4.4841,-0.0916,0,0,0,0,0,0,0,0,0,0]},"missCold":{"intercept":-0.2196,"weights":[-3.3996,0.5004,0.0415,0,0,0,0,0,0,0,0,0,0]}};
