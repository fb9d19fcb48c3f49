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
 *   k=5  n=3960  r 0.798  RMSE 0.228 (mean of 5 0.387, ratio 0.589)  bias +0.027  ECE 0.073  big errors in first 20% of the review queue: 2.72x random (lowest confidence first 0.98x)  salad over "I don't know." +0.045, over a wrong answer -0.264
 *   k=10 n=3960  r 0.810  RMSE 0.222 (mean of 10 0.374, ratio 0.594)  bias +0.029  ECE 0.064  big errors in first 20% of the review queue: 2.81x random (lowest confidence first 1.30x)  salad over "I don't know." +0.045, over a wrong answer -0.264
 *   k=0 with the course (10 grades on each other question) n=2112 r 0.755  RMSE 0.248 (true mean 0.378, ratio 0.656)  bias +0.006  ECE 0.084  big errors in first 20% of the review queue: 2.87x random (lowest confidence first 0.57x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == scientsbank held out (fitted on the other families only)
 *   k=0  n=6242  r 0.471  RMSE 0.382 (true mean 0.429, ratio 0.890)  bias -0.048  ECE 0.104  big errors in first 20% of the review queue: 2.35x random (lowest confidence first 0.42x)  salad over "I don't know." +0.037, over a wrong answer -0.316
 *   k=5  n=4588  r 0.527  RMSE 0.364 (mean of 5 0.443, ratio 0.821)  bias -0.016  ECE 0.058  big errors in first 20% of the review queue: 2.55x random (lowest confidence first 0.62x)  salad over "I don't know." +0.032, over a wrong answer -0.363
 *   k=10 n=4588  r 0.568  RMSE 0.353 (mean of 10 0.425, ratio 0.830)  bias -0.002  ECE 0.068  big errors in first 20% of the review queue: 2.60x random (lowest confidence first 0.77x)  salad over "I don't know." +0.031, over a wrong answer -0.368
 *   k=0 with the course (10 grades on each other question) n=6242 r 0.466  RMSE 0.380 (true mean 0.429, ratio 0.885)  bias -0.004  ECE 0.043  big errors in first 20% of the review queue: 2.28x random (lowest confidence first 0.40x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == beetle held out (fitted on the other families only)
 *   k=0  n=5199  r 0.480  RMSE 0.446 (true mean 0.437, ratio 1.022)  bias +0.211  ECE 0.167  big errors in first 20% of the review queue: 1.37x random (lowest confidence first 0.87x)  salad over "I don't know." +0.044, over a wrong answer -0.500
 *   k=5  n=3180  r 0.520  RMSE 0.384 (mean of 5 0.459, ratio 0.836)  bias +0.055  ECE 0.067  big errors in first 20% of the review queue: 1.82x random (lowest confidence first 0.94x)  salad over "I don't know." +0.040, over a wrong answer -0.418
 *   k=10 n=3180  r 0.564  RMSE 0.369 (mean of 10 0.430, ratio 0.858)  bias +0.051  ECE 0.065  big errors in first 20% of the review queue: 2.19x random (lowest confidence first 1.12x)  salad over "I don't know." +0.044, over a wrong answer -0.400
 *   k=0 with the course (10 grades on each other question) n=5199 r 0.495  RMSE 0.393 (true mean 0.437, ratio 0.900)  bias -0.003  ECE 0.076  big errors in first 20% of the review queue: 1.82x random (lowest confidence first 0.86x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == asap-sas held out (fitted on the other families only)
 *   k=0  n=2500  r 0.542  RMSE 0.332 (true mean 0.387, ratio 0.858)  bias -0.066  ECE 0.086  big errors in first 20% of the review queue: 2.10x random (lowest confidence first 0.45x)  salad over "I don't know." +0.000, over a wrong answer -0.150
 *   k=5  n=3000  r 0.531  RMSE 0.332 (mean of 5 0.390, ratio 0.850)  bias -0.017  ECE 0.050  big errors in first 20% of the review queue: 2.40x random (lowest confidence first 0.74x)  salad over "I don't know." +0.000, over a wrong answer -0.300
 *   k=10 n=3000  r 0.556  RMSE 0.324 (mean of 10 0.363, ratio 0.891)  bias -0.005  ECE 0.046  big errors in first 20% of the review queue: 2.46x random (lowest confidence first 0.79x)  salad over "I don't know." +0.000, over a wrong answer -0.275
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.540  RMSE 0.327 (true mean 0.387, ratio 0.844)  bias +0.007  ECE 0.098  big errors in first 20% of the review queue: 2.73x random (lowest confidence first 0.54x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == powergrading held out (fitted on the other families only)
 *   k=0  n=2500  r 0.714  RMSE 0.331 (true mean 0.340, ratio 0.973)  bias -0.230  ECE 0.131  big errors in first 20% of the review queue: 1.86x random (lowest confidence first 0.74x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=3000  r 0.810  RMSE 0.206 (mean of 5 0.354, ratio 0.582)  bias -0.045  ECE 0.041  big errors in first 20% of the review queue: 4.23x random (lowest confidence first 1.01x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=3000  r 0.837  RMSE 0.188 (mean of 10 0.335, ratio 0.562)  bias -0.011  ECE 0.030  big errors in first 20% of the review queue: 4.45x random (lowest confidence first 3.21x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.718  RMSE 0.242 (true mean 0.340, ratio 0.712)  bias +0.030  ECE 0.020  big errors in first 20% of the review queue: 3.80x random (lowest confidence first 3.02x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == worst family (goal)
 *   |bias| at k=0 (<= 0.10)                      0.230 (powergrading)
 *   ECE at k=0 (<= 0.05)                         0.167 (beetle)
 *   |bias| at k=0 with the course (<= 0.10)      0.030 (powergrading)
 *   ECE at k=0 with the course (<= 0.05)         0.098 (asap-sas)
 *   RMSE / mean of 5 at k=5 (<= 0.90)            0.850 (asap-sas)
 *   RMSE / mean of 10 at k=10 (<= 0.85)          0.891 (asap-sas)
 *   RMSE / true mean at k=0                      1.022 (beetle)
 *   big errors in first 20%, x random, k=0 (>= 2) 1.370 (beetle)
 *   big errors in first 20%, x random, k=0 with the course (>= 2) 1.817 (beetle)
 *   big errors in first 20%, x random, k=5 (>= 2) 1.815 (beetle)
 *   big errors in first 20%, x random, k=10 (>= 2) 2.190 (beetle)
 *     the same, lowest confidence first, k=0     0.421 (scientsbank)
 *     the same, lowest confidence first, k=5     0.623 (scientsbank)
 *     the same, lowest confidence first, k=10    0.773 (scientsbank)
 *   salad over "I don't know.", k=0 (<= 0.05)    0.045 (saf)
 *   salad over "I don't know.", k=10 (<= 0.05)   0.045 (saf)
 *   leaking comments (<= 0.01)                   0.000 (saf)
 * time per answer: 35.2 ms (grading 4.0 ms + its meaning 31.2 ms; goal <= 150), resident memory 611 MB
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
    [0.7735, 0.135, -0.1948, -0.0647, -0.0681, 0.1244, 0.1153, -0.0149, 0.1459, 0.605],
    [0.7897, 0.1197, -0.077, 0.0056, -0.071, 0.3365, 0.0538, 0.0032, 0.2041, 0.4531],
    [0.7144, 0.0564, 0.0759, 0.0116, -0.0448, 0.2443, 0.0597, 0.13, 0.0636, 0.291],
    [0.6935, 0.1181, 0.0981, -0.021, -0.0138, 0.1957, 0.0678, 0.2622, -0.0868, 0.2043],
  ],
  confidence: {
    intercept: -0.0393,
    weights: [-2.1717, 2.3295, -0.3296, 0, 0.0968, -0.2716, 0.0032, 0.5246, 0.3296, 1.5808, -0.4794, 0.7676, -0.6164],
  },
  miss: {
    intercept: -0.7058,
    weights: [-3.3805, 1.1383, 0.5809, 0, -0.1056, 0.2591, 0.3485, 0.2274, -0.2085, -0.8528, 0.1259, -0.2032, 0.273],
  },
  confidenceCold: { intercept: -0.8441, weights: [-1.9686, 4.5011, -0.1638, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
  missCold: { intercept: -0.2397, weights: [-3.3653, 0.4868, 0.0629, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
};
