import { isSuggestionKept } from '@gradewise/shared/kept-suggestion';
import { featureVector, type AnswerFeatures } from './answer-features.ts';
import { FITTED } from './fitted-weights.ts';

/**
 * From measurements to a suggested share of the points and a confidence, in three small models
 * whose weights were fitted on real human-scored answers (bench/_fit-grader-model.ts writes
 * fitted-weights.ts; the fit and its evaluation are in docs/decisions/0013-grader-fitted-on-real-answers.md):
 *
 * 1. Cold start: a logistic model of the human share from the answer's features. It predicts the
 *    expected share, so an answer it cannot judge gets partial credit, not 0 or full marks.
 * 2. With saved grades (examples): the question's own calibration of the cold model (its
 *    instructor may be stricter or more lenient; shrunk toward the cold model when there are few
 *    examples), the instructor's grades on the most similar answers (nearest neighbours), and the
 *    mean of the examples, weighed by a second fitted logistic model.
 * 3. Confidence: the chance that the instructor keeps the suggested score within 10% of the
 *    points, from how decided the suggestion is, how alike the nearest graded answers are and
 *    how often this question's own grades were met by the same procedure (leave one out).
 */

export const sigmoid = (value: number) => 1 / (1 + Math.exp(-value));
export const logit = (share: number) => {
  const bounded = Math.min(0.98, Math.max(0.02, share));
  return Math.log(bounded / (1 - bounded));
};

const dot = (weights: readonly number[], values: readonly number[]) =>
  weights.reduce((sum, weight, index) => sum + weight * (values[index] ?? 0), 0);

export function coldLogit(features: AnswerFeatures): number {
  return FITTED.cold.intercept + dot(FITTED.cold.weights, featureVector(features));
}

/** A saved grade, measured like the answer being graded. */
export interface PreparedExample {
  coldLogit: number;
  vector: Map<string, number>;
  /** The instructor's score as a share of the points. */
  share: number;
  /** The share the AI suggested before the instructor saved; null when graded by hand. */
  suggestedShare?: number | null;
}

export function cosineSimilarity(left: Map<string, number>, right: Map<string, number>): number {
  let product = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (const [term, weight] of left) {
    leftNorm += weight * weight;
    const other = right.get(term);
    if (other !== undefined) product += weight * other;
  }
  for (const weight of right.values()) rightNorm += weight * weight;
  return leftNorm > 0 && rightNorm > 0 ? product / Math.sqrt(leftNorm * rightNorm) : 0;
}

/**
 * The question's own line from cold logit to the instructor's shares: share = sigmoid(a z + c),
 * fitted by a few Newton steps with a ridge pulling (a, c) toward (1, 0), so two examples move it
 * a little and twenty move it a lot.
 */
export function calibrateToExamples(examples: readonly PreparedExample[]): { slope: number; offset: number } {
  let slope = 1;
  let offset = 0;
  const ridge = FITTED.calibrationRidge;
  for (let step = 0; step < 12; step++) {
    let gradientSlope = ridge * (slope - 1);
    let gradientOffset = ridge * offset;
    let hessianSS = ridge;
    let hessianSO = 0;
    let hessianOO = ridge;
    for (const example of examples) {
      const predicted = sigmoid(slope * example.coldLogit + offset);
      const residual = predicted - example.share;
      const curvature = Math.max(1e-6, predicted * (1 - predicted));
      gradientSlope += residual * example.coldLogit;
      gradientOffset += residual;
      hessianSS += curvature * example.coldLogit * example.coldLogit;
      hessianSO += curvature * example.coldLogit;
      hessianOO += curvature;
    }
    const determinant = hessianSS * hessianOO - hessianSO * hessianSO;
    if (Math.abs(determinant) < 1e-12) break;
    const deltaSlope = (hessianOO * gradientSlope - hessianSO * gradientOffset) / determinant;
    const deltaOffset = (hessianSS * gradientOffset - hessianSO * gradientSlope) / determinant;
    slope -= deltaSlope;
    offset -= deltaOffset;
    if (Math.abs(deltaSlope) + Math.abs(deltaOffset) < 1e-6) break;
  }
  return { slope, offset };
}

