import { z } from 'zod';
import type { RubricItem } from '../grader-types.ts';
import { RegionAnswerSchema } from './answer-regions.ts';

/**
 * What a model may answer, built per call FROM THE RUBRIC: item ids are an enum of the rubric's
 * ids, every item must be judged exactly once, and no deduction may exceed its item's points. The
 * model cannot invent a criterion, skip one, or take more than an item is worth; an answer that
 * tries gets one repair prompt quoting these messages, then the call fails.
 *
 * Objects are strict and every field is required: OpenAI's strict structured outputs demand it,
 * and constrained decoders (vLLM, llama.cpp) then cannot drop a field either.
 */

export const MAX_CONFIDENCE = 100;

/**
 * `withRegions` (page images were sent): each judgement also carries `region`, a box on a page or
 * null. Required like every field (strict outputs), loose in its numbers (see answer-regions.ts).
 */
export function buildGradingOutputSchema(rubricItems: RubricItem[], options: { withRegions?: boolean } = {}) {
  const ids = rubricItems.map((item) => item.id);
  if (ids.length === 0) throw new Error('A grading schema needs at least one rubric item.');
  const pointsById = new Map(rubricItems.map((item) => [item.id, item.points]));
  const largestItem = Math.max(...rubricItems.map((item) => item.points));

  const judgement = z.strictObject({
    rubricItemId: z.enum(ids as [string, ...string[]]).describe('The id of the rubric item judged.'),
    pointsDeducted: z
      .number()
      .min(0)
      .max(largestItem)
      .describe("Points taken off for this item: 0 when fully met, at most the item's points."),
    comment: z.string().describe('Feedback to the student about this item, one to three sentences.'),
    ...(options.withRegions ? { region: RegionAnswerSchema } : {}),
  });

  return z.strictObject({
    items: z
      .array(judgement)
      .min(ids.length)
      .max(ids.length)
      .superRefine((items, ctx) => {
        const seen = new Set<string>();
        items.forEach((item, index) => {
          if (seen.has(item.rubricItemId)) {
            ctx.addIssue({
              code: 'custom',
              path: [index, 'rubricItemId'],
              message: `"${item.rubricItemId}" is judged more than once`,
            });
          }
          seen.add(item.rubricItemId);
          const max = pointsById.get(item.rubricItemId) ?? 0;
          if (item.pointsDeducted > max) {
            ctx.addIssue({
              code: 'custom',
              path: [index, 'pointsDeducted'],
              message: `${item.pointsDeducted} is more than the ${max} points of "${item.rubricItemId}"`,
            });
          }
        });
        const missing = ids.filter((id) => !seen.has(id));
        if (missing.length > 0) {
          ctx.addIssue({
            code: 'custom',
            message: `missing rubric items: ${missing.map((id) => `"${id}"`).join(', ')}`,
          });
        }
      })
      .describe('Exactly one entry per rubric item.'),
    generalComment: z.string().describe('An overall remark to the student; may be empty.'),
    confidence: z
      .number()
      .min(0)
      .max(MAX_CONFIDENCE)
      .describe('0-100: how likely a careful human grader would make the same deductions.'),
  });
}

export const MAX_RUBRIC_ITEMS = 10;

export const RubricAnswerSchema = z.strictObject({
  items: z
    .array(
      z.strictObject({
        criterion: z
          .string()
          .refine((text) => text.trim().length > 0, 'must not be empty')
          .describe('What the answer must show, as one short sentence.'),
        points: z.number().min(0).describe('Relative weight of this criterion, in points.'),
        guidance: z.string().describe('How to judge it: full credit, partial credit, common mistakes.'),
      }),
    )
    .min(1)
    .max(MAX_RUBRIC_ITEMS),
});

/**
 * The stored raw output of a grading call: the model's validated answer plus how it was obtained,
 * which interpretGrading needs as evidence for confidence. Lenient on purpose (plain strings,
 * any numbers): a stored output is re-interpreted against the CURRENT rubric, which an instructor
 * may have edited since, so ids may be stale and points out of range — interpretGrading clamps.
 */
export const StoredGradingOutput = z.object({
  answer: z.object({
    items: z.array(
      z.object({
        rubricItemId: z.string(),
        pointsDeducted: z.number(),
        comment: z.string(),
        /** As the model sent it; made safe (or dropped) on interpretation. */
        region: z.unknown().optional(),
      }),
    ),
    generalComment: z.string().default(''),
    confidence: z.number(),
  }),
  schemaRepairs: z.number().int().min(0).default(0),
  pageImagesSent: z.number().int().min(0).default(0),
  /** The page numbers whose images the model saw: a region may point only at one of these. */
  pagesShown: z.array(z.number().int()).default([]),
});
/** What requestGrading stores (defaults may be left out; old rows lack the newer fields). */
export type StoredGradingOutput = z.input<typeof StoredGradingOutput>;

export const StoredRubricOutput = z.object({
  answer: RubricAnswerSchema,
  schemaRepairs: z.number().int().min(0).default(0),
});
export type StoredRubricOutput = z.infer<typeof StoredRubricOutput>;
