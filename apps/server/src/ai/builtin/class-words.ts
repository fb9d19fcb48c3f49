import { mainAxes, placeOnAxes, SMALLEST_CLASS_FOR_AXES, type ClassAxes } from './class-axes.ts';
import { contentTerms, termBigrams } from './text-analysis.ts';

/**
 * The few directions in which a class's answers differ most in their words, and each answer's
 * place along them (decision 0140). The sentence model's meaning (class-axes.ts) blurs what a short
 * answer's key terms decide: "ribosome" against "mitochondrion" moves a sentence's meaning little,
 * and its grade a lot. Here each answer is the set of its content terms (stems and concepts), each
 * weighted by how rare it is in the class (inverse document frequency, as latent semantic analysis
 * does), and the class's main axes are measured in that space as in the meaning's. A term only one
 * answer uses shows no direction the class differs in, and a term every answer uses none either:
 * neither is counted. Decision 0140 measured plain presence (every term alike) beside this; the
 * rarity weight did better on the worst held-out family. An answer uses a few dozen of the class's
 * hundreds or thousands of terms, so the iteration works on the terms each answer uses (about 5 ms
 * for 250 answers, where the dense iteration of meanings took 400 ms on 1,400 terms).
 */
export interface ClassWords {
  /** Each counted term's column. */
  columns: ReadonlyMap<string, number>;
  /** Each column's weight: the log of the class's size over the answers that use the term. */
  weights: readonly number[];
  axes: ClassAxes | null;
}

/**
 * The class's word space and main axes (none under SMALLEST_CLASS_FOR_AXES answers, as for
 * meanings); null when no term is used by some answers and not by others.
 */
export function classWordsOf(texts: readonly string[]): ClassWords | null {
  const termSets = texts.map(termsOf);
  const answersUsing = new Map<string, number>();
  for (const terms of termSets) for (const term of terms) answersUsing.set(term, (answersUsing.get(term) ?? 0) + 1);
  const columns = new Map<string, number>();
  const weights: number[] = [];
  // Sorted, so that the columns (and the power iteration's start) do not depend on the answers' order.
  for (const term of [...answersUsing.keys()].sort()) {
    const count = answersUsing.get(term)!;
    if (count < 2 || count === texts.length) continue;
    columns.set(term, weights.length);
    weights.push(Math.log(texts.length / count));
  }
  if (columns.size === 0 || texts.length < SMALLEST_CLASS_FOR_AXES) return null;
  const space = { columns, weights };
  const rows = termSets.map((terms) => sparseVectorOf(terms, space));
  const centre = new Float64Array(columns.size);
  for (const row of rows)
    for (let position = 0; position < row.columns.length; position++)
      centre[row.columns[position]!]! += row.values[position]! / rows.length;
  // Sum over the answers of ((row - centre) . direction) x (row - centre), from the rows' own terms.
  const axes = mainAxes(centre, rows.length, (direction) => {
    const next = new Float64Array(columns.size);
    let centreAlong = 0;
    for (let column = 0; column < columns.size; column++) centreAlong += centre[column]! * direction[column]!;
    let alongSum = 0;
    for (const row of rows) {
      let along = -centreAlong;
      for (let position = 0; position < row.columns.length; position++)
        along += row.values[position]! * direction[row.columns[position]!]!;
      for (let position = 0; position < row.columns.length; position++)
        next[row.columns[position]!]! += along * row.values[position]!;
      alongSum += along;
    }
    for (let column = 0; column < columns.size; column++) next[column]! -= alongSum * centre[column]!;
    return next;
  });
  return { ...space, axes };
}

/** The answer's place along the class's word axes, in the class's spreads; empty without axes. */
export function placeInWords(text: string, words: ClassWords | null): number[] {
  if (!words?.axes) return [];
  return placeOnAxes(vectorOf(termsOf(text), words), words.axes);
}

/**
 * The answer's content terms and its pairs of neighbouring content terms, order-free (decision
 * 0142): a pair such as "tertiary structure" or "series circuit" names a thing that its two words
 * alone, each used elsewhere in the class, do not.
 */
function termsOf(text: string): Set<string> {
  const tokens = contentTerms(text);
  return new Set([...tokens.map((token) => token.term), ...termBigrams(tokens)]);
}

/** The counted terms present, by weight; unit length, so a long answer is not far by its length alone. */
function sparseVectorOf(
  terms: ReadonlySet<string>,
  space: Pick<ClassWords, 'columns' | 'weights'>,
): { columns: number[]; values: number[] } {
  const columns = [...terms].flatMap((term) => {
    const column = space.columns.get(term);
    return column === undefined ? [] : [column];
  });
  const length = Math.sqrt(columns.reduce((sum, column) => sum + space.weights[column]! ** 2, 0));
  return { columns, values: columns.map((column) => space.weights[column]! / length) };
}

function vectorOf(terms: ReadonlySet<string>, space: Pick<ClassWords, 'columns' | 'weights'>): Float64Array {
  const sparse = sparseVectorOf(terms, space);
  const vector = new Float64Array(space.columns.size);
  for (const [position, column] of sparse.columns.entries()) vector[column] = sparse.values[position]!;
  return vector;
}
