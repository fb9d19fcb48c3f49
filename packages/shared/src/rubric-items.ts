import { roundToHundredths } from './final-grade.ts';
import { isSamePoints } from './points.ts';

/**
 * The rules of a rubric's items, on both sides: their points add up to the question's points (to
 * the hundredth), and each has an id `item-N` that comments point at.
 */

/** The items' total, to the hundredth, and whether it is the question's points. */
export function totalOfItems(
  itemPoints: readonly number[],
  questionPoints: number,
): { total: number; addsUp: boolean } {
  const total = roundToHundredths(itemPoints.reduce((sum, points) => sum + points, 0));
  return { total, addsUp: isSamePoints(total, questionPoints) };
}

/** The id of the item at `position` (1-based) of a rubric numbered from scratch. */
export function rubricItemId(position: number): string {
  return `item-${position}`;
}

/**
 * The lowest `item-N` not in `taken` (which it then joins): a new item never takes an id in use,
 * or comments tied to the old item would be tied to it.
 */
export function freshItemId(taken: Set<string>): string {
  let next = 1;
  while (taken.has(rubricItemId(next))) next += 1;
  const id = rubricItemId(next);
  taken.add(id);
  return id;
}
