import { describe, expect, it } from 'vitest';
import { createBuiltinGrader } from '../src/ai/builtin/builtin-grader.ts';
import { formulaTargets, judgeFormula, parseFormula, sameFormula } from '../src/ai/builtin/formula-check.ts';
import { parseQuantities } from '../src/ai/builtin/quantities.ts';
import type { GradingInput } from '../src/ai/grader-types.ts';
import { DEMO_QUESTIONS } from '../src/demo/demo-content.ts';

/**
 * A question in parts with computed results (the demo's "Uniform acceleration": (a) 3.0 m/s^2,
 * (b) 96 m, 3 points each on the drafted rubric): each part's result decides that part's points,
 * before any saved grade; and the pendulum's symbolic results by value (decision 0080).
 */
const grader = createBuiltinGrader();
const car = DEMO_QUESTIONS.find((question) => question.key === 'car')!;
const questionText = car.questionPages.flat().join('\n');
const solutionText = car.solutionPages.flat().join('\n');

async function suggestionFor(answerText: string, examples: GradingInput['examples'] = []) {
  const draft = await grader.requestRubric({ questionText, solutionText, points: car.points });
  const rubricItems = grader.interpretRubric(draft.rawOutput, { questionText, solutionText, points: car.points }).items;
  const input: GradingInput = { questionText, solutionText, rubricItems, points: car.points, answerText, examples };
  const call = await grader.requestGrading(input);
  return { rubricItems, suggestion: grader.interpretGrading(call.rawOutput, input) };
}

describe('built-in grader: results decide the parts they belong to', () => {
  it('drafts one item per part, and the right results in other words earn full marks', async () => {
    const { rubricItems, suggestion } = await suggestionFor(car.answers.paraphrased.join('\n'));
    expect(rubricItems.map((item) => item.points)).toEqual([3, 3]);
    expect(suggestion.totalScore).toBe(6);
  });

  it('a missing part costs that part’s points', async () => {
    const { suggestion } = await suggestionFor('(a) a = 24/8 = 3 m/s^2');
    expect(suggestion.totalScore).toBeLessThanOrEqual(3.5);
    expect(suggestion.comments[0]!.pointsDeducted).toBe(0);
    expect(suggestion.comments[1]!.pointsDeducted).toBeGreaterThanOrEqual(2.5);
    expect(suggestion.comments[1]!.text).toMatch(/the result is not given/);
  });

  it('a wrong value for one part costs that part, and the comment quotes the answer’s value, never the expected one', async () => {
    const { suggestion } = await suggestionFor(car.answers.partial.join('\n'));
    expect(suggestion.totalScore).toBeGreaterThanOrEqual(3);
    expect(suggestion.totalScore).toBeLessThanOrEqual(4);
    expect(suggestion.comments[1]!.text).toMatch(/the value 192 m is not the expected result/);
    for (const comment of suggestion.comments) expect(comment.text).not.toMatch(/\b96\b/);
  });

  it('bare numbers written as the results are judged as results: wrong ones earn nothing', async () => {
    const { suggestion } = await suggestionFor(car.answers['mostly-wrong'].join('\n'));
    expect(suggestion.totalScore).toBeLessThanOrEqual(1);
    expect(suggestion.comments[0]!.text).toMatch(/the value 192 is not the expected result/);
    expect(suggestion.comments[1]!.text).toMatch(/the value 1536 is not the expected result/);
  });

  it('right values without their units cost the units, not the parts', async () => {
    const { suggestion } = await suggestionFor('(a) a = 24/8 = 3\n(b) s = 1/2 x 3 x 8^2 = 96');
    expect(suggestion.totalScore).toBeGreaterThanOrEqual(4);
    expect(suggestion.totalScore).toBeLessThan(6);
    expect(suggestion.comments[0]!.text).toMatch(/right but has no unit/);
  });

  it('after saved grades, a wrong part still costs its points unless the instructor forgives wrong results', async () => {
    const full = car.answers.full.join('\n');
    const partial = car.answers.partial.join('\n');
    const savedFull = { answerText: full, score: 6, comments: [], suggestedScore: 6 };
    const afterOneFull = await suggestionFor(partial, [savedFull]);
    expect(afterOneFull.suggestion.totalScore).toBeLessThanOrEqual(4);
    // This instructor gave 5/6 to an answer whose part (b) was wrong: their leniency carries over.
    const lenient = {
      answerText: '(a) a = 24/8 = 3 m/s^2\n(b) s = 24 x 8 / 2 = 48 m',
      score: 5,
      comments: [],
      suggestedScore: 3,
    };
    const afterLenient = await suggestionFor(partial, [savedFull, lenient]);
    expect(afterLenient.suggestion.totalScore).toBeGreaterThan(afterOneFull.suggestion.totalScore);
  });

  it('reads a decimal comma as a decimal point: "3,0 m/s^2" is the right result', async () => {
    expect(parseQuantities('a = 3,0 m/s^2').map((quantity) => quantity.si)).toEqual([3]);
    expect(parseQuantities('g = 9,81 m/s^2').map((quantity) => quantity.si)).toEqual([9.81]);
    // Three digits after the comma still separate thousands.
    expect(parseQuantities('1,500 m').map((quantity) => quantity.si)).toEqual([1500]);
    const { suggestion } = await suggestionFor('(a) a = 24/8 = 3,0 m/s^2\n(b) s = 0,5 x 3,0 x 64 = 96,0 m');
    expect(suggestion.totalScore).toBe(6);
  });
});

