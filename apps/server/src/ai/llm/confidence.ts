import { isSuggestionKept } from '@gradewise/shared/kept-suggestion';
import type { GradedExample } from '../grader-types.ts';

/**
 * The confidence shown with an LLM suggestion (0..100). Its one promise: a higher number means a
 * smaller expected disagreement between the suggested score and the score a careful human gives.
 * See docs/decisions/0004-llm-grading-and-confidence.md for the reasoning behind every term.
 *
 * A model's self-reported confidence alone is a poor signal (models are overconfident and rarely
 * say less than 80), so it is shrunk toward 50 and then moved by evidence we can compute:
 * - partial credit in the middle of an item's range is where graders disagree most; all-or-nothing
 *   judgements are where they agree;
 * - an answer that needed a repair prompt, or that we had to clamp or fill in, came from a model
 *   that was not following the task well;
 * - an answer the model could not see (no text, no images) or a very short answer that earned most
 *   of the points are the classic places a human overrules the AI;
 * - handwriting read from images is error-prone; very long answers hide overlooked parts.
 */

export interface ConfidenceEvidence {
  /** What the model said, 0..100. */
  selfReported: number;
  /** Per rubric item: its points and the (clamped) deduction. */
  judgements: { points: number; pointsDeducted: number }[];
  /** Repair prompts needed before the answer matched the schema (0 or 1). */
  schemaRepairs: number;
  /** Corrections interpretGrading made: unknown/duplicate/missing ids, clamped points, unexplained deductions. */
  outputFixes: number;
  answerWords: number;
  solutionWords: number;
  pageImagesSent: number;
  /** totalScore / points, 0..1. */
  scoreFraction: number;
}

export const CONFIDENCE_FLOOR = 5;
export const CONFIDENCE_CEILING = 95;

/** 0 when every item is all-or-nothing, 1 when every item lost exactly half its points. */
export function partialCreditAmbiguity(judgements: ConfidenceEvidence['judgements']): number {
  const totalPoints = judgements.reduce((sum, item) => sum + Math.max(0, item.points), 0);
  if (totalPoints <= 0) return 0;
  const weighted = judgements.reduce((sum, item) => {
    if (item.points <= 0) return sum;
    const fraction = Math.min(1, Math.max(0, item.pointsDeducted / item.points));
    return sum + item.points * 4 * fraction * (1 - fraction);
  }, 0);
  return weighted / totalPoints;
}

export function estimateConfidence(evidence: ConfidenceEvidence): number {
  const selfReported = Number.isFinite(evidence.selfReported) ? Math.min(100, Math.max(0, evidence.selfReported)) : 50;
  let confidence = 50 + 0.6 * (selfReported - 50);

  confidence += 15 - 30 * partialCreditAmbiguity(evidence.judgements);
  confidence -= 10 * evidence.schemaRepairs;
  confidence -= Math.min(32, 8 * evidence.outputFixes);

  const readsHandwriting = evidence.answerWords < 20 && evidence.pageImagesSent > 0;
  if (readsHandwriting) confidence -= 10;

  const solutionLength = Math.max(20, evidence.solutionWords);
  const isShortButCredited =
    evidence.answerWords > 0 && evidence.answerWords / solutionLength < 0.25 && evidence.scoreFraction > 0.6;
  if (isShortButCredited) confidence -= 15;

  if (evidence.answerWords > 3000) confidence -= 5;

  // Nothing to read: the model graded blind (a blank page, or handwriting it was not shown).
  const gradedBlind = evidence.answerWords === 0 && evidence.pageImagesSent === 0;
  if (gradedBlind) confidence = Math.min(confidence, 30);

  return Math.round(Math.min(CONFIDENCE_CEILING, Math.max(CONFIDENCE_FLOOR, confidence)));
}

/**
 * The confidence above is evidence about one answer; how this question's instructor has treated
 * the AI's suggestions so far is evidence about all of them. The number shown is the chance they
 * keep the score (within 10% of the points), so each saved grade that started from an AI suggestion
 * is one observation of exactly that: kept or changed. The two are blended as a beta-binomial
 * estimate in which the answer's own confidence counts as RECORD_PRIOR_GRADES grades. With no grades
 * it stands alone; ten grades of which the instructor kept none bring a 90 down to 30; ten all kept
 * bring a 60 up to 87. The order between answers of one question is kept (the blend is monotone
 * in the answer's confidence), so the review queue, which orders an LLM's suggestions by their
 * confidence (an LLM gives no chance of a big miss), still shows the doubtful ones first.
 * The most recent suggestions count (RECORD_LIMIT): the instructor's standard, the rubric and the
 * model may have changed since the early ones. Grades saved without an AI suggestion say nothing of
 * the AI and are left out. (The built-in grader fits its own record: suggestion-model.ts.)
 */
export const RECORD_PRIOR_GRADES = 5;
export const RECORD_LIMIT = 20;

export function calibrateToQuestionRecord(
  confidence: number,
  examples: readonly GradedExample[] | undefined,
  points: number,
): number {
  const judged = (examples ?? []).filter((example) => example.suggestedScore !== null).slice(0, RECORD_LIMIT);
  if (judged.length === 0 || !(points > 0)) return confidence;
  const kept = judged.filter((example) => isSuggestionKept(example.suggestedScore!, example.score, points)).length;
  const blended = (kept + (RECORD_PRIOR_GRADES * confidence) / 100) / (judged.length + RECORD_PRIOR_GRADES);
  return Math.round(Math.min(CONFIDENCE_CEILING, Math.max(CONFIDENCE_FLOOR, 100 * blended)));
}

export function countWords(text: string): number {
  const words = text.trim().match(/\S+/g);
  return words ? words.length : 0;
}
