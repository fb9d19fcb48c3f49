import { AUDIT_CSV_COLUMNS } from '@gradewise/shared/contracts/grade-audit';
import type { AppContext } from '../context.ts';
import { toCsv, type CsvCell } from '../lib/csv.ts';
import { selectAllGradesOfQuestions } from '../models/grades.ts';
import type { AssignmentRow } from '../models/assignments.ts';
import { selectQuestionsOfAssignment, type QuestionRow } from '../models/questions.ts';
import { selectPeopleByIds, type UserRow } from '../models/users.ts';
import { loadVisibleAssignment, loadVisibleQuestion, requireGrader } from '../policies/course-access.ts';
import { readStudentIdentities } from './anonymous-grading.ts';
import { slug, type GradesCsv } from './export-grades.ts';
import { DELETED_ACCOUNT_NAME } from './manage-account.ts';
import { buildAuditEntries } from './grade-audit.ts';

const REASONS = { save: 'Saved', group: 'Applied to group', 'rubric-change': 'Rubric change' } as const;

/** GET /api/assignments/:assignmentId/audit.csv: the audit trail of every question of the assignment. */
export async function exportAssignmentAudit(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string },
): Promise<GradesCsv> {
  const { assignment } = requireGrader(
    await loadVisibleAssignment(ctx.db, user, params.assignmentId),
    'download the audit trail of its grades',
  );
  const questions = await selectQuestionsOfAssignment(ctx.db, assignment.id);
  return {
    filename: `${slug(assignment.title, 'assignment')}-audit.csv`,
    csv: await buildAuditCsv(ctx, assignment, questions),
  };
}

/** GET .../questions/:questionId/audit.csv: the same for one question. */
export async function exportQuestionAudit(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
): Promise<GradesCsv> {
  const { assignment, question } = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'download the audit trail of its grades',
  );
  const filename = `${slug(assignment.title, 'assignment')}-${slug(question.title ?? '', 'question')}-audit.csv`;
  return { filename, csv: await buildAuditCsv(ctx, assignment, [question]) };
}

/**
 * One row per saved grade row (every save, group application and rubric re-application), by
 * question, student, version, then time: who saved what under which rubric version, the AI
 * suggestion it started from and what was changed. Text cells go through toCsv's formula guard.
 * Students are shown as staff see them on the assignment (services/anonymous-grading.ts): while
 * it is anonymous, "Student N" with no email, listed by label.
 */
async function buildAuditCsv(
  ctx: AppContext,
  assignment: AssignmentRow,
  questions: readonly QuestionRow[],
): Promise<string> {
  const stored = await selectAllGradesOfQuestions(
    ctx.db,
    questions.map((question) => question.id),
  );
  const students = await selectPeopleByIds(
    ctx.db,
    stored.map((row) => row.studentId),
  );
  const identities = await readStudentIdentities(ctx, assignment, [...new Set(stored.map((row) => row.studentId))]);
  const studentOf = (id: string) => {
    const person = students.get(id);
    return { id, name: person?.name || DELETED_ACCOUNT_NAME, email: person?.email ?? '' };
  };
  // Questions in the assignment's order, students as staff lists order them (by name, or by label
  // while anonymous); a stable sort keeps each answer's rows by version and time.
  const order = new Map(questions.map((question, index) => [question.id, index]));
  const rows = [...stored].sort(
    (a, b) =>
      order.get(a.questionId)! - order.get(b.questionId)! ||
      identities.compare(studentOf(a.studentId), studentOf(b.studentId)),
  );
  const entries = await buildAuditEntries(
    ctx,
    rows.map((row) => row.grade),
  );
  const titles = new Map(questions.map((question, index) => [question.id, question.title ?? `Question ${index + 1}`]));
  const points = new Map(questions.map((question) => [question.id, question.points]));
  const body = rows.map((row, index): CsvCell[] => {
    const entry = entries[index]!;
    const student = identities.person(studentOf(row.studentId));
    const suggestion = entry.aiSuggestion;
    return [
      titles.get(row.questionId),
      student.name,
      student.email,
      row.submissionVersion,
      entry.savedAt,
      entry.savedBy.name,
      REASONS[entry.reason],
      entry.rubricVersion,
      entry.grade,
      points.get(row.questionId),
      suggestion ? `${suggestion.grader.kind} (${suggestion.grader.provider})` : null,
      suggestion?.grader.model,
      suggestion?.score,
      suggestion?.confidence,
      entry.changesFromSuggestion?.summary.join(' '),
      entry.changesFromPrevious?.summary.join(' '),
      entry.comments
        .map((comment) => `${comment.accepted ? '' : '[declined] '}−${comment.pointsDeducted}: ${comment.text}`)
        .join(' | '),
      entry.isCurrent ? 'Yes' : 'No',
    ];
  });
  return toCsv([[...AUDIT_CSV_COLUMNS], ...body]);
}
