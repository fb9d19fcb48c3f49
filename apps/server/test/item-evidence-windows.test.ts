import { describe, expect, it } from 'vitest';
import { gatherItemEvidence, viewAnswer, type TermWeights } from '../src/ai/builtin/item-evidence.ts';

const weights: TermWeights = {
  weightOf: () => 1,
  displayOf: (term) => term,
  isQuestionTerm: () => false,
};

function evidenceOf(sentences: string[]) {
  return gatherItemEvidence({
    criterion: 'Osmosis',
    guidance: 'Water moves across a membrane from a dilute to a concentrated solution.',
    alignedSolution: [
      'Water moves across a partially permeable membrane.',
      'It moves toward the concentrated solution.',
    ],
    answer: viewAnswer(sentences),
    weights,
    questionText: 'Explain osmosis.',
    questionQuantities: [],
    referenceTerms: new Set(),
  });
}

describe('the windows an answer is aligned with', () => {
  it('holds each window once: a sentence pasted many times is compared once, and judged as if written once', () => {
    const sentence = 'Water moves across the membrane toward the concentrated side.';
    const repeated = viewAnswer(Array.from({ length: 500 }, () => sentence));
    // The sentence alone, and the sentence followed by itself.
    expect(repeated.windows).toHaveLength(2);
    expect(evidenceOf(Array.from({ length: 500 }, () => sentence))).toEqual(evidenceOf([sentence, sentence]));
    // Different sentences keep their own windows and pairs.
    expect(viewAnswer(['Water moves.', 'Salt stays.', 'Cells swell.']).windows).toHaveLength(5);
  });
});
