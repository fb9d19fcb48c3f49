import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { anonymousStudents, assignments, enrollments, questions, submissions } from '../db/schema.ts';

/** Student id -> the number they go by on the assignment, for the given students that have one. */
export async function selectAnonymousNumbers(
  db: Db,
  assignmentId: string,
  studentIds: readonly string[],
): Promise<Map<string, number>> {
  if (studentIds.length === 0) return new Map();
  const rows = await db
    .select({ studentId: anonymousStudents.studentId, number: anonymousStudents.number })
    .from(anonymousStudents)
    .where(
      and(eq(anonymousStudents.assignmentId, assignmentId), inArray(anonymousStudents.studentId, [...studentIds])),
    );
  return new Map(rows.map((row) => [row.studentId, row.number]));
}

export async function selectHighestAnonymousNumber(db: Db, assignmentId: string): Promise<number> {
  const [row] = await db
    .select({ highest: sql<number | null>`max(${anonymousStudents.number})` })
    .from(anonymousStudents)
    .where(eq(anonymousStudents.assignmentId, assignmentId));
  return Number(row?.highest ?? 0);
}

export async function insertAnonymousNumbers(
  db: Db,
  assignmentId: string,
  numbered: readonly { studentId: string; number: number }[],
): Promise<void> {
  if (numbered.length === 0) return;
  await db
    .insert(anonymousStudents)
    .values(numbered.map((entry) => ({ assignmentId, ...entry })))
    .onConflictDoNothing();
}

/** Everyone who takes part in the assignment: the course's roster and anyone who submitted to it. */
export async function selectParticipantIds(db: Db, assignmentId: string): Promise<string[]> {
  const enrolled = await db
    .select({ id: enrollments.userId })
    .from(enrollments)
    .innerJoin(assignments, eq(assignments.courseId, enrollments.courseId))
    .where(eq(assignments.id, assignmentId));
  const submitted = await db
    .selectDistinct({ id: submissions.studentId })
    .from(submissions)
    .innerJoin(questions, eq(questions.id, submissions.questionId))
    .where(eq(questions.assignmentId, assignmentId));
  return [...new Set([...enrolled, ...submitted].map((row) => row.id))];
}

export async function updateAssignmentAnonymity(db: Db, assignmentId: string, isAnonymous: boolean): Promise<void> {
  await db.update(assignments).set({ isAnonymous }).where(eq(assignments.id, assignmentId));
}
