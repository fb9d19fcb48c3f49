import { GRADE_COMMENT_TEXT_MAX } from '@gradewise/shared/contracts/grading';
import { computeFinalGrade, roundToHundredths } from '@gradewise/shared/final-grade';
import { POINTS_TOLERANCE, isSamePoints } from '@gradewise/shared/points';
import { badRequest } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import type { StoredComment } from '../models/grading-runs.ts';

/**
 * The comments that give an accepted regrade's new score, so the grade is saved like any other
 * (points minus accepted deductions, decision 0023) and its comments still explain it:
 * - a lower score adds one accepted comment, on the disputed item, deducting the difference, with
 *   the reply as its text;
 * - a higher score gives points back from the accepted deductions of the disputed item (of every
 *   item for the whole answer), largest first. When those deductions cannot cover it, the change
 *   is not a regrade of that item: 400, and staff regrade the answer on the grading screen.
 */
export function adjustCommentsForRegrade(input: {
  comments: readonly StoredComment[];
  rubricItemId: string | null;
  targetGrade: number;
  points: number;
  reply: string;
}): StoredComment[] {
  const { points, rubricItemId, reply } = input;
  const target = roundToHundredths(input.targetGrade);
  if (target < 0 || target > points) {
    throw badRequest(`The grade must be between 0 and ${points}.`, [
      { path: 'grade', message: `must be between 0 and ${points}` },
    ]);
  }
  const comments = input.comments.map((comment) => ({ ...comment }));
  const delta = roundToHundredths(target - computeFinalGrade(points, comments));
  if (delta < 0) {
    comments.push({
      id: newId(),
      text: `Regrade: ${reply}`.slice(0, GRADE_COMMENT_TEXT_MAX),
      pointsDeducted: -delta,
      accepted: true,
      rubricItemId,
    });
  } else if (delta > 0) {
    const givingBack = comments
      .filter(
        (comment) =>
          comment.accepted &&
          comment.pointsDeducted > 0 &&
          (rubricItemId === null || comment.rubricItemId === rubricItemId),
      )
      .sort((a, b) => b.pointsDeducted - a.pointsDeducted);
    let remaining = delta;
    for (const comment of givingBack) {
      if (remaining <= POINTS_TOLERANCE) break;
      const back = Math.min(comment.pointsDeducted, remaining);
      comment.pointsDeducted = roundToHundredths(comment.pointsDeducted - back);
      remaining = roundToHundredths(remaining - back);
    }
    if (remaining > POINTS_TOLERANCE) throw cannotGiveBack(rubricItemId, delta - remaining, target);
  }
  if (!isSamePoints(computeFinalGrade(points, comments), target)) {
    throw cannotGiveBack(rubricItemId, 0, target);
  }
  return comments;
}

function cannotGiveBack(rubricItemId: string | null, available: number, target: number) {
  const where = rubricItemId === null ? "the answer's deductions" : "this item's deductions";
  return badRequest(
    `A grade of ${target} needs more points back than ${where} give (${roundToHundredths(available)}). ` +
      'To change other items too, regrade the answer on the grading screen, then accept without a grade.',
    [{ path: 'grade', message: 'is more than the disputed deductions give back' }],
  );
}
