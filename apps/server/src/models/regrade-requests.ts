import { and, asc, count, desc, eq, ne, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { assignments, regradeRequests } from '../db/schema.ts';
import type { RegradeAiRecheck } from '@gradewise/shared/contracts/regrades';

export type RegradeRequestRow = typeof regradeRequests.$inferSelect;
export type NewRegradeRequestRow = typeof regradeRequests.$inferInsert;

/** The key of the one-open-request-per-item index: the item id, or '' for the whole answer. */
export const regradeItemKey = (rubricItemId: string | null) => rubricItemId ?? '';

export async function insertRegradeRequest(db: Db, row: NewRegradeRequestRow): Promise<RegradeRequestRow> {
  const [inserted] = await db.insert(regradeRequests).values(row).returning();
  return inserted!;
}

export async function selectRegradeRequestById(db: Db, id: string): Promise<RegradeRequestRow | undefined> {
  const [row] = await db.select().from(regradeRequests).where(eq(regradeRequests.id, id)).limit(1);
  return row;
}

/** Every request (any status) one student made on one assignment: what the limit counts. */
export async function countRegradeRequestsOfStudent(db: Db, assignmentId: string, studentId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(regradeRequests)
    .where(and(eq(regradeRequests.assignmentId, assignmentId), eq(regradeRequests.studentId, studentId)));
  return Number(row?.n ?? 0);
}

export async function selectOpenRegradeRequest(
  db: Db,
  questionId: string,
  studentId: string,
  itemKey: string,
): Promise<RegradeRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(regradeRequests)
    .where(
      and(
        eq(regradeRequests.questionId, questionId),
        eq(regradeRequests.studentId, studentId),
        eq(regradeRequests.itemKey, itemKey),
        eq(regradeRequests.status, 'open'),
      ),
    )
    .limit(1);
  return row;
}

/** One student's requests on one question, newest first. */
export async function selectRegradeRequestsOfStudent(
  db: Db,
  questionId: string,
  studentId: string,
): Promise<RegradeRequestRow[]> {
  const rows = await db
    .select()
    .from(regradeRequests)
    .where(and(eq(regradeRequests.questionId, questionId), eq(regradeRequests.studentId, studentId)))
    .orderBy(desc(regradeRequests.createdAt), desc(regradeRequests.id));
  return rows;
}

/** A course's requests: open ones oldest first (first come, first served), resolved ones newest first. */
export async function selectRegradeRequestsOfCourse(
  db: Db,
  courseId: string,
  status: 'open' | 'resolved' | 'all',
): Promise<RegradeRequestRow[]> {
  const where: SQL[] = [eq(assignments.courseId, courseId)];
  if (status === 'open') where.push(eq(regradeRequests.status, 'open'));
  if (status === 'resolved') where.push(ne(regradeRequests.status, 'open'));
  const rows = await db
    .select({ request: regradeRequests })
    .from(regradeRequests)
    .innerJoin(assignments, eq(assignments.id, regradeRequests.assignmentId))
    .where(and(...where))
    .orderBy(
      status === 'open' ? asc(regradeRequests.createdAt) : desc(regradeRequests.createdAt),
      asc(regradeRequests.id),
    );
  return rows.map((row) => row.request);
}

export async function countRegradeRequestsOfCourse(
  db: Db,
  courseId: string,
): Promise<{ open: number; resolved: number }> {
  const rows = await db
    .select({ status: regradeRequests.status, n: count() })
    .from(regradeRequests)
    .innerJoin(assignments, eq(assignments.id, regradeRequests.assignmentId))
    .where(eq(assignments.courseId, courseId))
    .groupBy(regradeRequests.status);
  let open = 0;
  let resolved = 0;
  for (const row of rows) {
    if (row.status === 'open') open += Number(row.n);
    else resolved += Number(row.n);
  }
  return { open, resolved };
}

/**
 * Resolves a request only if it is still open (returns undefined otherwise), so of two staff
 * resolving at once exactly one wins; run it in the transaction that saves the new grade.
 */
export async function resolveOpenRegradeRequest(
  db: Db,
  id: string,
  resolution: Pick<NewRegradeRequestRow, 'status' | 'reply' | 'resolvedById' | 'resolvedAt' | 'resolvedGradeId'>,
): Promise<RegradeRequestRow | undefined> {
  const [row] = await db
    .update(regradeRequests)
    .set(resolution)
    .where(and(eq(regradeRequests.id, id), eq(regradeRequests.status, 'open')))
    .returning();
  return row;
}

export async function updateRegradeAiRecheck(
  db: Db,
  id: string,
  aiRecheck: RegradeAiRecheck,
): Promise<RegradeRequestRow> {
  const [row] = await db.update(regradeRequests).set({ aiRecheck }).where(eq(regradeRequests.id, id)).returning();
  return row!;
}
