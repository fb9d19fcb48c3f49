import type { SaveRubricInput } from '@gradewise/shared/contracts/grading';
import { roundToHundredths } from '@gradewise/shared/final-grade';
import type { z } from 'zod';
import type { RubricItem } from '../ai/grader-types.ts';
import type { AppContext } from '../context.ts';
import { badRequest } from '../lib/errors.ts';
import { selectRubricByQuestionId, upsertRubric, type RubricRow } from '../models/rubrics.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireOwner } from '../policies/course-access.ts';

/** Points are compared to the hundredth: 3.33 + 3.33 + 3.34 is 10. */
const POINTS_TOLERANCE = 0.005;

/**
 * PATCH save-rubric: the instructor's edit becomes the question's rubric. The spec's client sends
 * the question and solution texts only, and then the items stay as they are; items sent with the
 * texts replace them and must add up to the question's points. Saved grades are never touched.
 */
export async function saveRubric(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
  input: z.output<typeof SaveRubricInput>,
): Promise<RubricRow> {
  const { question } = requireOwner(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'edit its rubric',
  );
  const current = await selectRubricByQuestionId(ctx.db, question.id);
  const items = input.items ? checkedItems(input.items, question.points) : (current?.items ?? []);
  return upsertRubric(ctx.db, {
    questionId: question.id,
    questionText: input.questionText,
    solutionText: input.solutionText,
    items,
    source: 'instructor',
    generationId: current?.generationId ?? null,
    updatedById: user.id,
  });
}

function checkedItems(items: NonNullable<z.output<typeof SaveRubricInput>['items']>, points: number): RubricItem[] {
  if (items.length === 0) throw badRequest('A rubric needs at least one item.');
  const total = roundToHundredths(items.reduce((sum, item) => sum + item.points, 0));
  if (Math.abs(total - points) > POINTS_TOLERANCE) {
    throw badRequest(`The rubric items add up to ${total} points, but the question is worth ${points} points.`, [
      { path: 'items', message: `must add up to ${points}` },
    ]);
  }
  const seen = new Set<string>();
  for (const item of items) {
    if (!item.id) continue;
    if (seen.has(item.id))
      throw badRequest(`Two rubric items have the same id (${item.id}).`, [
        { path: 'items', message: 'ids must be unique' },
      ]);
    seen.add(item.id);
  }
  // Items sent with their id keep it (comments that judge them stay linked); new ones get a fresh one.
  let next = 1;
  const freshId = () => {
    while (seen.has(`item-${next}`)) next += 1;
    seen.add(`item-${next}`);
    return `item-${next}`;
  };
  return items.map((item) => ({
    id: item.id ?? freshId(),
    criterion: item.criterion,
    points: item.points,
    guidance: item.guidance,
  }));
}
