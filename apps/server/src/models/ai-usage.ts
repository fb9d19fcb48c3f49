import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { aiCharges, aiUsageCounts, assignments, courses, questions } from '../db/schema.ts';

/** One counter of one limit: whose it is and which fixed window it counts. */
export interface UsageKey {
  limitName: string;
  subjectId: string;
  windowStart: Date;
}

/**
 * Adds `amount` to every counter and answers each new count, in the order given: one multi-row
 * upsert (it was one statement per counter, four per provider call; issue 11). PostgreSQL inserts
 * or updates the rows in the order of the VALUES list, so callers pass the keys in one fixed order
 * and run this in a transaction: concurrent calls lock the rows in the same order (no deadlock) and
 * each sees the count the other committed.
 */
export async function incrementUsageCounts(db: Db, keys: readonly UsageKey[], amount: number): Promise<number[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .insert(aiUsageCounts)
    .values(keys.map((key) => ({ ...key, count: amount })))
    .onConflictDoUpdate({
      target: [aiUsageCounts.limitName, aiUsageCounts.subjectId, aiUsageCounts.windowStart],
      set: { count: sql`${aiUsageCounts.count} + ${amount}` },
    })
    .returning({
      limitName: aiUsageCounts.limitName,
      subjectId: aiUsageCounts.subjectId,
      windowStart: aiUsageCounts.windowStart,
      count: aiUsageCounts.count,
    });
  // RETURNING's order is not promised: each count is matched to its key.
  const keyOf = (key: UsageKey) => `${key.limitName}\u0000${key.subjectId}\u0000${key.windowStart.getTime()}`;
  const counts = new Map(rows.map((row) => [keyOf(row), row.count]));
  return keys.map((key) => {
    const count = counts.get(keyOf(key));
    if (count === undefined) throw new Error(`No usage count came back for ${key.limitName} of ${key.subjectId}`);
    return count;
  });
}

/** The current count of each counter (0 when it has none yet), in the order given. */
export async function selectUsageCounts(db: Db, keys: readonly UsageKey[]): Promise<number[]> {
  const counts: number[] = [];
  for (const key of keys) {
    const [row] = await db
      .select({ count: aiUsageCounts.count })
      .from(aiUsageCounts)
      .where(
        and(
          eq(aiUsageCounts.limitName, key.limitName),
          eq(aiUsageCounts.subjectId, key.subjectId),
          eq(aiUsageCounts.windowStart, key.windowStart),
        ),
      )
      .limit(1);
    counts.push(row?.count ?? 0);
  }
  return counts;
}

/** Drops these subjects' counters of windows that ended before `before` (they can never be read again). */
export async function deleteUsageCountsBefore(db: Db, subjectIds: readonly string[], before: Date): Promise<void> {
  await db
    .delete(aiUsageCounts)
    .where(and(inArray(aiUsageCounts.subjectId, [...subjectIds]), lt(aiUsageCounts.windowStart, before)));
}

/** Records that a work row's provider call was counted; false when it already was. */
export async function insertAiCharge(db: Db, workId: string, courseId: string): Promise<boolean> {
  const inserted = await db
    .insert(aiCharges)
    .values({ workId, courseId })
    .onConflictDoNothing()
    .returning({ workId: aiCharges.workId });
  return inserted.length > 0;
}

/** The course a question belongs to and that course's instructor: whose quotas its AI calls use. */
export async function selectSpendScopeOfQuestion(
  db: Db,
  questionId: string,
): Promise<{ courseId: string; instructorId: string } | undefined> {
  const [row] = await db
    .select({ courseId: courses.id, instructorId: courses.instructorId })
    .from(questions)
    .innerJoin(assignments, eq(assignments.id, questions.assignmentId))
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .where(eq(questions.id, questionId))
    .limit(1);
  return row;
}
