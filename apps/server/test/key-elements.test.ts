import { describe, expect, it } from 'vitest';
import type { GradingInput } from '../src/ai/grader-types.ts';
import { createBuiltinGrader } from '../src/ai/builtin/builtin-grader.ts';
import { KEY_ELEMENT_SPANS_MAX, type BuiltinJudgement } from '../src/ai/builtin/grade-answer.ts';
import { distinctiveElements, keyElementSchemeOf, levelShareOf } from '../src/ai/builtin/key-elements.ts';

/** A marking scheme that counts (decision 0131): any three of the listed elements earn full marks. */
const QUESTION = 'Describe three adaptations that help desert plants conserve water.';
const ELEMENTS = [
  'A thick waxy cuticle reduces evaporation from the leaves.',
  'Leaves reduced to spines lower the surface area that loses water.',
  'Deep roots reach groundwater far below the surface.',
  'Stems store water in spongy tissue.',
  'Stomata open at night instead of during the hot day.',
  'Sunken stomata are sheltered from drying wind.',
];
const SCHEME = [
  'Key elements:',
  ...ELEMENTS,
  'Other acceptable responses.',
  '',
  'Marking rubric:',
  '3 points: Three key elements;',
  '2 points: Two key elements;',
  '1 point: One key element;',
  '0 points: Other.',
].join('\n');

const grader = createBuiltinGrader();

async function draft(solutionText: string, points = 6) {
  const input = { questionText: QUESTION, solutionText, points };
  const call = await grader.requestRubric(input);
  return grader.interpretRubric(call.rawOutput, input).items;
}

async function grade(answerText: string, options: Partial<GradingInput> = {}) {
  const rubricItems = await draft(SCHEME);
  const input: GradingInput = {
    questionText: QUESTION,
    solutionText: SCHEME,
    rubricItems,
    points: 6,
    answerText,
    examples: [],
    ...options,
  };
  const call = await grader.requestGrading(input);
  return { suggestion: grader.interpretGrading(call.rawOutput, input), judgement: call.rawOutput as BuiltinJudgement };
}

