import { createHash } from 'node:crypto';
import { BoundedCache } from '../../lib/bounded-cache.ts';
import { classAxesOf, type ClassAxes } from './class-axes.ts';
import { classWordsOf, type ClassWords } from './class-words.ts';
import { similarity, type Embedding } from './sentence-embeddings.ts';

/**
 * How typical an answer is of its class: its mean closeness in meaning to its nearest classmates
 * and to the whole class, each centred on the class's own mean (decision 0093). Where a class's
 * answers cluster by score, an answer far from every classmate is seldom a full-marks one; the
 * other students' answers are evidence a grader has before any saved grade. Centring makes a
 * typical answer read 0, the same as an answer graded without its class (a single submission, a
 * grader given no class), so a missing class moves nothing.
 */
export interface Typicality {
  near: number;
  whole: number;
}

export const NO_CLASS: Typicality = { near: 0, whole: 0 };

/** Classmates averaged for "near": a few, so that one copy of the answer does not decide it. */
const NEAREST_CLASSMATES = 10;
/** Fewer answers than this are not a class: every answer reads as typical. */
export const SMALLEST_CLASS = 3;

/** A class measured once: its answers' meanings (keyed by text) and its mean raw closeness. */
export interface ClassMeaning {
  keys: readonly string[];
  embeddings: readonly Embedding[];
  meanNear: number;
  meanWhole: number;
  /** The directions the class's answers differ in most (class-axes.ts); null for a small class. */
  axes: ClassAxes | null;
  /** The same in the answers' words (class-words.ts); null for a small class. */
  words: ClassWords | null;
}

function rawCloseness(embedding: Embedding, embeddings: readonly Embedding[], skip: number): Typicality {
  const closeness: number[] = [];
  embeddings.forEach((other, index) => {
    if (index !== skip) closeness.push(similarity(embedding, other));
  });
  if (closeness.length === 0) return NO_CLASS;
  const whole = closeness.reduce((sum, value) => sum + value, 0) / closeness.length;
  closeness.sort((left, right) => right - left);
  const nearest = closeness.slice(0, NEAREST_CLASSMATES);
  return { near: nearest.reduce((sum, value) => sum + value, 0) / nearest.length, whole };
}

/**
 * Measuring a class compares every pair of its answers, so it is kept: a Grade All grades the
 * whole class against the same answers, and the benchmark grades each question's class thousands
 * of times. Keyed by the texts themselves (hashed), so a changed class is measured again.
 */
const measured = new BoundedCache<string, ClassMeaning>(32);

export function measureClass(keys: readonly string[], meaning: (key: string) => Embedding): ClassMeaning | null {
  if (keys.length < SMALLEST_CLASS) return null;
  const hash = createHash('sha256').update(keys.join('\u0000')).digest('hex');
  const kept = measured.get(hash);
  if (kept) return kept;
  const embeddings = keys.map(meaning);
  const raw = embeddings.map((embedding, index) => rawCloseness(embedding, embeddings, index));
  const classMeaning: ClassMeaning = {
    keys,
    embeddings,
    meanNear: raw.reduce((sum, value) => sum + value.near, 0) / raw.length,
    meanWhole: raw.reduce((sum, value) => sum + value.whole, 0) / raw.length,
    axes: classAxesOf(embeddings),
    words: classWordsOf(keys),
  };
  measured.set(hash, classMeaning);
  return classMeaning;
}

/**
 * The typicality of one answer (its meaning, and its text as the class lists it): compared with
 * every classmate but itself (the first member with its text), centred on the class's mean.
 */
export function typicalityOf(embedding: Embedding, key: string, classMeaning: ClassMeaning | null): Typicality {
  if (!classMeaning) return NO_CLASS;
  const raw = rawCloseness(embedding, classMeaning.embeddings, classMeaning.keys.indexOf(key));
  return { near: raw.near - classMeaning.meanNear, whole: raw.whole - classMeaning.meanWhole };
}
