import { isSuggestionKept } from '@gradewise/shared/kept-suggestion';
import { FITTED } from './fitted-weights.ts';
import { similarity, type Embedding } from './sentence-embeddings.ts';

/**
 * From an answer's measurements to a suggested share of the points and a confidence (decision
 * 0068). Three small models, each fitted on public human-scored answers leave-one-family-out
 * (bench/_fit-grader-model.ts writes fitted-weights.ts; bench/grader-agreement.ts reports every
 * family as the held-out one):
 *
 * 1. Cold start (no saved grade on the question): a logistic model of the human share from what
 *    the answer says against the reference, in words (answer-features.ts) and in meaning
 *    (sentence-embeddings.ts). It predicts the expected share, so an answer it cannot judge gets
 *    the level people usually give, not 0 or full marks.
 * 2. With saved grades: the instructor's level first. The suggestion starts from the mean of the
 *    instructor's own grades on the question, and moves from it only by how much this answer
 *    differs from the graded ones — in the cold model's judgement, in meaning, and in resemblance
 *    to the answers the instructor credited — by fitted amounts, with no intercept: evidence that
 *    says nothing leaves the instructor's mean. An answer the same as a graded one gets its grade.
 *    A few saved grades are a noisy mean: the class's level as the cold model reads it (classLevel)
 *    is one more input, so the fitted weight on it is how far to trust the class over a mean of
 *    five or ten grades (decision 0101). So is where the answer sits along the directions its class
 *    differs in most, in meaning and in words, read through the saved grades' places (classLean,
 *    decisions 0136 and 0140). How far the evidence moves it is then scaled by the question's own
 *    record: each saved grade read against the others shows how well the evidence predicts this
 *    instructor here (evidenceTrust, decision 0144).
 * 3. Confidence: the chance that the instructor keeps the shown score within 10% of the points,
 *    computed on the score shown, from how decided it is, how many grades back it, how much they
 *    agree with one another and how near the closest graded answer is.
 * 4. The chance of a big miss: that the shown score is off by more than 40% of the points, from the
 *    same inputs (decision 0097). The review queue orders by it: an answer the instructor would
 *    not keep is not the same as one they would change a lot, and a score in between (rarely kept
 *    exactly, rarely far off) is the first and an end score the second.
 */

export interface Logistic {
  intercept: number;
  weights: readonly number[];
}

/** The fitted numbers of all three models (fitted-weights.ts has the shipped ones). */
export interface SuggestionModel {
  cold: Logistic;
  /** One line per band of saved grades (WARM_BANDS), through the centred warm inputs. */
  warm: readonly (readonly number[])[];
  /** With saved grades on the question. */
  confidence: Logistic;
  /** The chance of a big miss, on the confidence model's inputs, with saved grades. */
  miss: Logistic;
  /**
   * The same two before any saved grade: fitted on their own rows, so that what the saved grades'
   * models learn does not move a cold suggestion's confidence (decision 0101).
   */
  confidenceCold: Logistic;
  missCold: Logistic;
  /**
   * How much agreement the fitted warm weights are credited with on a question before its own saved
   * grades show how well they predict this instructor (evidenceTrust), in squared deviations of the
   * share: chosen by the fit on its own families (decision 0144).
   */
  trustPrior: number;
}

/** Bands of saved-grade counts with their own warm weights: evidence weighs differently at 1 than at 20. */
export const WARM_BANDS = [1, 3, 7, 15] as const;

export function warmBand(count: number): number {
  let band = 0;
  WARM_BANDS.forEach((start, index) => {
    if (count >= start) band = index;
  });
  return band;
}

export const sigmoid = (value: number) => 1 / (1 + Math.exp(-value));

const dot = (weights: readonly number[], values: readonly number[]) =>
  weights.reduce((sum, weight, index) => sum + weight * (values[index] ?? 0), 0);

