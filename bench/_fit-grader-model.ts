/**
 * Fits the built-in grader's suggestion model (apps/server/src/ai/builtin/suggestion-model.ts) on
 * measured answers (_grader-measure.ts). The agreement benchmark calls it once per family with that
 * family left out, and measures on the family left out; `grader-agreement.ts --write` then fits it
 * on every family and writes fitted-weights.ts. Every family weighs the same in each fit, however
 * many answers it has, so no one kind of answer decides the weights.
 */
import {
  BIG_MISS,
  classLevelOf,
  WARM_FITTED_UP_TO,
  coldInputs,
  coldShare,
  confidenceInputs,
  evidenceRecord,
  predictShare,
  readEvidence,
  roundScore,
  trustFrom,
  warmBand,
  warmInputs,
  WARM_BANDS,
  type EvidenceRecord,
  type PreparedExample,
  type SuggestionModel,
} from '../apps/server/src/ai/builtin/suggestion-model.ts';
import { hashSeed, seededRandom } from '../apps/server/src/lib/seeded-random.ts';
import { POINTS, type MeasuredAnswer, type MeasuredQuestion } from './_grader-measure.ts';
import { shuffled } from './_grading-datasets.ts';

interface Row {
  x: number[];
  y: number;
  w: number;
}

/** Logistic regression (targets may be shares) by Newton's method, L2 on the weights only. */
export function fitLogistic(rows: readonly Row[], l2 = 1e-3): { intercept: number; weights: number[] } {
  const dimension = rows[0]!.x.length + 1;
  const beta = new Array<number>(dimension).fill(0);
  const totalWeight = rows.reduce((sum, row) => sum + row.w, 0);
  for (let iteration = 0; iteration < 60; iteration++) {
    const gradient = new Array<number>(dimension).fill(0);
    const hessian = Array.from({ length: dimension }, () => new Array<number>(dimension).fill(0));
    for (const row of rows) {
      const x = [1, ...row.x];
      const z = x.reduce((sum, value, index) => sum + value * beta[index]!, 0);
      const p = 1 / (1 + Math.exp(-z));
      const weight = row.w / totalWeight;
      for (let i = 0; i < dimension; i++) {
        gradient[i]! += weight * (p - row.y) * x[i]!;
        for (let j = 0; j < dimension; j++) hessian[i]![j]! += weight * p * (1 - p) * x[i]! * x[j]!;
      }
    }
    for (let i = 1; i < dimension; i++) {
      gradient[i]! += l2 * beta[i]!;
      hessian[i]![i]! += l2;
    }
    const step = solve(hessian, gradient);
    let change = 0;
    for (let i = 0; i < dimension; i++) {
      beta[i]! -= step[i]!;
      change += Math.abs(step[i]!);
    }
    if (change < 1e-9) break;
  }
  return { intercept: round(beta[0]!), weights: beta.slice(1).map(round) };
}

interface FamilyRow extends Row {
  family: string;
}

/**
 * The warm rows reweighed so that each family counts by its error over the mean of its saved
 * grades, the figure its goal is set in (decision 0141). A warm row's y is the grade's distance from
 * that mean, so the mean of y² over a family's rows is the baseline's squared error there: dividing
 * each family's weights by it makes the fit minimise the sum of the families' squared-error ratios,
 * where plain weights let the families whose grades scatter most (Beetle's 0-or-1) decide.
 */
function perBaselineError(rows: readonly FamilyRow[]): Row[] {
  const sums = new Map<string, { weight: number; squared: number }>();
  for (const row of rows) {
    const sum = sums.get(row.family) ?? { weight: 0, squared: 0 };
    sum.weight += row.w;
    sum.squared += row.w * row.y * row.y;
    sums.set(row.family, sum);
  }
  return rows.map((row) => {
    const sum = sums.get(row.family)!;
    return { x: row.x, y: row.y, w: row.w / Math.max(1e-9, sum.squared / sum.weight) };
  });
}

/** Weighted least squares through the origin with a ridge: the warm model has no intercept. */
function fitLinearThroughOrigin(rows: readonly Row[], ridge: number): number[] {
  if (rows.length === 0) return [];
  const dimension = rows[0]!.x.length;
  const totalWeight = rows.reduce((sum, row) => sum + row.w, 0);
  const normal = Array.from({ length: dimension }, () => new Array<number>(dimension).fill(0));
  const right = new Array<number>(dimension).fill(0);
  for (const row of rows) {
    const weight = row.w / totalWeight;
    for (let i = 0; i < dimension; i++) {
      right[i]! += weight * row.x[i]! * row.y;
      for (let j = 0; j < dimension; j++) normal[i]![j]! += weight * row.x[i]! * row.x[j]!;
    }
  }
  for (let i = 0; i < dimension; i++) normal[i]![i]! += ridge;
  return solve(normal, right).map(round);
}

