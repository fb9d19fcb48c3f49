import { z } from 'zod';
import { clampText } from '@gradewise/shared/clamp-text';
import { rubricItemId } from '@gradewise/shared/rubric-items';
import {
  GRADE_COMMENT_TEXT_MAX,
  GRADE_COMMENTS_MAX,
  RUBRIC_CRITERION_MAX,
  RUBRIC_GUIDANCE_MAX,
  RUBRIC_ITEMS_MAX,
} from '@gradewise/shared/contracts/grading';
import type {
  Grader,
  GraderMeta,
  GradingCall,
  GradingInput,
  GradingSuggestion,
  RubricCall,
  RubricDraft,
  RubricDraftInput,
  SuggestedComment,
} from '../grader-types.ts';
import { FITTED } from './fitted-weights.ts';
import { BUILTIN_GRADER_VERSION, gradeAnswer, textsToEmbed } from './grade-answer.ts';
import { embedTexts } from './sentence-embeddings.ts';
import type { SuggestionModel } from './suggestion-model.ts';
import { allocatePoints, draftRubricItems } from './rubric-drafting.ts';
import { keyElementItem, keyElementSchemeOf } from './key-elements.ts';
import { referenceOfScoreLevels } from './score-levels.ts';

/**
 * The offline grader: no model, no network, deterministic. It is the default when no LLM is
 * configured, so a fresh install can draft rubrics and suggest grades. Its raw output is its own
 * judgement in plain JSON; interpreting it again gives the same suggestion every time.
 */

const BuiltinJudgementSchema = z.object({
  version: z.string(),
  status: z.enum([
    'answered',
    'blank',
    'near-empty',
    'off-topic',
    'restates-question',
    'instructions-only',
    'does-not-know',
  ]),
  items: z.array(
    z.object({
      rubricItemId: z.string(),
      credit: z.number(),
      evidence: z.number(),
      lexical: z.number(),
      numeric: z.number().nullable(),
      certainty: z.number(),
      pointsDeducted: z.number(),
      comment: z.string(),
    }),
  ),
  remarks: z.array(z.string()),
  confidence: z.number(),
  missChance: z.number().optional(),
  // Version 1 judgements stored a different shape; only the grader reads it, for audits.
  confidenceInputs: z.unknown(),
});

const BuiltinRubricSchema = z.object({
  version: z.string(),
  items: z
    .array(z.object({ criterion: z.string().min(1), guidance: z.string(), points: z.number().nonnegative() }))
    .min(1),
});

