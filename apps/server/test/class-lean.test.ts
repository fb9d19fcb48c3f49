import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/lib/seeded-random.ts';
import { classAxesOf, placeOnAxes } from '../src/ai/builtin/class-axes.ts';
import { coldShare, warmInputs, type AnswerSignals, type PreparedExample } from '../src/ai/builtin/suggestion-model.ts';
import { meanAndError } from './support/mean-and-error.ts';
import { spreadClass } from './support/spread-class.ts';

/**
 * With saved grades, one of the warm model's inputs is where the answer sits in its class: a ridge
 * regression of the saved grades on their places along the class's main axes (decision 0136). The
 * class here (support/spread-class.ts) is widest along its first axis, but the instructor credits by
 * the fourth, the class's second direction: which direction the grades follow is what the saved
 * grades teach, the class only shows which directions there are.
 */

const CLASS_LEAN = 10;
const DRAWS = 200;
const SAVED = 10;
const NEW_ANSWERS = 20;

const members = spreadClass(200, 21);
const axes = classAxesOf(members)!;
const isCredited = (vector: Float32Array) => vector[3]! > 0.5;

function signalsOf(vector: Float32Array, place: readonly number[] = placeOnAxes(vector, axes)): AnswerSignals {
  return {
    lexical: [0.5, 0.4, 0.6, 0, 2, 0, 0, 0.5, 0],
    meaningReference: 0.5,
    meaningCoverage: 0.4,
    meaningQuestion: 0.3,
    hasReference: true,
    embedding: vector,
    terms: new Set(),
    classNear: 0,
    classWhole: 0,
    classPlace: place,
    counted: null,
  };
}

function savedGrades(vectors: readonly Float32Array[], withPlaces = true): PreparedExample[] {
  return vectors.map((vector, index) => {
    const signals = signalsOf(vector, withPlaces ? undefined : []);
    return {
      signals,
      cold: coldShare(signals),
      foldedText: `graded ${index}`,
      share: isCredited(vector) ? 1 : 0,
      suggestedShare: null,
    };
  });
}

const pick = (random: () => number) => members[Math.floor(random() * members.length)]!;
const lean = (vector: Float32Array, examples: readonly PreparedExample[], withPlace = true) => {
  const signals = signalsOf(vector, withPlace ? undefined : []);
  return warmInputs(signals, coldShare(signals), examples, null)[CLASS_LEAN]!;
};

describe("the saved grades read along the class's axes", () => {
  it('lean toward the side the instructor credits, and average zero over new answers', () => {
    const random = seededRandom(5);
    const gaps: number[] = [];
    const averages: number[] = [];
    for (let draw = 0; draw < DRAWS; draw++) {
      const examples = savedGrades(Array.from({ length: SAVED }, () => pick(random)));
      const credited: number[] = [];
      const uncredited: number[] = [];
      for (let answer = 0; answer < NEW_ANSWERS; answer++) {
        const vector = pick(random);
        (isCredited(vector) ? credited : uncredited).push(lean(vector, examples));
      }
      const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
      averages.push(average([...credited, ...uncredited]));
      if (credited.length && uncredited.length) gaps.push(average(credited) - average(uncredited));
    }
    const gap = meanAndError(gaps);
    const centre = meanAndError(averages);
    // Credited answers lean up and the others down, far past what chance gives...
    expect(gap.mean).toBeGreaterThan(3 * gap.error);
    // ...and centred on the graded answers left out in turn: no offset the draws tell from chance.
    expect(Math.abs(centre.mean)).toBeLessThan(3 * centre.error);
  });

  it('says nothing without places in a class, or with a single saved grade', () => {
    const random = seededRandom(8);
    const vectors = Array.from({ length: SAVED }, () => pick(random));
    const credited = members.find(isCredited)!;
    expect(lean(credited, savedGrades(vectors, false), false)).toBe(0);
    expect(lean(credited, savedGrades(vectors), false)).toBe(0);
    expect(lean(credited, savedGrades(vectors.slice(0, 1)))).toBe(0);
    expect(lean(credited, savedGrades(vectors))).not.toBe(0);
  });
});
