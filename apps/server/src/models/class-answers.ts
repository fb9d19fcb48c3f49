import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { fileExtractions, submissions } from '../db/schema.ts';

/**
 * The text of every student's current answer to a question whose text has been read (at most
 * `limit`), in a fixed order (by submission id) so that the same class reads the same every time.
 * Answers still being read, and files that could not be read, are not in it.
 */
export async function selectClassAnswerTexts(db: Db, questionId: string, limit: number): Promise<string[]> {
  const latestVersion = sql`(select max(s2.version) from ${submissions} s2 where s2.question_id = ${submissions.questionId} and s2.student_id = ${submissions.studentId})`;
  const rows = await db
    .select({ text: fileExtractions.text })
    .from(submissions)
    .innerJoin(fileExtractions, eq(fileExtractions.fileId, submissions.fileId))
    .where(
      and(
        eq(submissions.questionId, questionId),
        sql`${submissions.version} = ${latestVersion}`,
        eq(fileExtractions.status, 'succeeded'),
      ),
    )
    .orderBy(asc(submissions.id))
    .limit(limit);
  return rows.map((row) => row.text);
}
