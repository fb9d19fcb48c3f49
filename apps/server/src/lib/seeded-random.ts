/**
 * Reproducible randomness for what must come out the same on every run: the demo's scanned pages
 * (their speckles and tilt) and the grading benchmarks' choice of examples.
 */

/** FNV-1a: a 32-bit seed from a text (an id, a page's lines). */
export function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

/** mulberry32: small, fast and reproducible; numbers in [0, 1) like Math.random. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
