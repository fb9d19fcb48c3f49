import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * Serialises writers of one thing (one student's answer to a question, one rubric) across every
 * process on the database: a transaction-scoped advisory lock on a text key, released at commit or
 * rollback. Call it first inside the transaction, before reading what the write depends on.
 */
export async function takeTransactionLock(tx: Db, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/** The key of one student's answer to one question: submitting a version and saving a grade take it. */
export const answerLockKey = (questionId: string, studentId: string) => `answer:${questionId}:${studentId}`;
export const rubricLockKey = (questionId: string) => `rubric:${questionId}`;
