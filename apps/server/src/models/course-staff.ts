import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { courseStaff, users } from '../db/schema.ts';

export type CourseStaffRow = typeof courseStaff.$inferSelect;
export type StaffRole = CourseStaffRow['role'];

export interface StaffMember {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  addedAt: Date;
}

export async function selectStaffRole(db: Db, courseId: string, userId: string): Promise<StaffRole | undefined> {
  const [row] = await db
    .select({ role: courseStaff.role })
    .from(courseStaff)
    .where(and(eq(courseStaff.courseId, courseId), eq(courseStaff.userId, userId)))
    .limit(1);
  return row?.role;
}

/** The TAs of a course, by name then email; deleted accounts are gone from it. */
export async function selectStaffOfCourse(db: Db, courseId: string): Promise<StaffMember[]> {
  return db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: courseStaff.role,
      addedAt: courseStaff.createdAt,
    })
    .from(courseStaff)
    .innerJoin(users, eq(users.id, courseStaff.userId))
    .where(and(eq(courseStaff.courseId, courseId), isNull(users.deletedAt)))
    .orderBy(asc(users.name), asc(users.email));
}

/** Adds a staff seat; answers false when the user already had one (the primary key decides, no race). */
export async function insertStaffMember(
  db: Db,
  row: { courseId: string; userId: string; role: StaffRole; addedById: string },
): Promise<boolean> {
  const inserted = await db
    .insert(courseStaff)
    .values(row)
    .onConflictDoNothing()
    .returning({ userId: courseStaff.userId });
  return inserted.length > 0;
}

/** Removes a staff seat; answers whether there was one. */
export async function deleteStaffMember(db: Db, courseId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(courseStaff)
    .where(and(eq(courseStaff.courseId, courseId), eq(courseStaff.userId, userId)))
    .returning({ userId: courseStaff.userId });
  return rows.length > 0;
}

export async function deleteStaffSeatsOfUser(db: Db, userId: string): Promise<void> {
  await db.delete(courseStaff).where(eq(courseStaff.userId, userId));
}

export async function selectCourseIdsStaffedBy(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ courseId: courseStaff.courseId })
    .from(courseStaff)
    .where(eq(courseStaff.userId, userId));
  return rows.map((row) => row.courseId);
}
