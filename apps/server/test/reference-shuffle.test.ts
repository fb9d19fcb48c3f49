import { describe, expect, it } from 'vitest';
import {
  isReferenceShuffle,
  isWordSalad,
  referenceWordsOf,
  saysItDoesNotKnow,
} from '../src/ai/builtin/answer-screening.ts';
import { hashSeed, seededRandom } from '../src/lib/seeded-random.ts';

/**
 * Which reorderings of the reference are set aside as word salad (answer-screening.ts): the
 * reference's words shuffled are, a student's own sentence in the reference's words is not.
 */

describe('the reference shuffled is set aside; a student sentence in its words is not', () => {
  const question = 'What happens to the pitch when the string is shorter or longer?';
  const solution =
    'If the string is shorter, the pitch will be higher. If the string is longer, the pitch will be lower.';
  const reference = referenceWordsOf([question, solution]);

  it('sets aside nine in ten random shuffles of the solution', () => {
    const words = solution.split(' ');
    let setAside = 0;
    const tries = 40;
    for (let seed = 0; seed < tries; seed++) {
      const random = seededRandom(hashSeed(`shuffle:${seed}`));
      const shuffledWords = [...words];
      for (let index = shuffledWords.length - 1; index > 0; index--) {
        const other = Math.floor(random() * (index + 1));
        [shuffledWords[index], shuffledWords[other]] = [shuffledWords[other]!, shuffledWords[index]!];
      }
      if (isReferenceShuffle(shuffledWords.join(' '), reference)) setAside++;
    }
    expect(setAside / tries).toBeGreaterThanOrEqual(0.9);
  });

  it('sets aside a shuffle with a moved sentence start or glue words out of place', () => {
    expect(isReferenceShuffle('pitch the shorter. If string higher the will is be', reference)).toBe(true);
    expect(isReferenceShuffle('string the If is longer lower pitch will the be', reference)).toBe(true);
  });

  it("judges a student's own grammatical sentences made of the reference's words", () => {
    for (const answer of [
      'The shorter string has a higher pitch than the longer string!',
      'If the string is longer, the pitch will be lower.',
      'The pitch will be higher if the string is shorter.',
    ])
      expect(isReferenceShuffle(answer, reference), answer).toBe(false);
  });

  it('reads a preposition that ends a clause ("made up of, and") as English, not glue out of place', () => {
    // An answer written in the question's words (and the rubric's list of terms), listing what it
    // needs: the reference's words, few of its pairs, and one preposition before "and", which the
    // comma shows ends a clause.
    const experiment = referenceWordsOf(
      [
        'Determine the mass of four different samples. Pour vinegar into each of four containers. After 24 hours, rinse them with distilled water.',
        'What additional information would you need in order to replicate the experiment?',
      ],
      ['I know how much into were made and them'],
    );
    const answer =
      'In order to replicate the experiment, I would need to know the mass of the four samples, how much vinegar to pour into the containers, what the samples were made of, and how much water to rinse them with after the 24 hours.';
    expect(isReferenceShuffle(answer, experiment)).toBe(false);
    // Without the comma the same words are out of order, and a shuffle of them is still set aside.
    expect(isReferenceShuffle(answer.replace('made of, and', 'made of and'), experiment)).toBe(true);
    expect(isReferenceShuffle('samples the of, mass four vinegar pour each containers the in rinse', experiment)).toBe(
      true,
    );
  });

  it('reads "bulb a and bulb c" as names, not articles out of place', () => {
    const circuit = referenceWordsOf([
      'Why do bulbs A and C stay on?',
      'Bulbs A and C are still in closed paths with the battery',
    ]);
    expect(isReferenceShuffle('bulb a and bulb c were still in a closed path with the battery', circuit)).toBe(false);
  });

  it('reads "bulb A was on" as a name before a verb: capitalised, or named so by the reference', () => {
    const circuit = referenceWordsOf([
      'Why was bulb A on when switch Y was open and switch Z was closed?',
      'Bulb A is still contained in a closed path with the battery.',
    ]);
    // The reference's words, few of its pairs: only "a was" looked out of order.
    expect(
      isReferenceShuffle('Bulb A was on because it was in a closed path that contained the battery', circuit),
    ).toBe(false);
    expect(
      isReferenceShuffle('bulb a was on because it was in a closed path that contained the battery', circuit),
    ).toBe(false);
    // Named after a comma, or in a sentence of its own words: still a name, not a moved sentence start.
    const paths = referenceWordsOf(
      ['Explain your reasoning.', 'bulbs A and B are still in closed paths with the battery'],
      ['bulb a'],
    );
    expect(isReferenceShuffle('There is still a closed path with bulb A, bulb B and the battery.', paths)).toBe(false);
    const twoSentences =
      'bulb a is not in the path of bulbs b and c.  if bulb a is damaged, bulbs b and c are still lit.';
    expect(isWordSalad(twoSentences, referenceWordsOf(['Bulb A is in a path.']))).toBe(false);
    expect(isWordSalad(twoSentences)).toBe(true);
    // An article before a verb where nothing names an "A" is still out of order.
    expect(isReferenceShuffle('closed a was path in the battery contained on bulb the with', circuit)).toBe(true);
  });
});

describe('an answer that says the student does not know', () => {
  it('is recognised in the ways students write it, and only when it is the whole answer', () => {
    for (const answer of ["I don't know.", 'i dont know', 'No idea', 'idk', '?', 'Not sure, sorry', 'I do not know.'])
      expect(saysItDoesNotKnow(answer), answer).toBe(true);
    for (const answer of [
      "I don't know the exact value, but the pitch gets higher.",
      'Not sure, but I think the string vibrates faster.',
      'Nobody knows',
    ])
      expect(saysItDoesNotKnow(answer), answer).toBe(false);
  });
});
