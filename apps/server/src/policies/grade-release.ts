import type { AssignmentRow } from '../models/assignments.ts';
import type { QuestionRow } from '../models/questions.ts';

/**
 * When a student sees a saved grade (decision 0023), the one home of the rule:
 * - a grade is visible to its student only while neither its assignment nor its question holds
 *   grades. Nothing holds them by default, so a grade is released when it is saved, as before;
 * - while held, every student-facing answer treats the grade as not there (no score, no
 *   comments, no AI-use note) and says only that it is withheld;
 * - staff always see every grade.
 * Releasing clears the hold and records when, because a regrade window counts from the moment the
 * student could first see the grade (see regradeWindowStart).
 */
type Releasable = Pick<AssignmentRow, 'gradesHeld' | 'gradesReleasedAt'>;

export function isGradeReleased(assignment: Releasable, question: Pick<QuestionRow, 'gradesHeld'>): boolean {
  return !assignment.gradesHeld && !question.gradesHeld;
}

/**
 * When the student could first see this grade: it was saved, and any hold on it was lifted. A newer
 * save (an accepted regrade, a corrected grade) is a new decision the student may dispute again.
 */
export function regradeWindowStart(
  assignment: Releasable,
  question: Pick<QuestionRow, 'gradesReleasedAt'>,
  gradeSavedAt: Date,
): Date {
  const moments = [gradeSavedAt, assignment.gradesReleasedAt, question.gradesReleasedAt].filter(
    (moment): moment is Date => moment !== null,
  );
  return new Date(Math.max(...moments.map((moment) => moment.getTime())));
}

const DAY_MS = 86_400_000;

/** The end of the regrade window of a grade visible since `start`; null when the assignment takes none. */
export function regradeWindowEnd(assignment: Pick<AssignmentRow, 'regradeWindowDays'>, start: Date): Date | null {
  if (assignment.regradeWindowDays <= 0) return null;
  return new Date(start.getTime() + assignment.regradeWindowDays * DAY_MS);
}
