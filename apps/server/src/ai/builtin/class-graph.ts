import { similarity, type Embedding } from './sentence-embeddings.ts';

/**
 * The saved grades carried through the class (decision 0137). A few saved grades sit here and
 * there in a class; most answers are near none of them but near other ungraded answers that are
 * near one. Each answer of the class takes the weighted mean of its nearest neighbours' values (the
 * saved grades fixed at their offset from the instructor's mean), shrunk toward 0 by a sink, until
 * the values settle: the harmonic reading of a graph (Zhu, Ghahramani and Lafferty 2003). An answer
 * in a group of answers alike gets the group's graded members' offset even when its own nearest
 * graded answer is far; an answer far from every graded one, by any chain, stays at the mean.
 *
 * The class's own neighbour lists are measured once per class (class-closeness.ts measureClass);
 * a set of saved grades is spread once, and each answer reads it at its own neighbours.
 */
export interface ClassGraph {
  embeddings: readonly Embedding[];
  /** Each member's nearest other members, closest first, with their closeness. */
  neighbours: readonly (readonly Neighbour[])[];
}

export interface Neighbour {
  index: number;
  closeness: number;
}

/** A saved grade as the graph reads it: its meaning and its offset from the saved grades' mean. */
export interface GradedPoint {
  embedding: Embedding;
  offset: number;
}

/** Neighbours each answer averages: a few, so one copy of the answer does not decide it. */
export const GRAPH_NEIGHBOURS = 10;
/** Fewer answers than this show no groups to spread through (class-axes.ts's threshold too). */
export const SMALLEST_CLASS_FOR_GRAPH = 20;
/** Each step of 1/12 below the same meaning weighs e times less (suggestion-model.ts nearestShare's sharpness). */
const SHARPNESS = 12;
const weightOf = (closeness: number) => Math.exp(SHARPNESS * (closeness - 1));

/**
 * The pull toward 0 (the instructor's mean): one more neighbour at closeness 0.8, a classmate as
 * alike as two answers to one question commonly are. An answer whose neighbours are all further
 * away than that leans to the mean; one in a tight group takes the group's value.
 */
const SINK = weightOf(0.8);
/** Values this still (in shares of the points) have settled; the sweeps stop at MOST_SWEEPS whatever. */
const SETTLED = 1e-5;
const MOST_SWEEPS = 500;

/** Every member's nearest other members; one pass over the pairs. */
export function classGraphOf(embeddings: readonly Embedding[]): ClassGraph | null {
  if (embeddings.length < SMALLEST_CLASS_FOR_GRAPH) return null;
  const neighbours = embeddings.map((embedding, index) => {
    const others: Neighbour[] = [];
    embeddings.forEach((other, otherIndex) => {
      if (otherIndex !== index) others.push({ index: otherIndex, closeness: similarity(embedding, other) });
    });
    return nearest(others, GRAPH_NEIGHBOURS);
  });
  return { embeddings, neighbours };
}

/** The saved grades spread through the class: one value per member. */
export interface SpreadField {
  graph: ClassGraph;
  graded: readonly GradedPoint[];
  values: Float64Array;
}

/**
 * Spreads the graded points through the class. `closenessToGraded[member][point]` is each
 * member's closeness to each graded point, measured once by the caller (a point left out is
 * passed as `skip`, so a set spread once per left-out grade costs no new comparisons).
 */
export function spreadThroughClass(
  graph: ClassGraph,
  graded: readonly GradedPoint[],
  closenessToGraded: readonly Float64Array[],
  skip = -1,
): SpreadField {
  const size = graph.embeddings.length;
  // Each member's neighbours among members and graded points together, as weights: graded points
  // are numbered after the members.
  const lists = graph.neighbours.map((members, member) => {
    const candidates: Neighbour[] = [...members];
    closenessToGraded[member]!.forEach((closeness, point) => {
      if (point !== skip) candidates.push({ index: size + point, closeness });
    });
    return nearest(candidates, GRAPH_NEIGHBOURS).map((neighbour) => ({
      index: neighbour.index,
      weight: weightOf(neighbour.closeness),
    }));
  });
  // Gauss-Seidel: each member updated in place, in member order (deterministic), until no value
  // moves by more than SETTLED (a class's graph is a few steps across; a long chain takes more).
  const values = new Float64Array(size);
  const valueAt = (index: number) => (index < size ? values[index]! : graded[index - size]!.offset);
  for (let sweep = 0; sweep < MOST_SWEEPS; sweep++) {
    let largestChange = 0;
    lists.forEach((list, member) => {
      let sum = 0;
      let total = SINK;
      for (const { index, weight } of list) {
        sum += weight * valueAt(index);
        total += weight;
      }
      largestChange = Math.max(largestChange, Math.abs(sum / total - values[member]!));
      values[member] = sum / total;
    });
    if (largestChange < SETTLED) break;
  }
  return { graph, graded: skip < 0 ? graded : graded.filter((_, point) => point !== skip), values };
}

/**
 * The spread value where an answer sits: the weighted mean of its nearest members and graded
 * points, with the same sink. `closenessToGraded` is the answer's closeness to each point of the
 * field's graded set. An answer that is itself a member reads its own member too: that member's
 * value is its neighbours' mean, never its own grade (no member is graded).
 */
export function readField(field: SpreadField, embedding: Embedding, closenessToGraded: readonly number[]): number {
  const size = field.graph.embeddings.length;
  const candidates: Neighbour[] = field.graph.embeddings.map((member, index) => ({
    index,
    closeness: similarity(embedding, member),
  }));
  closenessToGraded.forEach((closeness, point) => candidates.push({ index: size + point, closeness }));
  let sum = 0;
  let total = SINK;
  for (const { index, closeness } of nearest(candidates, GRAPH_NEIGHBOURS)) {
    const weight = weightOf(closeness);
    sum += weight * (index < size ? field.values[index]! : field.graded[index - size]!.offset);
    total += weight;
  }
  return sum / total;
}

/** The `count` closest, closest first; ties by index, so the result never depends on order of arrival. */
function nearest(candidates: Neighbour[], count: number): Neighbour[] {
  return candidates.sort((left, right) => right.closeness - left.closeness || left.index - right.index).slice(0, count);
}
