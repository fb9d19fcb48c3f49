/**
 * What the instructor's grades on a course's other questions would tell a suggestion before the
 * first saved grade on this one (decision 0114). Not a product path yet: a measurement of the design.
 *
 *   npx tsx bench/course-convention.ts --data DIR [--per-question N]   (N = 10 by default; 0 = no offset)
 *
 * For each family held out (the cold models fitted on every other family, as in grader-agreement.ts):
 * for each question, the instructor has graded N answers of every *other* question of the family
 * (a course is one family: one grading convention), none of this question. One number is fitted on
 * them, the offset in log-odds between the cold model's share and the instructor's share (Newton,
 * prior N(0, 1)), and added to this question's cold shares. Printed per family at k = 0: bias, ECE,
 * RMSE over the family's true mean, big errors in the first 20% of the review queue. Answers with
 * nothing to judge (blank, "I don't know.") are graded by the grader itself, as in the benchmark.
 * The confidence models are the benchmark's fit, not refitted for the offset; with
 * --refit-confidence the cold confidence and big-miss models are refitted on the training families'
 * offset predictions (each training question's offset from its own family's other questions).
 * With --course-calibration the confidence is recalibrated on the same graded answers of the other
 * questions (Platt scaling of its log-odds, prior N(0, 1) on the shift and N(1, 1) on the slope):
 * what the confidence said there against whether the instructor kept the shown score.
 */
import { fitLogistic, fitSuggestionModel } from './_fit-grader-model.ts';
import {
  gradingInputFor,
  measureFamilies,
  POINTS,
  type MeasuredAnswer,
  type MeasuredQuestion,
} from './_grader-measure.ts';
import { dataFolderFromArgs } from './_grading-datasets.ts';
import { BuiltinGrader } from '../apps/server/src/ai/builtin/builtin-grader.ts';
import {
  BIG_MISS,
  classLevelOf,
  confidenceInputs,
  estimateConfidence,
  estimateMissChance,
  predictShare,
  roundScore,
  type SuggestionModel,
} from '../apps/server/src/ai/builtin/suggestion-model.ts';

const perIndex = process.argv.indexOf('--per-question');
const perQuestion = perIndex >= 0 ? Number(process.argv[perIndex + 1]) : 10;
const refitConfidence = process.argv.includes('--refit-confidence');
const courseCalibration = process.argv.includes('--course-calibration');
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const logit = (share: number) => Math.log(Math.max(1e-4, share) / Math.max(1e-4, 1 - share));
const sigmoid = (value: number) => 1 / (1 + Math.exp(-value));

function coldLogit(question: MeasuredQuestion, answer: MeasuredAnswer, model: SuggestionModel): number {
  const level = classLevelOf(question.classSignals, model);
  return logit(predictShare(answer.signals, answer.foldedText, [], model, level).share);
}

/** The log-odds offset that best fits the instructor's grades on the other questions. */
function courseOffset(others: readonly MeasuredQuestion[], model: SuggestionModel): number {
  const graded = others.flatMap((question) =>
    question.answers
      .filter((answer) => answer.isJudged)
      .slice(0, perQuestion)
      .map((answer) => ({ z: coldLogit(question, answer, model), share: answer.share })),
  );
  let offset = 0;
  for (let iteration = 0; iteration < 30; iteration++) {
    let gradient = offset;
    let curvature = 1;
    for (const { z, share } of graded) {
      const p = sigmoid(z + offset);
      gradient += p - share;
      curvature += p * (1 - p);
    }
    offset -= gradient / curvature;
  }
  return offset;
}

/** A judged answer's shown share and confidence inputs with its question's course offset. */
function offsetPrediction(question: MeasuredQuestion, answer: MeasuredAnswer, model: SuggestionModel, offset: number) {
  const cold = predictShare(answer.signals, answer.foldedText, [], model, classLevelOf(question.classSignals, model));
  const share = sigmoid(logit(cold.share) + offset);
  const prediction = { ...cold, share, cold: sigmoid(logit(cold.cold) + offset) };
  const shown = roundScore(POINTS, share) / POINTS;
  return { shown, inputs: confidenceInputs(shown, prediction, []) };
}

function withRefittedConfidence(model: SuggestionModel, training: readonly MeasuredFamily[]): SuggestionModel {
  const kept: { x: number[]; y: number; w: number }[] = [];
  const missed: { x: number[]; y: number; w: number }[] = [];
  for (const family of training) {
    const judged = family.questions.flatMap((question) => question.answers.filter((answer) => answer.isJudged));
    const weight = 1 / Math.max(1, judged.length);
    for (const question of family.questions) {
      const offset = courseOffset(
        family.questions.filter((other) => other !== question),
        model,
      );
      for (const answer of question.answers) {
        if (!answer.isJudged) continue;
        const { shown, inputs } = offsetPrediction(question, answer, model, offset);
        const error = Math.abs(shown - answer.share);
        kept.push({ x: inputs, y: error <= 0.1 + 1e-9 ? 1 : 0, w: weight });
        missed.push({ x: inputs, y: error > BIG_MISS + 1e-9 ? 1 : 0, w: weight });
      }
    }
  }
  return { ...model, confidenceCold: fitLogistic(kept, 1e-3), missCold: fitLogistic(missed, 1e-3) };
}

