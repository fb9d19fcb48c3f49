import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { assignments, courses, files, questions, submissions } from '../db/schema.ts';

export type FileRow = typeof files.$inferSelect;
export type NewFileRow = typeof files.$inferInsert;

export async function insertFiles(db: Db, rows: NewFileRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(files).values(rows);
}

export async function selectFileById(db: Db, id: string): Promise<FileRow | undefined> {
  const [row] = await db.select().from(files).where(eq(files.id, id)).limit(1);
  return row;
}

/** Which of these storage keys some file row names (the orphan sweep keeps those). */
export async function selectReferencedStorageKeys(db: Db, storageKeys: string[]): Promise<Set<string>> {
  if (storageKeys.length === 0) return new Set();
  const rows = await db
    .select({ storageKey: files.storageKey })
    .from(files)
    .where(inArray(files.storageKey, storageKeys));
  return new Set(rows.map((row) => row.storageKey));
}

/** A page of the rows whose blob is still on local disk, in id order after `afterId`. */
export async function selectLocalFiles(db: Db, afterId: string | undefined, limit: number): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(afterId ? and(eq(files.location, 'local'), gt(files.id, afterId)) : eq(files.location, 'local'))
    .orderBy(asc(files.id))
    .limit(limit);
}

/** Switches a row to the bucket once its copy there is verified; false when another run switched it first. */
export async function markFileInBucket(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(files)
    .set({ location: 's3' })
    .where(and(eq(files.id, id), eq(files.location, 'local')))
    .returning({ id: files.id });
  return rows.length === 1;
}

/** A restore says where the restored blobs are now (decision 0082): every row not already there. */
export async function setLocationOfEveryFile(db: Db, location: 'local' | 's3'): Promise<number> {
  const rows = await db
    .update(files)
    .set({ location })
    .where(sql`${files.location} <> ${location}`)
    .returning({ id: files.id });
  return rows.length;
}

/** Every file a course's rows name: its image and syllabus, its questions' PDFs and solutions, its submissions. */
export async function selectFileIdsOfCourses(db: Db, courseIds: string[]): Promise<string[]> {
  if (courseIds.length === 0) return [];
  const ofCourses = await db
    .select({ image: courses.imageFileId, syllabus: courses.syllabusFileId })
    .from(courses)
    .where(inArray(courses.id, courseIds));
  const ofQuestions = await db
    .select({ question: questions.questionFileId, solution: questions.solutionFileId })
    .from(questions)
    .innerJoin(assignments, eq(assignments.id, questions.assignmentId))
    .where(inArray(assignments.courseId, courseIds));
  const ofSubmissions = await db
    .select({ file: submissions.fileId })
    .from(submissions)
    .innerJoin(questions, eq(questions.id, submissions.questionId))
    .innerJoin(assignments, eq(assignments.id, questions.assignmentId))
    .where(inArray(assignments.courseId, courseIds));
  const ids = new Set<string>();
  for (const row of ofCourses) for (const id of [row.image, row.syllabus]) if (id) ids.add(id);
  for (const row of ofQuestions) for (const id of [row.question, row.solution]) if (id) ids.add(id);
  for (const row of ofSubmissions) ids.add(row.file);
  return [...ids];
}

/**
 * Deletes those of these file rows that no course, question or submission names any more, and
 * answers their storage keys, so the caller removes the objects once the deletion has committed
 * (services/delete-courses.ts). A row still named somewhere is kept, with its object.
 */
export async function deleteFilesNoRowNames(db: Db, fileIds: string[]): Promise<string[]> {
  if (fileIds.length === 0) return [];
  const rows = await db
    .delete(files)
    .where(
      and(
        inArray(files.id, fileIds),
        sql`NOT EXISTS (SELECT 1 FROM ${courses} WHERE ${courses.imageFileId} = ${files.id} OR ${courses.syllabusFileId} = ${files.id})`,
        sql`NOT EXISTS (SELECT 1 FROM ${questions} WHERE ${questions.questionFileId} = ${files.id} OR ${questions.solutionFileId} = ${files.id})`,
        sql`NOT EXISTS (SELECT 1 FROM ${submissions} WHERE ${submissions.fileId} = ${files.id})`,
      ),
    )
    .returning({ storageKey: files.storageKey });
  return rows.map((row) => row.storageKey);
}
