import { describe, expect, it } from 'vitest';
import { createBuiltinGrader } from '../src/ai/builtin/builtin-grader.ts';
import {
  conventionOf,
  COURSE_GRADES_MAX,
  COURSE_GRADES_MIN,
  fitCourseConvention,
  isConventionStale,
  recalibratedConfidence,
  type CourseConvention,
} from '../src/ai/builtin/course-convention.ts';
import type { CourseGrade, GradedExample, GradingInput } from '../src/ai/grader-types.ts';
import { MIGRATION } from './support/grading-inputs.ts';

/**
 * The course's grading convention (decision 0115): before the first saved grade on a question, the
 * built-in grader moves its cold suggestions by how the instructor graded the course's other
 * questions, and recalibrates its confidence on whether they kept what it would have said there.
 */

const grade = (coldShare: number, share: number, status = 'answered', points = 5): CourseGrade => ({
  coldShare,
  share,
  points,
  status,
});

/** n grades whose cold shares spread over 0.2..0.8, each given `share(cold)` by the instructor. */
function gradesOf(n: number, share: (cold: number) => number): CourseGrade[] {
  return Array.from({ length: n }, (_, index) => {
    const cold = 0.2 + (0.6 * index) / Math.max(1, n - 1);
    return grade(cold, share(cold));
  });
}

describe('the course convention fitted on the other questions’ grades', () => {
  it('is unknown without grades it can read', () => {
    expect(fitCourseConvention(undefined)).toBeNull();
    expect(fitCourseConvention([])).toBeNull();
    // Nothing to judge (blank, "I don't know."), no points, shares out of range: nothing to learn.
    expect(
      fitCourseConvention([
        grade(0.4, 0, 'blank'),
        grade(0.4, 0, 'does-not-know'),
        grade(0.5, 1, 'answered', 0),
        grade(0.5, 1.4),
        grade(Number.NaN, 1),
      ]),
    ).toBeNull();
    // One or two grades are no convention.
    expect(fitCourseConvention(gradesOf(COURSE_GRADES_MIN - 1, () => 1))).toBeNull();
    expect(fitCourseConvention(gradesOf(COURSE_GRADES_MIN, () => 1))).not.toBeNull();
  });

  it('reads a lenient instructor as a positive offset and a strict one as a negative one', () => {
    const lenient = fitCourseConvention(gradesOf(30, (cold) => Math.min(1, cold + 0.3)))!;
    const strict = fitCourseConvention(gradesOf(30, (cold) => Math.max(0, cold - 0.3)))!;
    const agreeing = fitCourseConvention(gradesOf(30, (cold) => cold))!;
    expect(lenient.offset).toBeGreaterThan(0.5);
    expect(strict.offset).toBeLessThan(-0.5);
    expect(Math.abs(agreeing.offset)).toBeLessThan(0.1);
    expect(lenient.grades).toBe(30);
  });

  it('moves further the more grades show it (a few grades move it little)', () => {
    const lenient = (cold: number) => Math.min(1, cold + 0.3);
    const few = fitCourseConvention(gradesOf(3, lenient))!;
    const many = fitCourseConvention(gradesOf(60, lenient))!;
    expect(few.offset).toBeGreaterThan(0);
    expect(many.offset).toBeGreaterThan(few.offset + 0.2);
  });

  it('ignores answers with nothing to judge, and reads at most COURSE_GRADES_MAX grades', () => {
    const graded = gradesOf(20, (cold) => Math.min(1, cold + 0.2));
    const withBlanks = [...graded, ...Array.from({ length: 40 }, () => grade(0.3, 0, 'blank'))];
    expect(fitCourseConvention(withBlanks)).toEqual(fitCourseConvention(graded));
    const tooMany = [...gradesOf(COURSE_GRADES_MAX, (cold) => cold), ...gradesOf(200, () => 1)];
    expect(fitCourseConvention(tooMany)!.grades).toBe(COURSE_GRADES_MAX);
    expect(fitCourseConvention(tooMany)).toEqual(fitCourseConvention(gradesOf(COURSE_GRADES_MAX, (cold) => cold)));
  });

  it('raises the confidence where the instructor kept what it would say, and lowers it where not', () => {
    // An instructor who gives the cold share, to the half point, keeps every score it would show;
    // one who gives the opposite end keeps none.
    const keeps = fitCourseConvention(gradesOf(40, (cold) => Math.round(cold * 10) / 10))!;
    const neverKeeps = fitCourseConvention(gradesOf(40, (cold) => (cold < 0.5 ? 1 : 0)))!;
    expect(recalibratedConfidence(60, keeps)).toBeGreaterThan(60);
    expect(recalibratedConfidence(60, neverKeeps)).toBeLessThan(60);
    for (const confidence of [1, 50, 99])
      expect(recalibratedConfidence(confidence, neverKeeps)).toBeGreaterThanOrEqual(1);
  });

  it('calls a suggestion stale only when the convention moved enough to change it', () => {
    const base: CourseConvention = { offset: 0.5, shift: 0.2, slope: 0.9, grades: 20 };
    expect(isConventionStale(null, null)).toBe(false);
    expect(isConventionStale(null, base)).toBe(true);
    expect(isConventionStale(base, null)).toBe(true);
    expect(isConventionStale(base, { ...base, offset: 0.55, grades: 21 })).toBe(false);
    expect(isConventionStale(base, { ...base, offset: 0.7 })).toBe(true);
    expect(isConventionStale(base, { ...base, shift: -0.1 })).toBe(true);
    expect(isConventionStale(base, { ...base, slope: 1.2 })).toBe(true);
  });

  it('reads the convention a stored judgement was made with, and nothing from other shapes', () => {
    const convention: CourseConvention = { offset: -0.4, shift: 0.1, slope: 1.1, grades: 12 };
    expect(conventionOf({ confidenceInputs: { course: convention } })).toEqual(convention);
    expect(conventionOf({ confidenceInputs: { course: null } })).toBeNull();
    expect(conventionOf({ confidenceInputs: { coldShare: 0.4 } })).toBeNull();
    expect(conventionOf({ confidenceInputs: { course: { offset: '1', shift: 0, slope: 1, grades: 1 } } })).toBeNull();
    expect(conventionOf(null)).toBeNull();
    expect(conventionOf('3.4.0')).toBeNull();
  });
});

