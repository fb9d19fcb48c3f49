/**
 * Fits the built-in grader's suggestion model (apps/server/src/ai/builtin/suggestion-model.ts) on
 * the FIT splits of the public development sets — SAF training, SemEval-2013 SciEntsBank and
 * Beetle training — and prints (or, with --write, writes) apps/server/src/ai/builtin/fitted-weights.ts.
 * The evaluation splits that bench/grader-agreement.ts reports are never read here.
 *
 *   npx tsx bench/_fit-grader-model.ts --data DIR [--write]
 *
 * Three logistic models with fractional targets (the human share of the points), each set weighing
 * the same in total so the biggest set does not decide alone:
 * 1. cold start: answer features -> share;
 * 2. with saved grades: for each question, k = 2..20 answers drawn (seeded) as saved grades and the
 *    others predicted from them -> share; the neighbour sharpness and the calibration ridge are
 *    chosen on the same data by a small grid;
 * 3. confidence: the same draws plus every cold answer -> was the rounded suggestion within 10% of
 *    the points of the human score.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { featureVector } from '../apps/server/src/ai/builtin/answer-features.ts';
import { createBuiltinGrader } from '../apps/server/src/ai/builtin/builtin-grader.ts';
import { FITTED } from '../apps/server/src/ai/builtin/fitted-weights.ts';
import { analyseAnswer, questionContextFor } from '../apps/server/src/ai/builtin/grade-answer.ts';
import {
  confidenceInputs,
  confidenceLogOdds,
  forgetQuestionRecords,
  isKept,
  questionRecord,
  predictShare,
  warmInputs,
  type PreparedExample,
} from '../apps/server/src/ai/builtin/suggestion-model.ts';
import type { GradingInput } from '../apps/server/src/ai/grader-types.ts';
import { hashSeed, seededRandom } from '../apps/server/src/lib/seeded-random.ts';
import { dataFolderFromArgs, loadDatasets, shuffled, solutionTextOf } from './_grading-datasets.ts';

const POINTS = 5;
const grader = createBuiltinGrader();
const mutable = FITTED as unknown as {
  cold: { intercept: number; weights: number[] };
  warm: { intercept: number; weights: number[] };
  confidence: { intercept: number; weights: number[] };
  confidencePrior: { slope: number; shift: number };
  calibrationRidge: number;
  neighbourSharpness: number;
};

interface Row {
  x: number[];
  y: number;
  w: number;
}

/** Logistic regression by Newton's method with an L2 penalty (not on the intercept). */
export function fitLogistic(rows: readonly Row[], l2 = 1e-3): { intercept: number; weights: number[] } {
  const dimension = rows[0]!.x.length + 1;
  const beta = new Array<number>(dimension).fill(0);
  const totalWeight = rows.reduce((sum, row) => sum + row.w, 0);
  for (let iteration = 0; iteration < 50; iteration++) {
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
    if (change < 1e-8) break;
  }
  return { intercept: beta[0]!, weights: beta.slice(1) };
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

const logLoss = (rows: readonly Row[], predict: (row: Row) => number) => {
  let total = 0;
  let weight = 0;
  for (const row of rows) {
    const p = Math.min(1 - 1e-6, Math.max(1e-6, predict(row)));
    total -= row.w * (row.y * Math.log(p) + (1 - row.y) * Math.log(1 - p));
    weight += row.w;
  }
  return total / weight;
};

interface MeasuredAnswer {
  features: number[];
  vector: Map<string, number>;
  share: number;
  answered: boolean;
}
interface MeasuredQuestion {
  id: string;
  set: string;
  answers: MeasuredAnswer[];
}

async function measure(): Promise<MeasuredQuestion[]> {
  const splits = loadDatasets(dataFolderFromArgs(process.argv)).filter((split) => split.role === 'fit');
  const questions: MeasuredQuestion[] = [];
  for (const split of splits) {
    console.error(`measuring ${split.name}: ${split.questions.length} questions`);
    for (const question of split.questions) {
      const draftInput = {
        questionText: question.questionText,
        solutionText: solutionTextOf(question),
        points: POINTS,
      };
      const rubric = grader.interpretRubric((await grader.requestRubric(draftInput)).rawOutput, draftInput).items;
      const input: GradingInput = { ...draftInput, rubricItems: rubric, answerText: '' };
      const context = questionContextFor(input);
      questions.push({
        id: question.id,
        set: split.name,
        answers: question.answers.map((answer) => {
          const analysis = analyseAnswer(answer.text, input, context);
          return {
            features: featureVector(analysis.features),
            vector: analysis.vector,
            share: answer.share,
            answered: analysis.status === 'answered' || analysis.status === 'off-topic',
          };
        }),
      });
    }
  }
  return questions;
}

const questions = await measure();
// Out-of-sample predictions for the confidence fit come from five folds of whole questions: each
// question is predicted by models fitted without it, as a new question on the instructor's server is.
const FOLDS = 5;
const foldOf = (questionId: string) => hashSeed(`fold:${questionId}`) % FOLDS;
const setWeight = new Map<string, number>();
for (const set of new Set(questions.map((question) => question.set))) {
  const count = questions.filter((q) => q.set === set).reduce((sum, q) => sum + q.answers.length, 0);
  setWeight.set(set, 1 / count);
}

// 1. Cold start.
const coldRows: Row[] = [];
const coldRowFolds: number[] = [];
for (const question of questions) {
  for (const answer of question.answers.filter((a) => a.answered)) {
    coldRows.push({ x: answer.features, y: answer.share, w: setWeight.get(question.set)! });
    coldRowFolds.push(foldOf(question.id));
  }
}
const cold = fitLogistic(coldRows);
mutable.cold = cold;
const coldLogitOf = (features: number[]) => cold.intercept + cold.weights.reduce((s, w, i) => s + w * features[i]!, 0);
console.error('cold log loss', logLoss(coldRows, (row) => 1 / (1 + Math.exp(-coldLogitOf(row.x)))).toFixed(4));

// 2. With saved grades: seeded draws per question.
interface Draw {
  examples: PreparedExample[];
  targets: { logit: number; vector: Map<string, number>; share: number }[];
  weight: number;
}
const draws: Draw[] = [];
interface SourceDraw {
  examples: { features: number[]; vector: Map<string, number>; share: number; coldLogit: number }[];
  targets: { features: number[]; vector: Map<string, number>; share: number; logit: number }[];
}
const drawsBySet: { set: string; fold: number; draw: Draw; source: SourceDraw }[] = [];
for (const question of questions) {
  const answered = question.answers.filter((answer) => answer.answered);
  if (answered.length < 8) continue;
  const random = seededRandom(hashSeed(question.id));
  for (const k of [2, 3, 5, 8, 12, 20]) {
    if (answered.length < k + 4) continue;
    const order = shuffled(answered, random);
    const examples = order.slice(0, k).map((answer) => ({
      coldLogit: coldLogitOf(answer.features),
      vector: answer.vector,
      share: answer.share,
    }));
    const targets = order.slice(k, k + 12).map((answer) => ({
      logit: coldLogitOf(answer.features),
      vector: answer.vector,
      share: answer.share,
    }));
    const draw = { examples, targets, weight: setWeight.get(question.set)! };
    draws.push(draw);
    drawsBySet.push({
      set: question.set,
      fold: foldOf(question.id),
      draw,
      source: {
        examples: order
          .slice(0, k)
          .map((answer) => ({ features: answer.features, vector: answer.vector, share: answer.share, coldLogit: 0 })),
        targets: order
          .slice(k, k + 12)
          .map((answer) => ({ features: answer.features, vector: answer.vector, share: answer.share, logit: 0 })),
      },
    });
  }
}
let best: { loss: number; sharpness: number; ridge: number; warm: { intercept: number; weights: number[] } } | null =
  null;
for (const sharpness of [3, 6, 10, 15]) {
  for (const ridge of [1, 3, 8]) {
    mutable.neighbourSharpness = sharpness;
    mutable.calibrationRidge = ridge;
    const rows: Row[] = draws.flatMap((draw) =>
      draw.targets.map((target) => ({
        x: warmInputs(target.logit, target.vector, draw.examples),
        y: target.share,
        w: draw.weight,
      })),
    );
    const warm = fitLogistic(rows);
    const loss = logLoss(
      rows,
      (row) => 1 / (1 + Math.exp(-(warm.intercept + warm.weights.reduce((s, w, i) => s + w * row.x[i]!, 0)))),
    );
    console.error(`warm sharpness ${sharpness} ridge ${ridge}: log loss ${loss.toFixed(4)}`);
    if (!best || loss < best.loss) best = { loss, sharpness, ridge, warm };
  }
}
mutable.neighbourSharpness = best!.sharpness;
mutable.calibrationRidge = best!.ridge;
mutable.warm = best!.warm;

// 3. Confidence: was the rounded suggestion kept (within 10% of the points)? Fitted on predictions
// made OUT of sample (each fold of questions predicted by cold and warm models fitted on the other
// folds), since in-sample predictions are better than any new question's and would teach
// overconfidence. (Leaving a whole data set out instead was too pessimistic: a new domain predicts
// worse than the course's own kind of question, and the confidence came out too low with grades.)
const confidenceRows: Row[] = [];
// Where each confidence row came from, for the held-out calibration report below.
const confidenceRowOrigins: { set: string; fold: number; withGrades: boolean }[] = [];
const fullWarm = mutable.warm;
// Each held-out draw with the warm weights it was predicted by, to fit the prior of the
// question's own calibration line afterwards (step 4).
const heldDraws: {
  warm: { intercept: number; weights: number[] };
  examples: PreparedExample[];
  targets: { inputs: number[]; isKept: boolean }[];
  weight: number;
}[] = [];
mutable.confidencePrior = { slope: 0, shift: 0 };
for (let heldFold = 0; heldFold < FOLDS; heldFold++) {
  const foldCold = fitLogistic(coldRows.filter((_, index) => coldRowFolds[index] !== heldFold));
  const foldLogit = (features: number[]) =>
    foldCold.intercept + foldCold.weights.reduce((sum, weight, index) => sum + weight * features[index]!, 0);
  const foldDraws = (wanted: (fold: number) => boolean) =>
    drawsBySet
      .filter((entry) => wanted(entry.fold))
      .map((entry) => ({
        set: entry.set,
        weight: entry.draw.weight,
        examples: entry.source.examples.map((example) => ({ ...example, coldLogit: foldLogit(example.features) })),
        targets: entry.source.targets.map((target) => ({ ...target, logit: foldLogit(target.features) })),
      }));
  mutable.warm = fitLogistic(
    foldDraws((fold) => fold !== heldFold).flatMap((draw) =>
      draw.targets.map((target) => ({
        x: warmInputs(target.logit, target.vector, draw.examples),
        y: target.share,
        w: draw.weight,
      })),
    ),
  );
  for (const question of questions.filter((q) => foldOf(q.id) === heldFold)) {
    for (const answer of question.answers.filter((a) => a.answered)) {
      const prediction = predictShare(foldLogit(answer.features), answer.vector, []);
      confidenceRows.push({
        x: confidenceInputs(POINTS, prediction, []),
        y: isKept(POINTS, prediction.share, answer.share) ? 1 : 0,
        w: setWeight.get(question.set)!,
      });
      confidenceRowOrigins.push({ set: question.set, fold: heldFold, withGrades: false });
    }
  }
  for (const draw of foldDraws((fold) => fold === heldFold)) {
    forgetQuestionRecords();
    const held = {
      warm: mutable.warm,
      examples: draw.examples,
      targets: [] as { inputs: number[]; isKept: boolean }[],
      weight: draw.weight,
    };
    for (const target of draw.targets) {
      const prediction = predictShare(target.logit, target.vector, draw.examples);
      const inputs = confidenceInputs(POINTS, prediction, draw.examples);
      const kept = isKept(POINTS, prediction.share, target.share);
      confidenceRows.push({ x: inputs, y: kept ? 1 : 0, w: draw.weight });
      confidenceRowOrigins.push({ set: draw.set, fold: heldFold, withGrades: true });
      held.targets.push({ inputs, isKept: kept });
    }
    heldDraws.push(held);
  }
}
const confidence = fitLogistic(confidenceRows);
mutable.confidence = confidence;
reportHeldOutCalibration();

/**
 * The confidence model's calibration on questions it was not fitted on, per set and with or
 * without saved grades: each fold's rows predicted by a confidence model fitted on the other folds
 * (before each question's own record moves it). A pooled figure hides a set the model fits badly
 * (partial credit, SAF, beside the right-or-wrong SemEval sets), so each set is printed alone.
 */
function reportHeldOutCalibration() {
  const said = new Array<number>(confidenceRows.length);
  for (let fold = 0; fold < FOLDS; fold++) {
    const model = fitLogistic(confidenceRows.filter((_, index) => confidenceRowOrigins[index]!.fold !== fold));
    confidenceRows.forEach((row, index) => {
      if (confidenceRowOrigins[index]!.fold !== fold) return;
      said[index] = 1 / (1 + Math.exp(-(model.intercept + model.weights.reduce((s, w, i) => s + w * row.x[i]!, 0))));
    });
  }
  for (const set of new Set(confidenceRowOrigins.map((origin) => origin.set))) {
    for (const withGrades of [false, true]) {
      const indices = confidenceRowOrigins.flatMap((origin, index) =>
        origin.set === set && origin.withGrades === withGrades ? [index] : [],
      );
      const bins = Array.from({ length: 10 }, () => ({ said: 0, kept: 0, n: 0 }));
      let loss = 0;
      for (const index of indices) {
        const p = Math.min(1 - 1e-6, Math.max(1e-6, said[index]!));
        const kept = confidenceRows[index]!.y;
        loss -= kept ? Math.log(p) : Math.log(1 - p);
        const bin = bins[Math.min(9, Math.floor(p * 10))]!;
        bin.said += p;
        bin.kept += kept;
        bin.n++;
      }
      const ece = bins.reduce((sum, bin) => sum + Math.abs(bin.said - bin.kept), 0) / indices.length;
      const reliability = bins
        .filter((bin) => bin.n > 0)
        .map((bin) => `${Math.round((100 * bin.said) / bin.n)}->${Math.round((100 * bin.kept) / bin.n)}% (${bin.n})`)
        .join(' ');
      console.error(
        `held-out confidence ${set} ${withGrades ? 'with grades' : 'k = 0'}: n ${indices.length} log loss ${(loss / indices.length).toFixed(4)} ECE ${ece.toFixed(4)} | ${reliability}`,
      );
    }
  }
}

// 4. The prior of each question's own calibration line (suggestion-model.ts, questionRecord): the
// scales whose lines, fitted on each held-out draw's leave-one-out claims, best predict whether its
// other answers' suggestions were kept (log loss and calibration error over the held-out draws).
let bestPrior = { loss: Infinity, slope: 0, shift: 0 };
// The slope stays at 1 (scale 0): with a free slope, a question whose suggestions were all kept
// could end up less confident than one whose suggestions were all changed (builtin-grader-trust test).
for (const slope of [0]) {
  for (const shift of [0, 0.25, 0.5, 1, 2]) {
    mutable.confidencePrior = { slope, shift };
    let loss = 0;
    let weight = 0;
    const bins = Array.from({ length: 10 }, () => ({ said: 0, kept: 0, weight: 0 }));
    for (const draw of heldDraws) {
      mutable.warm = draw.warm;
      forgetQuestionRecords();
      const line = questionRecord(POINTS, draw.examples);
      for (const target of draw.targets) {
        const p = Math.min(
          1 - 1e-6,
          Math.max(1e-6, 1 / (1 + Math.exp(-(line.slope * confidenceLogOdds(target.inputs) + line.shift)))),
        );
        loss -= draw.weight * (target.isKept ? Math.log(p) : Math.log(1 - p));
        weight += draw.weight;
        const bin = bins[Math.min(9, Math.floor(p * 10))]!;
        bin.said += draw.weight * p;
        bin.kept += draw.weight * (target.isKept ? 1 : 0);
        bin.weight += draw.weight;
      }
    }
    const ece = bins.reduce((sum, bin) => sum + Math.abs(bin.said - bin.kept), 0) / weight;
    console.error(
      `confidence prior slope ${slope} shift ${shift}: log loss ${(loss / weight).toFixed(4)} ECE ${ece.toFixed(4)}`,
    );
    if (loss / weight < bestPrior.loss) bestPrior = { loss: loss / weight, slope, shift };
  }
}
mutable.confidencePrior = { slope: bestPrior.slope, shift: bestPrior.shift };
mutable.warm = fullWarm;
forgetQuestionRecords();

const round = (value: number) => Math.round(value * 10000) / 10000;
const listOf = (values: number[]) => `[${values.map(round).join(', ')}]`;
const source = `/**
 * Weights of the built-in grader's suggestion model (suggestion-model.ts), written by
 * \`npx tsx bench/_fit-grader-model.ts --data DIR --write\` from the FIT splits of the public
 * development sets (SAF training; SemEval-2013 SciEntsBank and Beetle training). Never fitted on
 * the evaluation splits the benchmark reports. Re-fit after changing any feature.
 */
export const FITTED = {
  cold: { intercept: ${round(cold.intercept)}, weights: ${listOf(cold.weights)} },
  warm: { intercept: ${round(best!.warm.intercept)}, weights: ${listOf(best!.warm.weights)} },
  confidence: { intercept: ${round(confidence.intercept)}, weights: ${listOf(confidence.weights)} },
  confidencePrior: { slope: ${bestPrior.slope}, shift: ${bestPrior.shift} },
  calibrationRidge: ${best!.ridge},
  neighbourSharpness: ${best!.sharpness},
} as const;
`;
console.log(source);
if (process.argv.includes('--write')) {
  const target = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '../apps/server/src/ai/builtin/fitted-weights.ts',
  );
  fs.writeFileSync(target, source);
  console.error(`wrote ${target}`);
}
