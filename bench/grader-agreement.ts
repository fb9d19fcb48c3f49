/**
 * Agreement of the built-in grader with human scores on public, real, human-scored short answers
 * (SAF English; SemEval-2013 Task 7 SciEntsBank and Beetle), read from a folder that is never
 * committed (see bench/README.md for how to get it). Baselines run in this same script, so every
 * figure is a side-by-side comparison measured in one run.
 *
 *   npx tsx bench/grader-agreement.ts --data DIR [--splits evaluate|fit|all] [--only NAME,…] [--limit N]
 *
 * Every question is worth 5 points (the human share x 5) and graded the product's own way: the
 * grader drafts the rubric from the question and its reference answer(s), then grades each answer.
 *
 * Printed per split, then pooled over the evaluation splits:
 * - k = 0 (cold start, no saved grades) on every answer: Pearson r, RMSE and MAE (shares of the
 *   points), mean bias (suggested - human), expected calibration error (ECE) of the confidence
 *   against its definition (the chance that the instructor keeps the suggested score within 10% of
 *   the points), the share of answers with confidence >= 90 that are off by more than 40% of the
 *   points; beside the always-the-mean baseline (the split's true mean: a baseline that knows the
 *   answer key's average) and a bag-of-words cosine baseline.
 * - k = 0, 5, 10 saved grades per question, on questions with at least 15 answers: the same k
 *   examples (seeded) given to the grader as saved grades; evaluated on the other answers; beside
 *   the mean-of-the-k-examples baseline and a bag-of-words baseline fitted to the k examples.
 * - keyword salad: the reference's words in random order, and an honest wrong answer followed by a
 *   line of the reference's keywords, against the honest wrong answers themselves (human score 0):
 *   the mean score gain, as a share of the points (goal <= 10%).
 */
import { baselineCosineScore, pearson } from '../apps/server/src/ai/builtin/agreement-metrics.ts';
import { createBuiltinGrader } from '../apps/server/src/ai/builtin/builtin-grader.ts';
import { contentTerms } from '../apps/server/src/ai/builtin/text-analysis.ts';
import type { GradedExample, GradingInput, RubricItem } from '../apps/server/src/ai/grader-types.ts';
import { hashSeed, seededRandom } from '../apps/server/src/lib/seeded-random.ts';
import {
  dataFolderFromArgs,
  loadDatasets,
  shuffled,
  solutionTextOf,
  type DatasetAnswer,
  type DatasetQuestion,
} from './_grading-datasets.ts';

const POINTS = 5;
const K_VALUES = [0, 5, 10] as const;
const MIN_ANSWERS_FOR_EXAMPLES = 15;
const argValue = (name: string) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};
const splitFilter = argValue('--splits') ?? 'evaluate';
const onlySplits = argValue('--only')?.split(',');
const limit = Number(argValue('--limit') ?? Infinity);

const grader = createBuiltinGrader();

interface Scored {
  human: number;
  score: number;
  confidence: number;
}

interface Summary {
  count: number;
  r: number;
  rmse: number;
  mae: number;
  bias: number;
  ece: number | null;
  overconfident: number | null;
  highConfidence: number;
}

function summarize(rows: readonly Scored[], hasConfidence = true): Summary {
  const errors = rows.map((row) => (row.score - row.human) / POINTS);
  const count = rows.length;
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const high = rows.filter((row) => row.confidence >= 90);
  return {
    count,
    r: pearson(
      rows.map((row) => row.score),
      rows.map((row) => row.human),
    ),
    rmse: Math.sqrt(mean(errors.map((error) => error * error))),
    mae: mean(errors.map(Math.abs)),
    bias: mean(errors),
    ece: hasConfidence ? expectedCalibrationError(rows) : null,
    overconfident: hasConfidence
      ? high.filter((row) => Math.abs(row.score - row.human) > 0.4 * POINTS).length / Math.max(1, high.length)
      : null,
    highConfidence: high.length / Math.max(1, count),
  };
}

