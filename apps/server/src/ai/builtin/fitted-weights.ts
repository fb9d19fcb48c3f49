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
 *   k=0  n=2112  r 0.760  RMSE 0.246 (true mean 0.378, ratio 0.650)  bias +0.010  ECE 0.085  big errors in first 20% of the review queue: 2.87x random (lowest confidence first 0.85x)  salad over "I don't know." +0.045, over a wrong answer -0.209
 *   k=5  n=3960  r 0.799  RMSE 0.228 (mean of 5 0.387, ratio 0.589)  bias +0.028  ECE 0.073  big errors in first 20% of the review queue: 2.66x random (lowest confidence first 0.94x)  salad over "I don't know." +0.045, over a wrong answer -0.264
 *   k=10 n=3960  r 0.809  RMSE 0.223 (mean of 10 0.374, ratio 0.595)  bias +0.030  ECE 0.063  big errors in first 20% of the review queue: 2.83x random (lowest confidence first 1.26x)  salad over "I don't know." +0.045, over a wrong answer -0.273
 *   k=0 with the course (10 grades on each other question) n=2112 r 0.754  RMSE 0.248 (true mean 0.378, ratio 0.657)  bias +0.005  ECE 0.083  big errors in first 20% of the review queue: 2.83x random (lowest confidence first 0.57x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == scientsbank held out (fitted on the other families only)
 *   k=0  n=6242  r 0.471  RMSE 0.382 (true mean 0.429, ratio 0.889)  bias -0.047  ECE 0.105  big errors in first 20% of the review queue: 2.33x random (lowest confidence first 0.42x)  salad over "I don't know." +0.037, over a wrong answer -0.320
 *   k=5  n=4588  r 0.527  RMSE 0.364 (mean of 5 0.443, ratio 0.821)  bias -0.015  ECE 0.058  big errors in first 20% of the review queue: 2.54x random (lowest confidence first 0.62x)  salad over "I don't know." +0.032, over a wrong answer -0.363
 *   k=10 n=4588  r 0.567  RMSE 0.353 (mean of 10 0.425, ratio 0.830)  bias -0.002  ECE 0.066  big errors in first 20% of the review queue: 2.62x random (lowest confidence first 0.78x)  salad over "I don't know." +0.030, over a wrong answer -0.372
 *   k=0 with the course (10 grades on each other question) n=6242 r 0.467  RMSE 0.380 (true mean 0.429, ratio 0.885)  bias -0.004  ECE 0.041  big errors in first 20% of the review queue: 2.30x random (lowest confidence first 0.39x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == beetle held out (fitted on the other families only)
 *   k=0  n=5199  r 0.475  RMSE 0.448 (true mean 0.437, ratio 1.025)  bias +0.210  ECE 0.168  big errors in first 20% of the review queue: 1.36x random (lowest confidence first 0.87x)  salad over "I don't know." +0.044, over a wrong answer -0.500
 *   k=5  n=3180  r 0.516  RMSE 0.385 (mean of 5 0.459, ratio 0.839)  bias +0.054  ECE 0.066  big errors in first 20% of the review queue: 1.81x random (lowest confidence first 0.93x)  salad over "I don't know." +0.040, over a wrong answer -0.418
 *   k=10 n=3180  r 0.559  RMSE 0.370 (mean of 10 0.430, ratio 0.861)  bias +0.050  ECE 0.063  big errors in first 20% of the review queue: 2.18x random (lowest confidence first 1.12x)  salad over "I don't know." +0.044, over a wrong answer -0.400
 *   k=0 with the course (10 grades on each other question) n=5199 r 0.492  RMSE 0.394 (true mean 0.437, ratio 0.903)  bias -0.004  ECE 0.075  big errors in first 20% of the review queue: 1.79x random (lowest confidence first 0.87x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == asap-sas held out (fitted on the other families only)
 *   k=0  n=2500  r 0.540  RMSE 0.333 (true mean 0.387, ratio 0.861)  bias -0.070  ECE 0.079  big errors in first 20% of the review queue: 2.13x random (lowest confidence first 0.44x)  salad over "I don't know." +0.000, over a wrong answer -0.150
 *   k=5  n=3000  r 0.528  RMSE 0.332 (mean of 5 0.390, ratio 0.852)  bias -0.019  ECE 0.050  big errors in first 20% of the review queue: 2.40x random (lowest confidence first 0.75x)  salad over "I don't know." +0.000, over a wrong answer -0.300
 *   k=10 n=3000  r 0.555  RMSE 0.324 (mean of 10 0.363, ratio 0.892)  bias -0.006  ECE 0.041  big errors in first 20% of the review queue: 2.48x random (lowest confidence first 0.77x)  salad over "I don't know." +0.000, over a wrong answer -0.275
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.539  RMSE 0.327 (true mean 0.387, ratio 0.844)  bias +0.006  ECE 0.099  big errors in first 20% of the review queue: 2.75x random (lowest confidence first 0.58x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == powergrading held out (fitted on the other families only)
 *   k=0  n=2500  r 0.712  RMSE 0.331 (true mean 0.340, ratio 0.972)  bias -0.229  ECE 0.131  big errors in first 20% of the review queue: 1.86x random (lowest confidence first 0.75x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=3000  r 0.810  RMSE 0.206 (mean of 5 0.354, ratio 0.582)  bias -0.044  ECE 0.041  big errors in first 20% of the review queue: 4.23x random (lowest confidence first 0.99x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=3000  r 0.836  RMSE 0.189 (mean of 10 0.335, ratio 0.565)  bias -0.011  ECE 0.029  big errors in first 20% of the review queue: 4.45x random (lowest confidence first 3.29x)  salad over "I don't know."   -  , over a wrong answer   -
 *   k=0 with the course (10 grades on each other question) n=2500 r 0.716  RMSE 0.243 (true mean 0.340, ratio 0.715)  bias +0.031  ECE 0.021  big errors in first 20% of the review queue: 3.83x random (lowest confidence first 2.84x)
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == worst family (goal)
 *   |bias| at k=0 (<= 0.10)                      0.229 (powergrading)
 *   ECE at k=0 (<= 0.05)                         0.168 (beetle)
 *   |bias| at k=0 with the course (<= 0.10)      0.031 (powergrading)
 *   ECE at k=0 with the course (<= 0.05)         0.099 (asap-sas)
 *   RMSE / mean of 5 at k=5 (<= 0.90)            0.852 (asap-sas)
 *   RMSE / mean of 10 at k=10 (<= 0.85)          0.892 (asap-sas)
 *   RMSE / true mean at k=0                      1.025 (beetle)
 *   big errors in first 20%, x random, k=0 (>= 2) 1.360 (beetle)
 *   big errors in first 20%, x random, k=0 with the course (>= 2) 1.789 (beetle)
 *   big errors in first 20%, x random, k=5 (>= 2) 1.808 (beetle)
 *   big errors in first 20%, x random, k=10 (>= 2) 2.175 (beetle)
 *     the same, lowest confidence first, k=0     0.416 (scientsbank)
 *     the same, lowest confidence first, k=5     0.622 (scientsbank)
 *     the same, lowest confidence first, k=10    0.767 (asap-sas)
 *   salad over "I don't know.", k=0 (<= 0.05)    0.045 (saf)
 *   salad over "I don't know.", k=10 (<= 0.05)   0.045 (saf)
 *   leaking comments (<= 0.01)                   0.000 (saf)
 * time per answer: 15.0 ms (grading 2.9 ms + its meaning 12.1 ms; goal <= 150), resident memory 454 MB
 */
export const FITTED: SuggestionModel = {
  cold: {
    intercept: -1.3666,
    weights: [
      0.3859, 0.0374, 0.9273, -0.8285, 0.3502, 0.1579, -0.4711, 0.5383, 0.9948, 0.9567, -0.3338, 0.161, 0.7957, 1.0409,
      1.7223,
    ],
  },
  warm: [
    [0.777, 0.1341, -0.1943, -0.0662, -0.0691, 0.1245, 0.1155, -0.023, 0.1481, 0.606],
    [0.7912, 0.1199, -0.0759, 0.0043, -0.0699, 0.336, 0.0538, -0.0019, 0.2063, 0.4541],
    [0.7166, 0.0581, 0.0793, 0.0091, -0.0441, 0.2421, 0.0595, 0.123, 0.0636, 0.2911],
    [0.693, 0.1229, 0.1012, -0.0235, -0.0108, 0.1917, 0.068, 0.2583, -0.0882, 0.2044],
  ],
  confidence: {
    intercept: -0.063,
    weights: [-2.1568, 2.3177, -0.324, 0, 0.0917, -0.273, 0.0146, 0.5327, 0.3575, 1.5819, -0.478, 0.7686, -0.6083],
  },
  miss: {
    intercept: -0.675,
    weights: [-3.3725, 1.1519, 0.564, 0, -0.102, 0.2578, 0.3409, 0.2121, -0.2434, -0.8451, 0.1203, -0.1994, 0.2794],
  },
  confidenceCold: { intercept: -0.8569, weights: [-1.9545, 4.503, -0.1176, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
  missCold: { intercept: -0.2411, weights: [-3.3668, 0.4946, 0.0575, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
};
