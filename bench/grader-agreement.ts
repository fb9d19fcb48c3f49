/**
 * How the built-in grader's suggestions agree with people, on public human-scored answers of
 * several families (SAF, SemEval-2013 SciEntsBank and Beetle, ASAP-SAS, …; bench/_grading-datasets.ts),
 * read from a folder that is never committed (bench/README.md says how to build it).
 *
 *   npx tsx bench/grader-agreement.ts --data DIR [--only saf,beetle] [--held-out beetle] [--write]
 *
 * --only reads only those families (and fits on them); --held-out measures only those families as
 * the held-out one, each still fitted on every other family read (a quicker look at the worst ones).
 *
 * Leave one family out: for each family, the suggestion model is fitted on the OTHER families
 * (_fit-grader-model.ts) and the product's grader, with those weights, grades the family left out.
 * Nothing a family's figures show was fitted or tuned on that family. Every question is worth 5
 * points (the human share x 5) and is graded the product's way: the grader drafts the rubric from
 * the question and its reference answer(s), then grades each answer.
 *
 * For each held-out family, at k = 0, 5 and 10 saved grades per question, and at k = 0 with the
 * course (the instructor's grades on 10 answers of each of the family's other questions, decision
 * 0115; their cold shares are the grader's own k = 0 judgements of those answers): Pearson r, RMSE and bias
 * (shares of the points), ECE of the confidence against its definition (the chance the instructor
 * keeps the shown score within 10% of the points; k > 0 over several draws of the saved grades
 * where a family has few questions, LEVEL_SAMPLES_PER_FAMILY), the share of big errors (> 40% of the points)
 * found in the first 20% of the lowest-confidence-first queue (as a multiple of random order),
 * beside always-the-mean (k = 0: the family's true mean, a baseline that knows the answer key's
 * average) and the mean of the k saved grades; keyword salad (the reference's words shuffled)
 * against "I don't know." and against an honest wrong answer; the share of suggestions whose
 * comments leak the reference (4+ consecutive words of it, or the whole of a short one); time per
 * answer. Then the worst family on each goal.
 *
 * --write: also fits on every family and writes apps/server/src/ai/builtin/fitted-weights.ts with
 * the data commits, the date, and the held-out figures of this run.
 */
import fs from 'node:fs';
import { pearson } from '../apps/server/src/ai/builtin/agreement-metrics.ts';
import { BuiltinGrader } from '../apps/server/src/ai/builtin/builtin-grader.ts';
import { embedTexts } from '../apps/server/src/ai/builtin/sentence-embeddings.ts';
import type { SuggestionModel } from '../apps/server/src/ai/builtin/suggestion-model.ts';
import { COURSE_GRADES_PER_QUESTION } from '../apps/server/src/ai/builtin/course-convention.ts';
import type { CourseGrade, GradedExample, GradingSuggestion } from '../apps/server/src/ai/grader-types.ts';
import { hashSeed, seededRandom } from '../apps/server/src/lib/seeded-random.ts';
import { fitSuggestionModel } from './_fit-grader-model.ts';
import {
  gradingInputFor,
  measureFamilies,
  POINTS,
  type MeasuredAnswer,
  type MeasuredQuestion,
} from './_grader-measure.ts';
import { dataFolderFromArgs, shuffled } from './_grading-datasets.ts';

const K_VALUES = [0, 5, 10] as const;
const MIN_ANSWERS_FOR_EXAMPLES = 15;
/** Answers graded per question and k with saved grades (the first 10 of the order are the examples). */
const HELD_PER_QUESTION = 60;
/**
 * Draws of the k saved grades per question, so that every family's k > 0 figures rest on at least
 * this many (question, draw) pairs. A figure against the mean of k grades is mostly decided by how
 * far each draw's mean lands from the question's level: ASAP-SAS and Powergrading have 10 questions,
 * so one draw each made their k = 5 and k = 10 ratios the luck of 10 draws. Draw 0 is the one every
 * earlier run used, so a family with enough questions (SciEntsBank, Beetle) reads as before.
 */
