import { isSuggestionKept } from '@gradewise/shared/kept-suggestion';
import type { CourseGrade } from '../grader-types.ts';
import { NOTHING_TO_JUDGE } from './answer-status.ts';
import { FITTED } from './fitted-weights.ts';
import {
  confidenceInputs,
  estimateConfidence,
  roundScore,
  sigmoid,
  type SharePrediction,
  type SuggestionModel,
} from './suggestion-model.ts';

/**
 * The course's grading convention before the first saved grade on a question (decision 0115).
 *
 * A course is one grading convention, and the cold model cannot read it from an answer: one
 * instructor keeps nearly every answer it reads as complete, another three in four (decision 0110).
 * Before the first saved grade on a question the instructor has often graded answers to the
 * course's other questions. Two things are fitted on those grades (CourseGrade: what the cold model
 * said for the answer, what the instructor gave):
 *
 * - the **offset**: the log-odds between the cold model's share and the instructor's (Newton,
 *   Gaussian prior N(0, 1)), added to this question's cold shares;
 * - the **recalibration** of the confidence: Platt scaling of what the confidence says for those
 *   answers (with the offset) against whether the instructor kept that score (priors N(0, 1) on the
 *   shift, N(1, 1) on the slope), so a few grades move it little and many move it as far as they show.
 *
 * From the first saved grade on the question the instructor's own grades lead (the warm model),
 * and the convention is not used. Measured held out by `bench/grader-agreement.ts`, its "k=0 with
 * the course" rows (decision 0114 measured the design, 0115 built it).
 */
export interface CourseConvention {
  /** Added to the cold model's log-odds. */
  offset: number;
  /** Platt scaling of the confidence's log-odds: shift + slope × log-odds. */
  shift: number;
  slope: number;
  /** How many grades it was fitted on (judged answers only). */
  grades: number;
}

/**
 * Fewer judged grades than this are no convention: one or two answers' particulars, not how the
 * instructor grades (the designs measured rested on 27 or more). With one saved grade in the demo
 * course, its other question's confidences swung to single digits on correct answers.
 */
export const COURSE_GRADES_MIN = 3;
/** At most this many saved grades of each other question are read (most recent first). */
export const COURSE_GRADES_PER_QUESTION = 10;
/**
 * At most this many in all (a course of 200 questions graded ten deep). Fewer is not safe: held
 * out, SciEntsBank's course ECE was 0.108 on its newest 400 grades against 0.049 on all 1,490, and
 * Beetle's 0.076 against 0.057 (decision 0115); fitting 2,000 costs a few milliseconds a job.
 */
export const COURSE_GRADES_MAX = 2000;

const logit = (share: number) => Math.log(Math.max(1e-4, share) / Math.max(1e-4, 1 - share));

/** The grades the convention is fitted on: answers the grader judged, with sane numbers. */
function usableGrades(grades: readonly CourseGrade[]): CourseGrade[] {
  return grades
    .filter(
      (grade) =>
        !NOTHING_TO_JUDGE.has(grade.status) &&
        grade.points > 0 &&
        Number.isFinite(grade.coldShare) &&
        Number.isFinite(grade.share) &&
        grade.coldShare >= 0 &&
        grade.coldShare <= 1 &&
        grade.share >= 0 &&
        grade.share <= 1,
    )
    .slice(0, COURSE_GRADES_MAX);
}

const fitted = new WeakMap<readonly CourseGrade[], WeakMap<SuggestionModel, CourseConvention | null>>();

/** The convention of these grades; null when none of them can tell it. Pure and deterministic. */
export function fitCourseConvention(
  grades: readonly CourseGrade[] | undefined,
  model: SuggestionModel = FITTED,
): CourseConvention | null {
  if (!grades || grades.length === 0) return null;
  // The grading of a whole class passes the same grades for every answer: fitted once.
  const known = fitted.get(grades)?.get(model);
  if (known !== undefined) return known;
  const usable = usableGrades(grades);
  const convention = usable.length < COURSE_GRADES_MIN ? null : fitConvention(usable, model);
  const byModel = fitted.get(grades) ?? new WeakMap<SuggestionModel, CourseConvention | null>();
  byModel.set(model, convention);
  fitted.set(grades, byModel);
  return convention;
}

function fitConvention(grades: readonly CourseGrade[], model: SuggestionModel): CourseConvention {
  const offset = fitOffset(grades);
  const claims = grades.map((grade) => {
    const share = sigmoid(logit(grade.coldShare) + offset);
    const shown = roundScore(grade.points, share) / grade.points;
    const inputs = confidenceInputs(shown, coldPrediction(share), []);
    return {
      logOdds: logit(estimateConfidence(inputs, 0, model) / 100),
      isKept: isSuggestionKept(shown, grade.share, 1),
    };
  });
  const [shift, slope] = fitPlatt(claims);
  return { offset, shift, slope, grades: grades.length };
}