/** An answer that shows part of what the solution asks, so the convention can move it either way. */
const PARTLY: GradingInput = {
  ...MIGRATION,
  answerText: 'Animals move to other places when it gets cold so they can find food.',
};

describe('the built-in grader with the course’s grades', () => {
  const grader = createBuiltinGrader();
  const gradeWith = async (input: GradingInput) => {
    const call = await grader.requestGrading(input);
    const judgement = call.rawOutput as { confidenceInputs: { coldShare: number; course: unknown } };
    return { suggestion: grader.interpretGrading(call.rawOutput, input), judgement };
  };

  it('moves a cold suggestion toward the course’s convention, keeping the cold share it is fitted on', async () => {
    const alone = await gradeWith(PARTLY);
    const lenient = await gradeWith({ ...PARTLY, courseGrades: gradesOf(40, (cold) => Math.min(1, cold + 0.4)) });
    const strict = await gradeWith({ ...PARTLY, courseGrades: gradesOf(40, (cold) => Math.max(0, cold - 0.4)) });
    expect(lenient.suggestion.totalScore).toBeGreaterThan(alone.suggestion.totalScore);
    expect(strict.suggestion.totalScore).toBeLessThan(alone.suggestion.totalScore);
    // What a later question's convention is fitted on is the model's own cold share, never moved.
    expect(lenient.judgement.confidenceInputs.coldShare).toBe(alone.judgement.confidenceInputs.coldShare);
    expect(strict.judgement.confidenceInputs.coldShare).toBe(alone.judgement.confidenceInputs.coldShare);
    expect(alone.judgement.confidenceInputs.course).toBeNull();
    expect(conventionOf(lenient.judgement)).toEqual(
      fitCourseConvention(gradesOf(40, (cold) => Math.min(1, cold + 0.4))),
    );
  });

  it('leaves the course aside from the first saved grade on the question', async () => {
    const examples: GradedExample[] = [
      {
        answerText: 'They migrate to find food and to breed as seasons change.',
        score: 4,
        comments: [],
        suggestedScore: null,
      },
    ];
    const own = await gradeWith({ ...PARTLY, examples });
    const withCourse = await gradeWith({ ...PARTLY, examples, courseGrades: gradesOf(40, () => 1) });
    expect(withCourse.suggestion).toEqual(own.suggestion);
    expect(withCourse.judgement.confidenceInputs.course).toBeNull();
  });

  it('gives an answer with nothing to judge the same 0 whatever the course', async () => {
    const blank = { ...PARTLY, answerText: "I don't know." };
    const alone = await gradeWith(blank);
    const withCourse = await gradeWith({ ...blank, courseGrades: gradesOf(40, () => 1) });
    expect(withCourse.suggestion.totalScore).toBe(0);
    expect(withCourse.suggestion).toEqual(alone.suggestion);
  });

  it('is deterministic', async () => {
    const courseGrades = gradesOf(25, (cold) => Math.min(1, cold + 0.2));
    const first = await gradeWith({ ...PARTLY, courseGrades });
    const second = await gradeWith({ ...PARTLY, courseGrades: [...courseGrades] });
    expect(second.judgement).toEqual(first.judgement);
  });
});
