import { createHash } from 'node:crypto';
import type { GradingInput, RubricItem } from '../grader-types.ts';
import { BoundedCache } from '../../lib/bounded-cache.ts';
import {
  answerTerms,
  describeReference,
  referenceAlternatives,
  featureVector,
  measureAnswer,
  wordCount,
  type AnswerFeatures,
  type ReferenceSide,
} from './answer-features.ts';
import { NOTHING_TO_JUDGE, type AnswerStatus } from './answer-status.ts';
import {
  fitCourseConvention,
  recalibratedConfidence,
  withCourseOffset,
  type CourseConvention,
} from './course-convention.ts';
import { referenceWordsOf, screenAnswer, type ReferenceWords } from './answer-screening.ts';
import { itemCertainty } from './confidence.ts';
import { placeOnAxes } from './class-axes.ts';
import { placeInWords } from './class-words.ts';
import { measureClass, NO_CLASS, SMALLEST_CLASS, typicalityOf, type ClassMeaning } from './class-closeness.ts';
import { FITTED } from './fitted-weights.ts';
import { similarity, type Embedding } from './sentence-embeddings.ts';
import {
  classLevelOf,
  confidenceInputs,
  coldShare,
  decisionShift,
  estimateConfidence,
  estimateMissChance,
  foldText,
  predictShare,
  roundScore,
  type AnswerSignals,
  type ClassSignals,
  type PreparedExample,
  type SuggestionModel,
} from './suggestion-model.ts';
import { expectedAnswerOf, itemComment, statusComment, withExpectedAnswer } from './write-comments.ts';
import {
  cosine,
  gatherItemEvidence,
  isSameTarget,
  numericTargets,
  viewAnswer,
  type ItemEvidence,
  type NumericTarget,
  type TermWeights,
} from './item-evidence.ts';
import { distinctiveElements, keyElementSchemeOf, levelShareOf, type KeyElementScheme } from './key-elements.ts';
import { parseQuantities, parseUnit, type Quantity } from './quantities.ts';
import { contentTerms, splitSentences, type Token } from './text-analysis.ts';

/**
 * The built-in grader's judgement of one answer. It is what `requestGrading` returns as its raw
 * output (plain JSON, stored by the job), so a stored judgement can be re-read without grading
 * again and every number behind a deduction can be inspected.
 */

export const BUILTIN_GRADER_VERSION = '3.16.0';

export interface ItemJudgement {
  rubricItemId: string;
  /** 0..1 share of the item's points kept, after rounding the deduction. */
  credit: number;
  /** Combined evidence 0..1 before the credit ramp. */
  evidence: number;
  lexical: number;
  numeric: number | null;
  /** 0..1: how far the evidence is from the thresholds where the deduction would change. */
  certainty: number;
  pointsDeducted: number;
  comment: string;
}

export interface BuiltinJudgement {
  version: string;
  status: AnswerStatus;
  items: ItemJudgement[];
  /** General remarks (no deduction), e.g. that text addressed to the grader was ignored. */
  remarks: string[];
  confidence: number;
  /**
   * 0..1: the chance the shown score is off by more than 40% of the points (estimateMissChance),
   * what the review queue orders by. Judgements before 3.4.0 have none.
   */
  missChance?: number;
  /** What the suggestion and its confidence were computed from (kept for calibration and audits). */
  confidenceInputs: SuggestionInputs;
}

export interface SuggestionInputs {
  suggestedShare: number;
  predictedShare: number;
  /** The cold model's share (words and meaning against the reference, no saved grade, no course). */
  coldShare: number;
  /**
   * The course's convention the cold suggestion was moved by (course-convention.ts); null with
   * saved grades on the question or none on the course's other questions.
   */
  course: CourseConvention | null;
  /** Saved grades on this question that the suggestion was fitted to. */
  examplesUsed: number;
  /** Closeness in meaning (0..1) of the answer to the most alike saved grade. */
  nearestExample: number;
  /** Saved grades on the same answer (their grade is the suggestion). */
  sameAnswers: number;
  features: AnswerFeatures;
  meaning: { reference: number; coverage: number; question: number };
  /** How typical of its class the answer is (class-closeness.ts), and how many answers the class had. */
  typicality: { near: number; whole: number; classSize: number };
  /** The confidence model's inputs (suggestion-model.ts), for the score shown. */
  model: number[];
}

/** Evidence -> credit: below LOW nothing, above HIGH everything, linear in between. */
export const LEXICAL_RAMP = { low: 0.15, high: 0.55 } as const;
export const NUMERIC_RAMP = { low: 0.1, high: 0.7 } as const;

export function rampCredit(evidence: number, ramp: { low: number; high: number }): number {
  return Math.min(1, Math.max(0, (evidence - ramp.low) / (ramp.high - ramp.low)));
}

/**
 * Term weights are inverse document frequencies over the sentences of the question, the solution
 * and the rubric: the reference side only, so every answer to a question is weighed the same way.
 */
