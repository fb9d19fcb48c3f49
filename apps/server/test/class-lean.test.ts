import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/lib/seeded-random.ts';
import { classAxesOf, placeOnAxes } from '../src/ai/builtin/class-axes.ts';
import { classWordsOf, placeInWords } from '../src/ai/builtin/class-words.ts';
import { coldShare, warmInputs, type AnswerSignals, type PreparedExample } from '../src/ai/builtin/suggestion-model.ts';
import { meanAndError } from './support/mean-and-error.ts';
import { spreadClass } from './support/spread-class.ts';

/**
 * With saved grades, one of the warm model's inputs is where the answer sits in its class: a ridge
 * regression of the saved grades on their places along the class's main axes (decision 0136). The
 * class here (support/spread-class.ts) is widest along its first axis, but the instructor credits by
 * the fourth, the class's second direction: which direction the grades follow is what the saved
 * grades teach, the class only shows which directions there are.
 */

const CLASS_LEAN = 10;
const CLASS_WORD_LEAN = 11;
const DRAWS = 200;
const SAVED = 10;
const NEW_ANSWERS = 20;

const members = spreadClass(200, 21);
const axes = classAxesOf(members)!;
const isCredited = (vector: Float32Array) => vector[3]! > 0.5;

function signalsOf(
  vector: Float32Array,
  place: readonly number[] = placeOnAxes(vector, axes),
  wordPlace: readonly number[] = [],
): AnswerSignals {
  return {
    lexical: [0.5, 0.4, 0.6, 0, 2, 0, 0, 0.5, 0],
    meaningReference: 0.5,
    meaningCoverage: 0.4,
    meaningQuestion: 0.3,
    hasReference: true,
    embedding: vector,
    terms: new Set(),
    classNear: 0,
    classWhole: 0,
    classPlace: place,
    classWordPlace: wordPlace,
    counted: null,
  };
}

function savedGrades(vectors: readonly Float32Array[], withPlaces = true): PreparedExample[] {
  return vectors.map((vector, index) => {
    const signals = signalsOf(vector, withPlaces ? undefined : []);
    return {
      signals,
      cold: coldShare(signals),
      foldedText: `graded ${index}`,
      share: isCredited(vector) ? 1 : 0,
      suggestedShare: null,
    };
  });
}

const pick = (random: () => number) => members[Math.floor(random() * members.length)]!;
const lean = (vector: Float32Array, examples: readonly PreparedExample[], withPlace = true) => {
  const signals = signalsOf(vector, withPlace ? undefined : []);
  return warmInputs(signals, coldShare(signals), examples, null)[CLASS_LEAN]!;
};

/**
 * Over DRAWS sets of SAVED saved grades, each read at NEW_ANSWERS new answers (`draw` makes the set
 * and returns how to read one new answer): how much higher credited answers lean than the others,
 * and the lean's average over all of them, each with its standard error.
 */
function leansOverDraws(draw: () => () => { credited: boolean; lean: number }) {
  const gaps: number[] = [];
  const averages: number[] = [];
  const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  for (let index = 0; index < DRAWS; index++) {
    const readNewAnswer = draw();
    const credited: number[] = [];
    const uncredited: number[] = [];
    for (let answer = 0; answer < NEW_ANSWERS; answer++) {
      const { credited: isCreditedAnswer, lean: value } = readNewAnswer();
      (isCreditedAnswer ? credited : uncredited).push(value);
    }
    averages.push(average([...credited, ...uncredited]));
    if (credited.length && uncredited.length) gaps.push(average(credited) - average(uncredited));
  }
  return { gap: meanAndError(gaps), centre: meanAndError(averages) };
}

describe("the saved grades read along the class's axes", () => {
  it('lean toward the side the instructor credits, and average zero over new answers', () => {
    const random = seededRandom(5);
    const { gap, centre } = leansOverDraws(() => {
      const examples = savedGrades(Array.from({ length: SAVED }, () => pick(random)));
      return (vector = pick(random)) => ({ credited: isCredited(vector), lean: lean(vector, examples) });
    });
    // Credited answers lean up and the others down, far past what chance gives...
    expect(gap.mean).toBeGreaterThan(3 * gap.error);
    // ...and centred on the graded answers left out in turn: no offset the draws tell from chance.
    expect(Math.abs(centre.mean)).toBeLessThan(3 * centre.error);
  });

  it('says nothing without places in a class, or with a single saved grade', () => {
    const random = seededRandom(8);
    const vectors = Array.from({ length: SAVED }, () => pick(random));
    const credited = members.find(isCredited)!;
    expect(lean(credited, savedGrades(vectors, false), false)).toBe(0);
    expect(lean(credited, savedGrades(vectors), false)).toBe(0);
    expect(lean(credited, savedGrades(vectors.slice(0, 1)))).toBe(0);
    expect(lean(credited, savedGrades(vectors))).not.toBe(0);
  });
});

/**
 * The same reading in the class's words (decision 0140): the class's answers name one of two
 * organelles with what goes with it, and filler words at random; the instructor credits the
 * ribosome's side. The meaning's places are left empty, so only the words can tell the sides apart.
 */
describe("the saved grades read along the class's axes in words", () => {
  const FILLERS = ['quickly', 'cell', 'inside', 'usually', 'small', 'protein', 'chain', 'really', 'body', 'energy'];
  const fillerRandom = seededRandom(13);
  const texts = Array.from({ length: 200 }, (_, index) => {
    const side = index % 2 === 0 ? 'ribosome reads mRNA codons' : 'mitochondrion burns glucose oxygen';
    return `The ${side} and builds it ${FILLERS.filter(() => fillerRandom() < 0.3).join(' ')}.`;
  });
  const words = classWordsOf(texts)!;
  const sameMeaning = new Float32Array(8).fill(0.3);
  const signalsOfText = (text: string) => signalsOf(sameMeaning, [], placeInWords(text, words));
  const graded = (chosen: readonly string[]): PreparedExample[] =>
    chosen.map((text, index) => {
      const signals = signalsOfText(text);
      const share = text.includes('ribosome') ? 1 : 0;
      return { signals, cold: coldShare(signals), foldedText: `graded ${index}`, share, suggestedShare: null };
    });
  const wordLean = (text: string, examples: readonly PreparedExample[]) => {
    const signals = signalsOfText(text);
    return warmInputs(signals, coldShare(signals), examples, null)[CLASS_WORD_LEAN]!;
  };

  it('lean toward the words the instructor credits, and average zero over new answers', () => {
    const random = seededRandom(17);
    const pickText = () => texts[Math.floor(random() * texts.length)]!;
    const { gap, centre } = leansOverDraws(() => {
      const examples = graded(Array.from({ length: SAVED }, pickText));
      return (text = pickText()) => ({ credited: text.includes('ribosome'), lean: wordLean(text, examples) });
    });
    expect(gap.mean).toBeGreaterThan(3 * gap.error);
    expect(Math.abs(centre.mean)).toBeLessThan(3 * centre.error);
    // The meaning's reading has nothing to go on here: every answer has the same meaning.
    const examples = graded(texts.slice(0, SAVED));
    expect(warmInputs(signalsOfText(texts[0]!), 0.5, examples, null)[CLASS_LEAN]).toBe(0);
  });
});
