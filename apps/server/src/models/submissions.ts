import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { submissions, users } from '../db/schema.ts';

export type SubmissionRow = typeof submissions.$inferSelect;
export type NewSubmissionRow = typeof submissions.$inferInsert;

export interface PersonColumns {
  id: string;
  name: string;
  email: string;
}

/** A submission with the people around it, as lists show it. */
export interface SubmissionListRow {
  submission: SubmissionRow;
  student: PersonColumns;
  uploadedBy: PersonColumns;
  /** How many versions this student has for this question (only filled by the latest-per-student query). */
  versionCount: number;
  /** Where reading the file's text stands, when the caller loaded it. */
  extraction?: { status: 'queued' | 'reading' | 'succeeded' | 'failed'; error: string | null };
}

const uploader = alias(users, 'uploader');
const studentColumns = { id: users.id, name: users.name, email: users.email };
const uploaderColumns = { id: uploader.id, name: uploader.name, email: uploader.email };

/** The next version number for this student's answer to this question (1 for the first). */
export async function selectNextVersion(db: Db, questionId: string, studentId: string): Promise<number> {
  const [row] = await db
    .select({ latest: sql<number>`coalesce(max(${submissions.version}), 0)::int` })
    .from(submissions)
    .where(and(eq(submissions.questionId, questionId), eq(submissions.studentId, studentId)));
  return Number(row?.latest ?? 0) + 1;
}

export async function insertSubmission(db: Db, row: NewSubmissionRow): Promise<SubmissionRow> {
  const [inserted] = await db.insert(submissions).values(row).returning();
  return inserted!;
}

// Read by every staff question page: prepared (db/prepared.ts, issue 11).
const latestSubmissionsPerStudent = preparedPerDb((db) => {
  const ranked = db
    .select({
      id: submissions.id,
      rank: sql<number>`row_number() over (partition by ${submissions.studentId} order by ${submissions.version} desc)`.as(
        'rank',
      ),
      versionCount: sql<number>`(count(*) over (partition by ${submissions.studentId}))::int`.as('version_count'),
    })
    .from(submissions)
    .where(eq(submissions.questionId, sql.placeholder('questionId')))
    .as('ranked');
  return db
    .select({
      submission: submissions,
      student: studentColumns,
      uploadedBy: uploaderColumns,
      versionCount: ranked.versionCount,
    })
    .from(ranked)
    .innerJoin(submissions, eq(submissions.id, ranked.id))
    .innerJoin(users, eq(users.id, submissions.studentId))
    .innerJoin(uploader, eq(uploader.id, submissions.uploadedById))
    .where(eq(ranked.rank, 1))
    .orderBy(asc(users.name), asc(users.email))
    .prepare('latest_submissions_per_student');
});

/** For staff: the latest version of every student who answered this question, by student name. */
export async function selectLatestSubmissionsPerStudent(db: Db, questionId: string): Promise<SubmissionListRow[]> {
  const rows = await latestSubmissionsPerStudent(db).execute({ questionId });
  return rows.map((row) => ({ ...row, versionCount: Number(row.versionCount) }));
}

/** For a student: their own latest version, if any. */
export async function selectLatestSubmissionOfStudent(
  db: Db,
  questionId: string,
  studentId: string,
): Promise<SubmissionListRow | undefined> {
  const [row] = await db
    .select({ submission: submissions, student: studentColumns, uploadedBy: uploaderColumns })
    .from(submissions)
    .innerJoin(users, eq(users.id, submissions.studentId))
    .innerJoin(uploader, eq(uploader.id, submissions.uploadedById))
    .where(and(eq(submissions.questionId, questionId), eq(submissions.studentId, studentId)))
    .orderBy(desc(submissions.version))
    .limit(1);
  return row ? { ...row, versionCount: row.submission.version } : undefined;
}

/** The submission only if it answers that question. */
export async function selectSubmissionInQuestion(
  db: Db,
  questionId: string,
  submissionId: string,
): Promise<SubmissionRow | undefined> {
  const [row] = await db
    .select()
    .from(submissions)
    .where(and(eq(submissions.id, submissionId), eq(submissions.questionId, questionId)))
    .limit(1);
  return row;
}

/** Every version of one student's answer to one question, newest first. */
export async function selectSubmissionVersions(
  db: Db,
  questionId: string,
  studentId: string,
): Promise<SubmissionListRow[]> {
  const rows = await db
    .select({ submission: submissions, student: studentColumns, uploadedBy: uploaderColumns })
    .from(submissions)
    .innerJoin(users, eq(users.id, submissions.studentId))
    .innerJoin(uploader, eq(uploader.id, submissions.uploadedById))
    .where(and(eq(submissions.questionId, questionId), eq(submissions.studentId, studentId)))
    .orderBy(desc(submissions.version));
  return rows.map((row) => ({ ...row, versionCount: rows.length }));
}
