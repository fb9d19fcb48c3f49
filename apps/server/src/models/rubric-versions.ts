import { desc, eq } from 'drizzle-orm';
import type { RubricItem } from '@gradewise/shared/contracts/grading';
import type { Db } from '../db/client.ts';
import { rubricVersions } from '../db/schema.ts';

/** What one rubric version changed in one item, compared with the version before it. */
export type RubricItemChange =
  | { itemId: string; kind: 'added'; to: RubricItem }
  | { itemId: string; kind: 'removed'; from: RubricItem }
  | { itemId: string; kind: 'points'; from: number; to: number }
  | { itemId: string; kind: 'wording'; from: string; to: string }
  | { itemId: string; kind: 'guidance'; from: string; to: string };

export type RubricVersionRow = Omit<typeof rubricVersions.$inferSelect, 'items' | 'changes'> & {
  items: RubricItem[];
  changes: RubricItemChange[];
};
export type NewRubricVersionRow = typeof rubricVersions.$inferInsert & {
  items: RubricItem[];
  changes: RubricItemChange[];
};

export async function insertRubricVersion(db: Db, row: NewRubricVersionRow): Promise<RubricVersionRow> {
  const [inserted] = await db.insert(rubricVersions).values(row).returning();
  return inserted as RubricVersionRow;
}

/** Every version of a question's rubric, newest first. */
export async function selectRubricVersions(db: Db, questionId: string): Promise<RubricVersionRow[]> {
  const rows = await db
    .select()
    .from(rubricVersions)
    .where(eq(rubricVersions.questionId, questionId))
    .orderBy(desc(rubricVersions.version));
  return rows as RubricVersionRow[];
}

/** Every item id any version of the question's rubric ever used: a new item never takes one back. */
export async function selectRubricItemIdsEverUsed(db: Db, questionId: string): Promise<Set<string>> {
  const rows = await db
    .select({ items: rubricVersions.items })
    .from(rubricVersions)
    .where(eq(rubricVersions.questionId, questionId));
  return new Set(rows.flatMap((row) => (row.items as RubricItem[]).map((item) => item.id)));
}
