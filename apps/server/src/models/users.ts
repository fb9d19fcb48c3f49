import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { courseStaff, courses, enrollments, ltiUsers, users } from '../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

// Read to authenticate a request whenever the short cache (auth/user-cache.ts) misses: prepared (db/prepared.ts).
const userById = preparedPerDb((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('user_by_id'),
);

export async function selectUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await userById(db).execute({ id });
  return row;
}

/** The live account with this email (a deleted account's tombstone has no email to find it by). */
export async function selectUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .limit(1);
  return row;
}

/** Inserts unless the email is taken; answers undefined when it is (unique index decides, no race). */
export async function insertUser(db: Db, user: NewUserRow): Promise<UserRow | undefined> {
  const [row] = await db.insert(users).values(user).onConflictDoNothing({ target: users.email }).returning();
  return row;
}

/** Live accounts for a list of (normalised) emails; unknown emails are simply absent. */
export async function selectUsersByEmails(db: Db, emails: string[]): Promise<UserRow[]> {
  if (emails.length === 0) return [];
  return db
    .select()
    .from(users)
    .where(and(inArray(users.email, emails), isNull(users.deletedAt)));
}

export async function updateUser(db: Db, id: string, changes: Partial<NewUserRow>): Promise<UserRow> {
  const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
  if (!row) throw new Error(`No user ${id}`);
  return row;
}

/** Names and emails of these accounts, by id (a deleted account's tombstone has neither). */
export async function selectPeopleByIds(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, { id: string; name: string; email: string }>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(inArray(users.id, unique));
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Whether an account holds anything of its own: a seat in a course (student or staff), a course it
 * owns, or an LMS identity. An account with none of these has nothing anyone relies on.
 */
export async function accountHoldsAnything(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({
      holds: sql<boolean>`exists (select 1 from ${enrollments} where ${enrollments.userId} = ${userId})
        or exists (select 1 from ${courses} where ${courses.instructorId} = ${userId})
        or exists (select 1 from ${courseStaff} where ${courseStaff.userId} = ${userId})
        or exists (select 1 from ${ltiUsers} where ${ltiUsers.userId} = ${userId})`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row?.holds ?? false;
}
