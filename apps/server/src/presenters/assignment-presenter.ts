import type {
  AssignmentDetail,
  AssignmentSummary,
  IdentityReveal,
  IdentityRevealsOutput,
} from '@gradewise/shared/contracts/assignments';
import type { AssignmentSummaryRow } from '../models/assignments.ts';
import type { IdentityRevealRow } from '../models/identity-reveals.ts';
import { mayGrade, type CourseRole } from '../policies/course-access.ts';

export function presentAssignmentSummary(row: AssignmentSummaryRow): AssignmentSummary {
  return {
    _id: row.assignment.id,
    title: row.assignment.title,
    points: row.points,
    deadline: row.assignment.deadline ? row.assignment.deadline.toISOString() : null,
    course: { _id: row.course.id, title: row.course.title },
    questionCount: row.questionCount,
    createdAt: row.assignment.createdAt.toISOString(),
    allowsResubmission: row.assignment.allowsResubmission,
    isAnonymous: row.assignment.isAnonymous,
    gradesHeld: row.assignment.gradesHeld,
    gradesReleasedAt: row.assignment.gradesReleasedAt?.toISOString() ?? null,
    regradeWindowDays: row.assignment.regradeWindowDays,
    regradeRequestLimit: row.assignment.regradeRequestLimit,
  };
}

export function presentAssignmentDetail(row: AssignmentSummaryRow, role: CourseRole): AssignmentDetail {
  if (!mayGrade(role)) return { ...presentAssignmentSummary(row), viewer: 'student' };
  return { ...presentAssignmentSummary(row), viewer: 'staff', staffRole: role };
}

function describeReveal(reveal: IdentityRevealRow, name: string): string {
  if (reveal.kind === 'anonymity-off') return `${name} turned anonymous grading off: graders see names again.`;
  return reveal.questionId
    ? `${name} downloaded a question's grades CSV, with names.`
    : `${name} downloaded the assignment's grades CSV, with names.`;
}

export function presentIdentityReveals(
  rows: readonly { reveal: IdentityRevealRow; revealedBy: { id: string; name: string } }[],
): IdentityRevealsOutput {
  return {
    reveals: rows.map(({ reveal, revealedBy }): IdentityReveal => ({
      _id: reveal.id,
      kind: reveal.kind,
      questionId: reveal.questionId,
      revealedBy: { _id: revealedBy.id, name: revealedBy.name },
      revealedAt: reveal.createdAt.toISOString(),
      description: describeReveal(reveal, revealedBy.name),
    })),
  };
}