function solve(matrix: number[][], vector: number[]): number[] {
  const size = vector.length;
  const a = matrix.map((row, index) => [...row, vector[index]!]);
  for (let column = 0; column < size; column++) {
    let pivot = column;
    for (let row = column + 1; row < size; row++)
      if (Math.abs(a[row]![column]!) > Math.abs(a[pivot]![column]!)) pivot = row;
    [a[column], a[pivot]] = [a[pivot]!, a[column]!];
    const diagonal = a[column]![column]! || 1e-12;
    for (let row = 0; row < size; row++) {
      if (row === column) continue;
      const factor = a[row]![column]! / diagonal;
      for (let k = column; k <= size; k++) a[row]![k]! -= factor * a[column]![k]!;
    }
  }
  return a.map((row, index) => row[size]! / (row[index]! || 1e-12));
}

const round = (value: number) => Math.round(value * 1e4) / 1e4;

/** Saved-grade counts the warm and confidence models learn from, in every band. */
const FIT_K_VALUES = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, WARM_FITTED_UP_TO] as const;
const CONFIDENCE_K_VALUES = [0, 1, 2, 3, 5, 8, 10, 15, 20] as const;
const DRAWS_PER_QUESTION = 3;
const HELD_PER_DRAW = 15;

export function prepare(answer: MeasuredAnswer, model: SuggestionModel): PreparedExample {
  return {
    signals: answer.signals,
    cold: coldShare(answer.signals, model),
    foldedText: answer.foldedText,
    share: answer.share,
    suggestedShare: null,
  };
}

/** Draws of k saved grades and the answers graded with them, seeded by question and draw. */
function* draws(
  question: MeasuredQuestion,
  kValues: readonly number[],
): Generator<{ k: number; examples: MeasuredAnswer[]; held: MeasuredAnswer[] }> {
  const judged = question.answers.filter((answer) => answer.isJudged);
  for (let draw = 0; draw < DRAWS_PER_QUESTION; draw++) {
    const order = shuffled(judged, seededRandom(hashSeed(`fit:${question.id}:${draw}`)));
    for (const k of kValues) {
      if (order.length < k + 5) continue;
      yield { k, examples: order.slice(0, k), held: order.slice(k, k + HELD_PER_DRAW) };
    }
  }
}

/** A prior so large that the question's record never moves the fitted weights. */
const NO_RECORD = 1e6;

/** The priors the fit chooses among for the question's record (decision 0144). */
const TRUST_PRIORS = [0.01, 0.03, 0.1, 0.3, 1, 3, 10, NO_RECORD] as const;

/**
 * The prior on the question's record (evidenceTrust) that fits the held answers of these families
 * best, each family counting by its error over the mean of its saved grades, as the warm weights do.
 */
function fitTrustPrior(questions: readonly MeasuredQuestion[], model: SuggestionModel): number {
  const rowsPerQuestion = (question: MeasuredQuestion) => (question.answers.length >= 6 ? 1 : 0);
  const weight = familyWeights(questions, rowsPerQuestion);
  const sets: {
    family: string;
    w: number;
    record: EvidenceRecord;
    held: { share: number; level: number; deviation: number; y: number }[];
  }[] = [];
  for (const question of questions) {
    const classLevel = classLevelOf(question.classSignals, model);
    for (const { examples, held } of draws(question, FIT_K_VALUES)) {
      if (examples.length < 2) continue;
      const prepared = examples.map((answer) => prepare(answer, model));
      sets.push({
        family: question.family,
        w: weight(question),
        record: evidenceRecord(prepared, model, classLevel),
        held: held.map((answer) => ({
          ...readEvidence(answer.signals, answer.foldedText, prepared, model, classLevel),
          y: answer.share,
        })),
      });
    }
  }
  const errorOf = (prior: number) => {
    const byFamily = new Map<string, { error: number; baseline: number }>();
    for (const set of sets) {
      const trust = trustFrom(set.record, prior);
      const sums = byFamily.get(set.family) ?? { error: 0, baseline: 0 };
      for (const answer of set.held) {
        const share =
          answer.deviation === 0 ? answer.share : Math.min(1, Math.max(0, answer.level + trust * answer.deviation));
        sums.error += set.w * (answer.y - share) ** 2;
        sums.baseline += set.w * (answer.y - answer.level) ** 2;
      }
      byFamily.set(set.family, sums);
    }
    return [...byFamily.values()].reduce((total, sums) => total + sums.error / Math.max(1e-9, sums.baseline), 0);
  };
  const errors = TRUST_PRIORS.map((prior) => ({ prior, error: errorOf(prior) }));
  console.error(`trust priors: ${errors.map(({ prior, error }) => `${prior}:${error.toFixed(4)}`).join(' ')}`);
  return errors.reduce((best, candidate) => (candidate.error < best.error ? candidate : best)).prior;
}

function familyWeights(questions: readonly MeasuredQuestion[], count: (question: MeasuredQuestion) => number) {
  const totals = new Map<string, number>();
  for (const question of questions) totals.set(question.family, (totals.get(question.family) ?? 0) + count(question));
  return (question: MeasuredQuestion) => 1 / Math.max(1, totals.get(question.family) ?? 1);
}

