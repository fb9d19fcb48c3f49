import { asc, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { submissions } from '../db/schema.ts';
import { selectLatestSucceededRunsBySubmission } from './grading-runs.ts';
import { selectUngradedLatestSubmissionIds } from './grading-targets.ts';
import type { SubmissionRow } from './submissions.ts';

/**
 * The pending suggestions of a question: current answers with an AI suggestion, no saved grade and
 * no run in flight — what a refresh after a save suggests again. Answers never suggested are left
 * for the instructor to grade: a save does not grade a class the instructor has not asked for.
 */
export async function selectSuggestionsToRefresh(db: Db, questionId: string): Promise<SubmissionRow[]> {
  const ungraded = await selectUngradedLatestSubmissionIds(db, questionId);
  const suggested = await selectLatestSucceededRunsBySubmission(db, ungraded);
  const ids = ungraded.filter((id) => suggested.has(id));
  if (ids.length === 0) return [];
  return db.select().from(submissions).where(inArray(submissions.id, ids)).orderBy(asc(submissions.submittedAt));
}
