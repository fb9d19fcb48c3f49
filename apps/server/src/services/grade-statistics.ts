import { isSuggestionKept } from '@gradewise/shared/kept-suggestion';
import { reliabilityDiagram, type ConfidenceDecision } from '@gradewise/shared/reliability';
import type { RubricItem } from '@gradewise/shared/contracts/grading';
import type {
  Agreement,
  GraderStatistics,
  HistogramBin,
  RubricItemStatistics,
  StatisticsOutput,
} from '@gradewise/shared/contracts/statistics';
import type { StatisticsSources } from '../models/grading-statistics.ts';

/**
 * The statistics of a question or an assignment, worked out from its submissions, saved grades and
 * AI runs (pure: no database, no clock). The rules, in one place:
 * - an *answer* is one student's answer to one question; its current version is the newest, and
 *   its grade is the one that counts for it (the newest saved on the newest graded version), as in
 *   the grades CSV and the question page. Only saved grades are grades;
 * - the assignment's distribution is over fully graded students' totals (the sum of their counting
 *   grades; every answer they handed in graded); partly graded students are counted apart;
 * - a saved grade *started from* the AI suggestion it names (grades.grading_run_id); agreement
 *   compares the two: mean absolute difference, and the share within 10% of the question's points;
 * - an answer is *double-graded* when its grade history holds saves by two different people; a
 *   grader's agreement with the instructor compares their newest save on it with the instructor's;
 * - a *decision* (the reliability diagram, issue 27) is an answer whose counting grade started from
 *   an AI suggestion that stated a confidence: what the confidence said against whether the saved
 *   score kept the suggested one (the bands and ECE: packages/shared/src/reliability.ts).
 */

export interface StatisticsQuestion {
  id: string;
  label: string;
  points: number;
  rubricItems: readonly RubricItem[];
}

export interface StatisticsRequest {
  scope: StatisticsOutput['scope'];
  title: string;
  questions: readonly StatisticsQuestion[];
  sources: StatisticsSources;
  /** The course's owning instructor: the reference grader. */
  instructorId: string;
}

type SavedGrade = StatisticsSources['grades'][number];

interface Answer {
  question: StatisticsQuestion;
  studentId: string;
  isLate: boolean;
  /** The grade that counts for the answer, if one was ever saved. */
  counting: SavedGrade | undefined;
  /** Every save on any version, oldest first. */
  history: SavedGrade[];
  /**
   * The AI's grade of the answer: the suggestion its counting grade started from, else the newest
   * suggestion on the current version (a refresh may have suggested again since the save).
   */
  aiSuggestion: number | undefined;
}

export const HISTOGRAM_BINS = 10;

export function computeStatistics(request: StatisticsRequest): StatisticsOutput {
  const answers = collectAnswers(request);
  const runTotals = new Map(request.sources.runs.map((run) => [run.id, run.totalScore]));
  const startedFrom = (grade: SavedGrade) => (grade.gradingRunId ? runTotals.get(grade.gradingRunId) : undefined);
  const points = round(request.questions.reduce((sum, question) => sum + question.points, 0));

  const { totals: grades, partlyGraded } =
    request.scope === 'question' ? { totals: questionGrades(answers), partlyGraded: 0 } : studentTotals(answers);
  const graded = answers.filter((answer) => answer.counting);
  const aiPairs = graded.flatMap((answer) => {
    const suggestion = startedFrom(answer.counting!);
    return suggestion == null ? [] : [{ a: answer.counting!.grade, b: suggestion, points: answer.question.points }];
  });

  return {
    scope: request.scope,
    title: request.title,
    points,
    answered: new Set(answers.map((answer) => answer.studentId)).size,
    graded: grades.length,
    partlyGraded,
    histogram: histogram(grades, points),
    mean: grades.length > 0 ? round(grades.reduce((sum, grade) => sum + grade, 0) / grades.length) : null,
    median: median(grades),
    lateShare: answers.length > 0 ? share(answers.filter((answer) => answer.isLate).length, answers.length) : null,
    rubricItems: request.questions.flatMap((question) =>
      rubricItemStatistics(
        question,
        graded.filter((answer) => answer.question.id === question.id),
      ),
    ),
    aiAgreement: agreement(aiPairs),
    graders: graderStatistics(answers, request.instructorId, startedFrom),
    ...reliability(request, graded),
  };
}

