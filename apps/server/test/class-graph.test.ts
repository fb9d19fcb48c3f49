import { describe, expect, it } from 'vitest';
import {
  classGraphOf,
  readField,
  spreadThroughClass,
  type ClassGraph,
  type GradedPoint,
} from '../src/ai/builtin/class-graph.ts';
import { similarity } from '../src/ai/builtin/sentence-embeddings.ts';
import { coldShare, warmInputs, type AnswerSignals, type PreparedExample } from '../src/ai/builtin/suggestion-model.ts';

/**
 * Saved grades carried through the class (decision 0137): each answer takes its nearest
 * neighbours' mean, the saved grades fixed, shrunk toward the instructor's mean. The class here is
 * two groups of answers, each a long arc of meanings in its own plane: along an arc every answer is
 * near the next, but the far end of an arc is far from its start.
 */

const ARC = 40;
const ARC_ANGLE = 1.2;

function unit(values: Record<number, number>): Float32Array {
  const vector = new Float32Array(512);
  for (const [index, value] of Object.entries(values)) vector[Number(index)] = value;
  const length = Math.sqrt(similarity(vector, vector));
  return vector.map((value) => value / length);
}

/** An arc in the plane of two dimensions, from the first toward the second. */
const arc = (first: number, second: number) =>
  Array.from({ length: ARC }, (_, step) => {
    const angle = (ARC_ANGLE * step) / (ARC - 1);
    return unit({ [first]: Math.cos(angle), [second]: Math.sin(angle) });
  });

const credited = arc(0, 1);
const uncredited = arc(2, 3);
const graph = classGraphOf([...credited, ...uncredited])!;
// One saved grade at the start of each arc, above and below the mean.
const graded: GradedPoint[] = [
  { embedding: credited[0]!, offset: 0.5 },
  { embedding: uncredited[0]!, offset: -0.5 },
];

const closenessTo = (points: readonly GradedPoint[], embedding: Float32Array) =>
  points.map((point) => similarity(embedding, point.embedding));
const membersTo = (classGraph: ClassGraph, points: readonly GradedPoint[]) =>
  classGraph.embeddings.map((member) => Float64Array.from(closenessTo(points, member)));

describe('saved grades spread through the class', () => {
  const field = spreadThroughClass(graph, graded, membersTo(graph, graded));
  const read = (embedding: Float32Array) => readField(field, embedding, closenessTo(graded, embedding));

  it("carries each grade along its group, past the reach of the grade's own closeness", () => {
    for (const member of credited) expect(read(member)).toBeGreaterThan(0);
    for (const member of uncredited) expect(read(member)).toBeLessThan(0);
    // The far end of the credited arc, read against the saved grade alone, as nearest-neighbour
    // weighing does (the same weights and sink): almost nothing. Through the class: most of it.
    const farEnd = credited[ARC - 1]!;
    const alone = readField(
      { graph: { embeddings: [], neighbours: [] }, graded, values: new Float64Array(0) },
      farEnd,
      closenessTo(graded, farEnd),
    );
    expect(alone).toBeLessThan(0.01);
    expect(read(farEnd)).toBeGreaterThan(10 * alone);
    expect(read(farEnd)).toBeLessThan(0.5);
  });

  it('leaves an answer near no group, and every answer without saved grades, at the mean', () => {
    expect(Math.abs(read(unit({ 7: 1 })))).toBeLessThan(1e-3);
    const empty = spreadThroughClass(graph, [], membersTo(graph, []));
    expect([...empty.values].every((value) => value === 0)).toBe(true);
  });

  it('spreads a set with one grade left out as the set without it', () => {
    const third: GradedPoint = { embedding: credited[20]!, offset: -0.25 };
    const withThird = [...graded, third];
    const leftOut = spreadThroughClass(graph, withThird, membersTo(graph, withThird), 2);
    const without = spreadThroughClass(graph, graded, membersTo(graph, graded));
    expect([...leftOut.values]).toEqual([...without.values]);
    expect(leftOut.graded).toEqual(graded);
  });

  it('needs a class of 20 answers to make a graph', () => {
    expect(classGraphOf(credited.slice(0, 19))).toBeNull();
    expect(classGraphOf(credited.slice(0, 20))!.neighbours[0]).toHaveLength(10);
  });
});

describe('the class spread as a warm input', () => {
  const SPREAD = 11;
  const signalsOf = (vector: Float32Array, classGraph: ClassGraph | null = graph): AnswerSignals => ({
    lexical: [0.5, 0.4, 0.6, 0, 2, 0, 0, 0.5, 0],
    meaningReference: 0.5,
    meaningCoverage: 0.4,
    meaningQuestion: 0.3,
    embedding: vector,
    terms: new Set(),
    classNear: 0,
    classWhole: 0,
    classPlace: [],
    classGraph,
    counted: null,
  });
  const savedGrades = (vectors: readonly Float32Array[], shares: readonly number[]): PreparedExample[] =>
    vectors.map((vector, index) => {
      const signals = signalsOf(vector);
      return {
        signals,
        cold: coldShare(signals),
        foldedText: `graded ${index}`,
        share: shares[index]!,
        suggestedShare: null,
      };
    });
  const input = (vector: Float32Array, examples: readonly PreparedExample[], classGraph: ClassGraph | null = graph) => {
    const signals = signalsOf(vector, classGraph);
    return warmInputs(signals, coldShare(signals), examples, null)[SPREAD]!;
  };

  it("reads above the graded answers' centre in the credited group and below it in the other", () => {
    const examples = savedGrades([credited[0]!, credited[3]!, uncredited[0]!, uncredited[3]!], [1, 1, 0, 0]);
    expect(input(credited[35]!, examples)).toBeGreaterThan(0.1);
    expect(input(uncredited[35]!, examples)).toBeLessThan(-0.1);
  });

  it('says nothing without a class graph, or with a single saved grade', () => {
    const examples = savedGrades([credited[0]!, uncredited[0]!], [1, 0]);
    expect(input(credited[30]!, examples, null)).toBe(0);
    expect(input(credited[30]!, examples.slice(0, 1))).toBe(0);
    expect(input(credited[30]!, examples)).not.toBe(0);
  });
});
