import type { RubricItem, RubricItemInput } from '@gradewise/shared/contracts/grading';
import { totalOfItems } from '@gradewise/shared/rubric-items';

/**
 * The wizard's rubric items while they are edited: points kept as typed, so "2." or "" can be
 * on the way to a number, and rules checked as the server checks them on save (every item has a
 * criterion and points of 0 or more; the points add up to the question's points, to the hundredth).
 */
export interface ItemDraft {
  /** Client key for React lists. */
  key: string;
  /** The saved item's id: kept so comments that judge the item stay linked. */
  id?: string;
  criterion: string;
  points: string;
  guidance: string;
}

let nextKey = 1;
const freshKey = () => `item-draft-${nextKey++}`;

export function toDrafts(items: readonly RubricItem[]): ItemDraft[] {
  return items.map((item) => ({
    key: freshKey(),
    id: item.id,
    criterion: item.criterion,
    points: String(item.points),
    guidance: item.guidance,
  }));
}

export function emptyDraft(): ItemDraft {
  return { key: freshKey(), criterion: '', points: '0', guidance: '' };
}

export function moveDraft(drafts: readonly ItemDraft[], index: number, offset: -1 | 1): ItemDraft[] {
  const target = index + offset;
  if (index < 0 || index >= drafts.length || target < 0 || target >= drafts.length) return [...drafts];
  const next = [...drafts];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

/** A typed number, or null when it is not one (blank, text, negative, infinite). */
export function parseItemPoints(raw: string): number | null {
  const trimmed = raw.trim().replace(',', '.');
  if (!/^\d*\.?\d+$|^\d+\.$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value >= 0 ? value : null;
}

export interface ItemsCheck {
  total: number;
  isValid: boolean;
  /** Sentences for the person, in list order. */
  problems: string[];
}

export function checkDrafts(drafts: readonly ItemDraft[], questionPoints: number): ItemsCheck {
  const problems: string[] = [];
  if (drafts.length === 0) problems.push('A rubric needs at least one item.');
  const itemPoints: number[] = [];
  drafts.forEach((draft, index) => {
    if (!draft.criterion.trim()) problems.push(`Item ${index + 1} needs a criterion.`);
    const points = parseItemPoints(draft.points);
    if (points === null) problems.push(`Item ${index + 1}: points must be a number of 0 or more.`);
    else itemPoints.push(points);
  });
  const { total, addsUp } = totalOfItems(itemPoints, questionPoints);
  if (drafts.length > 0 && !addsUp) {
    problems.push(`The items add up to ${total} points, but the question is worth ${questionPoints} points.`);
  }
  return { total, isValid: problems.length === 0, problems };
}

/** The items as save-rubric and rubric-trial take them (call only when checkDrafts is valid). */
export function toItemInputs(drafts: readonly ItemDraft[]): RubricItemInput[] {
  return drafts.map((draft) => ({
    ...(draft.id ? { id: draft.id } : {}),
    criterion: draft.criterion.trim(),
    points: parseItemPoints(draft.points) ?? 0,
    guidance: draft.guidance,
  }));
}
