import { desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { grades } from '../db/schema.ts';
import type { StoredComment } from './grading-runs.ts';

export type GradeRow = Omit<typeof grades.$inferSelect, 'comments'> & { comments: StoredComment[] };
export type NewGradeRow = typeof grades.$inferInsert & { comments: StoredComment[] };

/** Grades are never updated: each save is a new row and the newest is current (history kept). */
export async function insertGrade(db: Db, grade: NewGradeRow): Promise<GradeRow> {
  const [row] = await db.insert(grades).values(grade).returning();
  return row as GradeRow;
}

export async function selectCurrentGrade(db: Db, submissionId: string): Promise<GradeRow | undefined> {
  const [row] = await db
    .select()
    .from(grades)
    .where(eq(grades.submissionId, submissionId))
    .orderBy(desc(grades.createdAt), desc(grades.id))
    .limit(1);
  return row as GradeRow | undefined;
}

/** Newest saved grade per submission. */
export async function selectCurrentGrades(db: Db, submissionIds: string[]): Promise<Map<string, GradeRow>> {
  if (submissionIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([grades.submissionId])
    .from(grades)
    .where(inArray(grades.submissionId, submissionIds))
    .orderBy(grades.submissionId, desc(grades.createdAt), desc(grades.id));
  return new Map(rows.map((row) => [row.submissionId, row as GradeRow]));
}

/** Every saved grade of a submission, newest first. */
export async function selectGradeHistory(db: Db, submissionId: string): Promise<GradeRow[]> {
  const rows = await db
    .select()
    .from(grades)
    .where(eq(grades.submissionId, submissionId))
    .orderBy(desc(grades.createdAt), desc(grades.id));
  return rows as GradeRow[];
}
