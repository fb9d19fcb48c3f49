import type { RubricItem } from '@gradewise/shared/contracts/grading';
import { inArray } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { users } from '../db/schema.ts';
import { AppError, notFound } from '../lib/errors.ts';
import { isId } from '../lib/ids.ts';
import { selectAssignmentById, type AssignmentRow } from '../models/assignments.ts';
import { selectCountingGrades, selectGradesByIds, type GradeRow } from '../models/grades.ts';
import { selectQuestionInAssignment, type QuestionRow } from '../models/questions.ts';
import {
  countRegradeRequestsOfCourse,
  selectRegradeRequestById,
  selectRegradeRequestsOfCourse,
  type RegradeRequestRow,
} from '../models/regrade-requests.ts';
import { selectRubricByQuestionId, type RubricRow } from '../models/rubrics.ts';
import type { PersonColumns } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import { readStudentIdentities, type StudentIdentities } from './anonymous-grading.ts';
import {
  loadVisibleAssignment,
  loadVisibleCourse,
  requireGrader,
  type AsGrader,
  type AssignmentScope,
} from '../policies/course-access.ts';

const requestNotFound = () => notFound('Regrade request not found.');

/**
 * A regrade request for the staff who may decide it ("may grade": the owner and the course's TAs,
 * decision 0021): a student of the course is told 403, anyone outside it gets 404 as if it did not exist.
 */
export async function loadRegradeRequestForStaff(
  ctx: AppContext,
  user: UserRow,
  requestId: string,
  action: string,
): Promise<{ row: RegradeRequestRow; scope: AsGrader<AssignmentScope>; question: QuestionRow }> {
  if (!isId(requestId)) throw requestNotFound();
  const row = await selectRegradeRequestById(ctx.db, requestId);
  if (!row) throw requestNotFound();
  let scope: AssignmentScope;
  try {
    scope = await loadVisibleAssignment(ctx.db, user, row.assignmentId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw requestNotFound();
    throw error;
  }
  const owned = requireGrader(scope, action);
  const question = await selectQuestionInAssignment(ctx.db, row.assignmentId, row.questionId);
  if (!question) throw requestNotFound();
  return { row, scope: owned, question };
}

/** One request as staff see it, with what it names; presenters/regrade-presenter.ts presents it. */
export interface StaffRegradeSources {
  row: RegradeRequestRow;
  student: PersonColumns;
  /** How staff see the students of the request's assignment (labels while it is anonymous). */
  identities: StudentIdentities;
  resolvedBy: { id: string; name: string } | undefined;
  assignment: { id: string; title: string };
  question: { id: string; title: string | null; points: number };
  rubricItems: readonly RubricItem[];
  disputed: GradeRow | undefined;
  current: GradeRow | undefined;
  /** The submission the current grade is saved on (an earlier version when the student resubmitted). */
  gradedSubmissionId: string;
  resolvedGrade: GradeRow | undefined;
}

/** The course's queue, as read: its requests and how many are open and resolved. */
export interface RegradeQueueView {
  requests: StaffRegradeSources[];
  openCount: number;
  resolvedCount: number;
}

/** GET /api/courses/:id/regrade-requests: the course's queue, open ones first come first served. */
export async function readRegradeQueue(
  ctx: AppContext,
  user: UserRow,
  courseId: string,
  status: 'open' | 'resolved' | 'all',
): Promise<RegradeQueueView> {
  const { course } = requireGrader(await loadVisibleCourse(ctx.db, user, courseId), 'see its regrade requests');
  const [rows, counts] = await Promise.all([
    selectRegradeRequestsOfCourse(ctx.db, course.id, status),
    countRegradeRequestsOfCourse(ctx.db, course.id),
  ]);
  return {
    requests: await loadStaffRegradeSources(ctx, rows),
    openCount: counts.open,
    resolvedCount: counts.resolved,
  };
}

/**
 * What each request names (student, grades, question, rubric) with a handful of set-based reads
 * (people, grades), one read per distinct question (its assignment and rubric) and one of the
 * student identities per distinct assignment, whatever the number of requests. A course's queue
 * spans its assignments, so each request is shown by the rule of its own: an anonymous one's
 * students are labels (services/anonymous-grading.ts).
 */
export async function loadStaffRegradeSources(
  ctx: AppContext,
  rows: RegradeRequestRow[],
): Promise<StaffRegradeSources[]> {
  if (rows.length === 0) return [];
  const { db } = ctx;
  const personIds = [
    ...new Set(rows.flatMap((row) => [row.studentId, ...(row.resolvedById ? [row.resolvedById] : [])])),
  ];
  const gradeIds = rows.flatMap((row) => [row.gradeId, row.resolvedGradeId].filter((id): id is string => id !== null));
  const [people, grades, counting] = await Promise.all([
    db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, personIds)),
    selectGradesByIds(db, gradeIds),
    selectCountingGrades(
      db,
      rows.map((row) => row.submissionId),
    ),
  ]);
  const personById = new Map(people.map((person) => [person.id, person]));
  const questionCache = new Map<
    string,
    Promise<{ assignment: AssignmentRow; question: QuestionRow; rubric: RubricRow | undefined }>
  >();
  const contextOf = (row: RegradeRequestRow) => {
    let loaded = questionCache.get(row.questionId);
    if (!loaded) {
      loaded = (async () => {
        const [assignment, question, rubric] = await Promise.all([
          selectAssignmentById(db, row.assignmentId),
          selectQuestionInAssignment(db, row.assignmentId, row.questionId),
          selectRubricByQuestionId(db, row.questionId),
        ]);
        return { assignment: assignment!, question: question!, rubric };
      })();
      questionCache.set(row.questionId, loaded);
    }
    return loaded;
  };
  const identitiesCache = new Map<string, Promise<StudentIdentities>>();
  const identitiesOf = (assignment: AssignmentRow) => {
    let loaded = identitiesCache.get(assignment.id);
    if (!loaded) {
      const studentIds = rows.filter((row) => row.assignmentId === assignment.id).map((row) => row.studentId);
      loaded = readStudentIdentities(ctx, assignment, [...new Set(studentIds)]);
      identitiesCache.set(assignment.id, loaded);
    }
    return loaded;
  };
  return Promise.all(
    rows.map(async (row) => {
      const { assignment, question, rubric } = await contextOf(row);
      const current = counting.get(row.submissionId);
      return {
        row,
        student: personById.get(row.studentId) ?? { id: row.studentId, name: 'Deleted account', email: '' },
        identities: await identitiesOf(assignment),
        resolvedBy: row.resolvedById ? personById.get(row.resolvedById) : undefined,
        assignment,
        question,
        rubricItems: rubric?.items ?? [],
        disputed: row.gradeId ? grades.get(row.gradeId) : undefined,
        current: current?.grade,
        gradedSubmissionId: current?.gradedSubmissionId ?? row.submissionId,
        resolvedGrade: row.resolvedGradeId ? grades.get(row.resolvedGradeId) : undefined,
      };
    }),
  );
}
