import type { Db } from '../db/client.ts';
import { describeMoment } from '../lib/timestamps.ts';
import type { AssignmentRow } from '../models/assignments.ts';
import type { CountingGrade } from '../models/grades.ts';
import type { QuestionRow } from '../models/questions.ts';
import { countRegradeRequestsOfStudent } from '../models/regrade-requests.ts';
import { isGradeReleased, regradeWindowEnd, regradeWindowStart } from '../policies/grade-release.ts';

export interface RegradeEligibility {
  canRequest: boolean;
  /** Why not, in words a student understands; null when they may. */
  blockedReason: string | null;
  windowClosesAt: Date | null;
  used: number;
  limit: number;
}

/**
 * Whether a student may open a regrade request on their answer now: the one home of the rules
 * (decision 0023), used both to show the state on the report and to refuse a request.
 * In order: the answer has a saved grade; it is released; the assignment takes requests; the
 * window (days after the grade became visible) is still open; the student has requests left on
 * the assignment (every request counts, whatever its outcome: the limit bounds the staff's work).
 */
export async function readRegradeEligibility(
  db: Db,
  scope: { assignment: AssignmentRow; question: QuestionRow },
  studentId: string,
  counting: CountingGrade | undefined,
  now: Date,
): Promise<RegradeEligibility> {
  const { assignment, question } = scope;
  const used = await countRegradeRequestsOfStudent(db, assignment.id, studentId);
  const limit = assignment.regradeRequestLimit;
  const windowClosesAt = counting
    ? regradeWindowEnd(assignment, regradeWindowStart(assignment, question, counting.grade.createdAt))
    : null;
  const blocked = (blockedReason: string): RegradeEligibility => ({
    canRequest: false,
    blockedReason,
    windowClosesAt,
    used,
    limit,
  });
  if (!counting) return blocked('This answer has not been graded yet, so there is no grade to look at again.');
  if (!isGradeReleased(assignment, question)) return blocked('Grades for this question have not been released yet.');
  if (assignment.regradeWindowDays <= 0 || !windowClosesAt) {
    return blocked('The instructor does not take regrade requests for this assignment.');
  }
  if (now.getTime() > windowClosesAt.getTime()) {
    return blocked(`The regrade window for this grade closed at ${describeMoment(windowClosesAt)}.`);
  }
  if (used >= limit) {
    return blocked(
      limit === 0
        ? 'The instructor does not take regrade requests for this assignment.'
        : `You have used all ${limit} regrade request${limit === 1 ? '' : 's'} for this assignment.`,
    );
  }
  return { canRequest: true, blockedReason: null, windowClosesAt, used, limit };
}