describe('built-in grader: symbolic results are judged by value, not by spelling', () => {
  const pendulum = DEMO_QUESTIONS.find((question) => question.key === 'pendulum')!;
  const pendulumQuestion = pendulum.questionPages.flat().join('\n');
  const pendulumSolution = pendulum.solutionPages.flat().join('\n');

  async function pendulumSuggestion(answerText: string) {
    const draft = await grader.requestRubric({
      questionText: pendulumQuestion,
      solutionText: pendulumSolution,
      points: pendulum.points,
    });
    const rubricItems = grader.interpretRubric(draft.rawOutput, {
      questionText: pendulumQuestion,
      solutionText: pendulumSolution,
      points: pendulum.points,
    }).items;
    const input: GradingInput = {
      questionText: pendulumQuestion,
      solutionText: pendulumSolution,
      rubricItems,
      points: pendulum.points,
      answerText,
      examples: [],
    };
    const call = await grader.requestGrading(input);
    return grader.interpretGrading(call.rawOutput, input);
  }

  it('compares formulas at several values of their symbols', () => {
    const same = (left: string, right: string) => sameFormula(parseFormula(left)!, parseFormula(right)!);
    expect(same('2 pi sqrt(L/g)', '2π√(L/g)')).toBe(true);
    expect(same('2 pi sqrt(L/g)', '2*pi*(L/g)^(1/2)')).toBe(true);
    expect(same('-mgL sin(theta)', '-m g L sin(θ)')).toBe(true);
    expect(same('1/2 a t^2', '0.5 a t^2')).toBe(true);
    expect(same('2 pi sqrt(L/g)', '2 pi sqrt(g/L)')).toBe(false);
    expect(same('2 pi sqrt(L/g)', '2 pi m / g')).toBe(false);
    // What the grammar cannot read is not judged at all.
    expect(parseFormula('the square root of L over g')).toBeNull();
  });

  it('finds the symbol an equation gives, never a product or a value', () => {
    expect(
      formulaTargets('so the period is T = 2 pi / omega = 2 pi sqrt(L / g).').map((target) => target.symbol),
    ).toEqual(['T']);
    expect(formulaTargets("I theta'' = -m g L sin(theta)")).toEqual([]);
    expect(formulaTargets('a = (v - u) / t = 3.0 m/s^2')).toEqual([]);
    const [period] = formulaTargets('T = 2 pi sqrt(L / g)');
    expect(judgeFormula(period!, 'so T = 2π √(L/g)')).toBe('right');
    expect(judgeFormula(period!, '(c) T = 2 pi sqrt(g/L)')).toBe('wrong');
    expect(judgeFormula(period!, 'a period of 2 pi sqrt(L/g)')).toBe('unknown');
    expect(judgeFormula(period!, 'T = 2.0 s')).toBe('unknown');
  });

  it('a wrong final formula costs its part, and the right ones in other notation keep theirs', async () => {
    const full = await pendulumSuggestion(pendulum.answers.full.join('\n'));
    expect(full.totalScore).toBe(10);
    const partial = await pendulumSuggestion(pendulum.answers.partial.join('\n'));
    expect(partial.totalScore).toBeLessThanOrEqual(7.5);
    const periodComment = partial.comments.find((comment) => /\(c\)/.test(comment.text))!;
    expect(periodComment.pointsDeducted).toBeGreaterThanOrEqual(2.5);
    expect(periodComment.text).toMatch(/the formula given for T is not the expected result/);
    for (const comment of partial.comments) expect(comment.text).not.toMatch(/sqrt\(L\s*\/\s*g\)/i);
  });

  it('a formula of the wrong quantities earns nothing', async () => {
    const wrong = await pendulumSuggestion(pendulum.answers['mostly-wrong'].join('\n'));
    expect(wrong.totalScore).toBeLessThanOrEqual(1);
  });
});

describe('built-in grader: drafted criteria', () => {
  it('name each topic once, not a word and its plural', async () => {
    const sky = DEMO_QUESTIONS.find((question) => question.key === 'sky')!;
    const input = {
      questionText: sky.questionPages.flat().join('\n'),
      solutionText: sky.solutionPages.flat().join('\n'),
      points: sky.points,
    };
    const items = grader.interpretRubric((await grader.requestRubric(input)).rawOutput, input).items;
    for (const item of items) {
      const topics = item.criterion.replace(/^Step \d+: reasoning about /, '').split(', ');
      const stems = topics.map((topic) => topic.replace(/s$/, ''));
      expect(new Set(stems).size).toBe(stems.length);
    }
  });
});

describe('built-in grader: list numbers are not results', () => {
  it('a solution numbered "1." "2." "3." does not cap an answer in words that gives no numbers', async () => {
    const questionText = 'Name the three kinds of rock and say how each one forms.';
    const numbered =
      '1.igneous - cools from molten magma or lava. 2.sedimentary - layers of sediment pressed and cemented together. 3.metamorphic - changed by heat and pressure.';
    const unnumbered = numbered.replace(/\d\./g, '');
    const answerText =
      'Igneous rock forms when magma cools down. Sedimentary rock forms from layers of sediment that are pressed together. Metamorphic rock is rock changed by heat and pressure.';
    const scoreWith = async (solutionText: string) => {
      const draftInput = { questionText, solutionText, points: 6 };
      const rubricItems = grader.interpretRubric((await grader.requestRubric(draftInput)).rawOutput, draftInput).items;
      const input: GradingInput = { ...draftInput, rubricItems, answerText, examples: [] };
      return grader.interpretGrading((await grader.requestGrading(input)).rawOutput, input).totalScore;
    };
    const [withNumbers, withoutNumbers] = [await scoreWith(numbered), await scoreWith(unnumbered)];
    expect(withoutNumbers).toBeGreaterThanOrEqual(4);
    // The numbers do not cap it: within a step of the unnumbered solution (the words around the
    // numbers are read a little differently).
    expect(withNumbers).toBeGreaterThanOrEqual(withoutNumbers - 1);
  });
});
