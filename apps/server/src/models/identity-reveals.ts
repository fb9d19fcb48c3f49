import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { identityReveals, users } from '../db/schema.ts';

export type IdentityRevealRow = typeof identityReveals.$inferSelect;
export type IdentityRevealKind = IdentityRevealRow['kind'];

export async function insertIdentityReveal(
  db: Db,
  row: Omit<typeof identityReveals.$inferInsert, 'createdAt'>,
): Promise<void> {
  await db.insert(identityReveals).values(row);
}

/** The assignment's reveals, newest first, with who revealed (their name as it is now). */
export async function selectIdentityRevealsOfAssignment(
  db: Db,
  assignmentId: string,
): Promise<{ reveal: IdentityRevealRow; revealedBy: { id: string; name: string } }[]> {
  return db
    .select({ reveal: identityReveals, revealedBy: { id: users.id, name: users.name } })
    .from(identityReveals)
    .innerJoin(users, eq(users.id, identityReveals.revealedById))
    .where(eq(identityReveals.assignmentId, assignmentId))
    .orderBy(desc(identityReveals.createdAt), desc(identityReveals.id));
}
