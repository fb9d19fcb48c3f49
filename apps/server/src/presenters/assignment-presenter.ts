import type { AssignmentDetail, AssignmentSummary } from '@gradewise/shared/contracts/assignments';
import type { AssignmentSummaryRow } from '../models/assignments.ts';
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
