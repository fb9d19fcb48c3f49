import { describe, expect, it } from 'vitest';
import { classMeaningOf, classSignalsOf, questionContextFor, textsToEmbed } from '../src/ai/builtin/grade-answer.ts';
import { embedTexts } from '../src/ai/builtin/sentence-embeddings.ts';
import {
  classLevelOf,
  coldShare,
  predictShare,
  warmInputs,
  type AnswerSignals,
  type PreparedExample,
} from '../src/ai/builtin/suggestion-model.ts';
import type { GradingInput } from '../src/ai/grader-types.ts';
import { planeVector } from './support/plane-vector.ts';

/**
 * A few saved grades are a noisy mean: the suggestion also reads the class's level as the cold
 * model sees it (decision 0101), and how far it trusts that level over the saved grades' mean is a
 * fitted weight.
 */

function signals(angle: number, recall: number, terms: string[]): AnswerSignals {
  return {
    lexical: [recall, recall * 0.8, 0.6, 0, Math.log1p(terms.length), 0, 0, recall, recall > 0.9 ? 1 : 0],
    meaningReference: 0.4 + 0.4 * recall,
    meaningCoverage: 0.3 + 0.4 * recall,
    meaningQuestion: 0.3,
    hasReference: true,
    embedding: planeVector(angle),
    terms: new Set(terms),
    classNear: 0,
    classWhole: 0,
    classPlace: [],
    classWordPlace: [],
    counted: null,
  };
}

function example(angle: number, share: number, terms: string[]): PreparedExample {
  const measured = signals(angle, share, terms);
  return { signals: measured, cold: coldShare(measured), foldedText: terms.join(' '), share, suggestedShare: null };
}

// Five saved grades, four at full marks: the mean of five says 0.9.
const EXAMPLES = [
  example(0.1, 1, ['light', 'fast', 'sound']),
  example(0.2, 1, ['light', 'quick', 'sound']),
  example(0.3, 1, ['flash', 'fast', 'thunder']),
  example(0.4, 0.5, ['light', 'sound']),
  example(0.5, 1, ['light', 'speed', 'sound']),
];
const ANSWER = signals(0.8, 0.6, ['light', 'travel', 'sound', 'wave']);

describe("the class's level beside a few saved grades", () => {
  it('moves the suggestion toward the level the class reads at, and only as far as its fitted weight', () => {
    const share = (level: number | null) =>
      predictShare(ANSWER, 'light travel sound wave', EXAMPLES, undefined, level).share;
    // A class that reads weaker than the five saved grades pulls the suggestion down, a stronger
    // one up; a class at the saved grades' own mean adds nothing to the evidence, as no class does.
    // (The shown share may still differ a little: the question's record reads each saved grade
    // against the others, whose mean is not the class's, decision 0144.)
    expect(share(0.2)).toBeLessThan(share(null));
    expect(share(1)).toBeGreaterThan(share(null));
    expect(warmInputs(ANSWER, coldShare(ANSWER), EXAMPLES, 0.9)).toEqual(
      warmInputs(ANSWER, coldShare(ANSWER), EXAMPLES, null),
    );
    // Trusted partly, not wholly: five grades still count.
    expect(share(null) - share(0.2)).toBeLessThan(0.7);
  });

  it('never moves an answer the instructor already graded: that grade is the suggestion', () => {
    const same = predictShare(EXAMPLES[3]!.signals, EXAMPLES[3]!.foldedText, EXAMPLES, undefined, 0.05);
    expect(same.sameAnswers).toBe(1);
    expect(same.share).toBe(0.5);
  });

  it('is the mean of the cold shares over the class, an answer with nothing to judge counting 0', () => {
    const strong = signals(0, 1, ['light', 'fast']);
    const level = classLevelOf([strong, null, strong, null]);
    expect(level).toBeCloseTo(coldShare(strong) / 2, 9);
    expect(classLevelOf(null)).toBeNull();
    expect(classLevelOf([])).toBeNull();
  });
});

describe('the class as the grader reads it', () => {
  const INPUT: GradingInput = {
    questionText: 'Why do we see lightning before we hear thunder?',
    solutionText: 'Light travels much faster than sound, so the flash reaches us before the sound.',
    points: 4,
    rubricItems: [
      { id: 'item-1', criterion: 'Compares the speeds of light and sound', points: 4, guidance: 'Light is faster' },
    ],
    answerText: 'Light is faster than sound.',
    classAnswers: [
      'Light is faster than sound so we see it first.',
      "I don't know.",
      'Sound is slower than light.',
      'Why do we see lightning before we hear thunder?',
      'The light gets to us quicker than the sound.',
    ],
  };

  it('reads every classmate once, and a classmate with nothing to judge as nothing', async () => {
    const texts = textsToEmbed(INPUT);
    const vectors = await embedTexts(texts);
    const meaningOf = new Map(texts.map((text, index) => [text.replace(/\s+/g, ' ').trim(), vectors[index]!]));
    const meaning = (text: string) => meaningOf.get(text.replace(/\s+/g, ' ').trim())!;
    const context = questionContextFor(INPUT);
    const classMeaning = classMeaningOf(INPUT, meaning);
    const members = classSignalsOf(INPUT, context, meaning, classMeaning)!;
    expect(members.map((member) => member !== null)).toEqual([true, false, true, false, true]);
    expect(classSignalsOf(INPUT, context, meaning, classMeaning)).toBe(members);
    // The classmates that say something read well above the blank ones' 0.
    expect(classLevelOf(members)).toBeGreaterThan(0);
    expect(classSignalsOf(INPUT, context, meaning, null)).toBeNull();
  });
});

/** warmInputs' input for the class's level against the saved grades' mean. */
const CLASS_PULL = 9;

describe("the class's pull with many saved grades", () => {
  it('shrinks as 1/k past the most grades the weights were fitted with', () => {
    // Twenty and forty saved grades with the same mean (0.9): the class reads 0.2.
    const many = (count: number) =>
      Array.from({ length: count }, (_, index) => EXAMPLES[index % EXAMPLES.length]!).map((example, index) => ({
        ...example,
        foldedText: `${example.foldedText} ${index}`,
      }));
    const pull = (count: number) => {
      const examples = many(count);
      const at = (level: number | null) =>
        predictShare(ANSWER, 'light travel sound wave', examples, undefined, level).share;
      return at(null) - at(0.2);
    };
    expect(pull(20)).toBeGreaterThan(0);
    expect(pull(40)).toBeGreaterThan(0);
    expect(pull(40)).toBeLessThan(pull(20));
    // The class's input itself halves; the shown shares also pass through the question's record,
    // which reads each saved grade against the others with the class (decision 0144).
    const classInput = (count: number) => warmInputs(ANSWER, coldShare(ANSWER), many(count), 0.2)[CLASS_PULL]!;
    expect(classInput(20)).toBeLessThan(0);
    expect(classInput(40)).toBeCloseTo(classInput(20) / 2, 9);
  });
});