export function buildTermWeights(input: GradingInput): TermWeights & { vocabulary: Set<string> } {
  const documents = [
    ...splitSentences(input.questionText),
    ...splitSentences(input.solutionText),
    ...input.rubricItems.map((item) => `${item.criterion}. ${item.guidance}`),
  ].map((text) => contentTerms(text));
  const documentFrequency = new Map<string, number>();
  const display = new Map<string, string>();
  for (const tokens of documents) {
    for (const token of tokens) if (!display.has(token.term)) display.set(token.term, token.display);
    for (const term of new Set(tokens.map((token) => token.term)))
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const questionTerms = new Set(contentTerms(input.questionText).map((token) => token.term));
  const count = documents.length;
  return {
    vocabulary: new Set(documentFrequency.keys()),
    isQuestionTerm: (term: string) => questionTerms.has(term),
    weightOf(term: string) {
      const idf = 1 + Math.log((count + 1) / ((documentFrequency.get(term) ?? 0) + 1));
      // Words the question already uses prove little: copying them is free.
      // Single letters (f, x, v) are symbols shared by right and wrong formulas alike.
      const symbolFactor = term.length === 1 ? 0.3 : 1;
      return idf * (questionTerms.has(term) ? 0.35 : 1) * (term.startsWith('#') ? 1.2 : 1) * symbolFactor;
    },
    displayOf(term: string) {
      return display.get(term) ?? term.replace(/^#/, '').replace(/-/g, ' ');
    },
  };
}

/** Solution sentences that belong to each item: those most like the item's own text. */
function alignSolution(input: GradingInput, weights: TermWeights): string[][] {
  const sentences = splitSentences(input.solutionText);
  if (input.rubricItems.length <= 1) return input.rubricItems.map(() => sentences);
  const vectorOf = (tokens: Token[]) => {
    const vector = new Map<string, number>();
    for (const token of tokens) vector.set(token.term, (vector.get(token.term) ?? 0) + weights.weightOf(token.term));
    return vector;
  };
  const sentenceVectors = sentences.map((sentence) => vectorOf(contentTerms(sentence)));
  const itemVectors = input.rubricItems.map((item) => vectorOf(contentTerms(`${item.criterion}. ${item.guidance}`)));
  const partLabel = (text: string) =>
    /^\s*(\(?[a-h]\)|\(?[ivx]+\)|part\s+\w+)/i.exec(text)?.[1]?.replace(/[()]/g, '').toLowerCase();
  return input.rubricItems.map((item, itemIndex) => {
    const label = partLabel(item.criterion);
    const similarities = sentenceVectors.map((vector) => cosine(itemVectors[itemIndex]!, vector));
    const best = Math.max(0, ...similarities);
    return sentences.filter((sentence, index) => {
      if (label && partLabel(sentence) === label) return true;
      const similarity = similarities[index]!;
      return best >= 0.1 && similarity >= Math.max(0.2, best * 0.6);
    });
  });
}

/** Everything about a question that every answer to it is measured against (computed once). */
export interface QuestionContext {
  weights: TermWeights & { vocabulary: Set<string> };
  reference: ReferenceSide;
  referenceWords: ReferenceWords;
  questionQuantities: ReturnType<typeof parseQuantities>;
  alignedSolution: string[][];
  referenceTerms: Set<string>;
  /** Each rubric item's expected values (itemTargetsOf). */
  itemTargets: NumericTarget[][];
  /** Each rubric item's counting scheme, when its guidance states one (key-elements.ts); else null. */
  itemSchemes: (KeyElementScheme | null)[];
  allTargets: NumericTarget[];
  /** Measured answers by text: saved grades are measured once, not once per graded answer. */
  analyses: BoundedCache<string, AnswerAnalysis>;
  /**
   * The saved grades as the models read them, by what they are (preparedSetKey): every answer of a
   * question graded against the same saved grades gets the same set, so what is measured on the
   * set (its baseline, the instructor's decisions: suggestion-model.ts) is measured once.
   */
  preparedSets: BoundedCache<string, readonly PreparedExample[]>;
  /** What answers are compared with in meaning: the whole alternatives and the solution's sentences. */
  referenceTexts: string[];
  solutionSentences: string[];
}

const CONTEXT_CACHE_SIZE = 16;
const ANALYSIS_CACHE_SIZE = 4000;
/** Sets of saved grades kept per question: the one the ungraded answers share, and a few of a regrade's (its own grade left out). */
const PREPARED_SETS_CACHE_SIZE = 8;
const contexts = new BoundedCache<string, QuestionContext>(CONTEXT_CACHE_SIZE);

/**
 * Each item's expected values. A result an earlier item asks for is working in a later one: part
 * (b)'s "s = 1/2 a t^2 = 96 m" uses part (a)'s a = 3.0 m/s^2, and a closing "Answer: a = 3.0 m/s^2,
 * s = 96 m" line does not make (a)'s value a second result of (b).
 */
function itemTargetsOf(items: readonly RubricItem[], questionQuantities: readonly Quantity[]): NumericTarget[][] {
  const earlierResults: NumericTarget[] = [];
  return items.map((item) => {
    const targets = numericTargets(`${item.criterion}. ${item.guidance}`, questionQuantities).map((target) =>
      target.isResult && earlierResults.some((earlier) => isSameTarget(earlier, target))
        ? { ...target, isResult: false }
        : target,
    );
    earlierResults.push(...targets.filter((target) => target.isResult));
    return targets;
  });
}

export function questionContextFor(input: GradingInput): QuestionContext {
  const key = JSON.stringify([input.questionText, input.solutionText, input.rubricItems]);
  const cached = contexts.get(key);
  if (cached) return cached;
  const weights = buildTermWeights(input);
  const questionQuantities = parseQuantities(input.questionText);
  const questionTerms = new Set(contentTerms(input.questionText).map((token) => token.term));
  const rubricText = input.rubricItems.map((item) => `${item.criterion}. ${item.guidance}`).join('\n');
  const context: QuestionContext = {
    weights,
    reference: describeReference(input.questionText, input.solutionText, rubricText, weights),
    referenceWords: referenceWordsOf([input.questionText, input.solutionText], [rubricText]),
    questionQuantities,
    alignedSolution: alignSolution(input, weights),
    referenceTerms: new Set([...weights.vocabulary].filter((term) => !questionTerms.has(term))),
    itemTargets: itemTargetsOf(input.rubricItems, questionQuantities),
    itemSchemes: input.rubricItems.map((item) => keyElementSchemeOf(item.guidance)),
    allTargets: [],
    analyses: new BoundedCache(ANALYSIS_CACHE_SIZE),
    preparedSets: new BoundedCache(PREPARED_SETS_CACHE_SIZE),
    referenceTexts: [],
    solutionSentences: splitSentences(input.solutionText).slice(0, 24),
  };
  context.allTargets = context.itemTargets.flat();
  // A question given without a solution has one empty alternative: nothing to compare meaning with.
  context.referenceTexts = context.reference.alternatives
    .map((alternative) => alternative.text)
    .filter((text) => text.trim() !== '')
    .slice(0, 12);
  contexts.set(key, context);
  return context;
}

/** One answer measured against its question, before any saved grade is consulted. */
export interface AnswerAnalysis {
  status: AnswerStatus;
  items: ItemJudgement[];
  evidences: ItemEvidence[];
  answerQuantities: ReturnType<typeof viewAnswer>['quantities'];
  answerTopics: string[];
  hasInstructions: boolean;
  features: AnswerFeatures;
  /** The text judged: the answer less what screening set aside (salad, words to the grader). */
  evidenceText: string;
  foldedText: string;
  relevance: number;
  lengthRatio: number;
}

export function analyseAnswer(answerText: string, input: GradingInput, context: QuestionContext): AnswerAnalysis {
  const cached = context.analyses.get(answerText);
  if (cached) return cached;
  const { weights } = context;
  const screened = screenAnswer(answerText, input.questionText, context.referenceWords);
  const answer = viewAnswer(screened.evidenceSentences, context.questionQuantities);
  const answerTokens = screened.evidenceSentences.flatMap((sentence) => contentTerms(sentence));
  const uniqueAnswerTerms = [...new Set(answerTokens.map((token) => token.term))];
  const relevance = uniqueAnswerTerms.length
    ? uniqueAnswerTerms.filter((term) => weights.vocabulary.has(term)).length / uniqueAnswerTerms.length
    : 0;
  const referenceLength = Math.max(1, contentTerms(`${input.solutionText}`).length);

  let status: AnswerStatus = 'answered';
  if (screened.isBlank) status = 'blank';
  else if (screened.isNotKnowing) status = 'does-not-know';
  else if (screened.evidenceSentences.length === 0) {
    status = screened.instructionSentences.length > 0 ? 'instructions-only' : 'restates-question';
    // Only salad: there is nothing in sentences to judge; graded as an answer that shows nothing.
    if (screened.saladSentences.length > 0 && screened.instructionSentences.length === 0) status = 'answered';
  }

  const items: ItemJudgement[] = [];
  const evidences: ItemEvidence[] = [];
  input.rubricItems.forEach((item, index) => {
    const scheme = context.itemSchemes[index];
    if (scheme) {
      const counted = countKeyElements(scheme, answer, input, context);
      evidences.push(counted.evidence);
      const credit = status === 'answered' ? counted.share : 0;
      items.push({
        rubricItemId: item.id,
        credit,
        evidence: counted.share,
        lexical: counted.share,
        numeric: null,
        certainty: counted.certainty,
        pointsDeducted: 0,
        comment: '',
      });
      return;
    }
    const evidence = gatherItemEvidence({
      criterion: item.criterion,
      guidance: item.guidance,
      alignedSolution: context.alignedSolution[index] ?? [],
      answer,
      weights,
      questionText: input.questionText,
      questionQuantities: context.questionQuantities,
      referenceTerms: context.referenceTerms,
      targets: context.itemTargets[index]!,
      allTargets: context.allTargets,
    });
    evidences.push(evidence);
    const numeric = evidence.numeric;
    const combined = numeric
      ? numeric.share * numeric.score + (1 - numeric.share) * evidence.lexical
      : evidence.lexical;
    const ramp = numeric?.hasResults ? NUMERIC_RAMP : LEXICAL_RAMP;
    let rawCredit = status === 'answered' ? rampCredit(combined, ramp) : 0;
    // A result that is only partly right (missing or wrong unit, sign, rounding) always costs
    // something, however good the words around it are.
    if (numeric?.hasResults && numeric.score < 1) rawCredit = Math.min(rawCredit, 1 - 0.5 * (1 - numeric.score));
    if (numeric?.wrongResultCap != null) rawCredit = Math.min(rawCredit, numeric.wrongResultCap);
    items.push({
      rubricItemId: item.id,
      credit: rawCredit,
      evidence: combined,
      lexical: evidence.lexical,
      numeric: numeric ? numeric.score : null,
      certainty: itemCertainty(combined, ramp, numeric),
      pointsDeducted: 0,
      comment: '',
    });
  });
  const totalPoints = input.rubricItems.reduce((sum, item) => sum + item.points, 0);
  const itemShare =
    totalPoints > 0
      ? items.reduce((sum, item, index) => sum + item.credit * input.rubricItems[index]!.points, 0) / totalPoints
      : 0;
  const setAside = [...screened.saladSentences, ...screened.instructionSentences].join('\n');
  const features = measureAnswer({
    evidenceText: screened.evidenceText,
    allWordsCount: wordCount(answerText),
    setAsideWordsCount: wordCount(setAside),
    reference: context.reference,
    itemShare,
  });

  // What an off-topic answer is about instead: its longest words that the reference never uses.
  const answerTopics = [
    ...new Set(
      answerTokens
        .filter((token) => !weights.vocabulary.has(token.term) && /^[a-z][a-z -]{5,}$/i.test(token.display))
        .map((token) => token.display),
    ),
  ].sort((left, right) => right.length - left.length);

  const analysis: AnswerAnalysis = {
    status,
    items,
    evidences,
    answerQuantities: answer.quantities,
    answerTopics,
    hasInstructions: screened.instructionSentences.length > 0,
    features,
    evidenceText: screened.evidenceText,
    foldedText: foldText(screened.evidenceText),
    relevance,
    lengthRatio: answerTokens.length / referenceLength,
  };
  context.analyses.set(answerText, analysis);
  return analysis;
}

/** The most sentence spans a counting item judges its elements in, one by one (countKeyElements). */
export const KEY_ELEMENT_SPANS_MAX = 200;

/**
 * A counting item (key-elements.ts): each listed element judged on its own, as a rubric item of
 * its own words would be (the same evidence and credit ramp), and the elements the answer shows
 * best, as many as the top level asks for, counted (a partly shown element counts in part). The
 * count's level is the item's share.
 */
function countKeyElements(
  scheme: KeyElementScheme,
  answer: ReturnType<typeof viewAnswer>,
  input: GradingInput,
  context: QuestionContext,
): { share: number; certainty: number; evidence: ItemEvidence } {
  // An element is one idea, said in one place: judged in each sentence and each pair of sentences
  // next to each other, not in words gathered from all over a long answer. A span said twice is
  // judged once, and an answer of more spans than a short answer has is judged as a whole, as any
  // rubric item is: the work grows with elements times spans, and a pasted essay must not stall
  // the grading of the class.
  const spans = new Map<string, string[]>();
  answer.sentences.forEach((sentence, index) => {
    const next = answer.sentences[index + 1];
    for (const span of next === undefined ? [[sentence]] : [[sentence], [sentence, next]])
      spans.set(span.join('\n'), span);
  });
  const views =
    spans.size <= KEY_ELEMENT_SPANS_MAX
      ? [...spans.values()].map((span) => viewAnswer(span, context.questionQuantities))
      : [];
  const distinctive = distinctiveElements(scheme.elements);
  const judged = scheme.elements.map((element, index) => {
    const judgedBy = distinctive[index]!;
    let best: { evidence: ItemEvidence; credit: number } | null = null;
    for (const view of views.length ? views : [answer]) {
      const evidence = gatherItemEvidence({
        criterion: judgedBy,
        guidance: '',
        alignedSolution: [judgedBy],
        answer: view,
        weights: context.weights,
        questionText: input.questionText,
        questionQuantities: context.questionQuantities,
        referenceTerms: context.referenceTerms,
        targets: [],
        allTargets: [],
      });
      const credit = rampCredit(evidence.lexical, LEXICAL_RAMP);
      if (!best || credit > best.credit) best = { evidence, credit };
    }
    return { element, ...best! };
  });
  const needed = scheme.levels.at(-1)!.count;
  const best = [...judged].sort((left, right) => right.credit - left.credit).slice(0, needed);
  const count = best.reduce((sum, element) => sum + element.credit, 0);
  const share = levelShareOf(scheme, count);
  const shown = judged.filter((element) => element.credit >= 0.5);
  // As settled as the least settled of the elements that decide the count.
  const certainty = Math.min(...best.map((element) => itemCertainty(element.evidence.lexical, LEXICAL_RAMP, null)));
  const evidence: ItemEvidence = {
    lexical: share,
    requirementCoverage: share,
    solutionCoverage: share,
    alignment: share,
    bigramCoverage: 0,
    exampleEvidence: null,
    numeric: null,
    missingTerms: [],
    foundTerms: [],
    missingSteps: judged.filter((element) => element.credit < 0.5).map((element) => element.element),
    alignedSolution: scheme.elements,
    keyElements: { shown: Math.min(needed, shown.length), needed },
  };
  return { share, certainty, evidence };
}

/**
 * How the answer's computed results stand, where they carry at least half the points: all right,
 * one flawed (wrong, missing, or with a flawed unit, sign, power of ten or rounding), or not
 * judged (few results, or none the answer writes in a form that can be read).
 */
function resultsVerdict(analysis: AnswerAnalysis, input: GradingInput): 'right' | 'flawed' | 'not-judged' {
  const resultOutcomes = analysis.evidences.flatMap((evidence) =>
    (evidence.numeric?.outcomes ?? []).filter((outcome) => outcome.target.isResult),
  );
  const formulaOutcomes = analysis.evidences.flatMap((evidence) => evidence.numeric?.formulaOutcomes ?? []);
  const resultPoints = input.rubricItems.reduce((sum, item, index) => {
    const numeric = analysis.evidences[index]?.numeric;
    return sum + (numeric?.hasResults || numeric?.hasFormulaTargets ? item.points : 0);
  }, 0);
  // A result the answer does not give is judged missing only when it is a quantity with a unit
  // (a length, a time): a bare number it never writes ("1" of a reference's "class 1 ...", a
  // probability said in words) leaves the word and meaning evidence to judge, as before.
  const judged = resultOutcomes.filter(
    (outcome) =>
      outcome.match !== 'none' ||
      outcome.stated !== null ||
      outcome.target.expected.some((quantity) => quantity.dimension !== null),
  );
  if (resultPoints < 0.5 * input.points || judged.length + formulaOutcomes.length === 0) return 'not-judged';
  const isFlawed =
    formulaOutcomes.some((formula) => formula.outcome === 'wrong') ||
    // Wrong, flawed (unit, sign, power of ten, rounding) or missing: it costs that item's points
    // however well the rest reads.
    judged.some((outcome) => outcome.match !== 'exact');
  if (isFlawed) return 'flawed';
  // All right only when every result was found right, the bare ones too.
  return judged.length === resultOutcomes.length ? 'right' : 'not-judged';
}

/**
 * How much more than its rubric items the instructor gives an answer with flawed results: the
 * mean, over their saved grades of such answers, of what they gave beyond the items' share (0
 * when they never graded one: nothing says they forgive a wrong result, so the items decide).
 */
function resultsAllowance(input: GradingInput, context: QuestionContext): number {
  const excess: number[] = [];
  for (const example of usableExamples(input)) {
    const analysis = analyseAnswer(example.answerText, input, context);
    if (NOTHING_TO_JUDGE.has(analysis.status) || resultsVerdict(analysis, input) !== 'flawed') continue;
    const share = input.points > 0 ? example.score / input.points : 0;
    excess.push(Math.max(0, share - analysis.features.itemShare));
  }
  return excess.length ? excess.reduce((sum, value) => sum + value, 0) / excess.length : 0;
}

/** The meaning of a text the grader asked for beforehand (textsToEmbed). */
export type MeaningLookup = (text: string) => Embedding;

/**
 * Every text whose meaning grading this answer compares: the reference alternatives, the
 * solution's sentences, the question, and the judged text of the answer and of each saved grade.
 * The caller embeds them (sentence-embeddings.ts, asynchronous) and grades with the result, so the
 * grading itself stays synchronous and deterministic.
 */
export function textsToEmbed(input: GradingInput): string[] {
  const context = questionContextFor(input);
  const answers = [input.answerText, ...usableExamples(input).map((example) => example.answerText)];
  return [
    ...context.referenceTexts,
    ...context.solutionSentences,
    input.questionText,
    ...answers.map((text) => analyseAnswer(text, input, context).evidenceText),
    ...classKeys(input),
    // What the cold model reads of each classmate: its judged text, most often the answer itself.
    ...classKeys(input).flatMap((key) => {
      const analysis = analyseAnswer(key, input, context);
      // Folded as the lookup folds it: most often the key itself, so nothing is embedded twice.
      return NOTHING_TO_JUDGE.has(analysis.status) ? [] : [foldSpaces(analysis.evidenceText)];
    }),
  ];
}

/**
 * Classes larger than this are compared through their first answers only: measuring a class
 * compares every pair of its answers, so the cost must not grow with the class without bound.
 */
export const CLASS_ANSWERS_MAX = 400;

/** The class's answers as their meanings are looked up: spaces folded, empty answers left out. */
function classKeys(input: Pick<GradingInput, 'classAnswers'>): string[] {
  return (input.classAnswers ?? [])
    .slice(0, CLASS_ANSWERS_MAX)
    .map(foldSpaces)
    .filter((key) => key.length > 0);
}

/**
 * How many answers the grader measures a class by (0: too few to be a class), as its judgement
 * records it; what decides whether a suggestion was made with a smaller class than there is now.
 */
export function classSizeOf(classAnswers: readonly string[]): number {
  const size = classKeys({ classAnswers }).length;
  return size >= SMALLEST_CLASS ? size : 0;
}

const foldSpaces = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The class measured once per grading call (and kept across calls on the same class). */
export function classMeaningOf(input: GradingInput, meaning: MeaningLookup): ClassMeaning | null {
  return measureClass(classKeys(input), meaning);
}

const classSignalsKept = new WeakMap<QuestionContext, WeakMap<ClassMeaning, ClassSignals>>();

/**
 * Every classmate as the models read it (null: nothing to judge), for the class's level
 * (suggestion-model.ts classLevelOf). Measured once per question and class: a Grade All grades
 * the whole class against the same classmates.
 */
export function classSignalsOf(
  input: GradingInput,
  context: QuestionContext,
  meaning: MeaningLookup,
  classMeaning: ClassMeaning | null,
): ClassSignals | null {
  if (!classMeaning) return null;
  const byClass = classSignalsKept.get(context) ?? new WeakMap<ClassMeaning, ClassSignals>();
  classSignalsKept.set(context, byClass);
  const kept = byClass.get(classMeaning);
  if (kept) return kept;
  const members = classMeaning.keys.map((key) => {
    const analysis = analyseAnswer(key, input, context);
    if (NOTHING_TO_JUDGE.has(analysis.status)) return null;
    return answerSignals(analysis, input, context, meaning, { classMeaning, answerText: key });
  });
  byClass.set(classMeaning, members);
  return members;
}

/** What the models read of one measured answer (suggestion-model.ts). */
export function answerSignals(
  analysis: AnswerAnalysis,
  input: GradingInput,
  context: QuestionContext,
  meaning: MeaningLookup,
  /** The answer's class, and the answer's own text as the class lists it (itself is not its classmate). */
  classmates: { classMeaning: ClassMeaning | null; answerText: string } | null = null,
): AnswerSignals {
  const embedding = meaning(analysis.evidenceText);
  const typical = classmates
    ? typicalityOf(embedding, foldSpaces(classmates.answerText), classmates.classMeaning)
    : NO_CLASS;
  const closeness = (text: string) => Math.max(0, similarity(embedding, meaning(text)));
  const sentences = context.solutionSentences;
  return {
    lexical: featureVector(analysis.features),
    meaningReference: Math.max(0, ...context.referenceTexts.map(closeness)),
    meaningCoverage: sentences.length
      ? sentences.reduce((sum, text) => sum + closeness(text), 0) / sentences.length
      : 0,
    meaningQuestion: closeness(input.questionText),
    hasReference: context.referenceTexts.length > 0,
    embedding,
    terms: new Set(answerTerms(analysis.evidenceText, context.reference)),
    classNear: typical.near,
    classWhole: typical.whole,
    classPlace: placeOnAxes(embedding, classmates?.classMeaning?.axes ?? null),
    classWordPlace: placeInWords(analysis.evidenceText, classmates?.classMeaning?.words ?? null),
    counted: context.itemSchemes.some((scheme) => scheme !== null) ? analysis.features.itemShare : null,
  };
}

/** Saved grades usable as examples: real text, a score within the points. */
function usableExamples(input: GradingInput): NonNullable<GradingInput['examples']> {
  return (input.examples ?? []).filter(
    (example) =>
      typeof example.answerText === 'string' &&
      Number.isFinite(example.score) &&
      example.score >= 0 &&
      example.score <= input.points + 1e-9,
  );
}

/**
 * The saved grades as the models read them: the same (frozen) array for the same saved grades, the
 * same model and the same class, so that what suggestion-model.ts measures once per set (keyed by
 * the array) holds across the answers of a Grade All or a refresh. With 200 saved grades, the
 * instructor's decisions read afresh cost about a second for each answer graded (decision 0134).
 */
export function prepareExamples(
  input: GradingInput,
  context: QuestionContext,
  meaning: MeaningLookup,
  model: SuggestionModel = FITTED,
  classMeaning: ClassMeaning | null = null,
): readonly PreparedExample[] {
  const key = preparedSetKey(input, model, classMeaning);
  const kept = context.preparedSets.get(key);
  if (kept) return kept;
  const prepared = Object.freeze(measureExamples(input, context, meaning, model, classMeaning));
  context.preparedSets.set(key, prepared);
  return prepared;
}

const modelIds = new WeakMap<SuggestionModel, number>();
const classIds = new WeakMap<ClassMeaning, number>();
let nextId = 1;
const idOf = <T extends object>(ids: WeakMap<T, number>, value: T) => {
  const known = ids.get(value);
  if (known !== undefined) return known;
  ids.set(value, nextId);
  return nextId++;
};

/** What a prepared set is made of, within one question's context: the usable saved grades, the points, the model and the class. */
function preparedSetKey(input: GradingInput, model: SuggestionModel, classMeaning: ClassMeaning | null): string {
  const grades = usableExamples(input).map((example) => [example.answerText, example.score, example.suggestedScore]);
  const what = JSON.stringify([
    idOf(modelIds, model),
    classMeaning ? idOf(classIds, classMeaning) : 0,
    input.points,
    grades,
  ]);
  return createHash('sha256').update(what).digest('hex');
}

function measureExamples(
  input: GradingInput,
  context: QuestionContext,
  meaning: MeaningLookup,
  model: SuggestionModel,
  classMeaning: ClassMeaning | null,
): PreparedExample[] {
  const prepared: PreparedExample[] = [];
  for (const example of usableExamples(input)) {
    const analysis = analyseAnswer(example.answerText, input, context);
    if (NOTHING_TO_JUDGE.has(analysis.status)) continue;
    const signals = answerSignals(analysis, input, context, meaning, {
      classMeaning,
      answerText: example.answerText,
    });
    prepared.push({
      signals,
      cold: coldShare(signals, model),
      foldedText: analysis.foldedText,
      share: input.points > 0 ? example.score / input.points : 0,
      suggestedShare:
        input.points > 0 && example.suggestedScore !== null && Number.isFinite(example.suggestedScore)
          ? Math.min(1, Math.max(0, example.suggestedScore / input.points))
          : null,
    });
  }
  return prepared;
}

/**
 * Spreads the total deduction over the rubric items in proportion to what each item's evidence
 * found missing (water-filling: no item loses more than it is worth), in steps of a quarter point
 * (a hundredth when the total is off that grid), so the items add up exactly to the suggestion.
 */
export function spreadDeduction(total: number, itemPoints: readonly number[], deficits: readonly number[]): number[] {
  const count = itemPoints.length;
  if (count === 0 || total <= 1e-9) return itemPoints.map(() => 0);
  const unit = Math.abs(Math.round(total / 0.25) * 0.25 - total) < 1e-9 ? 0.25 : 0.01;
  const capacity = itemPoints.map((points) => Math.floor(points / unit + 1e-9));
  let remaining = Math.round(total / unit);
  const units = itemPoints.map(() => 0);
  // First by the evidence's deficits, then (if the total asks for more) by the room left.
  for (const weights of [deficits, itemPoints.map((points, index) => points - (deficits[index] ?? 0))]) {
    let open = capacity
      .map((cap, index) => (units[index]! < cap && (weights[index] ?? 0) > 1e-9 ? index : -1))
      .filter((index) => index >= 0);
    while (remaining > 0 && open.length > 0) {
      const weightSum = open.reduce((sum, index) => sum + weights[index]!, 0);
      const ideal = open.map((index) => (remaining * weights[index]!) / weightSum);
      let given = 0;
      const order = open
        .map((index, position) => ({ index, share: ideal[position]! }))
        .sort((left, right) => (right.share % 1) - (left.share % 1) || left.index - right.index);
      for (const { index, share } of order) {
        const room = capacity[index]! - units[index]!;
        const take = Math.min(room, Math.floor(share + 1e-9));
        units[index]! += take;
        given += take;
      }
      let left = remaining - given;
      for (const { index } of order) {
        if (left <= 0) break;
        if (units[index]! < capacity[index]!) {
          units[index]!++;
          left--;
        }
      }
      const handedOut = remaining - left;
      remaining = left;
      if (handedOut === 0) break;
      open = open.filter((index) => units[index]! < capacity[index]!);
    }
  }
  return units.map((value) => Math.round(value * unit * 100) / 100);
}

const unitOf = (text: string) =>
  parseUnit(
    text
      .replace(/^\s*(?:(?:it|this|that)\s+is\s+|its\s+unit\s+is\s+)?(?:the|a|an)?\s*/i, '')
      .replace(/[.!]\s*$/, '')
      .trim(),
  );

/**
 * The solution is a unit (each of its short alternatives reads as a unit, all of one kind) and the
 * answer is a unit of another kind. Answers longer than a few words are left to the models.
 */
export function namesUnitOfOtherKind(solutionText: string, answerText: string): boolean {
  if (answerText.trim().split(/\s+/).length > 4) return false;
  const answerUnit = unitOf(answerText);
  if (!answerUnit) return false;
  const referenceUnits = referenceAlternatives(solutionText)
    .map((alternative) => unitOf(alternative))
    .filter((unit) => unit !== null);
  if (referenceUnits.length === 0) return false;
  const sameKind = (left: readonly number[], right: readonly number[]) =>
    left.every((power, axis) => power === right[axis]);
  if (!referenceUnits.every((unit) => sameKind(unit.dimension, referenceUnits[0]!.dimension))) return false;
  return !sameKind(answerUnit.dimension, referenceUnits[0]!.dimension);
}

/**
 * One answer's judgement. The steps, in order, each listed once:
 * 1. screening (answer-screening.ts): blank, only the question again, only words to the grader,
 *    word salad set aside; nothing to judge, or only set-aside words, scores 0;
 * 2. the share: the cold model, or the instructor's level and the answer's difference from their
 *    graded answers (suggestion-model.ts), or the grade of the same answer already graded;
 * 3. results computed with numbers: a result with a flaw (unit, sign, power of ten, rounding)
 *    never earns more than the rubric evidence gives it, and an exact one no less;
 *    a unit of another kind where the answer is a unit scores 0;
 * 4. rounding to the score's steps; the deduction spread over the rubric items;
 * 5. the confidence, on the score shown.
 */
export function gradeAnswer(
  input: GradingInput,
  meaning: MeaningLookup,
  model: SuggestionModel = FITTED,
): BuiltinJudgement {
  const context = questionContextFor(input);
  const analysis = analyseAnswer(input.answerText, input, context);
  const remarks: string[] = [];
  if (analysis.hasInstructions) {
    remarks.push(
      'Part of the answer is addressed to the grader (asking for marks or to ignore the rubric); it was disregarded and earns no credit.',
    );
  }
  // Only set-aside words (salad, a bare keyword line): nothing in sentences to judge, nothing earned.
  const isOnlySetAside = analysis.status === 'answered' && analysis.evidenceText.trim() === '';
  if (isOnlySetAside) {
    remarks.push(
      'The answer is made of words not put into sentences that say anything (shuffled or listed key words); it earns no credit.',
    );
  }
  const classMeaning = classMeaningOf(input, meaning);
  const signals = answerSignals(analysis, input, context, meaning, { classMeaning, answerText: input.answerText });
  const examples = NOTHING_TO_JUDGE.has(analysis.status)
    ? []
    : prepareExamples(input, context, meaning, model, classMeaning);
  const classLevel = classLevelOf(classSignalsOf(input, context, meaning, classMeaning), model);
  const ownPrediction = predictShare(signals, analysis.foldedText, examples, model, classLevel);
  // Before the first saved grade on the question, the course's convention moves the cold model
  // (decision 0115); from then on the instructor's own grades on it lead.
  const convention = examples.length === 0 ? fitCourseConvention(input.courseGrades, model) : null;
  const prediction = convention ? withCourseOffset(ownPrediction, convention) : ownPrediction;
  let share = isOnlySetAside ? 0 : prediction.share;
  // Numbers and formulas are judged by value, which the word and meaning models cannot see. Where
  // results to compute carry most of the points, the rubric items decide before saved grades: an
  // exact result earns what the item evidence gives, and a value with a flaw (unit, sign, power of
  // ten, rounding), a wrong value (with a unit, or a bare number written as the result), a wrong
  // formula or a missing result never earns more. With saved grades the instructor's own grades
  // say how far past that they go (resultsAllowance). Decimal commas and numbers in words are read
  // as values (quantities.ts), so they are judged, not taken for missing.
  const verdict = resultsVerdict(analysis, input);
  // A question whose answer is a unit ("the unit of force": the newton, N, kg m/s^2) answered with
  // a unit of another kind ("the joule") is wrong, however close the words.
  const isWrongUnit = prediction.sameAnswers === 0 && namesUnitOfOtherKind(input.solutionText, analysis.evidenceText);
  if (isWrongUnit) share = 0;
  const isJudgedByResults = verdict !== 'not-judged' && prediction.sameAnswers === 0;
  const isDecidedByNumbers = isJudgedByResults && verdict === 'flawed';
  if (isJudgedByResults && verdict === 'right' && examples.length === 0)
    share = Math.max(share, analysis.features.itemShare);
  if (isDecidedByNumbers) {
    const allowance = examples.length === 0 ? 0 : resultsAllowance(input, context);
    share = Math.min(share, analysis.features.itemShare + allowance);
  }
  let status = analysis.status;
  const score = NOTHING_TO_JUDGE.has(status) ? 0 : roundScore(input.points, share, !isDecidedByNumbers);
  // Off-topic is a description, never a rule: it names an answer that the model already scores 0
  // and that shares hardly a word or a meaning with the question, solution or rubric.
  const isUnrelated =
    analysis.features.recall < 0.1 &&
    analysis.relevance < 0.2 &&
    analysis.features.itemShare < 0.1 &&
    signals.meaningReference < 0.3;
  if (status === 'answered' && isUnrelated && score === 0) status = 'off-topic';

  const itemPoints = input.rubricItems.map((item) => item.points);
  const deficits = analysis.items.map((item, index) => itemPoints[index]! * (1 - item.credit));
  const deductions = spreadDeduction(input.points - score, itemPoints, deficits);
  const items = analysis.items.map((item, index) => {
    const rubricItem = input.rubricItems[index]!;
    const pointsDeducted = deductions[index] ?? 0;
    const credit = rubricItem.points > 0 ? 1 - pointsDeducted / rubricItem.points : 1;
    const comment =
      status !== 'answered'
        ? statusComment(status, rubricItem, analysis.answerTopics)
        : itemComment(rubricItem, credit, analysis.evidences[index]!, analysis.answerQuantities, item.credit);
    // Only the words change with the instructor's "show the expected answer" (decision 0088).
    const isShort = pointsDeducted > 0;
    return {
      ...item,
      credit,
      pointsDeducted,
      comment:
        input.showExpectedAnswer && isShort
          ? withExpectedAnswer(comment, expectedAnswerOf(rubricItem, analysis.evidences[index]))
          : comment,
    };
  });

  const shownShare = input.points > 0 ? score / input.points : 1;
  const isNothingToJudge = NOTHING_TO_JUDGE.has(status);
  const confidenceModelInputs = isNothingToJudge ? [] : confidenceInputs(shownShare, prediction, examples);
  const fixedConfidence =
    status === 'blank' || status === 'does-not-know' ? BLANK_CONFIDENCE : NOTHING_TO_JUDGE_CONFIDENCE;
  const modelConfidence = estimateConfidence(confidenceModelInputs, decisionShift(examples, model, classLevel), model);
  return {
    version: BUILTIN_GRADER_VERSION,
    status,
    items,
    remarks,
    confidence: isNothingToJudge
      ? fixedConfidence
      : convention
        ? recalibratedConfidence(modelConfidence, convention)
        : modelConfidence,
    // Nothing to judge: a big miss is rarer than not keeping the 0, so that chance bounds it.
    missChance: isNothingToJudge ? (100 - fixedConfidence) / 100 : estimateMissChance(confidenceModelInputs, model),
    confidenceInputs: {
      suggestedShare: shownShare,
      predictedShare: prediction.share,
      // The cold model's own share, never moved by a course: what the course's convention is fitted on.
      coldShare: ownPrediction.cold,
      course: convention,
      examplesUsed: examples.length,
      nearestExample: prediction.nearest,
      sameAnswers: prediction.sameAnswers,
      features: analysis.features,
      meaning: {
        reference: signals.meaningReference,
        coverage: signals.meaningCoverage,
        question: signals.meaningQuestion,
      },
      typicality: { near: signals.classNear, whole: signals.classWhole, classSize: classMeaning?.keys.length ?? 0 },
      model: confidenceModelInputs,
    },
  };
}

/** Only the question again, or only words to the grader: 0, which people nearly always keep. */
const NOTHING_TO_JUDGE_CONFIDENCE = 85;

/**
 * A blank answer, or one that says the student does not know: every human grader gives nothing too
 * (all 151 such answers on the public sets), so the suggestion is kept almost always.
 */
export const BLANK_CONFIDENCE = 95;
