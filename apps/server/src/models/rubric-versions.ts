import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rubricVersions } from '../db/schema.ts';

export type { RubricItemChange } from '../db/json-columns.ts';

export type RubricVersionRow = typeof rubricVersions.$inferSelect;
/** Items and changes are always written (their column defaults are for old rows). */
export type NewRubricVersionRow = typeof rubricVersions.$inferInsert &
  Required<Pick<typeof rubricVersions.$inferInsert, 'items' | 'changes'>>;

export async function insertRubricVersion(db: Db, row: NewRubricVersionRow): Promise<RubricVersionRow> {
  const [inserted] = await db.insert(rubricVersions).values(row).returning();
  return inserted!;
}

/** Every version of a question's rubric, newest first. */
export async function selectRubricVersions(db: Db, questionId: string): Promise<RubricVersionRow[]> {
  const rows = await db
    .select()
    .from(rubricVersions)
    .where(eq(rubricVersions.questionId, questionId))
    .orderBy(desc(rubricVersions.version));
  return rows;
}

/** Every item id any version of the question's rubric ever used: a new item never takes one back. */
export async function selectRubricItemIdsEverUsed(db: Db, questionId: string): Promise<Set<string>> {
  const rows = await db
    .select({ items: rubricVersions.items })
    .from(rubricVersions)
    .where(eq(rubricVersions.questionId, questionId));
  return new Set(rows.flatMap((row) => row.items.map((item) => item.id)));
}