/** Kept within 10% of the points: what the confidence claims to predict. */
const isKept = (row: Scored) => Math.abs(row.score - row.human) <= 0.1 * POINTS + 1e-9;

/** ECE over ten equal-width confidence bins: sum of |mean confidence - share kept| x bin share. */
function expectedCalibrationError(rows: readonly Scored[]): number {
  let total = 0;
  for (let bin = 0; bin < 10; bin++) {
    const members = rows.filter((row) => Math.min(9, Math.floor(row.confidence / 10)) === bin);
    if (!members.length) continue;
    const meanConfidence = members.reduce((sum, row) => sum + row.confidence / 100, 0) / members.length;
    const keptShare = members.filter(isKept).length / members.length;
    total += (members.length / rows.length) * Math.abs(meanConfidence - keptShare);
  }
  return total;
}

const rubricCache = new Map<string, RubricItem[]>();
async function rubricFor(question: DatasetQuestion): Promise<RubricItem[]> {
  const cached = rubricCache.get(question.id);
  if (cached) return cached;
  const draftInput = { questionText: question.questionText, solutionText: solutionTextOf(question), points: POINTS };
  const call = await grader.requestRubric(draftInput);
  const items = grader.interpretRubric(call.rawOutput, draftInput).items;
  rubricCache.set(question.id, items);
  return items;
}

function exampleOf(answer: DatasetAnswer): GradedExample {
  const score = answer.share * POINTS;
  return {
    answerText: answer.text,
    score,
    comments: answer.feedback ? [{ text: answer.feedback, pointsDeducted: POINTS - score, rubricItemId: null }] : [],
    suggestedScore: null,
  };
}

let gradingMs = 0;
let gradedCount = 0;
async function grade(
  question: DatasetQuestion,
  answerText: string,
  examples: GradedExample[],
): Promise<Scored & { human: number }> {
  const input: GradingInput = {
    questionText: question.questionText,
    solutionText: solutionTextOf(question),
    rubricItems: await rubricFor(question),
    points: POINTS,
    answerText,
    examples,
  };
  const started = performance.now();
  const call = await grader.requestGrading(input);
  const suggestion = grader.interpretGrading(call.rawOutput, input);
  gradingMs += performance.now() - started;
  gradedCount++;
  return { human: Number.NaN, score: suggestion.totalScore, confidence: suggestion.confidence };
}

function bagOfWordsCold(question: DatasetQuestion, answerText: string): number {
  // Full marks at half the reference's vocabulary: plain cosine is rarely near 1.
  const similarity = baselineCosineScore(answerText, solutionTextOf(question), 1);
  return Math.min(POINTS, Math.round(Math.min(1, similarity / 0.5) * POINTS * 2) / 2);
}

/** Bag-of-words fitted to the k examples: least-squares line from cosine to score, clamped. */
function bagOfWordsFitted(question: DatasetQuestion, examples: DatasetAnswer[], answerText: string): number {
  const cos = (text: string) => baselineCosineScore(text, solutionTextOf(question), 1);
  const xs = examples.map((example) => cos(example.text));
  const ys = examples.map((example) => example.share * POINTS);
  const meanX = xs.reduce((s, x) => s + x, 0) / xs.length;
  const meanY = ys.reduce((s, y) => s + y, 0) / ys.length;
  let covariance = 0;
  let variance = 0;
  xs.forEach((x, index) => {
    covariance += (x - meanX) * (ys[index]! - meanY);
    variance += (x - meanX) ** 2;
  });
  const slope = variance > 1e-9 ? covariance / variance : 0;
  return Math.min(POINTS, Math.max(0, meanY + slope * (cos(answerText) - meanX)));
}