/** What the models read of one answer: its word features and its meaning against the reference. */
export interface AnswerSignals {
  /** featureVector(features), answer-features.ts. */
  lexical: readonly number[];
  /** Closest meaning to a whole reference alternative (cosine, about 0..1). */
  meaningReference: number;
  /** Mean over the solution's sentences of their closeness to the answer: how much of it is said. */
  meaningCoverage: number;
  /** Closeness to the question itself: restating the question is not answering it. */
  meaningQuestion: number;
  /** The question has a reference answer (a solution or its alternatives) to compare the answer with. */
  hasReference: boolean;
  /** The answer's meaning (unit vector), for comparing it with graded answers. */
  embedding: Embedding;
  /**
   * The answer's content terms (stems, spelling slips folded onto the reference's words), for
   * comparing words with graded answers: meaning alone takes "positive terminal" for "negative
   * terminal", the words do not.
   */
  terms: ReadonlySet<string>;
  /** How typical of its class the answer is (class-closeness.ts); 0 when graded without its class. */
  classNear: number;
  classWhole: number;
  /**
   * The answer's place along the directions its class differs in most (class-axes.ts), in the
   * class's own spreads; empty when graded without a class of 20 or more.
   */
  classPlace: readonly number[];
  /** The same along the class's main axes in its words (class-words.ts, decision 0140). */
  classWordPlace: readonly number[];
  /**
   * The level the answer's count of key elements reaches, when the rubric counts them
   * (key-elements.ts); null otherwise. Such a rubric states how its points are earned, so the count
   * is the cold judgement of the answer (decision 0131).
   */
  counted: number | null;
}

export function coldInputs(signals: AnswerSignals): number[] {
  return [
    ...signals.lexical,
    signals.meaningReference,
    signals.meaningCoverage,
    signals.meaningQuestion,
    // Nearer the reference than the question, or only restating the question. Without a reference
    // there is nothing to be nearer to: the comparison is left out (0), not read as "no nearer to
    // a reference than to the question", which made every answer to a question given without a
    // solution a restatement of it (decision 0139).
    signals.hasReference ? signals.meaningReference - signals.meaningQuestion : 0,
    signals.classNear,
    signals.classWhole,
  ];
}

export function coldShare(signals: AnswerSignals, model: SuggestionModel = FITTED): number {
  if (signals.counted !== null) return signals.counted;
  return sigmoid(model.cold.intercept + dot(model.cold.weights, coldInputs(signals)));
}

/** A saved grade on the question, measured like the answer being graded. */
export interface PreparedExample {
  signals: AnswerSignals;
  /** The cold model's share for it. */
  cold: number;
  /** The answer's text, folded (case, spaces, punctuation), to find the same answer again. */
  foldedText: string;
  /** The instructor's score as a share of the points. */
  share: number;
  /** The share the AI suggested before the instructor saved this grade; null when graded by hand. */
  suggestedShare: number | null;
}

export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Answers this close in meaning and words are the same answer to an instructor. */
const SAME_ANSWER_MEANING = 0.97;

/** The graded answers that are the same as this one (folded text equal, or all but equal in meaning). */
export function sameAnswers(
  foldedText: string,
  embedding: Embedding,
  examples: readonly PreparedExample[],
): PreparedExample[] {
  if (!foldedText) return [];
  return examples.filter(
    (example) =>
      example.foldedText === foldedText ||
      (similarity(embedding, example.signals.embedding) >= SAME_ANSWER_MEANING &&
        sharedWordShare(foldedText, example.foldedText) >= 0.8),
  );
}

