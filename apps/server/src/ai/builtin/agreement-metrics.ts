import { contentTerms } from './text-analysis.ts';

/**
 * How well suggested scores agree with human scores, and the plain reference grader the built-in
 * grader is compared with. Used by the tests (floors) and by bench/grader-agreement.ts.
 */

export interface ScoredAnswer {
  points: number;
  humanScore: number;
  score: number;
  confidence: number;
}

export function pearson(left: readonly number[], right: readonly number[]): number {
  const count = left.length;
  if (count < 2) return 0;
  const meanLeft = left.reduce((sum, value) => sum + value, 0) / count;
  const meanRight = right.reduce((sum, value) => sum + value, 0) / count;
  let covariance = 0;
  let varianceLeft = 0;
  let varianceRight = 0;
  for (let index = 0; index < count; index++) {
    const dl = left[index]! - meanLeft;
    const dr = right[index]! - meanRight;
    covariance += dl * dr;
    varianceLeft += dl * dl;
    varianceRight += dr * dr;
  }
  return varianceLeft > 0 && varianceRight > 0 ? covariance / Math.sqrt(varianceLeft * varianceRight) : 0;
}

/** Errors are measured as a share of each question's points, so 10-point and 3-point questions weigh alike. */
const relativeErrors = (answers: readonly ScoredAnswer[]) =>
  answers.map((answer) => (answer.score - answer.humanScore) / answer.points);

export function meanAbsoluteError(answers: readonly ScoredAnswer[]): number {
  const errors = relativeErrors(answers);
  return errors.length ? errors.reduce((sum, error) => sum + Math.abs(error), 0) / errors.length : 0;
}

export function rootMeanSquareError(answers: readonly ScoredAnswer[]): number {
  const errors = relativeErrors(answers);
  return errors.length ? Math.sqrt(errors.reduce((sum, error) => sum + error * error, 0) / errors.length) : 0;
}

/** Quadratic weighted kappa over scores binned to tenths of the points (0..10). */
export function quadraticWeightedKappa(answers: readonly ScoredAnswer[]): number {
  const bins = 11;
  const bin = (value: number, points: number) => Math.min(bins - 1, Math.max(0, Math.round((value / points) * 10)));
  const observed = Array.from({ length: bins }, () => new Array<number>(bins).fill(0));
  const humanHistogram = new Array<number>(bins).fill(0);
  const graderHistogram = new Array<number>(bins).fill(0);
  for (const answer of answers) {
    const human = bin(answer.humanScore, answer.points);
    const grader = bin(answer.score, answer.points);
    observed[human]![grader]!++;
    humanHistogram[human]!++;
    graderHistogram[grader]!++;
  }
  const total = answers.length;
  if (total === 0) return 0;
  let observedDisagreement = 0;
  let expectedDisagreement = 0;
  for (let human = 0; human < bins; human++) {
    for (let grader = 0; grader < bins; grader++) {
      const weight = (human - grader) ** 2 / (bins - 1) ** 2;
      observedDisagreement += weight * observed[human]![grader]!;
      expectedDisagreement += (weight * humanHistogram[human]! * graderHistogram[grader]!) / total;
    }
  }
  return expectedDisagreement > 0 ? 1 - observedDisagreement / expectedDisagreement : 1;
}

export interface AgreementSummary {
  count: number;
  pearson: number;
  /** As a share of the question's points. */
  rmse: number;
  mae: number;
  qwk: number;
}

export function summarizeAgreement(answers: readonly ScoredAnswer[]): AgreementSummary {
  return {
    count: answers.length,
    pearson: pearson(
      answers.map((answer) => answer.score / answer.points),
      answers.map((answer) => answer.humanScore / answer.points),
    ),
    rmse: rootMeanSquareError(answers),
    mae: meanAbsoluteError(answers),
    qwk: quadraticWeightedKappa(answers),
  };
}

/** Splits at the median confidence: [low half, high half]. Ties go to the low half. */
export function splitByConfidence(answers: readonly ScoredAnswer[]): [ScoredAnswer[], ScoredAnswer[]] {
  const sorted = [...answers].sort((left, right) => left.confidence - right.confidence);
  const median = sorted[Math.floor(sorted.length / 2)]?.confidence ?? 0;
  return [
    answers.filter((answer) => answer.confidence <= median),
    answers.filter((answer) => answer.confidence > median),
  ];
}

/**
 * The reference baseline: bag-of-words cosine similarity between the answer and the solution
 * (stemmed, stop words removed, raw counts), score = points x similarity rounded to halves.
 */
export function baselineCosineScore(answerText: string, solutionText: string, points: number): number {
  const counts = (text: string) => {
    const vector = new Map<string, number>();
    for (const token of contentTerms(text)) vector.set(token.term, (vector.get(token.term) ?? 0) + 1);
    return vector;
  };
  const answer = counts(answerText);
  const solution = counts(solutionText);
  let dot = 0;
  let answerNorm = 0;
  let solutionNorm = 0;
  for (const [term, count] of answer) {
    answerNorm += count * count;
    dot += count * (solution.get(term) ?? 0);
  }
  for (const count of solution.values()) solutionNorm += count * count;
  const similarity = answerNorm > 0 && solutionNorm > 0 ? dot / Math.sqrt(answerNorm * solutionNorm) : 0;
  return Math.round(points * similarity * 2) / 2;
}
