import type { SuggestionModel } from './suggestion-model.ts';

/**
 * Weights of the built-in grader's suggestion model (suggestion-model.ts), fitted on every family
 * below by `npx tsx bench/grader-agreement.ts --data DIR --write` on 2026-11-28.
 * The figures are that run's, each family held out: measured with weights fitted on the others.
 *
 * data:
 *   saf: SebOchs/SAF @ 09949e912d266777a752ac7d51cfcddb4b3f6978 (partial credit 0..1 (score); English; training + unseen answers + unseen questions)
 *   scientsbank: leocomelli/score-freetext-answer + tobiasvennemann2401/GradingApp @ 5fd154c863f8cf4df19463c02a1a3eb98e262aa6 + c602a0494c085b0136ee153ee75b2ea959b9e7ac (5-way (SRA_numeric): correct 1, partially_correct_incomplete 0.5, contradictory/irrelevant/non_domain 0; training + unseen answers + unseen questions (unseen domains left out: 2-way only))
 *   beetle: leocomelli/score-freetext-answer + tobiasvennemann2401/GradingApp @ 5fd154c863f8cf4df19463c02a1a3eb98e262aa6 + c602a0494c085b0136ee153ee75b2ea959b9e7ac (5-way (SRA_numeric): correct 1, partially_correct_incomplete 0.5, contradictory/irrelevant/non_domain 0; training + unseen answers + unseen questions)
 *   asap-sas: mariebexte/s-bert-similarity-based-content-scoring @ 80e97b6e69932897e26d918e695743cd653e2666 (Score1 / set maximum (0-3 sets 1, 2, 5, 6; 0-2 others); train_rel_2 (gold train + test); no question texts or reference answers)
 *   powergrading: malik-ali/generative-grading + beingRD/CPSC5306-DataMiningProject @ 86cc2f5c8ba7900a46dc1974d9441f3e06f0e0fc + 505ceaeddf1d6cb933633e63a5af4a498a6856f1 (mean of three graders 0/1 (0, 1/3, 2/3, 1); the ten graded questions x 698 answers)
 * == saf held out (fitted on the other families only)
 *   k=0  n=2112  r 0.759  RMSE 0.246 (true mean 0.378, ratio 0.652)  bias +0.018  ECE 0.078  big errors in first 20%: 0.92x random  salad over "I don't know." -0.005, over a wrong answer -0.145
 *   k=5  n=1320  r 0.774  RMSE 0.242 (mean of 5 0.388, ratio 0.623)  bias +0.035  ECE 0.063  big errors in first 20%: 2.39x random  salad over "I don't know." -0.027, over a wrong answer -0.186
 *   k=10 n=1320  r 0.774  RMSE 0.243 (mean of 10 0.381, ratio 0.638)  bias +0.042  ECE 0.078  big errors in first 20%: 2.09x random  salad over "I don't know." -0.005, over a wrong answer -0.177
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == scientsbank held out (fitted on the other families only)
 *   k=0  n=6242  r 0.439  RMSE 0.399 (true mean 0.429, ratio 0.931)  bias -0.097  ECE 0.075  big errors in first 20%: 0.53x random  salad over "I don't know." +0.122, over a wrong answer -0.122
 *   k=5  n=4588  r 0.474  RMSE 0.384 (mean of 5 0.443, ratio 0.865)  bias +0.004  ECE 0.059  big errors in first 20%: 1.01x random  salad over "I don't know." -0.078, over a wrong answer -0.245
 *   k=10 n=4588  r 0.529  RMSE 0.365 (mean of 10 0.425, ratio 0.858)  bias +0.010  ECE 0.065  big errors in first 20%: 1.15x random  salad over "I don't know." -0.069, over a wrong answer -0.246
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == beetle held out (fitted on the other families only)
 *   k=0  n=5199  r 0.472  RMSE 0.446 (true mean 0.437, ratio 1.021)  bias +0.204  ECE 0.103  big errors in first 20%: 0.83x random  salad over "I don't know." +0.076, over a wrong answer -0.362
 *   k=5  n=3180  r 0.486  RMSE 0.397 (mean of 5 0.459, ratio 0.865)  bias -0.030  ECE 0.074  big errors in first 20%: 1.12x random  salad over "I don't know." +0.111, over a wrong answer -0.222
 *   k=10 n=3180  r 0.542  RMSE 0.374 (mean of 10 0.430, ratio 0.871)  bias +0.005  ECE 0.069  big errors in first 20%: 1.04x random  salad over "I don't know." +0.102, over a wrong answer -0.244
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == asap-sas held out (fitted on the other families only)
 *   k=0  n=2500  r 0.289  RMSE 0.386 (true mean 0.387, ratio 0.996)  bias -0.102  ECE 0.045  big errors in first 20%: 0.80x random  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=600   r 0.434  RMSE 0.383 (mean of 5 0.393, ratio 0.973)  bias +0.058  ECE 0.143  big errors in first 20%: 0.97x random  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=600   r 0.502  RMSE 0.338 (mean of 10 0.350, ratio 0.965)  bias -0.010  ECE 0.110  big errors in first 20%: 0.89x random  salad over "I don't know."   -  , over a wrong answer   -
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == powergrading held out (fitted on the other families only)
 *   k=0  n=2500  r 0.639  RMSE 0.351 (true mean 0.340, ratio 1.030)  bias -0.233  ECE 0.187  big errors in first 20%: 2.42x random  salad over "I don't know."   -  , over a wrong answer   -
 *   k=5  n=600   r 0.782  RMSE 0.209 (mean of 5 0.348, ratio 0.602)  bias +0.026  ECE 0.089  big errors in first 20%: 3.41x random  salad over "I don't know."   -  , over a wrong answer   -
 *   k=10 n=600   r 0.808  RMSE 0.196 (mean of 10 0.322, ratio 0.609)  bias +0.019  ECE 0.064  big errors in first 20%: 4.19x random  salad over "I don't know."   -  , over a wrong answer   -
 *   comments that leak the reference: 0.0% of suggestions below full marks
 * == worst family (goal)
 *   |bias| at k=0 (<= 0.10)                      0.233 (powergrading)
 *   ECE at k=0 (<= 0.05)                         0.187 (powergrading)
 *   RMSE / mean of 5 at k=5 (<= 0.90)            0.973 (asap-sas)
 *   RMSE / mean of 10 at k=10 (<= 0.85)          0.965 (asap-sas)
 *   RMSE / true mean at k=0                      1.030 (powergrading)
 *   big errors in first 20%, x random, k=0 (>= 2) 0.533 (scientsbank)
 *   big errors in first 20%, x random, k=5 (>= 2) 0.975 (asap-sas)
 *   big errors in first 20%, x random, k=10 (>= 2) 0.890 (asap-sas)
 *   salad over "I don't know.", k=0 (<= 0.05)    0.122 (scientsbank)
 *   salad over "I don't know.", k=10 (<= 0.05)   0.102 (beetle)
 *   leaking comments (<= 0.01)                   0.000 (saf)
 * time per answer: 25.5 ms (grading 1.5 ms + its meaning 24.0 ms; goal <= 150), resident memory 418 MB
 */
export const FITTED: SuggestionModel = {
  cold: {
    intercept: -1.8743,
    weights: [0.3107, 0.0438, 1.014, -0.8507, 0.3065, 0.3025, -0.4591, 0.5838, 1.0074, 1.1772, 0.2984, 0.2374, 0.9398],
  },
  warm: [
    [0.9885, 0.1254, -0.3133, -0.0084, -0.0562, 0.0709, 0.2814],
    [0.9496, 0.0768, 0.0636, 0.0145, -0.0533, 0.3011, 0.0149],
    [0.8153, 0.0444, 0.1363, -0.02, 0.0606, 0.2445, 0.042],
    [0.7701, 0.1057, 0.0758, -0.0744, 0.1088, 0.1261, 0.0821],
  ],
  confidence: {
    intercept: -0.3479,
    weights: [
      -1.7918, 3.1536, -1.5538, -0.1232, 0.1931, 0.1689, -0.4469, -0.4972, 0.5159, 1.7156, -0.1313, 0.5763, -0.5201,
    ],
  },
};