function sharedWordShare(left: string, right: string): number {
  const leftWords = new Set(left.split(' '));
  const rightWords = new Set(right.split(' '));
  let shared = 0;
  for (const word of leftWords) if (rightWords.has(word)) shared++;
  return shared / Math.max(1, Math.max(leftWords.size, rightWords.size));
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

/**
 * The graded answers' shares weighed by closeness (1 = the same answer; each step of 1/sharpness
 * below that weighs e times less), pulled toward their plain mean by half a pseudo-answer.
 */
function nearestShare(
  examples: readonly PreparedExample[],
  closeness: (example: PreparedExample) => number,
  sharpness: number,
): number {
  const level = mean(examples.map((example) => example.share));
  let weighted = 0.5 * level;
  let total = 0.5;
  for (const example of examples) {
    const weight = Math.exp(sharpness * (closeness(example) - 1));
    weighted += weight * example.share;
    total += weight;
  }
  return weighted / total;
}

/** The graded answers' meanings summed, weighed by their shares (credited) and by the rest (uncredited). */
interface CreditSums {
  credited: Float32Array;
  uncredited: Float32Array;
  creditedWeight: number;
  uncreditedWeight: number;
}

function creditSums(examples: readonly PreparedExample[], dimensions: number): CreditSums {
  const sums = {
    credited: new Float32Array(dimensions),
    uncredited: new Float32Array(dimensions),
    creditedWeight: 0,
    uncreditedWeight: 0,
  };
  for (const example of examples) addCredit(sums, example, 1);
  return sums;
}

/** Adds (sign 1) or takes out (sign -1) one graded answer's part of the sums. */
function addCredit(sums: CreditSums, example: PreparedExample, sign: 1 | -1): void {
  const vector = example.signals.embedding;
  for (let index = 0; index < vector.length; index++) {
    sums.credited[index]! += sign * example.share * vector[index]!;
    sums.uncredited[index]! += sign * (1 - example.share) * vector[index]!;
  }
  sums.creditedWeight += sign * example.share;
  sums.uncreditedWeight += sign * (1 - example.share);
}

/** Closeness to the credited answers' centre minus closeness to the uncredited ones'. */
function resemblanceTo(embedding: Embedding, sums: CreditSums): number {
  if (sums.creditedWeight < 1e-9 || sums.uncreditedWeight < 1e-9) return 0;
  const unit = (vector: Float32Array) => {
    const norm = Math.sqrt(similarity(vector, vector));
    return norm > 0 ? vector.map((value) => value / norm) : vector;
  };
  return similarity(embedding, unit(sums.credited)) - similarity(embedding, unit(sums.uncredited));
}

function creditedResemblance(embedding: Embedding, examples: readonly PreparedExample[]): number {
  return resemblanceTo(embedding, creditSums(examples, embedding.length));
}

/**
 * Each graded answer's resemblance to the credited answers among the others: the sums once, each
 * answer's own part taken out of them (one pass, not one per answer).
 */
function leftOutResemblances(examples: readonly PreparedExample[]): number[] {
  if (examples.length < 2) return examples.map((example) => creditedResemblance(example.signals.embedding, examples));
  const sums = creditSums(examples, examples[0]!.signals.embedding.length);
  return examples.map((example) => {
    const others = {
      ...sums,
      credited: sums.credited.slice(),
      uncredited: sums.uncredited.slice(),
    };
    addCredit(others, example, -1);
    return resemblanceTo(example.signals.embedding, others);
  });
}

/** Shared terms over the larger term set: 1 for the same words, 0 for none in common. */
function termOverlap(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const term of left) if (right.has(term)) shared++;
  return shared / Math.max(left.size, right.size);
}

/**
 * Naive Bayes over words: for each of the answer's terms that graded answers also use, how much
 * more often it appears in credited than in uncredited ones (smoothed log ratio), averaged. It is
 * what makes "this instructor credits 'evaporate' and not 'boil'" count.
 */
function creditedWords(terms: ReadonlySet<string>, examples: readonly PreparedExample[]): number {
  let creditedTotal = 0;
  let uncreditedTotal = 0;
  for (const example of examples) {
    creditedTotal += example.share;
    uncreditedTotal += 1 - example.share;
  }
  let sum = 0;
  let count = 0;
  for (const term of terms) {
    let credited = 0;
    let uncredited = 0;
    for (const example of examples) {
      if (!example.signals.terms.has(term)) continue;
      credited += example.share;
      uncredited += 1 - example.share;
    }
    if (credited + uncredited === 0) continue;
    sum += Math.log((credited + 0.5) / (creditedTotal + 1)) - Math.log((uncredited + 0.5) / (uncreditedTotal + 1));
    count++;
  }
  return count ? sum / count : 0;
}

/** What every answer graded against the same saved grades is compared with: measured once per set. */
export interface ExampleBaseline {
  level: number;
  cold: number;
  /** The nearest graded answers' share, in meaning and in words, as an answer not among them reads it. */
  nearestMeaning: number;
  nearestWords: number;
  resemblance: number;
  words: number;
  meaningReference: number;
  meaningCoverage: number;
  classNear: number;
  classWhole: number;
}

const baselines = new WeakMap<readonly PreparedExample[], ExampleBaseline>();