/** Platt scaling on the other questions' graded answers: [shift, slope] of the confidence's log-odds. */
function courseRecalibration(
  others: readonly MeasuredQuestion[],
  model: SuggestionModel,
  offset: number,
): [number, number] {
  const rows = others.flatMap((question) =>
    question.answers
      .filter((answer) => answer.isJudged)
      .slice(0, perQuestion)
      .map((answer) => {
        const { shown, inputs } = offsetPrediction(question, answer, model, offset);
        return {
          z: logit(estimateConfidence(inputs, 0, model) / 100),
          kept: Math.abs(shown - answer.share) <= 0.1 + 1e-9 ? 1 : 0,
        };
      }),
  );
  let shift = 0;
  let slope = 1;
  for (let iteration = 0; iteration < 40; iteration++) {
    let g0 = shift;
    let g1 = slope - 1;
    let h00 = 1;
    let h01 = 0;
    let h11 = 1;
    for (const { z, kept } of rows) {
      const p = sigmoid(shift + slope * z);
      const w = p * (1 - p);
      g0 += p - kept;
      g1 += (p - kept) * z;
      h00 += w;
      h01 += w * z;
      h11 += w * z * z;
    }
    const determinant = h00 * h11 - h01 * h01;
    shift -= (h11 * g0 - h01 * g1) / determinant;
    slope -= (h00 * g1 - h01 * g0) / determinant;
  }
  return [shift, slope];
}

const families = await measureFamilies(dataFolderFromArgs(process.argv));
for (const family of families) {
  const training = families.filter((other) => other !== family);
  const fitted = fitSuggestionModel(training.flatMap((other) => other.questions));
  const model = refitConfidence && perQuestion > 0 ? withRefittedConfidence(fitted, training) : fitted;
  const grader = new BuiltinGrader(model);
  const rows: { human: number; shown: number; confidence: number; miss: number }[] = [];
  const familyMean = mean(family.questions.flatMap((question) => question.answers.map((answer) => answer.share)));
  for (const question of family.questions) {
    const others = family.questions.filter((other) => other !== question);
    const offset = perQuestion > 0 ? courseOffset(others, model) : 0;
    const [shift, slope] = courseCalibration && perQuestion > 0 ? courseRecalibration(others, model, offset) : [0, 1];
    const recalibrated = (confidence: number) =>
      Math.round(Math.min(0.99, Math.max(0.01, sigmoid(shift + slope * logit(confidence / 100)))) * 100);
    for (const answer of question.answers) {
      if (!answer.isJudged) {
        const input = { ...gradingInputFor(question, answer.text), examples: [] };
        const suggestion = grader.interpretGrading((await grader.requestGrading(input)).rawOutput, input);
        rows.push({
          human: answer.share,
          shown: suggestion.totalScore / POINTS,
          confidence: suggestion.confidence,
          miss: suggestion.missChance ?? 0,
        });
        continue;
      }
      const { shown, inputs } = offsetPrediction(question, answer, model, offset);
      rows.push({
        human: answer.share,
        shown,
        confidence: recalibrated(estimateConfidence(inputs, 0, model)),
        miss: estimateMissChance(inputs, model),
      });
    }
  }
  const isKept = (row: (typeof rows)[number]) => Math.abs(row.shown - row.human) <= 0.1 + 1e-9;
  const isBig = (row: (typeof rows)[number]) => Math.abs(row.shown - row.human) > 0.4 + 1e-9;
  let ece = 0;
  for (let bin = 0; bin < 10; bin++) {
    const members = rows.filter((row) => Math.min(9, Math.floor(row.confidence / 10)) === bin);
    if (members.length === 0) continue;
    const said = mean(members.map((row) => row.confidence / 100));
    ece += (members.length / rows.length) * Math.abs(said - members.filter(isKept).length / members.length);
  }
  const queue = [...rows].sort((left, right) =>
    left.miss !== right.miss ? right.miss - left.miss : left.confidence - right.confidence,
  );
  const found =
    queue.slice(0, Math.ceil(0.2 * queue.length)).filter(isBig).length / Math.max(1, rows.filter(isBig).length) / 0.2;
  const rmse = Math.sqrt(mean(rows.map((row) => (row.shown - row.human) ** 2)));
  const baseline = Math.sqrt(mean(rows.map((row) => (familyMean - row.human) ** 2)));
  console.log(
    `${family.family.padEnd(13)} k=0, ${perQuestion} grades on each other question: bias ${mean(rows.map((row) => row.shown - row.human)).toFixed(3)}` +
      `  ECE ${ece.toFixed(3)}  RMSE / true mean ${(rmse / baseline).toFixed(3)}  big errors first ${found.toFixed(2)}x random`,
  );
}
