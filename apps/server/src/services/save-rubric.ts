import type { SaveRubricInput } from '@gradewise/shared/contracts/grading';
import { roundToHundredths } from '@gradewise/shared/final-grade';
import type { z } from 'zod';
import type { RubricItem } from '../ai/grader-types.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { badRequest, staleSave } from '../lib/errors.ts';
import { describeMoment } from '../lib/timestamps.ts';
import { rubricLockKey, takeTransactionLock } from '../models/locks.ts';
import { selectRubricForUpdate, upsertRubric, type RubricRow } from '../models/rubrics.ts';
import { selectUserById, type UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireOwner } from '../policies/course-access.ts';

/** Points are compared to the hundredth: 3.33 + 3.33 + 3.34 is 10. */
const POINTS_TOLERANCE = 0.005;

/**
 * PATCH save-rubric: the instructor's edit becomes the question's rubric. The spec's client sends
 * the question and solution texts only, and then the items stay as they are; items sent with the
 * texts replace them and must add up to the question's points. Saved grades are never touched.
 *
 * Optimistic concurrency: with `expectedVersion` (the version the editor loaded) the save is
 * refused with 409 when anyone — another instructor's tab, an AI draft — wrote the rubric since.
 * The check and the write run in one transaction holding the rubric's lock, so of two saves of one
 * loaded version exactly one wins.
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
  const checked = input.items ? checkedItems(input.items, question.points) : undefined;
  return ctx.db.transaction(async (tx) => {
    // The advisory lock covers a question without a rubric row yet; the row lock holds off AI drafts.
    await takeTransactionLock(tx, rubricLockKey(question.id));
    const current = await selectRubricForUpdate(tx, question.id);
    if (input.expectedVersion !== undefined && (current?.version ?? null) !== input.expectedVersion) {
      throw await staleRubric(tx, current);
    }
    return upsertRubric(tx, {
      questionId: question.id,
      questionText: input.questionText,
      solutionText: input.solutionText,
      items: checked ?? current?.items ?? [],
      source: 'instructor',
      generationId: current?.generationId ?? null,
      updatedById: user.id,
    });
  });
}

async function staleRubric(db: Db, current: RubricRow | undefined) {
  if (!current) {
    return staleSave('The rubric you opened no longer exists. Reload to start from the current state.', {
      kind: 'rubric',
      id: '0',
      savedBy: null,
      savedAt: new Date().toISOString(),
    });
  }
  const author = current.updatedById ? await selectUserById(db, current.updatedById) : undefined;
  const what =
    current.source === 'instructor'
      ? `${author?.name ?? 'Someone'} saved a newer version of this rubric`
      : `An AI draft${author ? ` requested by ${author.name}` : ''} replaced this rubric`;
  return staleSave(
    `${what} (version ${current.version}) at ${describeMoment(current.updatedAt)}, after you opened it. ` +
      'Reload to see it before saving your changes.',
    {
      kind: 'rubric',
      id: String(current.version),
      savedBy: author ? { _id: author.id, name: author.name } : null,
      savedAt: current.updatedAt.toISOString(),
      version: current.version,
    },
  );
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