export function exampleBaseline(examples: readonly PreparedExample[]): ExampleBaseline {
  const cached = baselines.get(examples);
  if (cached) return cached;
  const level = mean(examples.map((example) => example.share));
  // Each graded answer read against the others, as an answer being graded is read against all of
  // them: read against a set that holds it, a graded answer is its own nearest neighbour and its
  // words and meaning are in the credited or uncredited side already, so the centre would not be
  // where the answers being graded fall (with one saved grade there are no others: the set itself).
  const others = (index: number) =>
    examples.length < 2 ? examples : examples.filter((_, otherIndex) => otherIndex !== index);
  const leftOut = (read: (example: PreparedExample, rest: readonly PreparedExample[]) => number) =>
    mean(examples.map((example, index) => read(example, others(index))));
  const baseline = {
    level,
    cold: mean(examples.map((example) => example.cold)),
    nearestMeaning: leftOut((example, rest) =>
      nearestShare(rest, (other) => similarity(example.signals.embedding, other.signals.embedding), 12),
    ),
    nearestWords: leftOut((example, rest) =>
      nearestShare(rest, (other) => termOverlap(example.signals.terms, other.signals.terms), 6),
    ),
    resemblance: mean(leftOutResemblances(examples)),
    words: leftOut((example, rest) => creditedWords(example.signals.terms, rest)),
    meaningReference: mean(examples.map((example) => example.signals.meaningReference)),
    meaningCoverage: mean(examples.map((example) => example.signals.meaningCoverage)),
    classNear: mean(examples.map((example) => example.signals.classNear)),
    classWhole: mean(examples.map((example) => example.signals.classWhole)),
  };
  baselines.set(examples, baseline);
  return baseline;
}

/**
 * How the answer differs from the graded ones, each input centred on the graded answers' own
 * values, so that an answer like the average graded answer gets the instructor's mean.
 */
export function warmInputs(
  signals: AnswerSignals,
  cold: number,
  examples: readonly PreparedExample[],
  level: ClassLevel,
): number[] {
  const baseline = exampleBaseline(examples);
  return [
    cold - baseline.cold,
    nearestShare(examples, (example) => similarity(signals.embedding, example.signals.embedding), 12) -
      baseline.nearestMeaning,
    creditedResemblance(signals.embedding, examples) - baseline.resemblance,
    signals.meaningReference - baseline.meaningReference,
    signals.meaningCoverage - baseline.meaningCoverage,
    nearestShare(examples, (example) => termOverlap(signals.terms, example.signals.terms), 6) - baseline.nearestWords,
    creditedWords(signals.terms, examples) - baseline.words,
    signals.classNear - baseline.classNear,
    signals.classWhole - baseline.classWhole,
    level === null ? 0 : (level - baseline.level) * classPullScale(examples.length),
    // Centred already: a linear reading of the places, taken from the graded answers' mean place.
    classLean(signals, examples, 'classPlace') ?? 0,
    classLean(signals, examples, 'classWordPlace') ?? 0,
    featureLean(signals, examples) ?? 0,
  ];
}

/**
 * How far above the graded answers' mean share the answer's own measures predict it on this
 * question (decision 0143): a ridge regression of the saved grades on the cold model's inputs (its
 * words against the reference, its length, its meaning against the reference and the question, its
 * typicality), each in the graded answers' own spreads. The cold model weighs those measures as
 * they predict grades on every question it was fitted on; here the instructor's grades say which of
 * them this question's grades follow (length on one question, the reference's words on another).
 * Null with fewer than two saved grades, or when the graded answers do not differ in any measure.
 */
function featureLean(signals: AnswerSignals, examples: readonly PreparedExample[]): number | null {
  const fitted = featureLeanFit(examples);
  if (!fitted) return null;
  const place = placeInSpreads(coldInputs(signals), fitted.scale);
  return fitted.lean.weights.reduce(
    (sum, weight, index) => sum + weight * (place[index]! - fitted.lean.centre[index]!),
    0,
  );
}

/** The ridge's penalty for the feature lean, in the graded answers' spreads (decision 0143). */
const FEATURE_LEAN_RIDGE = 3;

interface FeatureScale {
  /** The measures the graded answers differ in, by their index in coldInputs. */
  columns: number[];
  means: number[];
  spreads: number[];
}

const featureLeanFits = new WeakMap<readonly PreparedExample[], { scale: FeatureScale; lean: ClassLeanFit } | null>();

function featureLeanFit(examples: readonly PreparedExample[]) {
  if (featureLeanFits.has(examples)) return featureLeanFits.get(examples)!;
  const inputs = examples.map((example) => coldInputs(example.signals));
  const size = inputs[0]?.length ?? 0;
  const scale: FeatureScale = { columns: [], means: [], spreads: [] };
  for (let column = 0; column < size; column++) {
    const values = inputs.map((row) => row[column]!);
    const centre = mean(values);
    const spread = Math.sqrt(mean(values.map((value) => (value - centre) ** 2)));
    if (!(spread > 1e-6)) continue;
    scale.columns.push(column);
    scale.means.push(centre);
    scale.spreads.push(spread);
  }
  const lean =
    scale.columns.length === 0
      ? null
      : fitLean(
          inputs.map((row, index) => ({ place: placeInSpreads(row, scale), share: examples[index]!.share })),
          FEATURE_LEAN_RIDGE,
        );
  const fitted = lean ? { scale, lean } : null;
  featureLeanFits.set(examples, fitted);
  return fitted;
}