export interface Neighbourhood {
  /** Similarity-weighted mean share of the examples, pulled toward their plain mean when far. */
  share: number;
  /** Similarity to the most alike example (0..1). */
  nearest: number;
  /** Similarity to the most alike well-graded example (3/4 of the points or more), 0 if none. */
  nearestGood: number;
  /** Similarity to the most alike poorly graded example (1/4 of the points or less), 0 if none. */
  nearestPoor: number;
  /** Plain mean share of the examples. */
  mean: number;
}

export function neighbourhood(vector: Map<string, number>, examples: readonly PreparedExample[]): Neighbourhood {
  const mean = examples.reduce((sum, example) => sum + example.share, 0) / examples.length;
  let weighted = 0;
  let weightSum = 0;
  let nearest = 0;
  let nearestGood = 0;
  let nearestPoor = 0;
  for (const example of examples) {
    const similarity = cosineSimilarity(vector, example.vector);
    nearest = Math.max(nearest, similarity);
    if (example.share >= 0.75) nearestGood = Math.max(nearestGood, similarity);
    if (example.share <= 0.25) nearestPoor = Math.max(nearestPoor, similarity);
    const weight = Math.exp(FITTED.neighbourSharpness * similarity) - 1;
    weighted += weight * example.share;
    weightSum += weight;
  }
  const prior = 1;
  return { share: (weighted + prior * mean) / (weightSum + prior), nearest, nearestGood, nearestPoor, mean };
}

function normalisedSum(vectors: readonly { vector: Map<string, number>; weight: number }[]): Map<string, number> {
  const sum = new Map<string, number>();
  for (const { vector, weight } of vectors) {
    if (weight <= 0) continue;
    let norm = 0;
    for (const value of vector.values()) norm += value * value;
    if (norm <= 0) continue;
    const scale = weight / Math.sqrt(norm);
    for (const [term, value] of vector) sum.set(term, (sum.get(term) ?? 0) + value * scale);
  }
  return sum;
}

/**
 * Rocchio: how much more the answer resembles the instructor's credited answers (weighted by
 * their share) than the uncredited ones (weighted by the share missing). Robust with few grades,
 * and it picks up the words this instructor rewards, whatever the reference says.
 */
export function creditedResemblance(vector: Map<string, number>, examples: readonly PreparedExample[]): number {
  const credited = normalisedSum(examples.map((example) => ({ vector: example.vector, weight: example.share })));
  const uncredited = normalisedSum(examples.map((example) => ({ vector: example.vector, weight: 1 - example.share })));
  if (credited.size === 0 || uncredited.size === 0) return 0;
  return cosineSimilarity(vector, credited) - cosineSimilarity(vector, uncredited);
}

/**
 * Naive Bayes over words: for each of the answer's words that saved grades also use, how much more
 * often it appears in credited than in uncredited answers (log ratio, smoothed), averaged. It is
 * what makes "the instructor credits 'evaporate' and not 'boil'" count.
 */
export function creditedWords(vector: Map<string, number>, examples: readonly PreparedExample[]): number {
  let creditedTotal = 0;
  let uncreditedTotal = 0;
  for (const example of examples) {
    creditedTotal += example.share;
    uncreditedTotal += 1 - example.share;
  }
  let sum = 0;
  let count = 0;
  for (const term of vector.keys()) {
    let credited = 0;
    let uncredited = 0;
    for (const example of examples) {
      if (!example.vector.has(term)) continue;
      credited += example.share;
      uncredited += 1 - example.share;
    }
    if (credited + uncredited === 0) continue;
    sum += Math.log((credited + 0.5) / (creditedTotal + 1)) - Math.log((uncredited + 0.5) / (uncreditedTotal + 1));
    count++;
  }
  return count ? sum / count : 0;
}

/** The inputs of the model that weighs cold, calibrated, neighbour and mean evidence. */
export function warmInputs(
  answerLogit: number,
  vector: Map<string, number>,
  examples: readonly PreparedExample[],
): number[] {
  const { slope, offset } = calibrateToExamples(examples);
  const near = neighbourhood(vector, examples);
  const count = Math.log1p(examples.length);
  return [
    answerLogit,
    slope * answerLogit + offset,
    logit(near.share),
    logit(near.share) * near.nearest,
    logit(near.mean),
    count,
    near.nearestGood - near.nearestPoor,
    creditedResemblance(vector, examples),
    creditedWords(vector, examples),
  ];
}

