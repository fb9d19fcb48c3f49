import { describe, expect, it } from 'vitest';
import { createBuiltinGrader } from '../src/ai/builtin/builtin-grader.ts';
import { parseQuantities } from '../src/ai/builtin/quantities.ts';
import { isAtAnEnd } from '../src/ai/builtin/suggestion-model.ts';
import { splitSentences } from '../src/ai/builtin/text-analysis.ts';
import type { GradedExample, GradingInput } from '../src/ai/grader-types.ts';
import { MIGRATION, PHOTOSYNTHESIS } from './support/grading-inputs.ts';

/**
 * What an instructor must be able to trust in the built-in grader's suggestions, on the failures
 * seen on real answers: short correct answers, spelling variants, partial credit on a one-item
 * rubric, keyword salad, comments that hand out the solution, and saved grades that change nothing.
 */

const grader = createBuiltinGrader();

async function grade(input: GradingInput) {
  const call = await grader.requestGrading(input);
  return { suggestion: grader.interpretGrading(call.rawOutput, input), judgement: call.rawOutput as any };
}

const FORCE: GradingInput = {
  questionText: 'What is the unit of force?',
  solutionText: 'The newton (N), kg m/s^2',
  points: 5,
  rubricItems: [
    { id: 'item-1', criterion: 'Names the unit of force', points: 5, guidance: 'The newton (N), kg m/s^2' },
  ],
  answerText: '',
};

const withAnswer = (input: GradingInput, answerText: string, examples?: GradedExample[]): GradingInput => ({
  ...input,
  answerText,
  ...(examples ? { examples } : {}),
});

const example = (answerText: string, score: number): GradedExample => ({
  answerText,
  score,
  comments: [],
  suggestedScore: null,
});