const placeInSpreads = (inputs: readonly number[], scale: FeatureScale) =>
  scale.columns.map((column, index) => (inputs[column]! - scale.means[index]!) / scale.spreads[index]!);

/**
 * How far above the graded answers' mean share the answer's place in its class predicts it: a
 * ridge regression of the saved grades on their places along the class's axes, of meaning (decision
 * 0136) or of words (decision 0140), each its own input. The class shows which directions its
 * answers differ in; the saved grades show which of those the instructor's grades follow. Null
 * without places or with fewer than two saved grades: nothing to say.
 */
function classLean(signals: AnswerSignals, examples: readonly PreparedExample[], space: PlaceSpace): number | null {
  const fitted = classLeanFit(examples, space);
  const place = signals[space];
  if (!fitted || place.length !== fitted.centre.length) return null;
  return fitted.weights.reduce((sum, weight, index) => sum + weight * (place[index]! - fitted.centre[index]!), 0);
}

/** The two spaces an answer has a place in: its class's meanings and its class's words. */
type PlaceSpace = 'classPlace' | 'classWordPlace';

/** The ridge's penalty, in the class's spreads: a few saved grades never lean on one axis alone. */
const CLASS_LEAN_RIDGE = 1;

interface ClassLeanFit {
  centre: number[];
  weights: number[];
}

const classLeanFits: Record<PlaceSpace, WeakMap<readonly PreparedExample[], ClassLeanFit | null>> = {
  classPlace: new WeakMap(),
  classWordPlace: new WeakMap(),
};

function classLeanFit(examples: readonly PreparedExample[], space: PlaceSpace): ClassLeanFit | null {
  const kept = classLeanFits[space];
  if (kept.has(examples)) return kept.get(examples)!;
  const fitted = fitLean(
    examples.map((example) => ({ place: example.signals[space], share: example.share })),
    CLASS_LEAN_RIDGE,
  );
  kept.set(examples, fitted);
  return fitted;
}

/** Ridge regression of the saved grades' shares on their places, from the graded answers' mean place. */
function fitLean(graded: readonly { place: readonly number[]; share: number }[], ridge: number): ClassLeanFit | null {
  const size = graded[0]?.place.length ?? 0;
  if (graded.length < 2 || size === 0 || graded.some((example) => example.place.length !== size)) return null;
  const level = mean(graded.map((example) => example.share));
  const centre = Array.from({ length: size }, (_, axis) => mean(graded.map((example) => example.place[axis]!)));
  // Normal equations with the penalty on the diagonal, solved by Gaussian elimination (at most 16 x 16).
  const rows = Array.from({ length: size }, (_, row) =>
    Array.from({ length: size + 1 }, (_, column) => (row === column ? ridge : 0)),
  );
  for (const example of graded) {
    const offsets = example.place.map((value, axis) => value - centre[axis]!);
    for (let row = 0; row < size; row++) {
      rows[row]![size]! += offsets[row]! * (example.share - level);
      for (let column = 0; column < size; column++) rows[row]![column]! += offsets[row]! * offsets[column]!;
    }
  }
  for (let pivot = 0; pivot < size; pivot++) {
    for (let row = 0; row < size; row++) {
      if (row === pivot) continue;
      const factor = rows[row]![pivot]! / rows[pivot]![pivot]!;
      for (let column = pivot; column <= size; column++) rows[row]![column]! -= factor * rows[pivot]![column]!;
    }
  }
  return { centre, weights: rows.map((row, index) => row[size]! / row[index]!) };
}

/**
 * The most saved grades the warm weights were fitted with (bench/_fit-grader-model.ts). Past it
 * the class's pull shrinks as 1/k, as the noise of the saved grades' mean does: the weight fitted
 * at 15-20 grades must not keep pulling a mean of 200 toward the class.
 */
export const WARM_FITTED_UP_TO = 20;

const classPullScale = (count: number) => Math.min(1, WARM_FITTED_UP_TO / Math.max(1, count));

/**
 * The class's expected share by the cold model: the mean, over the class's answers, of the cold
 * share (0 for an answer with nothing to judge: blank, only the question). Null without a class
 * (a single submission, a grader given no class): nothing moves then.
 */
export type ClassLevel = number | null;

/** A class's answers as the models read them (null: nothing to judge), grade-answer.ts classSignalsOf. */
export type ClassSignals = readonly (AnswerSignals | null)[];