function metaFor(startedAt: number): GraderMeta {
  return {
    graderKind: 'builtin',
    provider: 'builtin',
    model: `gradewise-builtin-${BUILTIN_GRADER_VERSION}`,
    promptVersion: `builtin-${BUILTIN_GRADER_VERSION}`,
    inputTokens: null,
    outputTokens: null,
    latencyMs: Math.max(0, Math.round(performance.now() - startedAt)),
  };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw signal.reason instanceof Error ? signal.reason : new Error('The grading request was aborted.');
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

export class BuiltinGrader implements Grader {
  readonly kind = 'builtin' as const;

  /** The fitted models; the benchmark passes those fitted without the family it measures. */
  constructor(private readonly model: SuggestionModel = FITTED) {}

  async requestGrading(input: GradingInput, signal?: AbortSignal): Promise<GradingCall> {
    throwIfAborted(signal);
    const startedAt = performance.now();
    const graded = withReference(input);
    // Meaning first (the sentence model is asynchronous), then the judgement, synchronously.
    const texts = textsToEmbed(graded);
    const vectors = await embedTexts(texts);
    throwIfAborted(signal);
    const meaningOf = new Map(texts.map((text, index) => [text.replace(/\s+/g, ' ').trim(), vectors[index]!]));
    const judgement = gradeAnswer(
      graded,
      (text) => {
        const vector = meaningOf.get(text.replace(/\s+/g, ' ').trim());
        if (!vector) throw new Error('A text was graded without its meaning measured first.');
        return vector;
      },
      this.model,
    );
    return { rawOutput: judgement, meta: metaFor(startedAt) };
  }

  interpretGrading(rawOutput: unknown, input: GradingInput): GradingSuggestion {
    const judgement = BuiltinJudgementSchema.parse(rawOutput);
    const itemsById = new Map(input.rubricItems.map((item) => [item.id, item]));
    const comments: SuggestedComment[] = [];
    for (const item of judgement.items) {
      // A rubric edited since the judgement was stored: comments on removed items are dropped,
      // and no deduction may exceed what the item is worth now.
      const rubricItem = itemsById.get(item.rubricItemId);
      if (!rubricItem) continue;
      const pointsDeducted = clamp(
        Number.isFinite(item.pointsDeducted) ? item.pointsDeducted : 0,
        0,
        rubricItem.points,
      );
      comments.push({
        text: clampText(item.comment, GRADE_COMMENT_TEXT_MAX),
        pointsDeducted,
        rubricItemId: rubricItem.id,
      });
    }
    for (const remark of judgement.remarks) {
      comments.push({ text: clampText(remark, GRADE_COMMENT_TEXT_MAX), pointsDeducted: 0, rubricItemId: null });
    }
    // What a saved grade can hold (the save-grade contract's limits): the suggestion can always be
    // saved as shown. Remarks come last and deduct nothing, so a cut never changes the score.
    comments.splice(GRADE_COMMENTS_MAX);
    const deducted = comments.reduce((sum, comment) => sum + comment.pointsDeducted, 0);
    return {
      comments,
      totalScore: clamp(input.points - deducted, 0, input.points),
      confidence: clamp(Math.round(judgement.confidence), 0, 100),
      ...(judgement.missChance === undefined ? {} : { missChance: clamp(judgement.missChance, 0, 1) }),
    };
  }

  async requestRubric(input: RubricDraftInput, signal?: AbortSignal): Promise<RubricCall> {
    throwIfAborted(signal);
    const startedAt = performance.now();
    // A scheme that counts key elements is one item that counts them; anything else is drafted
    // from what a complete answer shows.
    const scheme = keyElementSchemeOf(input.solutionText);
    const items = scheme ? [keyElementItem(scheme, input.points)] : draftRubricItems(withReference(input));
    return { rawOutput: { version: BUILTIN_GRADER_VERSION, items }, meta: metaFor(startedAt) };
  }

  interpretRubric(rawOutput: unknown, input: RubricDraftInput): RubricDraft {
    const parsed = BuiltinRubricSchema.parse(rawOutput);
    // At most what a rubric can hold; the points are then re-split below like any other change.
    const draft = { ...parsed, items: parsed.items.slice(0, RUBRIC_ITEMS_MAX) };
    const total = draft.items.reduce((sum, item) => sum + item.points, 0);
    // The question's points may have changed since the draft was stored: re-split them in the
    // draft's proportions so the items still add up exactly.
    const points =
      Math.abs(total - input.points) < 1e-9
        ? draft.items.map((item) => item.points)
        : allocatePoints(
            input.points,
            draft.items.map((item) => (total > 0 ? Math.max(item.points, 1e-6) : 1)),
          );
    return {
      items: draft.items.map((item, index) => ({
        id: rubricItemId(index + 1),
        criterion: clampText(item.criterion, RUBRIC_CRITERION_MAX),
        guidance: clampText(item.guidance, RUBRIC_GUIDANCE_MAX),
        points: points[index]!,
      })),
    };
  }
}

/**
 * What a complete answer shows: the listed elements of a scheme that counts them (any of them is
 * what an answer may say; the level lines are not), the top level of a guideline written as score
 * levels, else the solution as written.
 */
function withReference<T extends { solutionText: string; points: number }>(input: T): T {
  const scheme = keyElementSchemeOf(input.solutionText);
  const solutionText = scheme ? scheme.elements.join('\n') : referenceOfScoreLevels(input.solutionText, input.points);
  return solutionText === input.solutionText ? input : { ...input, solutionText };
}

export function createBuiltinGrader(): BuiltinGrader {
  return new BuiltinGrader();
}