const fmt = (value: number | null, digits = 3) => (value === null ? '  -  ' : value.toFixed(digits));
function line(label: string, summary: Summary): string {
  return (
    `  ${label.padEnd(30)} n=${String(summary.count).padEnd(5)} r ${fmt(summary.r)}  RMSE ${fmt(summary.rmse)}  MAE ${fmt(summary.mae)}` +
    `  bias ${summary.bias >= 0 ? '+' : ''}${fmt(summary.bias)}` +
    (summary.ece === null
      ? ''
      : `  ECE ${fmt(summary.ece)}  conf>=90 ${(100 * summary.highConfidence).toFixed(0)}%, of which off>40% ${(100 * summary.overconfident!).toFixed(1)}%`)
  );
}

/** Words of the reference answer(s) in random order, and wrong answers followed by a keyword line. */
function saladAnswers(question: DatasetQuestion, wrong: DatasetAnswer[], random: () => number): string[] {
  const reference = question.referenceAnswers[0] ?? '';
  const words = reference.split(/\s+/).filter(Boolean);
  const keywords = [...new Set(contentTerms(reference).map((token) => token.raw))];
  const salads = [shuffled(words, random).join(' ')];
  for (const answer of wrong.slice(0, 2)) salads.push(`${answer.text}\n${shuffled(keywords, random).join(' ')}`);
  return salads;
}

interface Pooled {
  cold: Scored[];
  coldMean: Scored[];
  coldBow: Scored[];
  byK: Map<number, { grader: Scored[]; mean: Scored[]; bow: Scored[] }>;
  saladGain: Map<number, number[]>;
}

const newPool = (): Pooled => ({
  cold: [],
  coldMean: [],
  coldBow: [],
  byK: new Map(K_VALUES.map((k) => [k, { grader: [], mean: [], bow: [] }])),
  saladGain: new Map(K_VALUES.map((k) => [k, []])),
});

async function measureSplit(questions: DatasetQuestion[], pool: Pooled): Promise<Pooled> {
  const local = newPool();
  const allAnswers = questions.flatMap((question) => question.answers);
  const splitMean = (allAnswers.reduce((sum, answer) => sum + answer.share, 0) / allAnswers.length) * POINTS;
  let taken = 0;
  for (const question of questions) {
    for (const answer of question.answers) {
      if (taken++ >= limit) break;
      const human = answer.share * POINTS;
      const suggestion = await grade(question, answer.text, []);
      local.cold.push({ ...suggestion, human });
      local.coldMean.push({ human, score: splitMean, confidence: 0 });
      local.coldBow.push({ human, score: bagOfWordsCold(question, answer.text), confidence: 0 });
    }

    const random = seededRandom(hashSeed(question.id));
    const wrong = question.answers.filter((answer) => answer.share === 0 && answer.text.trim().length > 0);
    if (question.answers.length < MIN_ANSWERS_FOR_EXAMPLES || taken >= limit) continue;
    const order = shuffled(question.answers, random);
    const examplePool = order.slice(0, 10);
    const held = order.slice(10);
    const salads = wrong.length ? saladAnswers(question, wrong, random) : [];
    for (const k of K_VALUES) {
      const exampleAnswers = examplePool.slice(0, k);
      const examples = exampleAnswers.map(exampleOf);
      const bucket = local.byK.get(k)!;
      const exampleMean = k ? (exampleAnswers.reduce((sum, answer) => sum + answer.share, 0) / k) * POINTS : splitMean;
      for (const answer of held) {
        const human = answer.share * POINTS;
        bucket.grader.push({ ...(await grade(question, answer.text, examples)), human });
        bucket.mean.push({ human, score: exampleMean, confidence: 0 });
        bucket.bow.push({
          human,
          score:
            k >= 2 ? bagOfWordsFitted(question, exampleAnswers, answer.text) : bagOfWordsCold(question, answer.text),
          confidence: 0,
        });
      }
      if (salads.length) {
        const heldWrong = wrong.filter((answer) => !exampleAnswers.includes(answer)).slice(0, 5);
        if (!heldWrong.length) continue;
        let wrongScore = 0;
        for (const answer of heldWrong) wrongScore += (await grade(question, answer.text, examples)).score;
        let saladScore = 0;
        for (const salad of salads) saladScore += (await grade(question, salad, examples)).score;
        local.saladGain.get(k)!.push((saladScore / salads.length - wrongScore / heldWrong.length) / POINTS);
      }
    }
  }
  pool.cold.push(...local.cold);
  pool.coldMean.push(...local.coldMean);
  pool.coldBow.push(...local.coldBow);
  for (const k of K_VALUES) {
    const into = pool.byK.get(k)!;
    const from = local.byK.get(k)!;
    into.grader.push(...from.grader);
    into.mean.push(...from.mean);
    into.bow.push(...from.bow);
    pool.saladGain.get(k)!.push(...local.saladGain.get(k)!);
  }
  return local;
}