const classLevels = new WeakMap<ClassSignals, WeakMap<SuggestionModel, number>>();

export function classLevelOf(members: ClassSignals | null, model: SuggestionModel = FITTED): ClassLevel {
  if (!members || members.length === 0) return null;
  const byModel = classLevels.get(members) ?? new WeakMap<SuggestionModel, number>();
  classLevels.set(members, byModel);
  const kept = byModel.get(model);
  if (kept !== undefined) return kept;
  const level = mean(members.map((member) => (member ? coldShare(member, model) : 0)));
  byModel.set(model, level);
  return level;
}

export interface SharePrediction {
  share: number;
  /** The cold model's share, before any saved grade. */
  cold: number;
  /** Saved grades the prediction rests on. */
  examplesUsed: number;
  /** Closeness in meaning to the most alike graded answer (0 without any). */
  nearest: number;
  /** Graded answers that are the same answer as this one. */
  sameAnswers: number;
}

/** A prediction before the question's own record weighs the evidence (evidenceTrust). */
export interface EvidenceReading extends SharePrediction {
  /** The saved grades' mean share: where the suggestion starts. */
  level: number;
  /** How far the evidence moves the share from that mean (within 0..1); 0 for the same answer. */
  deviation: number;
}

/** The answer read against the saved grades with the fitted warm weights as they are. */
export function readEvidence(
  signals: AnswerSignals,
  foldedText: string,
  examples: readonly PreparedExample[],
  model: SuggestionModel = FITTED,
  classLevel: ClassLevel = null,
): EvidenceReading {
  const cold = coldShare(signals, model);
  if (examples.length === 0)
    return { share: cold, cold, examplesUsed: 0, nearest: 0, sameAnswers: 0, level: cold, deviation: 0 };
  const nearest = Math.max(...examples.map((example) => similarity(signals.embedding, example.signals.embedding)));
  const same = sameAnswers(foldedText, signals.embedding, examples);
  const level = mean(examples.map((example) => example.share));
  // The instructor already graded this answer: their grade is the suggestion.
  if (same.length > 0) {
    const share = mean(same.map((example) => example.share));
    return { share, cold, examplesUsed: examples.length, nearest, sameAnswers: same.length, level, deviation: 0 };
  }
  const weights = model.warm[warmBand(examples.length)] ?? [];
  const share = clampShare(level + dot(weights, warmInputs(signals, cold, examples, classLevel)));
  return { share, cold, examplesUsed: examples.length, nearest, sameAnswers: 0, level, deviation: share - level };
}

const clampShare = (share: number) => Math.min(1, Math.max(0, share));

export function predictShare(
  signals: AnswerSignals,
  foldedText: string,
  examples: readonly PreparedExample[],
  model: SuggestionModel = FITTED,
  classLevel: ClassLevel = null,
): SharePrediction {
  const { level, deviation, ...reading } = readEvidence(signals, foldedText, examples, model, classLevel);
  if (deviation === 0) return reading;
  const trust = evidenceTrust(examples, model, classLevel);
  return { ...reading, share: clampShare(level + trust * deviation) };
}

/**
 * How far the evidence has been shown to predict this instructor on this question (decision 0144):
 * each of the first saved grades is read against the others, as an answer being graded is read
 * against all of them, and the factor on the evidence's deviation that best fits those grades is
 * taken, from 1 (the fitted weights as they are) by as much as the grades show. The prior weighs
 * like trustPrior squared deviations that agree exactly; 0..2. An instructor whose grades on this
 * question follow the answer's measures less than the fitted families' did gets suggestions nearer
 * their own mean; one whose grades follow them more, further from it.
 */
export function evidenceTrust(
  examples: readonly PreparedExample[],
  model: SuggestionModel = FITTED,
  classLevel: ClassLevel = null,
): number {
  return trustFrom(evidenceRecord(examples, model, classLevel), model.trustPrior);
}

/** The saved grades' record against the evidence: sum of deviation x miss from the mean, and of deviation². */
export interface EvidenceRecord {
  agreement: number;
  size: number;
}

export function trustFrom(record: EvidenceRecord, prior: number): number {
  return Math.min(2, Math.max(0, (record.agreement + prior) / (record.size + prior)));
}

