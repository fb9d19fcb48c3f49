import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/lib/seeded-random.ts';
import { FEATURE_NAMES } from '../src/ai/builtin/answer-features.ts';
import { coldShare, warmInputs, type AnswerSignals, type PreparedExample } from '../src/ai/builtin/suggestion-model.ts';
import { meanAndError } from './support/mean-and-error.ts';

/**
 * With saved grades, one warm input is what the answer's own measures (the cold model's inputs)
 * predict on this question: a ridge regression of the saved grades on those measures, each in the
 * graded answers' spreads (decision 0143). Here two questions are graded by different measures:
 * on one the instructor credits the longer answers, on the other the answers that recall more of
 * the reference, and the other measures vary at random. The same fitted model reads both; only the
 * saved grades say which measure each question's grades follow.
 */

const FEATURE_LEAN = 12;
const DRAWS = 200;
const SAVED = 10;
const NEW_ANSWERS = 20;
const LENGTH = FEATURE_NAMES.indexOf('logLength');
const RECALL = FEATURE_NAMES.indexOf('recall');

function signalsOf(random: () => number): AnswerSignals {
  return {
    lexical: FEATURE_NAMES.map(() => random()),
    meaningReference: random(),
    meaningCoverage: random(),
    meaningQuestion: random(),
    hasReference: true,
    embedding: new Float32Array(8).fill(0.3),
    terms: new Set(),
    classNear: random() - 0.5,
    classWhole: random() - 0.5,
    classPlace: [],
    classWordPlace: [],
    counted: null,
  };
}

const creditedBy = (measure: number) => (signals: AnswerSignals) => signals.lexical[measure]! > 0.5;

function savedGrades(random: () => number, isCredited: (signals: AnswerSignals) => boolean): PreparedExample[] {
  return Array.from({ length: SAVED }, (_, index) => {
    const signals = signalsOf(random);
    return {
      signals,
      cold: coldShare(signals),
      foldedText: `graded ${index}`,
      share: isCredited(signals) ? 1 : 0,
      suggestedShare: null,
    };
  });
}

const lean = (signals: AnswerSignals, examples: readonly PreparedExample[]) =>
  warmInputs(signals, coldShare(signals), examples, null)[FEATURE_LEAN]!;

/** Over DRAWS sets of saved grades: how much higher the credited new answers lean, and the average lean. */
function leansOverDraws(seed: number, isCredited: (signals: AnswerSignals) => boolean) {
  const random = seededRandom(seed);
  const gaps: number[] = [];
  const averages: number[] = [];
  const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  for (let draw = 0; draw < DRAWS; draw++) {
    const examples = savedGrades(random, isCredited);
    const credited: number[] = [];
    const others: number[] = [];
    for (let answer = 0; answer < NEW_ANSWERS; answer++) {
      const signals = signalsOf(random);
      (isCredited(signals) ? credited : others).push(lean(signals, examples));
    }
    averages.push(average([...credited, ...others]));
    if (credited.length && others.length) gaps.push(average(credited) - average(others));
  }
  return { gap: meanAndError(gaps), centre: meanAndError(averages) };
}

describe("the saved grades read along the answer's own measures", () => {
  it.each([
    ['length', LENGTH],
    ['recall of the reference', RECALL],
  ])('lean toward the answers the instructor credits by %s, and average zero over new answers', (_, measure) => {
    const { gap, centre } = leansOverDraws(measure + 31, creditedBy(measure));
    expect(gap.mean).toBeGreaterThan(3 * gap.error);
    expect(Math.abs(centre.mean)).toBeLessThan(3 * centre.error);
  });

  it('follows the measure this question is graded by, not the other', () => {
    // Graded by length: an answer that recalls much but is short leans down.
    const random = seededRandom(43);
    const shortButRecalling = { ...signalsOf(random), lexical: FEATURE_NAMES.map(() => 0.5) };
    shortButRecalling.lexical = shortButRecalling.lexical.map((value, index) =>
      index === LENGTH ? 0.05 : index === RECALL ? 0.95 : value,
    );
    const leans = Array.from({ length: 50 }, () => lean(shortButRecalling, savedGrades(random, creditedBy(LENGTH))));
    const { mean, error } = meanAndError(leans);
    expect(mean).toBeLessThan(-3 * error);
  });

  it('says nothing with a single saved grade, or when the graded answers do not differ', () => {
    const random = seededRandom(47);
    const answer = signalsOf(random);
    expect(lean(answer, savedGrades(random, creditedBy(LENGTH)).slice(0, 1))).toBe(0);
    const same = signalsOf(random);
    const alike: PreparedExample[] = [0, 1, 0, 1].map((share, index) => ({
      signals: same,
      cold: coldShare(same),
      foldedText: `graded ${index}`,
      share,
      suggestedShare: null,
    }));
    expect(lean(answer, alike)).toBe(0);
    expect(lean(answer, savedGrades(random, creditedBy(LENGTH)))).not.toBe(0);
  });
});
