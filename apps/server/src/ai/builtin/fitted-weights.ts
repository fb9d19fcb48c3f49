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
 *   k=0  n=2112  r 0.763  RMSE 0.245 (true mean 0.378, ratio 0.649)  bias +0.023  ECE 0.080  big errors in first 20%: 0.94x random  salad over "I don't know." +0.045, over a wrong answer -0.236
 *   k=5  n=1320  r 0.787  RMSE 0.237 (mean of 5 0.388, ratio 0.611)  bias +0.041  ECE 0.064  big errors in first 20%: 2.67x random  salad over "I don't know." +0.045, over a wrong answer -0.277
 *   k=10 n=1320  r 0.774  RMSE 0.244 (mean of 10 0.381, ratio 0.641)  bias +0.047  ECE 0.089  big errors in first 20%: 2.14x random  salad over "I don't know." +0.045, over a wrong answer -0.286
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == scientsbank held out (fitted on the other families only)
 *   k=0  n=6242  r 0.445  RMSE 0.398 (true mean 0.429, ratio 0.927)  bias -0.097  ECE 0.076  big errors in first 20%: 0.56x random  salad over "I don't know." +0.037, over a wrong answer -0.275
 *   k=5  n=4588  r 0.490  RMSE 0.379 (mean of 5 0.443, ratio 0.855)  bias +0.007  ECE 0.057  big errors in first 20%: 1.01x random  salad over "I don't know." +0.034, over a wrong answer -0.375
 *   k=10 n=4588  r 0.534  RMSE 0.363 (mean of 10 0.425, ratio 0.854)  bias +0.012  ECE 0.064  big errors in first 20%: 1.16x random  salad over "I don't know." +0.034, over a wrong answer -0.394
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == beetle held out (fitted on the other families only)
 *   k=0  n=5199  r 0.472  RMSE 0.446 (true mean 0.437, ratio 1.022)  bias +0.204  ECE 0.107  big errors in first 20%: 0.87x random  salad over "I don't know." +0.044, over a wrong answer -0.504
 *   k=5  n=3180  r 0.490  RMSE 0.396 (mean of 5 0.459, ratio 0.863)  bias -0.036  ECE 0.080  big errors in first 20%: 1.06x random  salad over "I don't know." +0.044, over a wrong answer -0.320
 *   k=10 n=3180  r 0.540  RMSE 0.375 (mean of 10 0.430, ratio 0.872)  bias -0.004  ECE 0.077  big errors in first 20%: 0.97x random  salad over "I don't know." +0.044, over a wrong answer -0.364
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == asap-sas held out (fitted on the other families only)
 *   k=0  n=2500  r 0.295  RMSE 0.385 (true mean 0.387, ratio 0.994)  bias -0.101  ECE 0.046  big errors in first 20%: 0.78x random  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=600   r 0.433  RMSE 0.383 (mean of 5 0.393, ratio 0.976)  bias +0.058  ECE 0.141  big errors in first 20%: 0.95x random  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=600   r 0.499  RMSE 0.338 (mean of 10 0.350, ratio 0.967)  bias -0.009  ECE 0.060  big errors in first 20%: 0.84x random  salad over "I don't know."   -  , over a wrong answer   -
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == powergrading held out (fitted on the other families only)
 *   k=0  n=2500  r 0.653  RMSE 0.351 (true mean 0.340, ratio 1.032)  bias -0.238  ECE 0.177  big errors in first 20%: 2.48x random  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=600   r 0.801  RMSE 0.201 (mean of 5 0.348, ratio 0.578)  bias +0.023  ECE 0.096  big errors in first 20%: 3.45x random  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=600   r 0.822  RMSE 0.190 (mean of 10 0.322, ratio 0.589)  bias +0.019  ECE 0.065  big errors in first 20%: 4.31x random  salad over "I don't know."   -  , over a wrong answer   -
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == worst family (goal)
 *   |bias| at k=0 (<= 0.10)                      0.238 (powergrading)
 *   ECE at k=0 (<= 0.05)                         0.177 (powergrading)
 *   RMSE / mean of 5 at k=5 (<= 0.90)            0.976 (asap-sas)
 *   RMSE / mean of 10 at k=10 (<= 0.85)          0.967 (asap-sas)
 *   RMSE / true mean at k=0                      1.032 (powergrading)
 *   big errors in first 20%, x random, k=0 (>= 2) 0.556 (scientsbank)
 *   big errors in first 20%, x random, k=5 (>= 2) 0.949 (asap-sas)
 *   big errors in first 20%, x random, k=10 (>= 2) 0.840 (asap-sas)
 *   salad over "I don't know.", k=0 (<= 0.05)    0.045 (saf)
 *   salad over "I don't know.", k=10 (<= 0.05)   0.045 (saf)
 *   leaking comments (<= 0.01)                   0.000 (saf)
 * time per answer: 55.7 ms (grading 4.0 ms + its meaning 51.7 ms; goal <= 150), resident memory 442 MB
 */
export const FITTED: SuggestionModel = {
  cold: {
    intercept: -1.9042,
    weights: [0.2736, 0.0314, 1.0276, -0.8615, 0.2998, 0.3192, -0.4533, 0.5829, 1.0141, 1.225, 0.3031, 0.2559, 0.9691],
  },
  warm: [
    [1.0554, 0.139, -0.3548, 0.0529, -0.1464, -0.0168, 0.2873],
    [0.8981, 0.078, 0.021, 0.0759, -0.0275, 0.3102, 0.0398],
    [0.7737, 0.0684, 0.1264, 0.0304, 0.0047, 0.2293, 0.0531],
    [0.7493, 0.1592, 0.0835, 0.0006, 0.0422, 0.1247, 0.0678],
  ],
  confidence: {
    intercept: -0.3386,
    weights: [
      -1.7951, 3.1506, -1.6338, -0.0423, 0.179, 0.0903, -0.4488, -0.5678, 0.5024, 1.7227, -0.0868, 0.6034, -0.529,
    ],
  },
};
