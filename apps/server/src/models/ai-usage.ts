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
 * Adds `amount` to every counter and answers each new count, in the order given. Callers pass the
 * keys in one fixed order and run this in a transaction, so concurrent calls lock the rows in the
 * same order (no deadlock) and each sees the count the other committed.
 */
export async function incrementUsageCounts(db: Db, keys: readonly UsageKey[], amount: number): Promise<number[]> {
  const counts: number[] = [];
  for (const key of keys) {
    const [row] = await db
      .insert(aiUsageCounts)
      .values({ ...key, count: amount })
      .onConflictDoUpdate({
        target: [aiUsageCounts.limitName, aiUsageCounts.subjectId, aiUsageCounts.windowStart],
        set: { count: sql`${aiUsageCounts.count} + ${amount}` },
      })
      .returning({ count: aiUsageCounts.count });
    counts.push(row!.count);
  }
  return counts;
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
