import { computeFinalGrade, roundToHundredths } from '@gradewise/shared/final-grade';
import type { RubricItem } from '@gradewise/shared/contracts/grading';
import type { StoredComment } from '../models/grading-runs.ts';
import type { RubricItemChange } from '../models/rubric-versions.ts';

/**
 * The rules of a rubric change (decision 0022), pure so they can be read and tested in one place.
 *
 * An item is the same item across versions when it keeps its id (the editor sends ids back; new
 * items get ids never used before by the question). Comparing two versions item by item gives the
 * changes; a saved grade is tied to an item through its comments' `rubricItemId`.
 */
export function describeItemChanges(
  before: readonly RubricItem[] | undefined,
  after: readonly RubricItem[],
): RubricItemChange[] {
  const previous = new Map((before ?? []).map((item) => [item.id, item]));
  const changes: RubricItemChange[] = [];
  for (const item of after) {
    const old = previous.get(item.id);
    if (!old) {
      changes.push({ itemId: item.id, kind: 'added', to: item });
      continue;
    }
    previous.delete(item.id);
    if (old.points !== item.points)
      changes.push({ itemId: item.id, kind: 'points', from: old.points, to: item.points });
    if (old.criterion !== item.criterion)
      changes.push({ itemId: item.id, kind: 'wording', from: old.criterion, to: item.criterion });
    if (old.guidance !== item.guidance)
      changes.push({ itemId: item.id, kind: 'guidance', from: old.guidance, to: item.guidance });
  }
  for (const old of previous.values()) changes.push({ itemId: old.id, kind: 'removed', from: old });
  return changes;
}

/** The changes a saved grade follows: an item's points or wording. Guidance, added and removed items leave grades alone. */
export function hasReapplicableChange(changes: readonly RubricItemChange[]): boolean {
  return changes.some((change) => change.kind === 'points' || change.kind === 'wording');
}

/**
 * One grade's comments after the change (Gradescope's rule: a rubric change reaches everyone the
 * item was applied to):
 * - points: a comment tied to the item keeps its SHARE of the item, so a full deduction stays full
 *   and half stays half (4 of 4 becomes 2 of 2; 1 of 4 becomes 0.5 of 2). An item that was worth 0
 *   has no share to keep; its deduction is only capped at the new points.
 * - wording: where the comment quotes the item's old criterion (the built-in grader starts its
 *   comments with it), the quote becomes the new criterion; the grader's own words stay.
 * Comments tied to no changed item are untouched. `changed` is false when nothing moved, and then
 * the grade is not rewritten.
 */
export function reapplyToComments(
  comments: readonly StoredComment[],
  changes: readonly RubricItemChange[],
): { comments: StoredComment[]; changed: boolean } {
  const points = new Map<string, { from: number; to: number }>();
  const wording = new Map<string, { from: string; to: string }>();
  for (const change of changes) {
    if (change.kind === 'points') points.set(change.itemId, change);
    if (change.kind === 'wording') wording.set(change.itemId, change);
  }
  let changed = false;
  const next = comments.map((comment) => {
    if (!comment.rubricItemId) return comment;
    let { text, pointsDeducted } = comment;
    const pointsChange = points.get(comment.rubricItemId);
    if (pointsChange) pointsDeducted = rescaledDeduction(pointsDeducted, pointsChange.from, pointsChange.to);
    const wordingChange = wording.get(comment.rubricItemId);
    if (wordingChange) text = rewordedText(text, wordingChange.from, wordingChange.to);
    if (text === comment.text && pointsDeducted === comment.pointsDeducted) return comment;
    changed = true;
    return { ...comment, text, pointsDeducted };
  });
  return { comments: next, changed };
}

/** The grade a re-applied grade gets: the one rule of every saved grade. */
export function reappliedGrade(questionPoints: number, comments: readonly StoredComment[]): number {
  return computeFinalGrade(questionPoints, comments);
}

function rescaledDeduction(deducted: number, from: number, to: number): number {
  if (from <= 0) return Math.min(deducted, to);
  return Math.min(to, Math.max(0, roundToHundredths((deducted * to) / from)));
}

/** The criterion as comments quote it: spaces collapsed, no closing punctuation ("Units." -> "Units"). */
function quotedForm(criterion: string): string {
  return criterion
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.:;]+$/, '');
}

function rewordedText(text: string, from: string, to: string): string {
  const exact = from.trim();
  if (exact && text.includes(exact)) return text.split(exact).join(to.trim());
  const quoted = quotedForm(from);
  if (quoted && text.includes(quoted)) return text.split(quoted).join(quotedForm(to));
  return text;
}