export function evidenceRecord(
  examples: readonly PreparedExample[],
  model: SuggestionModel = FITTED,
  classLevel: ClassLevel = null,
): EvidenceRecord {
  const record = { agreement: 0, size: 0 };
  if (examples.length < 2) return record;
  for (let index = 0; index < Math.min(LEFT_OUT_CONSULTED, examples.length); index++) {
    const reading = leftOutReading(examples, index, model, classLevel);
    record.agreement += reading.deviation * (examples[index]!.share - reading.level);
    record.size += reading.deviation * reading.deviation;
  }
  return record;
}

/** Saved grades read against the others, for the question's record: the first this many. */
const LEFT_OUT_CONSULTED = 20;

/**
 * One saved grade read against the others, kept per set of saved grades (and model and class):
 * each reading costs as much as grading an answer against the set, and the record of the evidence
 * and of the instructor's decisions both ask for it.
 */
function leftOutReading(
  examples: readonly PreparedExample[],
  index: number,
  model: SuggestionModel,
  classLevel: ClassLevel,
): EvidenceReading {
  const byModel = leftOutReadings.get(examples) ?? new WeakMap<SuggestionModel, Map<ClassLevel, EvidenceReading[]>>();
  leftOutReadings.set(examples, byModel);
  const byLevel = byModel.get(model) ?? new Map<ClassLevel, EvidenceReading[]>();
  byModel.set(model, byLevel);
  const readings = byLevel.get(classLevel) ?? [];
  byLevel.set(classLevel, readings);
  const example = examples[index]!;
  readings[index] ??= readEvidence(example.signals, example.foldedText, leftOut(examples, index), model, classLevel);
  return readings[index];
}

const leftOutReadings = new WeakMap<
  readonly PreparedExample[],
  WeakMap<SuggestionModel, Map<ClassLevel, EvidenceReading[]>>
>();

const leftOut = (examples: readonly PreparedExample[], index: number) =>
  examples.filter((_, otherIndex) => otherIndex !== index);

/**
 * Scores move in steps of half a point (a quarter below 2 points). A share within a tenth of
 * either end is that end: the instructor would keep either score (the confidence's own measure).
 */
export function roundScore(points: number, share: number, snapToEnds = true): number {
  const step = points >= 2 ? 0.5 : 0.25;
  // Without snapping (numbers judged by value and unit), any shortfall costs at least one step.
  if (!snapToEnds) return Math.max(0, points - Math.ceil((points * (1 - share)) / step - 1e-9) * step);
  if (share >= 0.9) return points;
  if (share <= 0.1) return 0;
  return Math.min(points, Math.max(0, Math.round((points * share) / step) * step));
}

/** The shown score is 0 or full marks (or within a tenth of them). */
export function isAtAnEnd(shownShare: number): boolean {
  return shownShare <= 0.1 + 1e-9 || shownShare >= 0.9 - 1e-9;
}

/**
 * The confidence model's inputs, for the score actually shown (after every rule). Saved grades
 * enter through how many there are, how far apart they are, how many sit at 0 or full marks (an
 * all-or-nothing instructor keeps only decided suggestions), and how near and how alike in grade
 * the closest graded answer is.
 */
export function confidenceInputs(
  shownShare: number,
  prediction: SharePrediction,
  examples: readonly PreparedExample[],
): number[] {
  const decided = Math.abs(2 * shownShare - 1);
  const atEnd = isAtAnEnd(shownShare) ? 1 : 0;
  const count = examples.length;
  const hasExamples = count > 0 ? 1 : 0;
  const shares = examples.map((example) => example.share);
  const level = mean(shares);
  const spread = count > 1 ? Math.sqrt(mean(shares.map((share) => (share - level) ** 2))) : 0;
  const atEnds = count ? shares.filter((share) => share <= 0.1 || share >= 0.9).length / count : 0;
  const coldDoubt = prediction.cold * (1 - prediction.cold);
  // How likely the next grade is in between, with half a pseudo-grade: a score in between is kept
  // only by an instructor who gives scores in between, which one who has given ten 0s and full
  // marks all but never does. Its log tells "never, of ten" from "never, of two".
  const inBetweenLog = count ? Math.log((count - atEnds * count + 0.5) / (count + 1)) : 0;
  return [
    decided,
    atEnd,
    coldDoubt,
    hasExamples,
    Math.log1p(count),
    spread,
    atEnds,
    atEnds * atEnd,
    prediction.nearest * hasExamples,
    prediction.sameAnswers > 0 ? 1 : 0,
    Math.abs(shownShare - level) * hasExamples,
    (1 - atEnd) * inBetweenLog,
    atEnd * inBetweenLog,
  ];
}

