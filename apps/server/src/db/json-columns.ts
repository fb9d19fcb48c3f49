import type { CommentRegion } from '@gradewise/shared/contracts/comment-region';
import type { RubricItem } from '@gradewise/shared/contracts/grading';

/**
 * The shapes stored in jsonb columns, declared once so `schema.ts` types each column with
 * `.$type<T>()` and every query returns them typed: no casts where rows are read.
 */

/** A comment as a run or a grade stores it (the AI's suggestion, or as the instructor saved it). */
export interface StoredComment {
  id: string;
  text: string;
  pointsDeducted: number;
  accepted: boolean;
  rubricItemId: string | null;
  /** Where on the answer the comment points; absent in comments stored before regions existed. */
  region?: CommentRegion | null;
}

/** One page of an extracted PDF. */
export interface ExtractedPage {
  page: number;
  text: string;
  method: 'text-layer' | 'ocr';
  ocrConfidence?: number;
}

/** What one rubric version changed in one item, compared with the version before it. */
export type RubricItemChange =
  | { itemId: string; kind: 'added'; to: RubricItem }
  | { itemId: string; kind: 'removed'; from: RubricItem }
  | { itemId: string; kind: 'points'; from: number; to: number }
  | { itemId: string; kind: 'wording'; from: string; to: string }
  | { itemId: string; kind: 'guidance'; from: string; to: string };
