import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/lib/seeded-random.ts';
import { SMALLEST_CLASS_FOR_AXES } from '../src/ai/builtin/class-axes.ts';
import { classWordsOf, placeInWords } from '../src/ai/builtin/class-words.ts';

/**
 * A class's answers also differ in their words: which key terms each uses (decision 0140). Here
 * every answer has the same frame; half name the ribosome and what goes with it, half the
 * mitochondrion and what goes with it, and each adds a few filler words at random. The class's
 * widest direction in words is that split, not any filler.
 */

const FILLERS = ['quickly', 'cell', 'inside', 'usually', 'small', 'protein', 'chain', 'really', 'body', 'energy'];
const SIDES = ['ribosome reads mRNA codons', 'mitochondrion burns glucose oxygen'];

function classOf(size: number, seed: number): string[] {
  const random = seededRandom(seed);
  return Array.from({ length: size }, (_, index) => {
    const fillers = FILLERS.filter(() => random() < 0.3).join(' ');
    return `The ${SIDES[index % 2]} and builds it ${fillers}.`;
  });
}

describe("the directions a class's words differ in", () => {
  it('puts the key term that splits the class on its first axis, each side of it', () => {
    const texts = classOf(40, 3);
    const words = classWordsOf(texts)!;
    const places = texts.map((text) => placeInWords(text, words)[0]!);
    const ribosome = places.filter((_, index) => index % 2 === 0);
    const mitochondrion = places.filter((_, index) => index % 2 === 1);
    const sign = Math.sign(ribosome[0]!);
    expect(sign).not.toBe(0);
    for (const place of ribosome) expect(Math.sign(place)).toBe(sign);
    for (const place of mitochondrion) expect(Math.sign(place)).toBe(-sign);
    // A new answer is placed by the same words: naming the ribosome puts it on the ribosome's side.
    expect(Math.sign(placeInWords('It is the ribosome that builds it.', words)[0]!)).toBe(sign);
  });

  it('tells apart answers that use the same words in other pairs (decision 0142)', () => {
    // Both sides use the same words ("sound", "light", "travel", "faster"); only which word stands
    // beside which tells them apart, so without the pairs the class's words show no direction.
    const texts = Array.from({ length: 40 }, (_, index) =>
      index % 2 === 0 ? 'Light travels faster than sound.' : 'Sound travels faster than light.',
    );
    const words = classWordsOf(texts)!;
    expect(words).not.toBeNull();
    const places = texts.map((text) => placeInWords(text, words)[0]!);
    const sign = Math.sign(places[0]!);
    expect(sign).not.toBe(0);
    for (const [index, place] of places.entries()) expect(Math.sign(place)).toBe(index % 2 === 0 ? sign : -sign);
    expect(Math.sign(placeInWords('We see light travel faster than we hear sound.', words)[0]!)).toBe(sign);
  });

  it('counts only terms some answers use and others do not', () => {
    const words = classWordsOf([...classOf(30, 4), 'A lysosome answer.'])!;
    // "lysosome" is in one answer, "build" (the frame's stem) in every answer but one.
    expect([...words.columns.keys()].some((term) => term.includes('lysosom'))).toBe(false);
    expect([...words.columns.keys()].some((term) => term.includes('ribosom'))).toBe(true);
    const everyone = classWordsOf(Array.from({ length: 30 }, () => 'The ribosome builds it.'));
    expect(everyone).toBeNull();
  });

  it('gives the same places whatever order the class is listed in (grading stays deterministic)', () => {
    const texts = classOf(40, 7);
    const words = classWordsOf(texts)!;
    const shuffled = classWordsOf([...texts].reverse())!;
    for (const text of texts) {
      const [first, second] = [placeInWords(text, words), placeInWords(text, shuffled)];
      expect(second.length).toBe(first.length);
      for (const [axis, value] of first.entries()) expect(second[axis]!).toBeCloseTo(value, 9);
    }
  });

  it('places nothing in a class too small to show a direction', () => {
    const words = classWordsOf(classOf(SMALLEST_CLASS_FOR_AXES - 1, 5));
    expect(placeInWords('The ribosome builds it.', words)).toEqual([]);
    expect(placeInWords('The ribosome builds it.', null)).toEqual([]);
  });
});