/**
 * The instructor's own decisions on this question: for each saved grade that started from an AI
 * suggestion, what the model would claim for that suggestion now (from the other grades) and
 * whether the instructor kept it. The shift moves every claim on the question by how far the
 * claims missed, with a prior that keeps a few decisions from moving it far (a Gaussian prior of
 * scale 0.5 on the log-odds shift, solved by Newton's method).
 */
export function decisionShift(
  examples: readonly PreparedExample[],
  model: SuggestionModel = FITTED,
  classLevel: ClassLevel = null,
): number {
  // Read once per set of saved grades (and model and class): each decision is read against the
  // others, so this is the costliest thing measured on a set (about a second at 200 saved grades),
  // and every answer graded against the set asks for it (grade-answer.ts prepareExamples).
  const byModel = decisionShifts.get(examples) ?? new WeakMap<SuggestionModel, Map<ClassLevel, number>>();
  decisionShifts.set(examples, byModel);
  const byLevel = byModel.get(model) ?? new Map<ClassLevel, number>();
  byModel.set(model, byLevel);
  const kept = byLevel.get(classLevel);
  if (kept !== undefined) return kept;
  const shift = measureDecisionShift(examples, model, classLevel);
  byLevel.set(classLevel, shift);
  return shift;
}

const decisionShifts = new WeakMap<readonly PreparedExample[], WeakMap<SuggestionModel, Map<ClassLevel, number>>>();

function measureDecisionShift(
  examples: readonly PreparedExample[],
  model: SuggestionModel,
  classLevel: ClassLevel,
): number {
  const claims: { logOdds: number; isKept: boolean }[] = [];
  examples.forEach((example, index) => {
    if (example.suggestedShare === null || claims.length >= DECISIONS_CONSULTED) return;
    // The claim does not read the predicted share, so the reading before the record weighs it serves.
    const prediction = leftOutReading(examples, index, model, classLevel);
    const inputs = confidenceInputs(example.suggestedShare, prediction, leftOut(examples, index));
    claims.push({
      logOdds: confidenceLogOdds(inputs, model),
      isKept: isSuggestionKept(example.suggestedShare, example.share, 1),
    });
  });
  if (claims.length === 0) return 0;
  const precision = 1 / (DECISION_PRIOR_SCALE * DECISION_PRIOR_SCALE);
  let shift = 0;
  for (let iteration = 0; iteration < 20; iteration++) {
    let gradient = shift * precision;
    let curvature = precision;
    for (const claim of claims) {
      const probability = sigmoid(claim.logOdds + shift);
      gradient += probability - (claim.isKept ? 1 : 0);
      curvature += probability * (1 - probability);
    }
    const step = gradient / curvature;
    shift -= step;
    if (Math.abs(step) < 1e-6) break;
  }
  return shift;
}

const DECISIONS_CONSULTED = 20;

/** A shown score more than this share of the points from the instructor's is a big miss. */
export const BIG_MISS = 0.4;

/**
 * 0..1: the chance that the shown score is more than BIG_MISS of the points from the instructor's,
 * on the confidence model's inputs; what the review queue orders by, most likely first.
 */
export function estimateMissChance(inputs: readonly number[], model: SuggestionModel = FITTED): number {
  const miss = hasSavedGrades(inputs) ? model.miss : model.missCold;
  const probability = sigmoid(miss.intercept + dot(miss.weights, inputs));
  return Math.round(Math.min(0.99, Math.max(0.01, probability)) * 1000) / 1000;
}
const DECISION_PRIOR_SCALE = 0.5;

/** confidenceInputs' "has saved grades" input: which pair of models reads the inputs. */
const HAS_EXAMPLES_INPUT = 3;

export const hasSavedGrades = (inputs: readonly number[]) => (inputs[HAS_EXAMPLES_INPUT] ?? 0) > 0;

function confidenceLogOdds(inputs: readonly number[], model: SuggestionModel): number {
  const confidence = hasSavedGrades(inputs) ? model.confidence : model.confidenceCold;
  return confidence.intercept + dot(confidence.weights, inputs);
}

/**
 * 0..100: the chance, in percent, that the instructor keeps the shown score within 10% of the
 * points; `shift` is the question's own record (decisionShift).
 */
export function estimateConfidence(inputs: readonly number[], shift = 0, model: SuggestionModel = FITTED): number {
  const probability = sigmoid(confidenceLogOdds(inputs, model) + shift);
  return Math.round(Math.min(0.99, Math.max(0.01, probability)) * 100);
}