/** The reliability diagram over the scope and per question, from the decisions of the graded answers. */
function reliability(
  request: StatisticsRequest,
  graded: readonly Answer[],
): Pick<StatisticsOutput, 'reliability' | 'questionReliability'> {
  const runs = new Map(request.sources.runs.map((run) => [run.id, run]));
  const decisions = graded.flatMap((answer) => {
    const run = answer.counting!.gradingRunId ? runs.get(answer.counting!.gradingRunId) : undefined;
    if (run?.totalScore == null || run.confidence == null) return [];
    const decision: ConfidenceDecision = {
      confidence: run.confidence,
      suggestedScore: run.totalScore,
      finalScore: answer.counting!.grade,
      points: answer.question.points,
    };
    return [{ questionId: answer.question.id, decision }];
  });
  return {
    reliability: reliabilityDiagram(decisions.map((entry) => entry.decision)),
    questionReliability: request.questions.map((question) => ({
      questionId: question.id,
      questionLabel: question.label,
      reliability: reliabilityDiagram(
        decisions.filter((entry) => entry.questionId === question.id).map((entry) => entry.decision),
      ),
    })),
  };
}

function collectAnswers({ questions, sources }: StatisticsRequest): Answer[] {
  const questionById = new Map(questions.map((question) => [question.id, question]));
  const versionOf = new Map(sources.submissions.map((submission) => [submission.id, submission.version]));
  const gradesBySubmission = groupBy(sources.grades, (grade) => grade.submissionId);
  const runTotals = new Map(sources.runs.map((run) => [run.id, run.totalScore]));
  const newestRunTotal = new Map<string, number | null>();
  // Runs come oldest first: the last one written per submission is its newest.
  for (const run of sources.runs) newestRunTotal.set(run.submissionId, run.totalScore);

  const versionsByAnswer = groupBy(
    sources.submissions,
    (submission) => `${submission.questionId}:${submission.studentId}`,
  );
  const answers: Answer[] = [];
  for (const versions of versionsByAnswer.values()) {
    const current = versions.reduce((newest, version) => (version.version > newest.version ? version : newest));
    const question = questionById.get(current.questionId);
    if (!question) continue;
    const history = versions
      .flatMap((version) => gradesBySubmission.get(version.id) ?? [])
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
    // The counting grade: the newest save on the newest version that has one.
    const counting = history.reduce<SavedGrade | undefined>((best, grade) => {
      if (!best) return grade;
      const [bestVersion, version] = [versionOf.get(best.submissionId)!, versionOf.get(grade.submissionId)!];
      return version > bestVersion || (version === bestVersion && grade.createdAt >= best.createdAt) ? grade : best;
    }, undefined);
    const aiSuggestion =
      (counting?.gradingRunId ? runTotals.get(counting.gradingRunId) : undefined) ?? newestRunTotal.get(current.id);
    answers.push({
      question,
      studentId: current.studentId,
      isLate: current.isLate,
      counting,
      history,
      aiSuggestion: aiSuggestion ?? undefined,
    });
  }
  return answers;
}

function questionGrades(answers: readonly Answer[]): number[] {
  return answers.flatMap((answer) => (answer.counting ? [answer.counting.grade] : []));
}

/**
 * Students' totals (the sum of their counting grades, as the CSV's Total) for the *fully graded*
 * students only: every answer they handed in has a saved grade. A student with some answers graded
 * and some not is *partly graded*: counted apart, never in the distribution, mean or median, where
 * a half-graded total would read as a low grade.
 */
function studentTotals(answers: readonly Answer[]): { totals: number[]; partlyGraded: number } {
  const byStudent = groupBy(answers, (answer) => answer.studentId);
  const totals: number[] = [];
  let partlyGraded = 0;
  for (const own of byStudent.values()) {
    const graded = own.filter((answer) => answer.counting);
    if (graded.length === 0) continue;
    if (graded.length < own.length) {
      partlyGraded += 1;
      continue;
    }
    totals.push(round(graded.reduce((sum, answer) => sum + answer.counting!.grade, 0)));
  }
  return { totals, partlyGraded };
}

export function histogram(values: readonly number[], points: number): HistogramBin[] {
  if (points <= 0) return [];
  const width = points / HISTOGRAM_BINS;
  const bins = Array.from({ length: HISTOGRAM_BINS }, (_, index) => ({
    from: round(index * width),
    to: round((index + 1) * width),
    count: 0,
  }));
  for (const value of values) {
    // The last bar includes the full mark; anything outside [0, points] goes to the nearest end.
    const index = Math.min(HISTOGRAM_BINS - 1, Math.max(0, Math.floor(value / width)));
    bins[index]!.count += 1;
  }
  return bins;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return round(sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2);
}

