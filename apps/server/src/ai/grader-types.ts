import type { CommentRegion } from '@gradewise/shared/contracts/comment-region';
import type { GraderKind, RubricItem } from '@gradewise/shared/contracts/grading';

/**
 * The one shape every grader speaks: the built-in offline grader and the LLM graders both draft
 * rubrics and grade answers through these types, so the jobs, services and UI never care which
 * one ran — but every result says which one did (GraderMeta).
 */

/** The contract's rubric item; its id (`item-N`, shared/rubric-items.ts) is what comments point at. */
export type { RubricItem };

export interface GraderMeta {
  graderKind: GraderKind;
  /** 'builtin' | 'openai' | 'anthropic' | 'openai-compatible' */
  provider: string;
  model: string;
  promptVersion: string;
  inputTokens: number | null;
  outputTokens: number | null;
  latencyMs: number;
}

export interface AnswerPage {
  page: number;
  text: string;
  /** PNG of the page, for models that read images (handwriting); absent when not rendered. */
  imagePng?: Buffer;
}

/**
 * A grade the instructor saved on another answer to the same question: how this instructor grades.
 * The built-in grader fits its suggestions and its confidence to these; LLM graders see the most
 * similar ones in the prompt (few-shot). Never the answer being graded itself.
 */
export interface GradedExample {
  answerText: string;
  /** The instructor's final score, 0..points. */
  score: number;
  /** The instructor's accepted comments on that answer. */
  comments: { text: string; pointsDeducted: number; rubricItemId: string | null }[];
  /** The score the AI suggested before the instructor saved; null when it was graded by hand. */
  suggestedScore: number | null;
}

/**
 * A saved grade on another question of the same course, as the built-in grader's cold model saw
 * its answer: how this instructor's grades sit against that model (decision 0115). Before the
 * first saved grade on a question, the built-in grader moves its cold suggestions by the course's
 * convention fitted on these; LLM graders are not sent them.
 */
export interface CourseGrade {
  /** The built-in grader's cold-model share for that answer (no saved grade on its question), 0..1. */
  coldShare: number;
  /** The instructor's saved score as a share of that question's points, 0..1. */
  share: number;
  /** That question's points (how its shown score was rounded). */
  points: number;
  /** The built-in grader's status for that answer; answers with nothing to judge are not used. */
  status: string;
}

export interface GradingInput {
  questionText: string;
  solutionText: string;
  rubricItems: RubricItem[];
  /** The question's points; the total score is within 0..points. */
  points: number;
  /** Visible answer text only: hidden text has already been removed by extraction. */
  answerText: string;
  answerPages?: AnswerPage[];
  /** Saved grades on other answers to this question (empty or absent: a cold start). */
  examples?: GradedExample[];
  /**
   * The instructor lets comments state the expected answer (the value, the formula, the
   * reference's words) where the answer falls short. Absent or false: comments say what is missing
   * without giving the answer away. Comment text only: scores never depend on it (decision 0088).
   */
  showExpectedAnswer?: boolean;
  /**
   * The class's current answers to the question (their text, this answer's among them), for the
   * built-in grader's typicality (class-closeness.ts). Absent: graded without its class. LLM
   * graders do not read it.
   */
  classAnswers?: readonly string[];
  /**
   * Saved grades on the course's other questions (CourseGrade), for the built-in grader's cold
   * start. Absent or empty: no convention known. LLM graders do not read it.
   */
  courseGrades?: readonly CourseGrade[];
}

export interface SuggestedComment {
  text: string;
  /** >= 0, at most the points of the rubric item it judges. */
  pointsDeducted: number;
  /** The rubric item this comment judges; null for a general remark (then it deducts 0). */
  rubricItemId: string | null;
  /** Where on the answer's pages it is about (LLM graders that saw page images); absent when unknown. */
  region?: CommentRegion;
}

export interface GradingSuggestion {
  comments: SuggestedComment[];
  /** points minus the sum of deductions, within 0..points. */
  totalScore: number;
  /** 0..100: higher means a smaller expected disagreement with a human grader. */
  confidence: number;
  /**
   * 0..1: the chance the score is off by more than 40% of the points, where the grader measures it
   * (the built-in grader, from 3.4.0); the review queue orders by it, most likely first.
   */
  missChance?: number;
}

/**
 * What a grader call returns: `rawOutput` is what the provider answered (already schema-checked),
 * stored by the job before it is interpreted so a retry never pays for the same call twice.
 */
export interface GradingCall {
  rawOutput: unknown;
  meta: GraderMeta;
}

export interface RubricDraftInput {
  questionText: string;
  solutionText: string;
  points: number;
}

export interface RubricDraft {
  items: RubricItem[];
}

export interface RubricCall {
  rawOutput: unknown;
  meta: GraderMeta;
}

export interface Grader {
  readonly kind: GraderKind;
  requestGrading(input: GradingInput, signal?: AbortSignal): Promise<GradingCall>;
  /** Pure: turns a stored raw output into a suggestion (clamps, sums, confidence). */
  interpretGrading(rawOutput: unknown, input: GradingInput): GradingSuggestion;
  requestRubric(input: RubricDraftInput, signal?: AbortSignal): Promise<RubricCall>;
  /** Pure: turns a stored raw output into rubric items whose points add up to input.points. */
  interpretRubric(rawOutput: unknown, input: RubricDraftInput): RubricDraft;
}