/** Reliability: per confidence band, the mean confidence against the share actually kept. */
function reliability(rows: readonly Scored[]): string {
  const bands = [0, 20, 40, 60, 80, 90, 101];
  const parts: string[] = [];
  for (let index = 0; index + 1 < bands.length; index++) {
    const members = rows.filter((row) => row.confidence >= bands[index]! && row.confidence < bands[index + 1]!);
    if (!members.length) continue;
    const mean = members.reduce((sum, row) => sum + row.confidence, 0) / members.length;
    const kept = (100 * members.filter(isKept).length) / members.length;
    parts.push(
      `${bands[index]}-${Math.min(100, bands[index + 1]! - 1)}: n=${members.length} said ${mean.toFixed(0)}% kept ${kept.toFixed(0)}%`,
    );
  }
  return `  reliability  ${parts.join(' | ')}`;
}

function report(title: string, result: Pooled): void {
  console.log(`\n== ${title}`);
  console.log(' k = 0, every answer:');
  console.log(line('built-in grader', summarize(result.cold)));
  console.log(line('always the mean (true mean)', summarize(result.coldMean, false)));
  console.log(line('bag-of-words cosine', summarize(result.coldBow, false)));
  for (const k of K_VALUES) {
    const bucket = result.byK.get(k)!;
    if (!bucket.grader.length) continue;
    const graderSummary = summarize(bucket.grader);
    const meanSummary = summarize(bucket.mean, false);
    console.log(
      ` k = ${k} saved grades per question (questions with >= ${MIN_ANSWERS_FOR_EXAMPLES} answers, the others held out):`,
    );
    console.log(line('built-in grader', graderSummary));
    console.log(reliability(bucket.grader));
    console.log(line(k ? `mean of the ${k} examples` : 'always the mean (true mean)', meanSummary));
    console.log(line(k >= 2 ? 'bag-of-words fitted to examples' : 'bag-of-words cosine', summarize(bucket.bow, false)));
    console.log(`  RMSE ratio grader / mean baseline: ${(graderSummary.rmse / meanSummary.rmse).toFixed(3)}`);
    const gains = result.saladGain.get(k)!;
    if (gains.length)
      console.log(
        `  keyword salad gain over honest wrong answers: ${((100 * gains.reduce((s, g) => s + g, 0)) / gains.length).toFixed(1)}% of the points (${gains.length} questions)`,
      );
  }
}

const splits = loadDatasets(dataFolderFromArgs(process.argv)).filter(
  (split) =>
    (splitFilter === 'all' || split.role === splitFilter) &&
    (!onlySplits || onlySplits.some((name) => split.name.includes(name))),
);
const pooled = newPool();
for (const split of splits) {
  const result = await measureSplit(split.questions, pooled);
  report(
    `${split.name} (${split.role === 'fit' ? 'fitted on' : 'never fitted on'}; ${split.questions.length} questions)`,
    result,
  );
}
if (splits.length > 1) report(`pooled over ${splits.map((split) => split.name).join(', ')}`, pooled);
console.log(
  `\ngrading time: ${(gradingMs / Math.max(1, gradedCount)).toFixed(2)} ms per answer (this machine, this run)`,
);