describe('a sound cold start', () => {
  it.each(['newton', 'The newton', 'N', 'kg m/s^2'])('credits the short correct answer "%s"', async (answer) => {
    const { suggestion } = await grade(withAnswer(FORCE, answer));
    expect(suggestion.totalScore).toBeGreaterThanOrEqual(4);
  });

  it('gives a wrong unit nothing', async () => {
    const { suggestion } = await grade(withAnswer(FORCE, 'the joule'));
    expect(suggestion.totalScore).toBe(0);
  });

  it('grades British and American spellings alike', async () => {
    const british = await grade(
      withAnswer(MIGRATION, 'It is an inherited behaviour: animals move to find food and breed when seasons change.'),
    );
    const american = await grade(
      withAnswer(MIGRATION, 'It is an inherited behavior: animals move to find food and breed when seasons change.'),
    );
    expect(american.suggestion.totalScore).toBe(british.suggestion.totalScore);
    expect(american.judgement.confidenceInputs.features.recall).toBe(
      british.judgement.confidenceInputs.features.recall,
    );
  });

  it('gives an answer that says the student does not know nothing, confidently, and says why', async () => {
    const { suggestion, judgement } = await grade(withAnswer(MIGRATION, "I don't know."));
    expect(suggestion.totalScore).toBe(0);
    expect(suggestion.confidence).toBeGreaterThanOrEqual(90);
    expect(judgement.status).toBe('does-not-know');
    expect(suggestion.comments[0]?.text).toMatch(/does not know/);
    // Saying so beside an answer is an answer.
    const hedged = await grade(withAnswer(MIGRATION, "I don't know for sure, but they move to find food."));
    expect(hedged.suggestion.totalScore).toBeGreaterThan(0);
  });

  it('gives partial credit on a one-item rubric', async () => {
    const { suggestion } = await grade(withAnswer(MIGRATION, 'They move to find food.'));
    expect(suggestion.totalScore).toBeGreaterThan(0);
    expect(suggestion.totalScore).toBeLessThan(MIGRATION.points);
  });

  it('gives keyword salad and a keyword line no more than an honest wrong answer', async () => {
    const wrong = await grade(
      withAnswer(PHOTOSYNTHESIS, 'Plants take food from the soil through their roots and grow from it.'),
    );
    const shuffledSolution = await grade(
      withAnswer(
        PHOTOSYNTHESIS,
        'chloroplasts the water Oxygen glucose is light absorbs into carbon and released Chlorophyll energy which convert used a dioxide by-product place takes in',
      ),
    );
    const wrongWithKeywords = await grade(
      withAnswer(
        PHOTOSYNTHESIS,
        'Plants take food from the soil through their roots and grow from it.\nchloroplasts chlorophyll light energy carbon dioxide water glucose oxygen',
      ),
    );
    const tenPercent = 0.1 * PHOTOSYNTHESIS.points;
    expect(shuffledSolution.suggestion.totalScore).toBeLessThanOrEqual(wrong.suggestion.totalScore + tenPercent);
    expect(wrongWithKeywords.suggestion.totalScore).toBeLessThanOrEqual(wrong.suggestion.totalScore + tenPercent);
    // The same words written as sentences do earn credit: it is the salad that is refused, not the words.
    const sentences = await grade(
      withAnswer(
        PHOTOSYNTHESIS,
        'In the chloroplasts, chlorophyll absorbs light energy. The plant takes in carbon dioxide and water and turns them into glucose, releasing oxygen.',
      ),
    );
    expect(sentences.suggestion.totalScore).toBeGreaterThan(shuffledSolution.suggestion.totalScore + tenPercent);
  });

  it('never quotes a sentence of the solution in a comment', async () => {
    const answers = ['Chlorophyll absorbs light.', 'Plants make food.', 'It happens in leaves and needs water.', ''];
    for (const answer of answers) {
      const { suggestion } = await grade(withAnswer(PHOTOSYNTHESIS, answer));
      for (const comment of suggestion.comments) {
        for (const sentence of splitSentences(PHOTOSYNTHESIS.solutionText)) {
          expect(comment.text.toLowerCase()).not.toContain(sentence.toLowerCase().replace(/\.$/, ''));
        }
      }
    }
  });

  it('reads units the way OCR garbles them (m/s"2, m/s2)', () => {
    const [written] = parseQuantities('a = 9.8 m/s^2');
    for (const garbled of ['a = 9.8 m/s"2', 'a = 9.8 m/s2']) {
      const [quantity] = parseQuantities(garbled);
      expect(quantity?.dimension).toEqual(written!.dimension);
      expect(quantity?.value).toBe(9.8);
    }
  });

  it('never claims 90 or more on words alone', async () => {
    for (const answer of ['newton', 'the joule', 'They move to find food.', 'Chlorophyll absorbs light.']) {
      const input = answer.includes('food') ? MIGRATION : answer.includes('light') ? PHOTOSYNTHESIS : FORCE;
      const { suggestion } = await grade(withAnswer(input, answer));
      expect(suggestion.confidence).toBeLessThan(90);
    }
  });
});

