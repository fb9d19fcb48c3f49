import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { prepareExamples, questionContextFor } from '../src/ai/builtin/grade-answer.ts';
import { decisionShift, exampleBaseline } from '../src/ai/builtin/suggestion-model.ts';
import type { GradedExample, GradingInput } from '../src/ai/grader-types.ts';
import { PHOTOSYNTHESIS } from './support/grading-inputs.ts';

/**
 * The saved grades are measured once per set, not once per answer graded against them (decision
 * 0134): with 200 saved grades the instructor's decisions, read each against the others, cost about
 * a second, and a refresh grades every remaining answer against the same set. The invariants: the
 * same saved grades give the very same prepared set (so what is kept by set holds across answers),
 * any change to them gives another, and what is kept equals what would be measured afresh.
 */

/** A fixed unit vector per text, so the test needs no sentence model: the sets' identity is what is tested. */
function meaning(text: string): Float32Array {
  const digest = createHash('sha256').update(text).digest();
  const vector = new Float32Array(512);
  let norm = 0;
  for (let index = 0; index < vector.length; index++) {
    vector[index] = digest[index % digest.length]! / 255 - 0.5 + (index % 7) / 50;
    norm += vector[index]! * vector[index]!;
  }
  return vector.map((value) => value / Math.sqrt(norm));
}

const ANSWERS = [
  'Photosynthesis happens in chloroplasts, where chlorophyll absorbs light to turn carbon dioxide and water into glucose and oxygen.',
  'Plants make glucose from carbon dioxide and water using light; oxygen is given off.',
  'Plants eat soil to grow.',
  'Light is absorbed by chlorophyll in the chloroplasts.',
  'It uses water and makes oxygen.',
  'Respiration releases energy from glucose.',
];

function savedGrades(scores: readonly number[]): GradedExample[] {
  return ANSWERS.map((answerText, index) => ({
    answerText,
    score: scores[index]!,
    comments: [],
    suggestedScore: Math.min(6, scores[index]! + (index % 2)),
  }));
}

const SCORES = [6, 5, 0, 2, 2, 0];

function preparedFor(examples: GradedExample[]) {
  const input: GradingInput = { ...PHOTOSYNTHESIS, answerText: 'Glucose is made from water.', examples };
  return prepareExamples(input, questionContextFor(input), meaning);
}

describe('saved grades measured once per set', () => {
  it('gives the same saved grades, in new objects, the very same prepared set, frozen', () => {
    const first = preparedFor(savedGrades(SCORES));
    const second = preparedFor(savedGrades(SCORES));
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toHaveLength(ANSWERS.length);
  });

  it('gives another set when a score, an answer or a suggestion changes', () => {
    const base = preparedFor(savedGrades(SCORES));
    const rescored = preparedFor(savedGrades([6, 5, 1, 2, 2, 0]));
    const reworded = savedGrades(SCORES);
    reworded[3] = { ...reworded[3]!, answerText: 'Chlorophyll in the chloroplasts absorbs light.' };
    const resuggested = savedGrades(SCORES);
    resuggested[0] = { ...resuggested[0]!, suggestedScore: 4 };
    for (const changed of [rescored, preparedFor(reworded), preparedFor(resuggested)]) {
      expect(changed).not.toBe(base);
    }
    expect(rescored[2]!.share).toBeCloseTo(1 / 6, 9);
  });

  it('keeps the decisions and the baseline equal to what a fresh measurement gives', () => {
    const kept = preparedFor(savedGrades(SCORES));
    const asked = decisionShift(kept);
    // A copy is another set to the caches: measured afresh.
    expect(decisionShift(kept)).toBe(asked);
    expect(decisionShift([...kept])).toBe(asked);
    expect(exampleBaseline([...kept])).toEqual(exampleBaseline(kept));
    // The decisions move the claims: the instructor kept some suggestions and changed others.
    expect(asked).not.toBe(0);
  });
});