function rubricItemStatistics(question: StatisticsQuestion, graded: readonly Answer[]): RubricItemStatistics[] {
  const deductions = graded.map((answer) =>
    answer.counting!.comments.filter((comment) => comment.accepted && comment.pointsDeducted > 0),
  );
  const totalDeducted = deductions.flat().reduce((sum, comment) => sum + comment.pointsDeducted, 0);
  return question.rubricItems.map((item) => {
    const onItem = deductions.map((comments) => comments.filter((comment) => comment.rubricItemId === item.id));
    const deductedCount = onItem.filter((comments) => comments.length > 0).length;
    const itemPoints = onItem.flat().reduce((sum, comment) => sum + comment.pointsDeducted, 0);
    return {
      questionId: question.id,
      questionLabel: question.label,
      itemId: item.id,
      criterion: item.criterion,
      points: item.points,
      deductedCount,
      answerShare: graded.length > 0 ? share(deductedCount, graded.length) : 0,
      pointsShare: totalDeducted > 0 ? share(itemPoints, totalDeducted) : 0,
    };
  });
}

interface Pair {
  a: number;
  b: number;
  /** The question's points, the scale of the difference. */
  points: number;
}

export function agreement(pairs: readonly Pair[]): Agreement {
  if (pairs.length === 0) {
    return {
      compared: 0,
      meanAbsoluteDifference: null,
      meanAbsoluteDifferencePercent: null,
      withinTenPercentShare: null,
    };
  }
  const differences = pairs.map((pair) => Math.abs(pair.a - pair.b));
  const within = pairs.filter((pair) => isSuggestionKept(pair.a, pair.b, pair.points)).length;
  return {
    compared: pairs.length,
    meanAbsoluteDifference: round(mean(differences)),
    meanAbsoluteDifferencePercent: round(
      mean(pairs.map((pair, index) => (pair.points > 0 ? (100 * differences[index]!) / pair.points : 0))),
    ),
    withinTenPercentShare: share(within, pairs.length),
  };
}

function graderStatistics(
  answers: readonly Answer[],
  instructorId: string,
  startedFrom: (grade: SavedGrade) => number | null | undefined,
): GraderStatistics[] {
  const people = new Map<string, string>();
  for (const answer of answers) for (const grade of answer.history) people.set(grade.savedBy.id, grade.savedBy.name);

  const rows: GraderStatistics[] = [...people].map(([personId, name]) => {
    const own = answers.filter((answer) => answer.counting?.savedBy.id === personId);
    const isInstructor = personId === instructorId;
    const withAi = own.flatMap((answer) => {
      const suggestion = startedFrom(answer.counting!);
      return suggestion == null ? [] : [{ a: answer.counting!.grade, b: suggestion, points: answer.question.points }];
    });
    const doubleGraded = isInstructor
      ? []
      : answers.flatMap((answer) => {
          const mine = newestBy(answer.history, personId);
          const instructors = newestBy(answer.history, instructorId);
          return mine && instructors ? [{ a: mine.grade, b: instructors.grade, points: answer.question.points }] : [];
        });
    return {
      graderId: personId,
      name,
      kind: 'person',
      isInstructor,
      count: own.length,
      ...means(own.map((answer) => ({ grade: answer.counting!.grade, points: answer.question.points }))),
      agreementWithInstructor: isInstructor ? null : agreement(doubleGraded),
      agreementWithAi: agreement(withAi),
    };
  });
  rows.sort(
    (a, b) =>
      Number(b.isInstructor) - Number(a.isInstructor) || a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }),
  );

  const suggested = answers.filter((answer) => answer.aiSuggestion !== undefined);
  if (suggested.length > 0) {
    // The AI as one more grader: its suggestion against the instructor's grade that started from it.
    const againstInstructor = answers.flatMap((answer) => {
      const grade = answer.counting;
      const suggestion = grade && grade.savedBy.id === instructorId ? startedFrom(grade) : undefined;
      return suggestion == null ? [] : [{ a: suggestion, b: grade!.grade, points: answer.question.points }];
    });
    rows.push({
      graderId: 'ai',
      name: 'AI suggestions',
      kind: 'ai',
      isInstructor: false,
      count: suggested.length,
      ...means(suggested.map((answer) => ({ grade: answer.aiSuggestion!, points: answer.question.points }))),
      agreementWithInstructor: agreement(againstInstructor),
      agreementWithAi: null,
    });
  }
  return rows;
}

function newestBy(history: readonly SavedGrade[], personId: string): SavedGrade | undefined {
  return history.filter((grade) => grade.savedBy.id === personId).at(-1);
}

function means(grades: readonly { grade: number; points: number }[]): {
  meanGrade: number | null;
  meanPercent: number | null;
} {
  if (grades.length === 0) return { meanGrade: null, meanPercent: null };
  return {
    meanGrade: round(mean(grades.map((entry) => entry.grade))),
    meanPercent: round(mean(grades.map((entry) => (entry.points > 0 ? (100 * entry.grade) / entry.points : 0)))),
  };
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const round = (value: number) => Math.round(value * 100) / 100;
const share = (part: number, whole: number) => Math.round((part / whole) * 10_000) / 10_000;
