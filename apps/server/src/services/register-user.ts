import { eq } from 'drizzle-orm';
import type { RegisterInput } from '@gradewise/shared/contracts/auth';
import { hashPassword } from '../auth/passwords.ts';
import type { AppContext } from '../context.ts';
import { enrollments, pendingEnrollments } from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { insertUser, type UserRow } from '../models/users.ts';

/**
 * Creates the account and, in the same transaction, turns every pending enrolment for this email
 * into a real one: a student added to a roster before registering sees the course at once.
 */
export async function registerUser(
  ctx: AppContext,
  input: { name: string; email: string; password: string; role: RegisterInput['role'] & string },
): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction(async (tx) => {
    const user = await insertUser(tx, {
      id: newId(),
      name: input.name,
      email: input.email,
      passwordHash,
      role: input.role,
    });
    if (!user)
      throw new AppError('EMAIL_TAKEN', 409, 'An account with this email already exists. Please log in instead.');
    // Rosters hold student accounts only (services/add-students.ts): an email invited as a student
    // that registers as an instructor is not enrolled, and its invitations are dropped.
    const pending = await tx.delete(pendingEnrollments).where(eq(pendingEnrollments.email, user.email)).returning();
    if (pending.length > 0 && user.role === 'student') {
      await tx
        .insert(enrollments)
        .values(pending.map((row) => ({ courseId: row.courseId, userId: user.id })))
        .onConflictDoNothing();
    }
    return user;
  });
}
