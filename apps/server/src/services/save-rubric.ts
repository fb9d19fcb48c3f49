import type { SaveRubricInput } from '@gradewise/shared/contracts/grading';
import { freshItemId, totalOfItems } from '@gradewise/shared/rubric-items';
import type { z } from 'zod';
import type { RubricItem } from '@gradewise/shared/contracts/grading';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { badRequest, staleSave } from '../lib/errors.ts';
import { describeMoment } from '../lib/timestamps.ts';
import { rubricLockKey, takeTransactionLock } from '../models/locks.ts';
import { selectRubricItemIdsEverUsed } from '../models/rubric-versions.ts';
import { selectRubricForUpdate, type RubricRow } from '../models/rubrics.ts';
import { selectUserById, type UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireOwner } from '../policies/course-access.ts';
import { requestSuggestionRefresh } from './refresh-suggestions.ts';
import { writeRubricVersion, type RubricVersionWrite } from './write-rubric-version.ts';

/**
 * PATCH save-rubric: the instructor's edit becomes the question's rubric. The spec's client sends
 * the question and solution texts only, and then the items stay as they are; items sent with the
 * texts replace them and must add up to the question's points.
 *
 * Every save is a new rubric version (who, when, what changed). An item keeps its identity by its
 * id; changing an item's points or wording re-applies to every saved grade whose comments are tied
 * to it, in the same transaction, each grade's previous row kept (services/write-rubric-version.ts,
 * decision 0022). The answer says how many grades were recomputed.
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
): Promise<RubricVersionWrite> {
  const { question } = requireOwner(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'edit its rubric',
  );
  if (input.items) checkItems(input.items, question.points);
  const written = await ctx.db.transaction(async (tx) => {
    // The advisory lock covers a question without a rubric row yet; the row lock holds off AI drafts.
    await takeTransactionLock(tx, rubricLockKey(question.id));
    const current = await selectRubricForUpdate(tx, question.id);
    if (input.expectedVersion !== undefined && (current?.version ?? null) !== input.expectedVersion) {
      throw await staleRubric(tx, current);
    }
    const items = input.items
      ? withIds(input.items, await reservedItemIds(tx, question.id, current))
      : (current?.items ?? []);
    return writeRubricVersion(tx, {
      question,
      previous: current,
      rubric: {
        questionId: question.id,
        questionText: input.questionText,
        solutionText: input.solutionText,
        items,
        source: 'instructor',
        generationId: current?.generationId ?? null,
        updatedById: user.id,
      },
      writtenById: user.id,
    });
  });
  // Re-applied grades are saved grades: pending suggestions learn from them as after any save.
  if (written.regraded.length > 0) await requestSuggestionRefresh(ctx, question.id, user.id);
  return written;
}

/** Ids a new item may not take: every id the question's rubric uses or ever used. */
async function reservedItemIds(db: Db, questionId: string, current: RubricRow | undefined): Promise<Set<string>> {
  const ids = await selectRubricItemIdsEverUsed(db, questionId);
  for (const item of current?.items ?? []) ids.add(item.id);
  return ids;
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

function checkItems(items: NonNullable<z.output<typeof SaveRubricInput>['items']>, points: number): void {
  if (items.length === 0) throw badRequest('A rubric needs at least one item.');
  const { total, addsUp } = totalOfItems(
    items.map((item) => item.points),
    points,
  );
  if (!addsUp) {
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
}

/**
 * Items sent with their id keep it (comments that judge them stay linked, and a change to them
 * reaches those comments); new ones get a fresh `item-N` that no version of this rubric ever used,
 * so a deleted item's old comments are never tied to a new item that happens to take its place.
 */
function withIds(items: NonNullable<z.output<typeof SaveRubricInput>['items']>, reserved: Set<string>): RubricItem[] {
  const taken = new Set([...reserved, ...items.flatMap((item) => (item.id ? [item.id] : []))]);
  return items.map((item) => ({
    id: item.id ?? freshItemId(taken),
    criterion: item.criterion,
    points: item.points,
    guidance: item.guidance,
  }));
}
