import type { GradeReleaseState, QuestionGradeRelease } from '@gradewise/shared/contracts/regrades';
import type { AssignmentRow } from '../models/assignments.ts';
import type { QuestionRow } from '../models/questions.ts';
import { isGradeReleased } from '../policies/grade-release.ts';

export function presentRelease(row: Pick<AssignmentRow, 'gradesHeld' | 'gradesReleasedAt'>): GradeReleaseState {
  return { isHeld: row.gradesHeld, releasedAt: row.gradesReleasedAt?.toISOString() ?? null };
}

export function presentQuestionRelease(assignment: AssignmentRow, question: QuestionRow): QuestionGradeRelease {
  return {
    question: presentRelease(question),
    assignment: presentRelease(assignment),
    isReleased: isGradeReleased(assignment, question),
  };
}