/** The offset that best fits the instructor's shares (prior N(0, 1), Newton's method). */
function fitOffset(grades: readonly CourseGrade[]): number {
  let offset = 0;
  for (let iteration = 0; iteration < 30; iteration++) {
    let gradient = offset;
    let curvature = 1;
    for (const grade of grades) {
      const probability = sigmoid(logit(grade.coldShare) + offset);
      gradient += probability - grade.share;
      curvature += probability * (1 - probability);
    }
    const step = gradient / curvature;
    offset -= step;
    if (Math.abs(step) < 1e-9) break;
  }
  return offset;
}

/** [shift, slope] of the claims' log-odds against what was kept (priors N(0, 1) and N(1, 1)). */
function fitPlatt(claims: readonly { logOdds: number; isKept: boolean }[]): [number, number] {
  let shift = 0;
  let slope = 1;
  for (let iteration = 0; iteration < 40; iteration++) {
    let gradientShift = shift;
    let gradientSlope = slope - 1;
    let hShiftShift = 1;
    let hShiftSlope = 0;
    let hSlopeSlope = 1;
    for (const { logOdds, isKept } of claims) {
      const probability = sigmoid(shift + slope * logOdds);
      const weight = probability * (1 - probability);
      const residual = probability - (isKept ? 1 : 0);
      gradientShift += residual;
      gradientSlope += residual * logOdds;
      hShiftShift += weight;
      hShiftSlope += weight * logOdds;
      hSlopeSlope += weight * logOdds * logOdds;
    }
    const determinant = hShiftShift * hSlopeSlope - hShiftSlope * hShiftSlope;
    const stepShift = (hSlopeSlope * gradientShift - hShiftSlope * gradientSlope) / determinant;
    const stepSlope = (hShiftShift * gradientSlope - hShiftSlope * gradientShift) / determinant;
    shift -= stepShift;
    slope -= stepSlope;
    if (Math.abs(stepShift) + Math.abs(stepSlope) < 1e-9) break;
  }
  return [shift, slope];
}

function coldPrediction(share: number): SharePrediction {
  return { share, cold: share, examplesUsed: 0, nearest: 0, sameAnswers: 0 };
}

/** A cold prediction moved by the course's offset (its share and the cold share its doubt reads). */
export function withCourseOffset(prediction: SharePrediction, convention: CourseConvention): SharePrediction {
  return {
    ...prediction,
    share: sigmoid(logit(prediction.share) + convention.offset),
    cold: sigmoid(logit(prediction.cold) + convention.offset),
  };
}

/** A cold confidence (0..100) recalibrated on the course's grades. */
export function recalibratedConfidence(confidence: number, convention: CourseConvention): number {
  const probability = sigmoid(convention.shift + convention.slope * logit(confidence / 100));
  return Math.round(Math.min(0.99, Math.max(0.01, probability)) * 100);
}

/**
 * The convention a stored built-in judgement was suggested with (`confidenceInputs.course`); null
 * when it had none (no course grades, saved grades of its own, or a judgement from before 3.6.0).
 */
export function conventionOf(rawOutput: unknown): CourseConvention | null {
  const course = (rawOutput as { confidenceInputs?: { course?: unknown } } | null)?.confidenceInputs?.course;
  if (!course || typeof course !== 'object') return null;
  const { offset, shift, slope, grades } = course as Record<string, unknown>;
  return typeof offset === 'number' &&
    typeof shift === 'number' &&
    typeof slope === 'number' &&
    typeof grades === 'number'
    ? { offset, shift, slope, grades }
    : null;
}

/**
 * Moves smaller than this (in log-odds) leave a suggestion as it is: at a share of one half, 0.1
 * moves it by 2.5% of the points, less than any score step, and its confidence by about 2 points.
 * So a course's suggestions are refreshed while its convention is being learnt, and no longer once
 * more grades stop moving it.
 */
const CONVENTION_MOVE = 0.1;

/** Whether a suggestion made with `usedWith` should be made again now that the course shows `now`. */
export function isConventionStale(usedWith: CourseConvention | null, now: CourseConvention | null): boolean {
  if (usedWith === null || now === null) return usedWith !== now;
  return (
    Math.abs(usedWith.offset - now.offset) > CONVENTION_MOVE ||
    Math.abs(usedWith.shift - now.shift) > CONVENTION_MOVE ||
    Math.abs(usedWith.slope - now.slope) > CONVENTION_MOVE
  );
}
