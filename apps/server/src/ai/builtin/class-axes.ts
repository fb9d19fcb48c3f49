/**
 * The few directions in which a class's answers differ most in meaning, and each answer's place
 * along them (decision 0136). All answers to one question are about the same thing, so in the
 * sentence model's 512 dimensions they sit close together: plain closeness between two of them is
 * mostly what every answer shares. What an instructor's grades follow is how they differ, and the
 * class itself (every submission, graded or not) shows where that is. An answer's place is measured
 * along the class's main axes, each in units of the class's own spread along it, so that a learner
 * fitted on a handful of saved grades (suggestion-model.ts classLean) weighs every axis alike.
 */
export interface ClassAxes {
  centre: Float64Array;
  /** Unit vectors, orthogonal, the class's largest spread first. */
  axes: readonly Float64Array[];
  /** The class's standard deviation along each axis. */
  spreads: readonly number[];
}

/** Axes measured: a few, as a few saved grades can weigh only a few directions. */
export const CLASS_AXES = 4;
/** Fewer answers than this show no stable direction: no axes, every answer's place is empty. */
export const SMALLEST_CLASS_FOR_AXES = 20;
const ITERATIONS = 60;

/**
 * The class's main axes of meaning by power iteration with deflation on the centred meanings:
 * deterministic (the start vectors are fixed), about 60 ms for 250 answers, measured once per class.
 */
export function classAxesOf(embeddings: readonly ArrayLike<number>[]): ClassAxes | null {
  if (embeddings.length < SMALLEST_CLASS_FOR_AXES) return null;
  const dimensions = embeddings[0]!.length;
  const centre = new Float64Array(dimensions);
  for (const vector of embeddings)
    for (let index = 0; index < dimensions; index++) centre[index]! += vector[index]! / embeddings.length;
  const centred = embeddings.map((vector) => Float64Array.from(vector, (value, index) => value - centre[index]!));
  return mainAxes(centre, centred.length, (direction) => {
    const next = new Float64Array(dimensions);
    for (const row of centred) {
      const along = dot(row, direction);
      for (let index = 0; index < dimensions; index++) next[index]! += along * row[index]!;
    }
    return next;
  });
}

/**
 * The main axes of `count` centred vectors by power iteration with deflation, for any way of
 * computing the sum over them of (vector . direction) x vector (`spread`): dense for meanings,
 * sparse for words (class-words.ts), the same iteration, start vectors and stopping rule for both.
 */
export function mainAxes(
  centre: Float64Array,
  count: number,
  spread: (direction: Float64Array) => Float64Array,
): ClassAxes | null {
  const dimensions = centre.length;
  const axes: Float64Array[] = [];
  const spreads: number[] = [];
  for (let axis = 0; axis < CLASS_AXES; axis++) {
    let direction = startVector(dimensions, axis);
    let variance = 0;
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      const next = spread(direction);
      for (const found of axes) {
        const along = dot(next, found);
        for (let index = 0; index < dimensions; index++) next[index]! -= along * found[index]!;
      }
      const length = Math.sqrt(dot(next, next));
      if (length < 1e-12) break;
      variance = length / count;
      direction = next.map((value) => value / length);
    }
    // A class that varies in fewer directions than asked (copies of a few answers) has no more axes.
    if (variance < 1e-9) break;
    axes.push(direction);
    spreads.push(Math.sqrt(variance));
  }
  return axes.length ? { centre, axes, spreads } : null;
}

/** The answer's place along each axis, in the class's spreads; empty without axes. */
export function placeOnAxes(embedding: ArrayLike<number>, classAxes: ClassAxes | null): number[] {
  if (!classAxes) return [];
  return classAxes.axes.map((axis, index) => {
    let along = 0;
    for (let position = 0; position < axis.length; position++)
      along += (embedding[position]! - classAxes.centre[position]!) * axis[position]!;
    return along / classAxes.spreads[index]!;
  });
}

function dot(left: ArrayLike<number>, right: ArrayLike<number>): number {
  let sum = 0;
  for (let index = 0; index < left.length; index++) sum += left[index]! * right[index]!;
  return sum;
}

/** A fixed start that no real axis is orthogonal to in practice (not a unit axis, not all equal). */
function startVector(dimensions: number, axis: number): Float64Array {
  const vector = Float64Array.from({ length: dimensions }, (_, index) => Math.sin(1 + index * (axis + 1.618)));
  const length = Math.sqrt(dot(vector, vector));
  return vector.map((value) => value / length);
}