export interface SharePrediction {
  share: number;
  /** The inputs behind it, kept in the judgement for audits. */
  inputs: number[];
  nearest: number;
}

export function predictShare(
  answerLogit: number,
  vector: Map<string, number>,
  examples: readonly PreparedExample[],
): SharePrediction {
  if (examples.length === 0) return { share: sigmoid(answerLogit), inputs: [answerLogit], nearest: 0 };
  const inputs = warmInputs(answerLogit, vector, examples);
  const share = sigmoid(FITTED.warm.intercept + dot(FITTED.warm.weights, inputs));
  return { share, inputs, nearest: neighbourhood(vector, examples).nearest };
}

/**
 * Scores move in steps of half a point (a quarter below 2 points). A share within a tenth of
 * either end is that end: the instructor would keep either score (the confidence's own measure),
 * and "9.5 of 10" for an answer the grader finds complete reads as an unexplained deduction.
 */
export function roundScore(points: number, share: number, snapToEnds = true): number {
  const step = points >= 2 ? 0.5 : 0.25;
  // Without snapping (numbers judged by value and unit), any shortfall costs at least one step.
  if (!snapToEnds) return Math.max(0, points - Math.ceil((points * (1 - share)) / step - 1e-9) * step);
  if (share >= 0.9) return points;
  if (share <= 0.1) return 0;
  return Math.min(points, Math.max(0, Math.round((points * share) / step) * step));
}

/** Kept: the instructor's score within 10% of the points of the suggestion. */
export function isKept(points: number, suggestedShare: number, humanShare: number): boolean {
  return isSuggestionKept(roundScore(points, suggestedShare) / points, humanShare, 1);
}

/**
 * What this question's saved grades say about the confidence, measured once per set of grades:
 * - keptRate: how often its saved grades were or would have been met — the suggestions the
 *   instructor actually started from (kept within 10% of the points or changed), and each of (up
 *   to 20) examples graded from the others; shrunk toward one half with two pseudo-grades;
 * - slope and shift: how the confidence model's own claims on those left-out examples compare
 *   with what happened, as a line through its log-odds, shrunk toward no change by a prior fitted
 *   on the development sets (FITTED.confidencePrior). This is the question's own calibration of
 *   the confidence: its instructor may grade all-or-nothing, or more finely than the model expects.
 */
export interface QuestionRecord {
  keptRate: number;
  /** The leave-one-out record of suggestions at either end of the scale (0 or full marks) alone. */
  endsKeptRate: number;
  endsProbed: number;
  /** The question's own line through the model's log-odds: slope * logOdds + shift. */
  slope: number;
  shift: number;
}

const PROBE_LIMIT = 20;
const recordCache = new Map<string, QuestionRecord>();
const RECORD_CACHE_LIMIT = 64;

/** The fit script changes the weights between measurements; records made under old ones must go. */
export function forgetQuestionRecords(): void {
  recordCache.clear();
}

