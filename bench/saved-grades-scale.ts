/**
 * The built-in grader's time per answer as the saved grades on a question grow (decision 0134): a
 * refresh grades every remaining answer against the same saved grades, so what is measured on the
 * set (its baseline, the instructor's decisions read each against the others) must be measured once
 * per set, not once per answer.
 *
 *   npx tsx bench/saved-grades-scale.ts --data DIR [--answers 20]
 *
 * On ASAP-SAS set 1 (the public data, never committed; bench/README.md), with 10, 50 and 200 of its
 * answers as saved grades (each with a suggestion, so every decision is consulted): the first
 * answer graded against a new set (it measures the set and embeds its texts) and the median of the
 * next `--answers`, each in ms of this process's CPU, and the median as a multiple of the 10-grade
 * one measured in the same run (the goal of issue 27: at most 150 ms per answer).
 */
import { BuiltinGrader } from '../apps/server/src/ai/builtin/builtin-grader.ts';
import type { GradedExample } from '../apps/server/src/ai/grader-types.ts';
import { gradingInputFor, measureFamilies, POINTS } from './_grader-measure.ts';
import { dataFolderFromArgs } from './_grading-datasets.ts';

const folder = dataFolderFromArgs(process.argv);
const answersIndex = process.argv.indexOf('--answers');
const answersPerSet = answersIndex >= 0 ? Number(process.argv[answersIndex + 1]) : 20;
const SET_SIZES = [10, 50, 200];

const [family] = await measureFamilies(folder, ['asap-sas']);
const question = family?.questions.find((candidate) => candidate.id === 'asap-sas:1');
if (!question || question.answers.length < Math.max(...SET_SIZES) + answersPerSet) {
  console.log('ASAP-SAS set 1 was not found in the data folder (or has too few answers): nothing measured.');
  process.exit(0);
}

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]!;

const grader = new BuiltinGrader();
const rows: { size: number; first: number; median: number }[] = [];
for (const size of SET_SIZES) {
  const examples: GradedExample[] = question.answers.slice(0, size).map((answer) => ({
    answerText: answer.text,
    score: answer.share * POINTS,
    comments: [],
    suggestedScore: answer.share * POINTS,
  }));
  const times: number[] = [];
  for (const answer of question.answers.slice(size, size + answersPerSet + 1)) {
    const input = { ...gradingInputFor(question, answer.text), examples };
    const started = cpuMs();
    const call = await grader.requestGrading(input);
    grader.interpretGrading(call.rawOutput, input);
    times.push(cpuMs() - started);
  }
  rows.push({ size, first: times[0]!, median: median(times.slice(1)) });
}

const reference = rows[0]!.median;
console.log(`ASAP-SAS set 1, ${answersPerSet} answers after the first, CPU ms of this process:`);
for (const row of rows) {
  console.log(
    `  ${String(row.size).padStart(3)} saved grades: first answer ${row.first.toFixed(0)} ms, then median ${row.median.toFixed(1)} ms (${(row.median / reference).toFixed(2)}x the 10-grade median)`,
  );
}
