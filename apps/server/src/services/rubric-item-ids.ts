import type { RubricItem } from '@gradewise/shared/contracts/grading';
import { freshItemId } from '@gradewise/shared/rubric-items';

/*
 * Rubric item identity: an item is the same item across versions when it keeps its id, and comments
 * are tied to items by id. A new item therefore never takes an id any version of the question's
 * rubric used before, or a deleted item's old comments would be tied to it.
 */

/**
 * An AI draft replaces the whole rubric: its items are new items. Ids it numbered itself that an
 * earlier version used get fresh ones, so no saved grade is tied to an item it never judged.
 */
export function withUnusedIds(items: readonly RubricItem[], everUsed: ReadonlySet<string>): RubricItem[] {
  const taken = new Set([...everUsed, ...items.map((item) => item.id)]);
  return items.map((item) => (everUsed.has(item.id) ? { ...item, id: freshItemId(taken) } : item));
}