export function questionRecord(points: number, examples: readonly PreparedExample[]): QuestionRecord {
  if (examples.length === 0) return { keptRate: 0.5, endsKeptRate: 0.5, endsProbed: 0, slope: 1, shift: 0 };
  const key = `${points}|${examples.map((example) => `${example.share}:${example.coldLogit}:${example.suggestedShare ?? ''}`).join(',')}`;
  const cached = recordCache.get(key);
  if (cached) return cached;
  let kept = 0;
  let count = 0;
  // What actually happened: the suggestions the instructor started from, kept or changed.
  for (const example of examples) {
    if (example.suggestedShare === null || example.suggestedShare === undefined) continue;
    count++;
    if (isSuggestionKept(example.suggestedShare, example.share, 1)) kept++;
  }
  const probes: { prediction: SharePrediction; others: PreparedExample[]; isKept: boolean }[] = [];
  if (examples.length >= 3) {
    examples.slice(0, PROBE_LIMIT).forEach((example, index) => {
      const others = examples.filter((_, otherIndex) => otherIndex !== index);
      const prediction = predictShare(example.coldLogit, example.vector, others);
      const wasKept = isKept(points, prediction.share, example.share);
      probes.push({ prediction, others, isKept: wasKept });
      count++;
      if (wasKept) kept++;
    });
  }
  const keptRate = count ? (kept + 1) / (count + 2) : 0.5;
  const atEnds = probes.filter((probe) => isAtAnEnd(points, probe.prediction.share));
  const endsKeptRate = (atEnds.filter((probe) => probe.isKept).length + 1) / (atEnds.length + 2);
  const claims = probes.map((probe) => ({
    logOdds: confidenceLogOdds(confidenceInputsFor(points, probe.prediction, probe.others, keptRate)),
    isKept: probe.isKept,
  }));
  // The suggestions the instructor actually started from, and whether they kept them: the claim is
  // what the model says of that suggestion now, from the other grades.
  examples.slice(0, PROBE_LIMIT).forEach((example, index) => {
    if (example.suggestedShare === null || example.suggestedShare === undefined) return;
    const others = examples.filter((_, otherIndex) => otherIndex !== index);
    const prediction = { ...predictShare(example.coldLogit, example.vector, others), share: example.suggestedShare };
    claims.push({
      logOdds: confidenceLogOdds(confidenceInputsFor(points, prediction, others, keptRate)),
      isKept: isSuggestionKept(example.suggestedShare, example.share, 1),
    });
  });
  const record = {
    keptRate,
    endsKeptRate,
    endsProbed: atEnds.length,
    ...calibrationLine(claims, FITTED.confidencePrior),
  };
  if (recordCache.size >= RECORD_CACHE_LIMIT) recordCache.delete(recordCache.keys().next().value!);
  recordCache.set(key, record);
  return record;
}

/**
 * The line through log-odds (slope, shift) that best explains what happened to the claims: a
 * two-parameter logistic fit by Newton's method, with normal priors (slope around 1, shift around
 * 0; scales fitted on the development sets) that keep a few grades from swinging it far. A slope
 * above 1 spreads the claims: on a question graded all-or-nothing, a suggestion at either end is
 * kept more often than words alone suggest, and one in between almost never.
 */
export function calibrationLine(
  claims: readonly { logOdds: number; isKept: boolean }[],
  scales: { slope: number; shift: number },
): { slope: number; shift: number } {
  if (claims.length === 0 || scales.shift <= 0) return { slope: 1, shift: 0 };
  let slope = 1;
  let shift = 0;
  // A slope scale of 0 holds the slope at 1: the claims of one question often span a narrow range,
  // and a slope fitted there extrapolates wrongly (a record of kept suggestions could lower the
  // confidence of an answer unlike them), so the fitted prior holds it (bench/_fit-grader-model.ts).
  const slopePrecision = scales.slope > 0 ? 1 / (scales.slope * scales.slope) : 1e12;
  const shiftPrecision = 1 / (scales.shift * scales.shift);
  for (let iteration = 0; iteration < 30; iteration++) {
    let gradSlope = (slope - 1) * slopePrecision;
    let gradShift = shift * shiftPrecision;
    let hSlope = slopePrecision;
    let hCross = 0;
    let hShift = shiftPrecision;
    for (const claim of claims) {
      const probability = sigmoid(slope * claim.logOdds + shift);
      const residual = probability - (claim.isKept ? 1 : 0);
      const curvature = probability * (1 - probability);
      gradSlope += residual * claim.logOdds;
      gradShift += residual;
      hSlope += curvature * claim.logOdds * claim.logOdds;
      hCross += curvature * claim.logOdds;
      hShift += curvature;
    }
    const determinant = hSlope * hShift - hCross * hCross;
    if (!(determinant > 1e-12)) break;
    const stepSlope = (hShift * gradSlope - hCross * gradShift) / determinant;
    const stepShift = (hSlope * gradShift - hCross * gradSlope) / determinant;
    slope -= stepSlope;
    shift -= stepShift;
    if (Math.abs(stepSlope) + Math.abs(stepShift) < 1e-6) break;
  }
  return { slope, shift };
}

/** Kept for the fit script and tests: the record's kept rate alone. */
export function leaveOneOutKeptRate(points: number, examples: readonly PreparedExample[]): number {
  return questionRecord(points, examples).keptRate;
}

export function confidenceInputs(
  points: number,
  prediction: SharePrediction,
  examples: readonly PreparedExample[],
): number[] {
  return confidenceInputsFor(points, prediction, examples, questionRecord(points, examples).keptRate);
}

