import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/lib/seeded-random.ts';
import { FEATURE_NAMES } from '../src/ai/builtin/answer-features.ts';
import { FITTED } from '../src/ai/builtin/fitted-weights.ts';
import {
  coldShare,
  evidenceTrust,
  predictShare,
  readEvidence,
  type AnswerSignals,
  type PreparedExample,
  type SuggestionModel,
} from '../src/ai/builtin/suggestion-model.ts';
import { meanAndError } from './support/mean-and-error.ts';

/**
 * With saved grades the evidence moves a suggestion from the instructor's mean only as far as it
 * has been shown to predict this instructor on this question (decision 0144): each saved grade is
 * read against the others, and the factor on the evidence that fits them is taken, from 1 by as
 * much as the grades show. Here one instructor's grades follow the cold model's reading of the
 * answers and another's are unrelated to anything in them.
 */

const DRAWS = 200;
const SAVED = 10;
const NEW_ANSWERS = 10;
/** A prior weak enough that ten saved grades show their record. */
const MODEL: SuggestionModel = { ...FITTED, trustPrior: 0.1 };

function signalsOf(random: () => number): AnswerSignals {
  const embedding = new Float32Array(8).map(() => random() - 0.5);
  const norm = Math.hypot(...embedding);
  return {
    lexical: FEATURE_NAMES.map(() => random()),
    meaningReference: random(),
    meaningCoverage: random(),
    meaningQuestion: random(),
    hasReference: true,
    embedding: embedding.map((value) => value / norm),
    terms: new Set([`term${Math.floor(random() * 20)}`, `term${Math.floor(random() * 20)}`]),
    classNear: random() - 0.5,
    classWhole: random() - 0.5,
    classPlace: [],
    classWordPlace: [],
    counted: null,
  };
}

type Grader = (signals: AnswerSignals, random: () => number) => number;

/** Credits the answers the cold model reads as better than the middle of its readings. */
const followsTheEvidence: Grader = (signals) => (coldShare(signals, MODEL) > middleCold ? 1 : 0);
/** Credits half the answers, whatever they say. */
const unrelated: Grader = (_signals, random) => (random() < 0.5 ? 1 : 0);

const middleCold = (() => {
  const random = seededRandom(7);
  const shares = Array.from({ length: 2001 }, () => coldShare(signalsOf(random), MODEL)).sort((a, b) => a - b);
  return shares[1000]!;
})();

function savedGrades(random: () => number, grade: Grader): PreparedExample[] {
  return Array.from({ length: SAVED }, (_, index) => {
    const signals = signalsOf(random);
    return {
      signals,
      cold: coldShare(signals, MODEL),
      foldedText: `graded answer number ${index}`,
      share: grade(signals, random),
      suggestedShare: null,
    };
  });
}

function overDraws(seed: number, grade: Grader) {
  const random = seededRandom(seed);
  const trusts: number[] = [];
  const pulledIn: number[] = [];
  for (let draw = 0; draw < DRAWS; draw++) {
    const examples = savedGrades(random, grade);
    trusts.push(evidenceTrust(examples, MODEL, null));
    for (let answer = 0; answer < NEW_ANSWERS; answer++) {
      const signals = signalsOf(random);
      const reading = readEvidence(signals, `new answer ${answer}`, examples, MODEL, null);
      const shown = predictShare(signals, `new answer ${answer}`, examples, MODEL, null);
      // How much nearer the instructor's mean the suggestion is than the evidence alone puts it.
      pulledIn.push(Math.abs(reading.share - reading.level) - Math.abs(shown.share - reading.level));
    }
  }
  return { trust: meanAndError(trusts), pulledIn: meanAndError(pulledIn) };
}

describe("the evidence weighed by the question's own record", () => {
  const unrelatedGrades = overDraws(11, unrelated);
  const followingGrades = overDraws(12, followsTheEvidence);

  it('pulls suggestions toward the mean when the saved grades are unrelated to the evidence', () => {
    expect(unrelatedGrades.trust.mean).toBeLessThan(1 - 3 * unrelatedGrades.trust.error);
    expect(unrelatedGrades.pulledIn.mean).toBeGreaterThan(3 * unrelatedGrades.pulledIn.error);
  });

  it('trusts the evidence more when the saved grades follow it', () => {
    const gap = followingGrades.trust.mean - unrelatedGrades.trust.mean;
    const error = Math.hypot(followingGrades.trust.error, unrelatedGrades.trust.error);
    expect(gap).toBeGreaterThan(3 * error);
  });

  it('leaves the fitted weights as they are with one saved grade: nothing to read it against', () => {
    const random = seededRandom(13);
    const examples = savedGrades(random, unrelated).slice(0, 1);
    expect(evidenceTrust(examples, MODEL, null)).toBe(1);
  });
});