describe('a marking scheme that counts key elements', () => {
  it('reads the elements and the points each count earns, without headings, the level lines or "other acceptable"', () => {
    const scheme = keyElementSchemeOf(SCHEME);
    expect(scheme?.elements).toEqual(ELEMENTS);
    expect(scheme?.levels).toEqual([
      { count: 0, share: 0 },
      { count: 1, share: 1 / 3 },
      { count: 2, share: 2 / 3 },
      { count: 3, share: 1 },
    ]);
  });

  it('reads counts in words or digits and levels written as sentences, "one or two" as one level', () => {
    const sentences = keyElementSchemeOf(
      [
        'You need to know how much salt was used.',
        'You need to know the temperature of the water.',
        'You need to know how long it was stirred.',
        '2 points: The response describes two additional pieces of information needed;',
        '1 point: The response describes one additional piece of information needed;',
        '0 points: The response describes little or no relevant information.',
      ].join('\n'),
    );
    expect(sentences?.elements).toHaveLength(3);
    expect(sentences?.levels.map((level) => level.count)).toEqual([0, 1, 2]);
    const oneOrTwo = keyElementSchemeOf(
      [
        '- first idea',
        '- second idea',
        '- third idea',
        '- fourth idea',
        '3 points: 4 key elements',
        '2 points: 3 key elements',
        '1 point: one or two key elements',
        '0 points: other',
      ].join('\n'),
    )!;
    expect(oneOrTwo.elements).toEqual(['first idea', 'second idea', 'third idea', 'fourth idea']);
    expect(levelShareOf(oneOrTwo, 1)).toBeCloseTo(1 / 3);
    expect(levelShareOf(oneOrTwo, 2)).toBeCloseTo(1 / 3);
    expect(levelShareOf(oneOrTwo, 2.5)).toBeCloseTo(1 / 2);
    expect(levelShareOf(oneOrTwo, 4)).toBe(1);
    expect(levelShareOf(oneOrTwo, 0.5)).toBeCloseTo(1 / 6);
  });

  it('reads a scheme as a PDF gives it: under a "Solution" heading, with long lines wrapped', () => {
    const wrapped = keyElementSchemeOf(
      [
        'Solution 1',
        'Key elements:',
        'A thick waxy cuticle reduces evaporation from the',
        'leaves.',
        ...ELEMENTS.slice(1),
        '3 points: Three key elements;',
        '2 points: Two key elements;',
        '1 point: One key element;',
        '0 points: Other.',
      ].join('\n'),
    );
    expect(wrapped?.elements).toEqual(ELEMENTS);
  });

  it('is not a counting scheme: levels without counts, counts that do not rise with the points, too few elements', () => {
    expect(
      keyElementSchemeOf(
        'Full marks (6 points): photosynthesis makes glucose.\nPartial credit (3 points): names the inputs.\nNo credit: anything else.',
      ),
    ).toBeNull();
    expect(
      keyElementSchemeOf(
        'Idea A.\nIdea B.\n3 points: a conclusion and two ways to improve;\n2 points: a conclusion and one way -or- two ways;\n1 point: one way or a conclusion;\n0 points: other.',
      ),
    ).toBeNull();
    expect(keyElementSchemeOf('Only one idea.\n2 points: two key elements;\n1 point: one key element;')).toBeNull();
    // Points beside parts are a split of the points, not levels.
    expect(
      keyElementSchemeOf('2 marks: defines a process.\n4 marks: defines a thread.\n4 marks: gives an advantage.'),
    ).toBeNull();
  });

  it('drafts one item that counts, whose guidance states the levels and the elements (and reads back the same)', async () => {
    const items = await draft(SCHEME);
    expect(items).toHaveLength(1);
    expect(items[0]!.criterion).toBe('Three of the listed key elements');
    expect(items[0]!.points).toBe(6);
    expect(keyElementSchemeOf(items[0]!.guidance)).toEqual(keyElementSchemeOf(SCHEME));
  });

  it('gives points by how many elements the answer shows, in its own order and words', async () => {
    const three = await grade(
      'Cacti store water in their spongy stems. Their leaves are reduced to spines, so less surface area loses water. A thick waxy cuticle cuts evaporation.',
    );
    const two = await grade('A waxy cuticle on the leaves cuts evaporation. Water is stored in spongy stems.');
    const one = await grade('Desert plants have deep roots that reach groundwater.');
    const none = await grade('Plants need sunlight and carbon dioxide to make their food.');
    const itemCredit = (graded: Awaited<ReturnType<typeof grade>>) => graded.judgement.items[0]!.evidence;
    expect(itemCredit(three)).toBe(1);
    expect(itemCredit(two)).toBeGreaterThan(itemCredit(one));
    expect(itemCredit(one)).toBeGreaterThan(itemCredit(none));
    expect(itemCredit(none)).toBe(0);
    expect(three.suggestion.totalScore).toBeGreaterThan(two.suggestion.totalScore);
    expect(two.suggestion.totalScore).toBeGreaterThan(none.suggestion.totalScore);
  });

  it('says how many elements the answer shows, never which ones it missed, unless the instructor shows the expected answer', async () => {
    const one = await grade('Desert plants have deep roots that reach groundwater.');
    const comment = one.suggestion.comments.find((entry) => entry.pointsDeducted > 0)!.text;
    expect(comment).toBe('Three of the listed key elements: the answer shows 1 of the 3 asked for.');
    for (const element of ELEMENTS) expect(comment).not.toContain(element.slice(0, 20));
    const shown = await grade('Desert plants have deep roots that reach groundwater.', { showExpectedAnswer: true });
    expect(shown.suggestion.comments.find((entry) => entry.pointsDeducted > 0)!.text).toContain('waxy cuticle');
  });

  it('counts the elements of an answer longer than a short answer (judged as a whole past the span limit)', async () => {
    const filler = Array.from({ length: KEY_ELEMENT_SPANS_MAX }, (_, index) => `Remark ${index} is here.`);
    const { judgement } = await grade(
      [
        'Cacti store water in their spongy stems.',
        ...filler,
        'Their leaves are reduced to spines, so less surface area loses water.',
        'A thick waxy cuticle cuts evaporation.',
      ].join(' '),
    );
    expect(judgement.items[0]!.evidence).toBe(1);
    // The same sentence many times over is one span, judged once: still one element.
    const repeated = await grade('Desert plants have deep roots that reach groundwater. '.repeat(300));
    expect(repeated.judgement.items[0]!.evidence).toBeCloseTo(1 / 3);
  });

  it('does not credit the level lines: "three key elements" is no element', async () => {
    const { judgement } = await grade('The answer has three key elements, two key elements and one key element.');
    expect(judgement.items[0]!.evidence).toBe(0);
  });

  it('judges each element of a list written in one frame by its own words, not the frame', async () => {
    // Every element says "The report should state …": an answer that only talks about the report
    // shows none of them, and one that names one shows one, not a part of each.
    const framed = [
      'The report should state how much salt was dissolved.',
      'The report should state the temperature of the water.',
      'The report should state how long the mixture was stirred.',
      'The report should state what kind of beaker was used.',
      'The report should state whether the beaker was covered.',
    ];
    expect(distinctiveElements(framed)).toEqual([
      'the should state how much salt was dissolved',
      'the should state the temperature of the water',
      'the should state how long the mixture was stirred',
      'the should state what kind of beaker was used',
      'the should state whether the beaker was covered',
    ]);
    // A word shared by no more than half of the list is not a frame, and an element made only of
    // the frame keeps its words.
    const halfShared = [
      'Red light bends least.',
      'Blue light bends most.',
      'Glass slows waves.',
      'Prisms split colours.',
    ];
    expect(distinctiveElements(halfShared)).toEqual(halfShared);
    expect(
      distinctiveElements(['State the report.', 'The report should state the salt.', 'State the report again.'])[0],
    ).toBe('State the report.');
    const scheme = [
      ...framed,
      '',
      '3 points: Three key elements;',
      '2 points: Two key elements;',
      '1 point: One key element;',
      '0 points: Other.',
    ].join('\n');
    const question = 'What else would you need to know to repeat the salt experiment?';
    const rubricInput = { questionText: question, solutionText: scheme, points: 6 };
    const rubricItems = grader.interpretRubric((await grader.requestRubric(rubricInput)).rawOutput, rubricInput).items;
    const credit = async (answerText: string) => {
      const input: GradingInput = { ...rubricInput, rubricItems, answerText, examples: [] };
      return ((await grader.requestGrading(input)).rawOutput as BuiltinJudgement).items[0]!.evidence;
    };
    expect(await credit('The report should state more; I would need a better report to state anything.')).toBe(0);
    expect(await credit('I would need to know how much salt was dissolved.')).toBeCloseTo(1 / 3);
    expect(
      await credit('It should say how much salt was dissolved, how hot the water was and how long it was stirred.'),
    ).toBeGreaterThan(1 / 3);
  });
});