function confidenceInputsFor(
  points: number,
  prediction: SharePrediction,
  examples: readonly PreparedExample[],
  keptRate: number,
): number[] {
  const suggested = roundScore(points, prediction.share) / points;
  const decided = Math.abs(2 * suggested - 1);
  const hasExamples = examples.length > 0 ? 1 : 0;
  // An instructor who grades all-or-nothing keeps only decided suggestions; one who gives partial
  // credit keeps near misses too. The saved grades say which this question is.
  const atAnEnd = isAtAnEnd(points, prediction.share) ? 1 : 0;
  const atEnds = examples.filter((example) => example.share <= 0.1 || example.share >= 0.9).length;
  const allOrNothing = hasExamples ? atEnds / examples.length : 0;
  // How likely the next grade is in between, with half a pseudo-grade: a suggestion in between is
  // kept only if the instructor gives a score in between, which one who has given ten 0s and full
  // marks (every SemEval question) all but never does. The rate's log separates "never so far, of
  // ten" from "never so far, of two", which the plain share above cannot.
  const inBetweenLog = hasExamples ? Math.log((examples.length - atEnds + 0.5) / (examples.length + 1)) : 0;
  return [
    decided,
    suggested,
    decided * decided,
    hasExamples,
    Math.log1p(examples.length),
    prediction.nearest,
    logit(keptRate) * hasExamples,
    allOrNothing,
    allOrNothing * decided,
    atAnEnd,
    atAnEnd * allOrNothing,
    (1 - atAnEnd) * inBetweenLog,
    atAnEnd * inBetweenLog,
  ];
}

/**
 * Without this question's own grades to check against, the grader only compares words: it never
 * claims 90 or more then. 90+ needs five saved grades or more and a leave-one-out record on them
 * of at least four in five (without that record, 14% of 90+ answers were off by > 40% at k = 5).
 */
export const LEXICAL_CONFIDENCE_CAP = 85;
export const MIN_GRADES_FOR_HIGH_CONFIDENCE = 5;

/**
 * The suggestion is kept if the instructor gives 0 or full marks: it is within a tenth of the
 * points of an end ("0.5 of 5" is kept by a 0, as "0 of 5" is). On a question graded
 * all-or-nothing these are the only suggestions that can be kept; counting "0.5 of 5" as in
 * between made the confidence far too low on them (said 55%, kept 90% on SemEval).
 */
export function isAtAnEnd(points: number, share: number): boolean {
  const suggested = roundScore(points, share) / points;
  return suggested <= 0.1 + 1e-9 || suggested >= 0.9 - 1e-9;
}

export function confidenceLogOdds(inputs: readonly number[]): number {
  return FITTED.confidence.intercept + dot(FITTED.confidence.weights, inputs);
}

/**
 * 0..100: the chance, in percent, that the instructor keeps the score within 10% of the points:
 * the fitted model's claim, moved by this question's own record (questionRecord's shift).
 */
export function estimateConfidence(
  inputs: readonly number[],
  examples: readonly PreparedExample[] = [],
  points = 1,
): number {
  const record = questionRecord(points, examples);
  const probability = sigmoid(record.slope * confidenceLogOdds(inputs) + record.shift);
  // Backed by grades: the question's own record of suggestions like this one meets the claim. On a
  // question its instructor grades all-or-nothing (4 in 5 grades at an end), suggestions in between
  // are rarely kept while those at either end are, so a suggestion at an end is judged by the
  // record of suggestions at an end.
  const isSuggestedAtAnEnd = inputs[9] === 1;
  const isGradedAllOrNothing = (inputs[7] ?? 0) >= 0.8;
  const isBackedByGrades =
    examples.length >= MIN_GRADES_FOR_HIGH_CONFIDENCE &&
    (record.keptRate >= 0.8 ||
      (isSuggestedAtAnEnd &&
        isGradedAllOrNothing &&
        record.endsProbed >= MIN_GRADES_FOR_HIGH_CONFIDENCE &&
        record.endsKeptRate >= 0.8));
  const cap = isBackedByGrades ? 99 : LEXICAL_CONFIDENCE_CAP;
  return Math.round(Math.min(cap / 100, Math.max(0.01, probability)) * 100);
}
