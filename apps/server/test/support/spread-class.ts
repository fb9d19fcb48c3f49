import { seededRandom } from '../../src/lib/seeded-random.ts';

/**
 * A class of answers' meanings made by hand (the sentence model's 512 dimensions): spread widely
 * along the first axis (standard deviation 0.3 around 0.6), less along the fourth (0.1 around 0.5),
 * and by a little noise (0.002) along every other. Seeded, so a test's class is the same every run.
 */
export function spreadClass(size: number, seed: number): Float32Array[] {
  const random = seededRandom(seed);
  const gaussian = () => {
    // Box-Muller: normal draws, so that the spreads above are what the class has.
    const u = Math.max(1e-12, random());
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  return Array.from({ length: size }, () => {
    const vector = new Float32Array(512);
    for (let index = 0; index < vector.length; index++) vector[index] = 0.002 * gaussian();
    vector[0] = 0.6 + 0.3 * gaussian();
    vector[3] = 0.5 + 0.1 * gaussian();
    return vector;
  });
}