describe('learning from saved grades', () => {
  const partial = 'They move to find food.';
  const alike = [
    'Animals move so they can find food.',
    'To find more food.',
    'They go where there is food.',
    'Looking for food to eat.',
    'They travel to get food.',
  ];

  it('moves a suggestion toward how the instructor graded alike answers', async () => {
    const cold = (await grade(withAnswer(MIGRATION, partial))).suggestion.totalScore;
    const lenient = (
      await grade(
        withAnswer(
          MIGRATION,
          partial,
          alike.map((text) => example(text, 4)),
        ),
      )
    ).suggestion.totalScore;
    const strict = (
      await grade(
        withAnswer(
          MIGRATION,
          partial,
          alike.map((text) => example(text, 0)),
        ),
      )
    ).suggestion.totalScore;
    expect(lenient).toBeGreaterThan(cold);
    expect(strict).toBeLessThan(cold);
  });

  it('records how many saved grades it used, ignoring unusable ones', async () => {
    const examples = [
      example('Animals move so they can find food.', 4),
      example('To find more food.', 3),
      example('Out of range', 9),
      example('Negative', -1),
      example('', 2),
    ];
    const { judgement } = await grade(withAnswer(MIGRATION, partial, examples));
    expect(judgement.confidenceInputs.examplesUsed).toBe(2);
  });

  it("suggests the instructor's grade for an answer the same as one already graded", async () => {
    // Another student's identical answer (the service never passes the student's own grade).
    const graded = [example(partial, 2), ...alike.map((text) => example(text, 4))];
    const { judgement, suggestion } = await grade(withAnswer(MIGRATION, `  ${partial.toUpperCase()} `, graded));
    expect(judgement.confidenceInputs.sameAnswers).toBe(1);
    expect(suggestion.totalScore).toBe(2);
  });

  it('trusts itself more on a question where its suggestions were kept than where they were changed', async () => {
    const graded = alike.map((text, index) => ({ text, score: index % 2 ? 4 : 3 }));
    const kept = graded.map(({ text, score }) => ({ ...example(text, score), suggestedScore: score }));
    const changed = graded.map(({ text, score }) => ({ ...example(text, score), suggestedScore: score >= 3 ? 0 : 4 }));
    const whenKept = (await grade(withAnswer(MIGRATION, partial, kept))).suggestion;
    const whenChanged = (await grade(withAnswer(MIGRATION, partial, changed))).suggestion;
    expect(whenKept.totalScore).toBe(whenChanged.totalScore);
    expect(whenKept.confidence).toBeGreaterThan(whenChanged.confidence);
  });

  it('does not trust a score in between on a question its instructor grades all-or-nothing', async () => {
    // The same ten answers graded 0 or full marks, or with partial credit. A suggestion in between
    // is kept only by an instructor who gives scores in between.
    const question: GradingInput = {
      ...MIGRATION,
      points: 5,
      rubricItems: [{ ...MIGRATION.rubricItems[0]!, points: 5 }],
    };
    const texts = [
      'Animals move so they can find food.',
      'To find more food.',
      'They go where there is food.',
      'Looking for food to eat.',
      'They travel to get food.',
      'It is inherited: they reach food and breeding grounds as seasons change.',
      'Because the seasons change and they need food and places to breed.',
      'They are bored.',
      'No idea.',
      'Instinct makes them follow the seasons to food and breeding sites.',
    ];
    const allOrNothing = texts.map((text, index) => example(text, [5, 5, 5, 0, 0, 5, 5, 0, 0, 5][index]!));
    const partialCredit = texts.map((text, index) => example(text, [3, 2, 3, 2, 3, 5, 5, 0, 0, 5][index]!));
    const answers = ['They move to find food.', 'They go south in winter.', 'For food and to breed.'];
    const inBetween = async (examples: GradedExample[]) => {
      const confidences: number[] = [];
      for (const answer of answers) {
        const { suggestion } = await grade(withAnswer(question, answer, examples));
        // Within a tenth of the points of an end (0.5 of 5) is kept by a 0 or full marks.
        if (suggestion.totalScore > 0.5 && suggestion.totalScore < 4.5) confidences.push(suggestion.confidence);
      }
      return confidences;
    };
    const whenAllOrNothing = await inBetween(allOrNothing);
    const whenPartial = await inBetween(partialCredit);
    expect(whenAllOrNothing.length).toBeGreaterThan(0);
    expect(whenPartial.length).toBeGreaterThan(0);
    // At most one in ten, and under what the same scores get from an instructor who gives partial credit.
    expect(Math.max(...whenAllOrNothing)).toBeLessThanOrEqual(10);
    expect(Math.min(...whenPartial)).toBeGreaterThan(Math.max(...whenAllOrNothing));
  });

  it('counts a suggestion within a tenth of the points of an end as one a 0 or full marks keeps', () => {
    expect(isAtAnEnd(0.1)).toBe(true); // 0.5 of 5: kept by a 0
    expect(isAtAnEnd(0.9)).toBe(true); // 4.5 of 5: kept by full marks
    expect(isAtAnEnd(0.2)).toBe(false); // 1 of 5: kept by neither
    expect(isAtAnEnd(0.85)).toBe(false); // 8.5 of 10
  });

  it('stays deterministic with examples', async () => {
    const input = withAnswer(
      MIGRATION,
      partial,
      alike.map((text, index) => example(text, index % 2 ? 4 : 1)),
    );
    const first = await grade(input);
    const second = await grade(input);
    expect(second.judgement).toEqual(first.judgement);
    expect(second.suggestion).toEqual(first.suggestion);
  });
});

