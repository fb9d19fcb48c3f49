import { GRADES_CSV_FIXED_COLUMNS } from '@gradewise/shared/contracts/review';
import { roundToHundredths } from '@gradewise/shared/final-grade';
import type { AppContext } from '../context.ts';
import { toCsv, type CsvCell } from '../lib/csv.ts';
import { selectRosterOfCourse } from '../models/enrollments.ts';
import { selectLatestSubmissionsOfQuestions } from '../models/gradebook.ts';
import { selectCountingGrades } from '../models/grades.ts';
import { selectQuestionsOfAssignment, type QuestionRow } from '../models/questions.ts';
import type { PersonColumns } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleAssignment, loadVisibleQuestion, requireOwner } from '../policies/course-access.ts';
import { recordIdentityReveal } from './anonymous-grading.ts';

export interface GradesCsv {
  /** ASCII only, safe in a Content-Disposition header. */
  filename: string;
  csv: string;
}

/**
 * GET /api/assignments/:assignmentId/grades.csv: one column per question of the assignment. Named
 * for a gradebook, so while the assignment is anonymous a download is the owner's explicit reveal
 * of names, and is recorded (services/anonymous-grading.ts).
 */
export async function exportAssignmentGrades(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string },
): Promise<GradesCsv> {
  const { assignment, course } = requireOwner(
    await loadVisibleAssignment(ctx.db, user, params.assignmentId),
    'download its grades',
  );
  const questions = await selectQuestionsOfAssignment(ctx.db, assignment.id);
  const csv = await buildGradesCsv(ctx, course.id, questions);
  await recordIdentityReveal(ctx.db, assignment, { kind: 'grades-csv', revealedById: user.id });
  return { filename: `${slug(assignment.title, 'assignment')}-grades.csv`, csv };
}

/** GET .../questions/:questionId/grades.csv: the same layout with this question alone. */
export async function exportQuestionGrades(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
): Promise<GradesCsv> {
  const { assignment, course, question } = requireOwner(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'download its grades',
  );
  const filename = `${slug(assignment.title, 'assignment')}-${slug(question.title ?? '', 'question')}-grades.csv`;
  const csv = await buildGradesCsv(ctx, course.id, [question]);
  await recordIdentityReveal(ctx.db, assignment, {
    kind: 'grades-csv',
    revealedById: user.id,
    questionId: question.id,
  });
  return { filename, csv };
}

/**
 * Rows: every student on the roster, plus anyone who answered and has left it since (their grades
 * still count), by name. A question cell is the grade that counts for the student's latest
 * submission — its own saved grade, else the one saved on an earlier version (a resubmission never
 * blanks a saved grade); it is empty when none was ever saved — an AI suggestion is not a grade
 * until an instructor saves it.
 */
async function buildGradesCsv(ctx: AppContext, courseId: string, questions: readonly QuestionRow[]): Promise<string> {
  const [roster, latest] = await Promise.all([
    selectRosterOfCourse(ctx.db, courseId),
    selectLatestSubmissionsOfQuestions(
      ctx.db,
      questions.map((question) => question.id),
    ),
  ]);
  const grades = await selectCountingGrades(
    ctx.db,
    latest.map((cell) => cell.submissionId),
  );

  const students = new Map<string, PersonColumns>(roster.map((student) => [student.id, student]));
  const cells = new Map<string, { grade: number | undefined; isLate: boolean }>();
  for (const cell of latest) {
    if (!students.has(cell.student.id)) students.set(cell.student.id, cell.student);
    cells.set(`${cell.student.id}:${cell.questionId}`, {
      grade: grades.get(cell.submissionId)?.grade.grade,
      isLate: cell.isLate,
    });
  }

  const totalPoints = roundToHundredths(questions.reduce((sum, question) => sum + question.points, 0));
  const header: CsvCell[] = [
    GRADES_CSV_FIXED_COLUMNS.name,
    GRADES_CSV_FIXED_COLUMNS.email,
    ...questions.map((question, index) => `${question.title ?? `Question ${index + 1}`} (${question.points} pts)`),
    `${GRADES_CSV_FIXED_COLUMNS.total} (${totalPoints} pts)`,
    GRADES_CSV_FIXED_COLUMNS.late,
  ];
  const rows = [...students.values()].sort(byNameThenEmail).map((student): CsvCell[] => {
    const answers = questions.map((question) => cells.get(`${student.id}:${question.id}`));
    const saved = answers.flatMap((answer) => (answer?.grade === undefined ? [] : [answer.grade]));
    const submitted = answers.filter((answer) => answer !== undefined);
    return [
      student.name,
      student.email,
      ...answers.map((answer) => answer?.grade ?? null),
      saved.length > 0 ? roundToHundredths(saved.reduce((sum, grade) => sum + grade, 0)) : null,
      // Late says whether any answer counted here came in after the deadline; blank without answers.
      submitted.length === 0 ? null : submitted.some((answer) => answer.isLate) ? 'Yes' : 'No',
    ];
  });
  return toCsv([header, ...rows]);
}

function byNameThenEmail(a: PersonColumns, b: PersonColumns): number {
  return a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.email.localeCompare(b.email);
}

/** A file name from a title: ASCII letters and digits joined by dashes, so any header carries it. */
export function slug(title: string, fallback: string): string {
  const cleaned = title
    .normalize('NFKD')
    // Accents come apart under NFKD; drop the marks so "Ü" gives "U", not "U-".
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .toLowerCase();
  return cleaned || fallback;
}
