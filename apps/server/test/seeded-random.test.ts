import { describe, expect, it } from 'vitest';
import { hashSeed, seededRandom } from '../src/lib/seeded-random.ts';

describe('seeded randomness', () => {
  it('hashes a text with 32-bit FNV-1a (its published test vectors)', () => {
    expect(hashSeed('')).toBe(0x811c9dc5);
    expect(hashSeed('a')).toBe(0xe40c292c);
    expect(hashSeed('foobar')).toBe(0xbf9cf968);
  });

  it('gives the same numbers in [0, 1) for the same seed, and other numbers for another seed', () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 1000 }, () => random());
    };
    const first = draw(hashSeed('question-1'));
    expect(draw(hashSeed('question-1'))).toEqual(first);
    expect(first.every((value) => value >= 0 && value < 1)).toBe(true);
    expect(new Set(first).size).toBe(first.length);
    const other = draw(hashSeed('question-2'));
    expect(other.filter((value, index) => value === first[index])).toHaveLength(0);
    // Spread over the interval, as Math.random's would be: each tenth gets a fair share of 1,000.
    const tenths = Array.from(
      { length: 10 },
      (_, tenth) => first.filter((value) => Math.floor(value * 10) === tenth).length,
    );
    expect(Math.min(...tenths)).toBeGreaterThan(60);
  });
});