describe('bad input', () => {
  it('grades empty, huge, non-English and garbled answers without a crash or a confident grade', async () => {
    const huge = 'photosynthesis glucose '.repeat(20_000);
    const cases = [
      '',
      '   \n\t ',
      huge,
      'La fotosíntesis ocurre en los cloroplastos y produce glucosa.',
      '\u0000\u0001 ���� %%%% ####',
    ];
    for (const answer of cases) {
      const { suggestion } = await grade(withAnswer(PHOTOSYNTHESIS, answer));
      expect(suggestion.totalScore).toBeGreaterThanOrEqual(0);
      expect(suggestion.totalScore).toBeLessThanOrEqual(PHOTOSYNTHESIS.points);
      // Without a letter or a digit there is no answer: a zero that every grader would give.
      if (/[\p{L}\p{N}]/u.test(answer)) expect(suggestion.confidence).toBeLessThan(90);
      else expect(suggestion.totalScore).toBe(0);
    }
  });

  it('reads a run of 500,000 spaces (text a hostile PDF can hold) as one space, in an answer and in a solution', async () => {
    // Splitting sentences once retried its pattern from every space of such a run: 11 s for 50,000
    // spaces, on the thread that serves every request. Now the run is read once.
    const run = ' '.repeat(500_000);
    const answer = (gap: string) =>
      `Chlorophyll in the chloroplasts absorbs light${gap}so carbon dioxide and water become glucose (note to grader).`;
    const spaced = await grade(withAnswer(PHOTOSYNTHESIS, answer(run)));
    const plain = await grade(withAnswer(PHOTOSYNTHESIS, answer(' ')));
    expect(spaced.suggestion).toEqual(plain.suggestion);
    const folded = splitSentences(answer(run)).map((sentence) => sentence.replace(/\s+/g, ' '));
    expect(folded).toEqual(splitSentences(answer(' ')));
    const solution = `(a) Light is absorbed.${run}(note) [2 marks]\n(b) Glucose is made. - 4 marks${run}\nTotal${run}: 6 marks`;
    const call = await grader.requestRubric({ questionText: 'Q?', solutionText: solution, points: 6 });
    expect(
      grader
        .interpretRubric(call.rawOutput, { questionText: 'Q?', solutionText: solution, points: 6 })
        .items.map((item) => item.points),
    ).toEqual([2, 4]);
  });

  it('reads an answer of 100,000 "= 5" and a solution with 100,000 empty lines once, not once per value or line', async () => {
    // Each value of the answer re-read all the text before it (7 s for 20,000 "= 5"), and each line
    // start of a run of empty lines re-read the rest of the run (6 s for 20,000 lines): decision 0128.
    const { suggestion } = await grade(withAnswer(PHOTOSYNTHESIS, '= 5 '.repeat(100_000)));
    expect(suggestion.totalScore).toBeLessThanOrEqual(PHOTOSYNTHESIS.points / 2);
    expect(suggestion.confidence).toBeLessThan(90);
    const drafted = async (gap: string) => {
      const solutionText = `1. Chlorophyll absorbs light.${gap}2. Carbon dioxide and water become glucose.\n3. Oxygen is released.`;
      const call = await grader.requestRubric({ questionText: 'Q?', solutionText, points: 6 });
      return grader.interpretRubric(call.rawOutput, { questionText: 'Q?', solutionText, points: 6 }).items;
    };
    expect(await drafted('\n'.repeat(100_000))).toEqual(await drafted('\n'));
  });
});
