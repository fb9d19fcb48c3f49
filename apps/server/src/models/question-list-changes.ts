import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { questionListChanges } from '../db/schema.ts';

// Read on every whole-list request of the question page: prepared.
const revisionOf = preparedPerDb((db) =>
  db
    .select({ revision: sql<string>`coalesce(sum(${questionListChanges.changes}), 0)::text` })
    .from(questionListChanges)
    .where(eq(questionListChanges.questionId, sql.placeholder('questionId')))
    .prepare('question_list_revision'),
);

/**
 * The revision of what a question's whole staff list shows: how many changes the triggers of
 * migration 0018 have counted for it, summed over its rows (up to 16, one per slot of writing sessions; decision 0065).
 * Only ever grows, so an unchanged revision means no change was committed in between.
 */
export async function selectQuestionListRevision(db: Db, questionId: string): Promise<string> {
  const [row] = await revisionOf(db).execute({ questionId });
  return row?.revision ?? '0';
}
