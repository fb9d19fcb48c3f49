import { describe, expect, it } from 'vitest';
import { FEATURE_NAMES } from '../src/ai/builtin/answer-features.ts';
import { analyseAnswer, answerSignals, questionContextFor, textsToEmbed } from '../src/ai/builtin/grade-answer.ts';
import { embedTexts } from '../src/ai/builtin/sentence-embeddings.ts';
import { coldInputs } from '../src/ai/builtin/suggestion-model.ts';
import type { GradingInput } from '../src/ai/grader-types.ts';

/**
 * An instructor may give a question without a solution. The cold model's comparison of the answer
 * with the reference against the question then has nothing to compare with, and must say nothing
 * (decision 0139): "no nearer the reference than the question" read every answer as a restatement
 * of the question.
 */

const QUESTION = 'Explain back propagation, use the correct technical terms!';
const ANSWER =
  'The error at the output is propagated backwards layer by layer; its gradient with respect to each weight updates that weight.';

const inputWith = (solutionText: string): GradingInput => ({
  questionText: QUESTION,
  solutionText,
  points: 2,
  rubricItems: [{ id: 'item-1', criterion: 'Explains back propagation', points: 2, guidance: '' }],
  answerText: ANSWER,
});

async function readAnswer(input: GradingInput) {
  const texts = textsToEmbed(input);
  const vectors = await embedTexts(texts);
  const meaningOf = new Map(texts.map((text, index) => [text.replace(/\s+/g, ' ').trim(), vectors[index]!]));
  const meaning = (text: string) => meaningOf.get(text.replace(/\s+/g, ' ').trim())!;
  const context = questionContextFor(input);
  const signals = answerSignals(analyseAnswer(ANSWER, input, context), input, context, meaning);
  return { signals, inputs: coldInputs(signals) };
}

/** Where coldInputs puts the reference-against-question comparison: after the word features and the three meanings. */
const AGAINST_QUESTION = FEATURE_NAMES.length + 3;

describe('a question given without a solution', () => {
  it('leaves out the comparisons with a reference it does not have', async () => {
    const { signals, inputs } = await readAnswer(inputWith(''));
    expect(signals.hasReference).toBe(false);
    // The answer is close to the question in meaning; without a reference that says nothing.
    expect(signals.meaningQuestion).toBeGreaterThan(0.3);
    expect(inputs[AGAINST_QUESTION]).toBe(0);
  });

  it('keeps them with a solution, where they say how the answer stands against it', async () => {
    const solution =
      'The output error is propagated backwards through the layers, and each weight is changed against the gradient of the error with respect to it.';
    const { signals, inputs } = await readAnswer(inputWith(solution));
    expect(signals.hasReference).toBe(true);
    expect(inputs[AGAINST_QUESTION]).toBeCloseTo(signals.meaningReference - signals.meaningQuestion, 12);
    // Nearer the solution than the question: the comparison is positive.
    expect(inputs[AGAINST_QUESTION]).toBeGreaterThan(0);
  });
});
