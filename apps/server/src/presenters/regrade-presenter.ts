import type {
  RegradeQueue,
  RegradeRequestForStaff,
  RegradeRequestForStudent,
  StudentRegradeState,
} from '@gradewise/shared/contracts/regrades';
import type { AssignmentRow } from '../models/assignments.ts';
import type { GradeRow } from '../models/grades.ts';
import type { StoredComment } from '../models/grading-runs.ts';
import type { RegradeRequestRow } from '../models/regrade-requests.ts';
import type { RegradeQueueView, StaffRegradeSources } from '../services/read-regrade-requests.ts';
import type { RegradeEligibility } from '../services/regrade-eligibility.ts';
import { presentComments } from './grading-presenter.ts';

const TARGET_MAX = 140;

/**
 * What the student disputed, in their words: the comment of their report on that rubric item (a
 * student never sees the rubric itself, see review-presenter.ts), or "Whole answer".
 */
export function describeRegradeTarget(rubricItemId: string | null, comments: readonly StoredComment[]): string {
  if (rubricItemId === null) return 'Whole answer';
  const comment = comments.find((candidate) => candidate.accepted && candidate.rubricItemId === rubricItemId);
  if (!comment) return 'A rubric item';
  const text = comment.text.trim();
  return text.length > TARGET_MAX ? `${text.slice(0, TARGET_MAX - 1)}…` : text || 'A rubric item';
}

export function presentRegradeRequestForStudent(
  row: RegradeRequestRow,
  disputed: GradeRow | undefined,
): RegradeRequestForStudent {
  return {
    _id: row.id,
    questionId: row.questionId,
    submissionId: row.submissionId,
    rubricItemId: row.rubricItemId,
    target: describeRegradeTarget(row.rubricItemId, disputed?.comments ?? []),
    reason: row.reason,
    status: row.status,
    reply: row.reply,
    createdAt: row.createdAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
  };
}

export function presentRegradeRequestForStaff(sources: StaffRegradeSources): RegradeRequestForStaff {
  const { row } = sources;
  const item = row.rubricItemId
    ? sources.rubricItems.find((candidate) => candidate.id === row.rubricItemId)
    : undefined;
  return {
    _id: row.id,
    status: row.status,
    reason: row.reason,
    reply: row.reply,
    createdAt: row.createdAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolvedBy: sources.resolvedBy ? { _id: sources.resolvedBy.id, name: sources.resolvedBy.name } : null,
    // The one presenter of student identity (services/anonymous-grading.ts): a label while anonymous.
    student: sources.identities.person(sources.student),
    assignment: { _id: sources.assignment.id, title: sources.assignment.title },
    question: { _id: sources.question.id, title: sources.question.title, points: sources.question.points },
    submissionId: sources.gradedSubmissionId,
    rubricItemId: row.rubricItemId,
    rubricItem: item ? { id: item.id, criterion: item.criterion, points: item.points } : null,
    disputedGrade: sources.disputed?.grade ?? null,
    currentGrade: sources.current?.grade ?? null,
    comments: presentComments(sources.current?.comments ?? sources.disputed?.comments ?? [], sources.rubricItems),
    aiRecheck: row.aiRecheck,
    resolvedGrade: sources.resolvedGrade?.grade ?? null,
  };
}

export function presentRegradeQueue(queue: RegradeQueueView): RegradeQueue {
  return {
    requests: queue.requests.map(presentRegradeRequestForStaff),
    openCount: queue.openCount,
    resolvedCount: queue.resolvedCount,
  };
}

/** Whether the student may open another regrade request, as the report shows it. */
export function presentEligibility(
  eligibility: RegradeEligibility,
  assignment: AssignmentRow,
): Omit<StudentRegradeState, 'requests'> {
  return {
    canRequest: eligibility.canRequest,
    blockedReason: eligibility.blockedReason,
    windowClosesAt: eligibility.windowClosesAt?.toISOString() ?? null,
    windowDays: assignment.regradeWindowDays,
    used: eligibility.used,
    limit: eligibility.limit,
  };
}
