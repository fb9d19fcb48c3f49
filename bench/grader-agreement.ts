/**
 * Agreement of the built-in offline grader with human scores, on the development set
 * (apps/server/src/ai/builtin/dev-set): `dev` (tuned on) and `holdout` (written first, never tuned
 * on). Everything is measured in this run, including the reference baseline, so the ratios mean
 * something on any machine.
 *
 *   npx tsx bench/grader-agreement.ts [--details]
 *
 * Prints, per split:
 * - Pearson r, RMSE, MAE (errors as a share of each question's points) and quadratic weighted kappa
 *   (scores binned to tenths of the points) for the built-in grader with the instructor rubrics;
 * - the same for the built-in grader with rubrics it drafted itself (the fully offline path);
 * - the same for the reference baseline: bag-of-words cosine similarity between answer and solution,
 *   score = points x min(1, similarity / 0.5), rounded to halves;
 * - ratios built-in / baseline (r: higher is better; RMSE: lower is better);
 * - confidence calibration: MAE per confidence band, and below vs above the median confidence.
 */
import {
  baselineCosineScore,
  calibrationBuckets,
  meanAbsoluteError,
  splitByConfidence,
  summarizeAgreement,
  type AgreementSummary,
  type ScoredAnswer,
} from '../apps/server/src/ai/builtin/agreement-metrics.ts';
import { createBuiltinGrader } from '../apps/server/src/ai/builtin/builtin-grader.ts';
import { gradingInputFor, loadDevSet, type DevSplit } from '../apps/server/src/ai/builtin/dev-set/dev-set.ts';

/** The baseline gives full marks at half the solution's vocabulary: plain cosine is rarely near 1. */
const BASELINE_SATURATION = 0.5;

const showDetails = process.argv.includes('--details');
const grader = createBuiltinGrader();

interface SplitResult {
  builtin: ScoredAnswer[];
  drafted: ScoredAnswer[];
  baseline: ScoredAnswer[];
  gradingMs: number;
}

async function measure(split: DevSplit): Promise<SplitResult> {
  const result: SplitResult = { builtin: [], drafted: [], baseline: [], gradingMs: 0 };
  for (const question of loadDevSet(split)) {
    const rubricCall = await grader.requestRubric(question);
    const draftedRubric = grader.interpretRubric(rubricCall.rawOutput, question).items;
    for (const answer of question.answers) {
      const input = gradingInputFor(question, answer);
      const started = performance.now();
      const call = await grader.requestGrading(input);
      result.gradingMs += performance.now() - started;
      const suggestion = grader.interpretGrading(call.rawOutput, input);
      result.builtin.push({
        points: question.points,
        humanScore: answer.humanScore,
        score: suggestion.totalScore,
        confidence: suggestion.confidence,
      });
      if (showDetails) {
        const mark = Math.abs(suggestion.totalScore - answer.humanScore) >= 1 ? '!!' : '  ';
        console.log(
          `${mark} ${answer.id.padEnd(8)} ${answer.label.padEnd(28)} human ${answer.humanScore} grader ${suggestion.totalScore}/${question.points} confidence ${suggestion.confidence}`,
        );
      }

      const draftedInput = { ...input, rubricItems: draftedRubric };
      const draftedCall = await grader.requestGrading(draftedInput);
      const draftedSuggestion = grader.interpretGrading(draftedCall.rawOutput, draftedInput);
      result.drafted.push({
        points: question.points,
        humanScore: answer.humanScore,
        score: draftedSuggestion.totalScore,
        confidence: draftedSuggestion.confidence,
      });

      const similarityScore = baselineCosineScore(answer.answerText, question.solutionText, question.points);
      result.baseline.push({
        points: question.points,
        humanScore: answer.humanScore,
        score: Math.min(question.points, Math.round((similarityScore / BASELINE_SATURATION) * 2) / 2),
        confidence: 50,
      });
    }
  }
  return result;
}

const format = (summary: AgreementSummary) =>
  `r ${summary.pearson.toFixed(3)}  RMSE ${summary.rmse.toFixed(3)}  MAE ${summary.mae.toFixed(3)}  QWK ${summary.qwk.toFixed(3)}`;

for (const split of ['dev', 'holdout'] as const) {
  const result = await measure(split);
  const builtin = summarizeAgreement(result.builtin);
  const drafted = summarizeAgreement(result.drafted);
  const baseline = summarizeAgreement(result.baseline);
  console.log(`\n== ${split} (${builtin.count} answers)`);
  console.log(`built-in, instructor rubric : ${format(builtin)}`);
  console.log(`built-in, drafted rubric    : ${format(drafted)}`);
  console.log(`baseline (bag-of-words cos) : ${format(baseline)}`);
  console.log(
    `ratio built-in/baseline     : r x${(builtin.pearson / baseline.pearson).toFixed(2)}  RMSE x${(builtin.rmse / baseline.rmse).toFixed(2)} (lower is better)`,
  );
  console.log('confidence calibration (MAE per band, share of points):');
  for (const bucket of calibrationBuckets(result.builtin)) {
    console.log(
      `  confidence ${bucket.label.padEnd(7)} n=${String(bucket.count).padEnd(4)} MAE ${bucket.mae.toFixed(3)}`,
    );
  }
  const [low, high] = splitByConfidence(result.builtin);
  console.log(
    `  below/at median confidence n=${low.length} MAE ${meanAbsoluteError(low).toFixed(3)}; above n=${high.length} MAE ${meanAbsoluteError(high).toFixed(3)}`,
  );
  console.log(
    `grading time: ${(result.gradingMs / result.builtin.length).toFixed(2)} ms per answer (this machine, this run)`,
  );
}
