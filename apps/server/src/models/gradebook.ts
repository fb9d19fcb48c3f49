import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { submissions, users } from '../db/schema.ts';
import type { PersonColumns } from './submissions.ts';

/** The latest submission of one student to one question, as a gradebook needs it. */
export interface LatestSubmissionCell {
  questionId: string;
  submissionId: string;
  isLate: boolean;
  student: PersonColumns;
}

/**
 * The latest version of every student's answer to each of the given questions, in one query:
 * earlier versions are history, the gradebook counts the answer the student stands by.
 */
export async function selectLatestSubmissionsOfQuestions(
  db: Db,
  questionIds: string[],
): Promise<LatestSubmissionCell[]> {
  if (questionIds.length === 0) return [];
  const ranked = db
    .select({
      id: submissions.id,
      rank: sql<number>`row_number() over (partition by ${submissions.questionId}, ${submissions.studentId} order by ${submissions.version} desc)`.as(
        'rank',
      ),
    })
    .from(submissions)
    .where(inArray(submissions.questionId, questionIds))
    .as('ranked');
  const rows = await db
    .select({
      questionId: submissions.questionId,
      submissionId: submissions.id,
      isLate: submissions.isLate,
      student: { id: users.id, name: users.name, email: users.email },
    })
    .from(ranked)
    .innerJoin(submissions, eq(submissions.id, ranked.id))
    .innerJoin(users, eq(users.id, submissions.studentId))
    .where(eq(ranked.rank, 1))
    .orderBy(asc(users.name), asc(users.email));
  return rows;
}
