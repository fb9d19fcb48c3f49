import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { submissions, users } from '../db/schema.ts';
import { anyOfPlaceholder } from './any-of.ts';

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

/** Who answered a question, and with which latest submission: what a page's order and total need. */
export interface LatestAnswerKey {
  submissionId: string;
  student: PersonColumns;
}

// Read by every paged staff question page: prepared (db/prepared.ts, issue 11). The class's keys
// come back as one JSON array of [submission id, student id, name, email] built by PostgreSQL,
// not 300 rows of 4 columns: on PGlite every column of every row costs a copy and a decode in its
// JavaScript protocol parser (in process, 300 keys: 1.72 ms of CPU as rows, 0.91 ms as JSON).
const latestAnswerKeys = preparedPerDb((db) => {
  const latest = db
    .selectDistinctOn([submissions.studentId], {
      submissionId: sql<string>`${submissions.id}`.as('submission_id'),
      studentId: sql<string>`${users.id}`.as('student_id'),
      name: users.name,
      email: users.email,
    })
    .from(submissions)
    .innerJoin(users, eq(users.id, submissions.studentId))
    .where(eq(submissions.questionId, sql.placeholder('questionId')))
    .orderBy(submissions.studentId, desc(submissions.version))
    .as('latest');
  return db
    .select({
      keys: sql<[string, string, string, string][]>`coalesce(json_agg(json_build_array(
        ${latest.submissionId}, ${latest.studentId}, ${latest.name}, ${latest.email})), '[]'::json)`,
    })
    .from(latest)
    .prepare('latest_answer_keys');
});

/**
 * For staff: the latest submission id of every student who answered, with the student's name and
 * email and nothing else: enough to order and count a class (decision 0046), whose full rows are
 * then read for one page only (`selectSubmissionListRowsByIds`). In no particular order.
 */
export async function selectLatestAnswerKeys(db: Db, questionId: string): Promise<LatestAnswerKey[]> {
  const [row] = await latestAnswerKeys(db).execute({ questionId });
  return row!.keys.map(([submissionId, id, name, email]) => ({ submissionId, student: { id, name, email } }));
}

// Read by every paged staff question page and the grading screen: prepared (db/prepared.ts).
const submissionRowsByIds = preparedPerDb((db) => {
  // The student's versions of the same answer (the unique question/student/version index), counted
  // and topped in one lateral read: two correlated subqueries walked that index twice per row.
  const version = alias(submissions, 'v');
  const versions = db
    .select({
      count: sql<number>`count(*)::int`.as('version_count'),
      latest: sql<number>`max(${version.version})::int`.as('latest_version'),
    })
    .from(version)
    .where(and(eq(version.questionId, submissions.questionId), eq(version.studentId, submissions.studentId)))
    .as('versions');
  return db
    .select({
      submission: submissions,
      student: studentColumns,
      uploadedBy: uploaderColumns,
      versionCount: versions.count,
      latestVersion: versions.latest,
    })
    .from(submissions)
    .innerJoin(users, eq(users.id, submissions.studentId))
    .innerJoin(uploader, eq(uploader.id, submissions.uploadedById))
    .crossJoinLateral(versions)
    .where(and(eq(submissions.questionId, sql.placeholder('questionId')), anyOfPlaceholder(submissions.id, 'ids')))
    .prepare('submission_rows_by_ids');
});

/**
 * These submissions of this question, as `selectLatestSubmissionsPerStudent` lists them
 * (versionCount included), each saying whether it is still its student's latest version; in no
 * particular order. Ids of other questions are left out.
 */
export async function selectSubmissionListRowsByIds(
  db: Db,
  questionId: string,
  ids: readonly string[],
): Promise<(SubmissionListRow & { isLatest: boolean })[]> {
  if (ids.length === 0) return [];
  const rows = await submissionRowsByIds(db).execute({ questionId, ids: [...ids] });
  return rows.map(({ latestVersion, ...row }) => ({
    ...row,
    versionCount: Number(row.versionCount),
    isLatest: row.submission.version === Number(latestVersion),
  }));
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
