import { describe, expect, it } from 'vitest';
import { isReferenceShuffle, referenceWordsOf, saysItDoesNotKnow } from '../src/ai/builtin/answer-screening.ts';
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

  it('reads "bulb a and bulb c" as names, not articles out of place', () => {
    const circuit = referenceWordsOf([
      'Why do bulbs A and C stay on?',
      'Bulbs A and C are still in closed paths with the battery',
    ]);
    expect(isReferenceShuffle('bulb a and bulb c were still in a closed path with the battery', circuit)).toBe(false);
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