export function fitSuggestionModel(questions: readonly MeasuredQuestion[]): SuggestionModel {
  // 1. Cold: every judged answer the cold model judges, each family weighing the same. Answers to a
  // rubric that counts key elements are judged by their count, never by this model (decision 0131).
  const judgedByModel = (answer: MeasuredAnswer) => answer.isJudged && answer.signals.counted === null;
  const coldWeight = familyWeights(questions, (question) => question.answers.filter(judgedByModel).length);
  const coldRowsOf = (question: MeasuredQuestion) =>
    question.answers
      .filter(judgedByModel)
      .map((answer) => ({ x: coldInputs(answer.signals), y: answer.share, w: coldWeight(question) }));
  const coldRows = questions.flatMap(coldRowsOf);
  const model: SuggestionModel = {
    cold: fitLogistic(coldRows, 1e-3),
    warm: WARM_BANDS.map(() => []),
    confidence: { intercept: 0, weights: [] },
    miss: { intercept: 0, weights: [] },
    confidenceCold: { intercept: 0, weights: [] },
    missCold: { intercept: 0, weights: [] },
    trustPrior: NO_RECORD,
  };

  // 2. Warm: how far from the instructor's mean each held answer's grade lies, per band of k.
  const bandRows: FamilyRow[][] = WARM_BANDS.map(() => []);
  const rowsPerQuestion = (question: MeasuredQuestion) => (question.answers.length >= 6 ? 1 : 0);
  const warmWeight = familyWeights(questions, rowsPerQuestion);
  for (const question of questions) {
    for (const { k, examples, held } of draws(question, FIT_K_VALUES)) {
      const prepared = examples.map((answer) => prepare(answer, model));
      const level = prepared.reduce((sum, example) => sum + example.share, 0) / k;
      const classLevel = classLevelOf(question.classSignals, model);
      for (const answer of held) {
        const cold = coldShare(answer.signals, model);
        bandRows[warmBand(k)]!.push({
          x: warmInputs(answer.signals, cold, prepared, classLevel),
          y: answer.share - level,
          w: warmWeight(question),
          family: question.family,
        });
      }
    }
  }
  const warm = bandRows.map((rows) => fitLinearThroughOrigin(perBaselineError(rows), 1e-3));
  const fitted: SuggestionModel = { ...model, warm, trustPrior: fitTrustPrior(questions, { ...model, warm }) };

  // 3. Confidence: was the score shown kept (within 10% of the points)? And 4., on the same rows:
  // was it a big miss (more than BIG_MISS of the points off)?
  // Rows before any saved grade and rows with them are fitted apart (decision 0101).
  // Before any saved grade the suggestion is the cold model's alone, and it will be read on answers
  // of a kind the cold model was not fitted on. So each cold row is suggested by a cold model fitted
  // without the row's family (cross-fitting, decision 0138): the cold confidence and miss models
  // learn how often a cold suggestion is kept on a family it has never seen, not on its own.
  const families = [...new Set(questions.map((question) => question.family))];
  const coldWithout = new Map<string, SuggestionModel>(
    families.length < 2
      ? []
      : families.map((family) => [
          family,
          {
            ...fitted,
            cold: fitLogistic(questions.filter((question) => question.family !== family).flatMap(coldRowsOf), 1e-3),
          },
        ]),
  );
  const confidenceRows: Row[] = [];
  const missRows: Row[] = [];
  const confidenceColdRows: Row[] = [];
  const missColdRows: Row[] = [];
  for (const question of questions) {
    for (const { examples, held } of draws(question, CONFIDENCE_K_VALUES)) {
      const prepared = examples.map((answer) => prepare(answer, fitted));
      const suggesting = prepared.length === 0 ? (coldWithout.get(question.family) ?? fitted) : fitted;
      for (const answer of held) {
        const prediction = predictShare(
          answer.signals,
          answer.foldedText,
          prepared,
          suggesting,
          classLevelOf(question.classSignals, suggesting),
        );
        const shown = roundScore(POINTS, prediction.share) / POINTS;
        const x = confidenceInputs(shown, prediction, prepared);
        const error = Math.abs(shown - answer.share);
        const cold = prepared.length === 0;
        (cold ? confidenceColdRows : confidenceRows).push({
          x,
          y: error <= 0.1 + 1e-9 ? 1 : 0,
          w: warmWeight(question),
        });
        (cold ? missColdRows : missRows).push({ x, y: error > BIG_MISS + 1e-9 ? 1 : 0, w: warmWeight(question) });
      }
    }
  }
  return {
    ...fitted,
    confidence: fitLogistic(confidenceRows, 1e-3),
    miss: fitLogistic(missRows, 1e-3),
    confidenceCold: fitLogistic(confidenceColdRows, 1e-3),
    missCold: fitLogistic(missColdRows, 1e-3),
  };
}