const LEVEL_SAMPLES_PER_FAMILY = 50;
const MOST_DRAWS_PER_QUESTION = 8;
const argValue = (name: string) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};
const only = argValue('--only')?.split(',');
const heldOut = argValue('--held-out')?.split(',');
const shouldWrite = process.argv.includes('--write');
if (shouldWrite && heldOut) {
  // fitted-weights.ts records every family's held-out figures; a partial run cannot write it.
  console.error('--write measures every family: leave out --held-out');
  process.exit(2);
}

interface Graded {
  human: number;
  score: number;
  confidence: number;
  /** The grader's chance of a big miss (0..1); the review queue's order, most likely first. */
  missChance: number;
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const isKept = (row: Graded) => Math.abs(row.score - row.human) <= 0.1 * POINTS + 1e-9;
const isBigError = (row: Graded) => Math.abs(row.score - row.human) > 0.4 * POINTS + 1e-9;

/** ECE over ten equal-width confidence bins. */
function calibrationError(rows: readonly Graded[]): number {
  let total = 0;
  for (let bin = 0; bin < 10; bin++) {
    const members = rows.filter((row) => Math.min(9, Math.floor(row.confidence / 10)) === bin);
    if (!members.length) continue;
    const said = mean(members.map((row) => row.confidence / 100));
    const kept = members.filter(isKept).length / members.length;
    total += (members.length / rows.length) * Math.abs(said - kept);
  }
  return total;
}

/**
 * Share of the big errors in the first 20% of a queue, over random's 20%. The review queue's order
 * (presenters/review-presenter.ts): the chance of a big miss, most likely first, then lowest
 * confidence; beside it, lowest confidence first alone, the order before 3.4.0.
 */
function bigErrorsFoundOverRandom(rows: readonly Graded[], order: 'review' | 'confidence'): number | null {
  const big = rows.filter(isBigError).length;
  if (big === 0) return null;
  const queue = [...rows].sort((left, right) =>
    order === 'review' && left.missChance !== right.missChance
      ? right.missChance - left.missChance
      : left.confidence - right.confidence,
  );
  const first = queue.slice(0, Math.ceil(0.2 * queue.length));
  return first.filter(isBigError).length / big / 0.2;
}

interface Figures {
  n: number;
  r: number;
  rmse: number;
  bias: number;
  ece: number | null;
  found: number | null;
  foundByConfidence: number | null;
}

function figuresOf(rows: readonly Graded[], hasConfidence: boolean): Figures {
  const errors = rows.map((row) => (row.score - row.human) / POINTS);
  return {
    n: rows.length,
    r: pearson(
      rows.map((row) => row.score),
      rows.map((row) => row.human),
    ),
    rmse: Math.sqrt(mean(errors.map((error) => error * error))),
    bias: mean(errors),
    ece: hasConfidence ? calibrationError(rows) : null,
    found: hasConfidence ? bigErrorsFoundOverRandom(rows, 'review') : null,
    foundByConfidence: hasConfidence ? bigErrorsFoundOverRandom(rows, 'confidence') : null,
  };
}

const fmt = (value: number | null, digits = 3) =>
  value === null || Number.isNaN(value) ? '  -  ' : value.toFixed(digits);
const signed = (value: number | null | undefined) =>
  value === null || value === undefined ? '  -  ' : `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;

/** 4+ consecutive words of a reference answer, or the whole of a reference shorter than that. */
function leaksReference(comment: string, references: readonly string[]): boolean {
  const words = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()
      .split(' ')
      .filter(Boolean);
  const commentText = ` ${words(comment).join(' ')} `;
  return references.some((reference) => {
    const referenceWords = words(reference);
    if (referenceWords.length === 0) return false;
    if (referenceWords.length < 4) return commentText.includes(` ${referenceWords.join(' ')} `);
    for (let start = 0; start + 4 <= referenceWords.length; start++) {
      if (commentText.includes(` ${referenceWords.slice(start, start + 4).join(' ')} `)) return true;
    }
    return false;
  });
}

const exampleOf = (answer: MeasuredAnswer): GradedExample => ({
  answerText: answer.text,
  score: answer.share * POINTS,
  comments: [],
  suggestedScore: null,
});

let gradingMs = 0;
let gradedCount = 0;

async function suggest(
  grader: BuiltinGrader,
  question: MeasuredQuestion,
  answerText: string,
  examples: GradedExample[],
  courseGrades?: readonly CourseGrade[],
): Promise<GradingSuggestion & { judgement: unknown }> {
  const input = { ...gradingInputFor(question, answerText), examples, courseGrades };
  const started = performance.now();
  const call = await grader.requestGrading(input);
  const suggestion = grader.interpretGrading(call.rawOutput, input);
  gradingMs += performance.now() - started;
  gradedCount++;
  return { ...suggestion, judgement: call.rawOutput };
}

/**
 * A saved grade as the product hands it to another question of the course (models/course-grades.ts
 * reads the same two fields of the stored judgement): the cold model's share and the status.
 */
function courseGradeOf(judgement: unknown, human: number): CourseGrade {
  const { status, confidenceInputs } = judgement as { status: string; confidenceInputs: { coldShare: number } };
  return { coldShare: confidenceInputs.coldShare, share: human / POINTS, points: POINTS, status };
}

interface FamilyResult {
  family: string;
  byK: Map<number, { grader: Figures; baseline: Figures }>;
  /**
   * k = 0 on the question, with the instructor's grades on COURSE_GRADES_PER_QUESTION answers of
   * every other question of the family (a course is one convention; decision 0115).
   */
  course?: { grader: Figures; baseline: Figures };
  /** Null where no reference was long enough to shuffle (8 words or more). */
  saladOverIdk: Map<number, number | null>;
  saladOverWrong: Map<number, number | null>;
  leaks: number;
}

async function measureHeldOut(questions: readonly MeasuredQuestion[], model: SuggestionModel): Promise<FamilyResult> {
  const grader = new BuiltinGrader(model);
  const family = questions[0]!.family;
  const allShares = questions.flatMap((question) => question.answers.map((answer) => answer.share));
  const familyMean = mean(allShares) * POINTS;
  const byK = new Map<number, { grader: Graded[]; baseline: Graded[] }>(
    K_VALUES.map((k) => [k, { grader: [], baseline: [] }]),
  );
  const saladOverIdk = new Map<number, number[]>(K_VALUES.map((k) => [k, []]));
  const saladOverWrong = new Map<number, number[]>(K_VALUES.map((k) => [k, []]));
  let belowFull = 0;
  let leaking = 0;
  /** Each question's answers, in the order the instructor grades them, as course grades. */
  const courseGradesByQuestion = new Map<MeasuredQuestion, CourseGrade[]>();
  const course = { grader: [] as Graded[], baseline: [] as Graded[] };

  for (const question of questions) {
    /** Grades the held answers with these saved grades, beside the mean of the saved grades. */
    const gradeHeld = async (
      k: number,
      held: readonly MeasuredAnswer[],
      savedGrades: GradedExample[],
      level: number,
    ) => {
      for (const answer of held) {
        const suggestion = await suggest(grader, question, answer.text, savedGrades);
        const human = answer.share * POINTS;
        byK.get(k)!.grader.push({
          human,
          score: suggestion.totalScore,
          confidence: suggestion.confidence,
          missChance: suggestion.missChance ?? 0,
        });
        byK.get(k)!.baseline.push({ human, score: level, confidence: 0, missChance: 0 });
      }
    };
    // k = 0: every measured answer, against the family's true mean.
    const gradedFirst = new Set(
      shuffled(question.answers, seededRandom(hashSeed(question.id))).slice(0, COURSE_GRADES_PER_QUESTION),
    );
    const courseGrades: CourseGrade[] = [];
    for (const answer of question.answers) {
      const suggestion = await suggest(grader, question, answer.text, []);
      const human = answer.share * POINTS;
      if (gradedFirst.has(answer)) courseGrades.push(courseGradeOf(suggestion.judgement, human));
      byK.get(0)!.grader.push({
        human,
        score: suggestion.totalScore,
        confidence: suggestion.confidence,
        missChance: suggestion.missChance ?? 0,
      });
      byK.get(0)!.baseline.push({ human, score: familyMean, confidence: 0, missChance: 0 });
      if (suggestion.totalScore < POINTS) {
        belowFull++;
        if (suggestion.comments.some((comment) => leaksReference(comment.text, question.question.referenceAnswers)))
          leaking++;
      }
    }
    courseGradesByQuestion.set(question, courseGrades);
    const draws = Math.min(MOST_DRAWS_PER_QUESTION, Math.ceil(LEVEL_SAMPLES_PER_FAMILY / questions.length));
    for (let draw = 1; draw < draws; draw++) {
      const order = shuffled(question.answers, seededRandom(hashSeed(`${question.id}:draw ${draw}`)));
      if (question.answers.length < MIN_ANSWERS_FOR_EXAMPLES) break;
      for (const k of K_VALUES) {
        if (k === 0) continue;
        const savedGrades = order.slice(0, k).map(exampleOf);
        const level = mean(order.slice(0, k).map((answer) => answer.share)) * POINTS;
        await gradeHeld(k, order.slice(10, 10 + HELD_PER_QUESTION), savedGrades, level);
      }
    }
    const order = shuffled(question.answers, seededRandom(hashSeed(question.id)));
    // Keyword salad: the reference's words in random order. A reference of a few words shuffled
    // ("Lincoln Abraham") is still the answer, so only references of 8 words or more are shuffled.
    const referenceWords = (question.question.referenceAnswers[0] ?? '').split(/\s+/).filter(Boolean);
    const salad =
      referenceWords.length >= 8
        ? shuffled(referenceWords, seededRandom(hashSeed(`salad:${question.id}`))).join(' ')
        : '';
    for (const k of K_VALUES) {
      const examples = order.slice(0, k);
      const held = order.slice(10, 10 + HELD_PER_QUESTION);
      const savedGrades = examples.map(exampleOf);
      if (k > 0) {
        if (question.answers.length < MIN_ANSWERS_FOR_EXAMPLES) continue;
        const level = mean(examples.map((answer) => answer.share)) * POINTS;
        await gradeHeld(k, held, savedGrades, level);
      }
      if (!salad) continue;
      const saladScore = (await suggest(grader, question, salad, savedGrades)).totalScore;
      const idkScore = (await suggest(grader, question, "I don't know.", savedGrades)).totalScore;
      saladOverIdk.get(k)!.push((saladScore - idkScore) / POINTS);
      const wrong = held.find((answer) => answer.share === 0 && answer.isJudged);
      if (wrong) {
        const wrongScore = (await suggest(grader, question, wrong.text, savedGrades)).totalScore;
        saladOverWrong.get(k)!.push((saladScore - wrongScore) / POINTS);
      }
    }
  }
  // k = 0 with the course: every answer of each question, with the other questions' first grades.
  for (const question of questions) {
    const courseGrades = questions
      .filter((other) => other !== question)
      .flatMap((other) => courseGradesByQuestion.get(other) ?? []);
    for (const answer of question.answers) {
      const suggestion = await suggest(grader, question, answer.text, [], courseGrades);
      const human = answer.share * POINTS;
      course.grader.push({
        human,
        score: suggestion.totalScore,
        confidence: suggestion.confidence,
        missChance: suggestion.missChance ?? 0,
      });
      course.baseline.push({ human, score: familyMean, confidence: 0, missChance: 0 });
    }
  }
  const result: FamilyResult = {
    family,
    course: { grader: figuresOf(course.grader, true), baseline: figuresOf(course.baseline, false) },
    byK: new Map(),
    saladOverIdk: new Map([...saladOverIdk].map(([k, gains]) => [k, gains.length ? mean(gains) : null])),
    saladOverWrong: new Map([...saladOverWrong].map(([k, gains]) => [k, gains.length ? mean(gains) : null])),
    leaks: leaking / Math.max(1, belowFull),
  };
  for (const [k, rows] of byK) {
    if (rows.grader.length)
      result.byK.set(k, { grader: figuresOf(rows.grader, true), baseline: figuresOf(rows.baseline, false) });
  }
  return result;
}

function report(result: FamilyResult): string[] {
  const lines = [`== ${result.family} held out (fitted on the other families only)`];
  for (const [k, { grader, baseline }] of result.byK) {
    lines.push(
      `  k=${String(k).padEnd(2)} n=${String(grader.n).padEnd(5)} r ${fmt(grader.r)}  RMSE ${fmt(grader.rmse)} (${k ? `mean of ${k}` : 'true mean'} ${fmt(baseline.rmse)}, ratio ${fmt(grader.rmse / baseline.rmse)})` +
        `  bias ${signed(grader.bias)}  ECE ${fmt(grader.ece)}  big errors in first 20% of the review queue: ${fmt(grader.found, 2)}x random (lowest confidence first ${fmt(grader.foundByConfidence, 2)}x)` +
        `  salad over "I don't know." ${signed(result.saladOverIdk.get(k))}, over a wrong answer ${signed(result.saladOverWrong.get(k))}`,
    );
  }
  if (result.course) {
    const { grader, baseline } = result.course;
    lines.push(
      `  k=0 with the course (${COURSE_GRADES_PER_QUESTION} grades on each other question) n=${grader.n} r ${fmt(grader.r)}  RMSE ${fmt(grader.rmse)} (true mean ${fmt(baseline.rmse)}, ratio ${fmt(grader.rmse / baseline.rmse)})` +
        `  bias ${signed(grader.bias)}  ECE ${fmt(grader.ece)}  big errors in first 20% of the review queue: ${fmt(grader.found, 2)}x random (lowest confidence first ${fmt(grader.foundByConfidence, 2)}x)`,
    );
  }
  lines.push(`  comments that leak the reference: ${(100 * result.leaks).toFixed(1)}% of suggestions below full marks`);
  return lines;
}

function worst(results: readonly FamilyResult[]): string[] {
  const pick = (label: string, value: (result: FamilyResult) => number | null | undefined, higherIsWorse = true) => {
    let chosen: { family: string; value: number } | undefined;
    for (const result of results) {
      const v = value(result);
      if (v === null || v === undefined || Number.isNaN(v)) continue;
      if (!chosen || (higherIsWorse ? v > chosen.value : v < chosen.value))
        chosen = { family: result.family, value: v };
    }
    return chosen ? `  ${label.padEnd(44)} ${chosen.value.toFixed(3)} (${chosen.family})` : `  ${label.padEnd(44)} -`;
  };
  const ratio = (k: number) => (result: FamilyResult) => {
    const entry = result.byK.get(k);
    return entry ? entry.grader.rmse / entry.baseline.rmse : null;
  };
  return [
    '== worst family (goal)',
    pick('|bias| at k=0 (<= 0.10)', (result) => Math.abs(result.byK.get(0)?.grader.bias ?? NaN)),
    pick('ECE at k=0 (<= 0.05)', (result) => result.byK.get(0)?.grader.ece),
    pick('|bias| at k=0 with the course (<= 0.10)', (result) => Math.abs(result.course?.grader.bias ?? NaN)),
    pick('ECE at k=0 with the course (<= 0.05)', (result) => result.course?.grader.ece),
    pick('RMSE / mean of 5 at k=5 (<= 0.90)', ratio(5)),
    pick('RMSE / mean of 10 at k=10 (<= 0.85)', ratio(10)),
    pick('RMSE / true mean at k=0', ratio(0)),
    pick('big errors in first 20%, x random, k=0 (>= 2)', (result) => result.byK.get(0)?.grader.found, false),
    pick(
      'big errors in first 20%, x random, k=0 with the course (>= 2)',
      (result) => result.course?.grader.found,
      false,
    ),
    pick('big errors in first 20%, x random, k=5 (>= 2)', (result) => result.byK.get(5)?.grader.found, false),
    pick('big errors in first 20%, x random, k=10 (>= 2)', (result) => result.byK.get(10)?.grader.found, false),
    pick('  the same, lowest confidence first, k=0', (result) => result.byK.get(0)?.grader.foundByConfidence, false),
    pick('  the same, lowest confidence first, k=5', (result) => result.byK.get(5)?.grader.foundByConfidence, false),
    pick('  the same, lowest confidence first, k=10', (result) => result.byK.get(10)?.grader.foundByConfidence, false),
    pick('salad over "I don\'t know.", k=0 (<= 0.05)', (result) => result.saladOverIdk.get(0)),
    pick('salad over "I don\'t know.", k=10 (<= 0.05)', (result) => result.saladOverIdk.get(10)),
    pick('leaking comments (<= 0.01)', (result) => result.leaks),
  ];
}

const folder = dataFolderFromArgs(process.argv);
const families = await measureFamilies(folder, only);
const output: string[] = [];
const say = (lines: string[]) => {
  for (const line of lines) console.log(line);
  output.push(...lines);
};
say([
  'data:',
  ...families.map(
    (family) => `  ${family.family}: ${family.source.repo} @ ${family.source.commit} (${family.source.labels})`,
  ),
]);
const results: FamilyResult[] = [];
for (const family of families) {
  if (heldOut && !heldOut.includes(family.family)) continue;
  const others = families.filter((other) => other !== family).flatMap((other) => other.questions);
  const model = fitSuggestionModel(others);
  const result = await measureHeldOut(family.questions, model);
  results.push(result);
  say(report(result));
}
say(worst(results));

// Time per answer: grading above reused vectors kept from earlier answers; a new answer also pays
// for its own meaning, measured here on texts never embedded before.
const fresh = Array.from(
  { length: 40 },
  (_, index) => `Answer ${index}: the current flows because the bulb ${index} is in a closed path with the battery.`,
);
const started = performance.now();
for (const text of fresh) await embedTexts([text]);
const embedMs = (performance.now() - started) / fresh.length;
say([
  `time per answer: ${(gradingMs / Math.max(1, gradedCount) + embedMs).toFixed(1)} ms (grading ${(gradingMs / Math.max(1, gradedCount)).toFixed(1)} ms + its meaning ${embedMs.toFixed(1)} ms; goal <= 150), resident memory ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
]);

if (shouldWrite) {
  const model = fitSuggestionModel(families.flatMap((family) => family.questions));
  const file = new URL('../apps/server/src/ai/builtin/fitted-weights.ts', import.meta.url);
  const comment = output.map((line) => ` * ${line}`.trimEnd()).join('\n');
  fs.writeFileSync(
    file,
    `import type { SuggestionModel } from './suggestion-model.ts';

/**
 * Weights of the built-in grader's suggestion model (suggestion-model.ts), fitted on every family
 * below by \`npx tsx bench/grader-agreement.ts --data DIR --write\` on ${new Date().toISOString().slice(0, 10)}.
 * The figures are that run's, each family held out: measured with weights fitted on the others.
 *
${comment}
 */
export const FITTED: SuggestionModel = ${JSON.stringify(model)};
`,
  );
  console.log(`wrote ${file.pathname}`);
}
