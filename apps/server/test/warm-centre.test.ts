import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/lib/seeded-random.ts';
import {
  coldShare,
  exampleBaseline,
  warmInputs,
  type AnswerSignals,
  type PreparedExample,
} from '../src/ai/builtin/suggestion-model.ts';
import { meanAndError } from './support/mean-and-error.ts';
import { planeVector } from './support/plane-vector.ts';

/**
 * With saved grades, the suggestion is the instructor's mean moved by how the answer differs from
 * the graded ones; each difference is centred on where an answer not among them falls. A class in
 * which the credited answers say much the same and the uncredited ones are each wrong in their own
 * way (a common shape: SAF, Beetle) is where centring on the graded answers themselves misleads:
 * a graded answer read against a set that holds it is its own nearest neighbour, so the centre is
 * the mean of the grades, while a new answer's nearest graded answers are more often the credited
 * cluster. That offset moved every suggestion up (bias +0.05 of the points at ten saved grades on
 * Beetle held out, decision 0134).
 */

const WRONG_WORDS = ['boil', 'salt', 'sun', 'dry', 'wind', 'cloud', 'rain', 'sea'];

/** Half credited, all alike; half not, each wrong in its own words and meaning. */
function drawAnswer(random: () => number): { signals: AnswerSignals; share: number } {
  const isCredited = random() < 0.5;
  const angle = isCredited ? (random() - 0.5) * 0.1 : 0.6 + random() * 2.4;
  const pick = () => WRONG_WORDS[Math.floor(random() * WRONG_WORDS.length)]!;
  const terms = new Set(isCredited ? ['evapor', 'water', 'heat'] : [pick(), pick()]);
  const signals: AnswerSignals = {
    lexical: [0.5, 0.4, 0.6, 0, 2, 0, 0, 0.5, 0],
    meaningReference: 0.5,
    meaningCoverage: 0.4,
    meaningQuestion: 0.3,
    hasReference: true,
    embedding: planeVector(angle),
    terms,
    classNear: 0,
    classWhole: 0,
    classPlace: [],
    classWordPlace: [],
    counted: null,
  };
  return { signals, share: isCredited ? 1 : 0 };
}

const NEAREST_MEANING = 1;
const NEAREST_WORDS = 5;
const DRAWS = 200;
const ANSWERS_PER_DRAW = 20;

describe('the warm inputs are centred on where a new answer falls', () => {
  it('averages zero over new answers drawn like the graded ones, where centring on the mean grade would not', () => {
    const random = seededRandom(11);
    const centred = { meaning: [] as number[], words: [] as number[] };
    const onTheMean = { meaning: [] as number[], words: [] as number[] };
    for (let draw = 0; draw < DRAWS; draw++) {
      const examples: PreparedExample[] = Array.from({ length: 10 }, (_, index) => {
        const { signals, share } = drawAnswer(random);
        return {
          signals,
          cold: coldShare(signals),
          foldedText: `graded ${draw} ${index}`,
          share,
          suggestedShare: null,
        };
      });
      const baseline = exampleBaseline(examples);
      let meaning = 0;
      let words = 0;
      for (let answer = 0; answer < ANSWERS_PER_DRAW; answer++) {
        const { signals } = drawAnswer(random);
        const inputs = warmInputs(signals, coldShare(signals), examples, null);
        meaning += inputs[NEAREST_MEANING]! / ANSWERS_PER_DRAW;
        words += inputs[NEAREST_WORDS]! / ANSWERS_PER_DRAW;
      }
      centred.meaning.push(meaning);
      centred.words.push(words);
      onTheMean.meaning.push(meaning + baseline.nearestMeaning - baseline.level);
      onTheMean.words.push(words + baseline.nearestWords - baseline.level);
    }
    for (const input of ['meaning', 'words'] as const) {
      const now = meanAndError(centred[input]);
      const before = meanAndError(onTheMean[input]);
      // Within three standard errors of zero: no offset the draws can tell from chance...
      expect(Math.abs(now.mean), input).toBeLessThan(3 * now.error);
      // ...where the mean of the grades as the centre leaves one well past it, upward.
      expect(before.mean, input).toBeGreaterThan(3 * before.error);
    }
  });
});
