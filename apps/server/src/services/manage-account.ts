import { currentTime } from '../lib/clock.ts';
import { eq, sql } from 'drizzle-orm';
import { assertAcceptablePassword } from '../auth/password-policy.ts';
import { hashPassword } from '../auth/passwords.ts';
import { forgetUser } from '../auth/user-cache.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { emailLinks, users } from '../db/schema.ts';
import { AppError, conflict } from '../lib/errors.ts';
import { deleteStaffSeatsOfUser } from '../models/course-staff.ts';
import { selectCourseIdsOwnedBy } from '../models/courses.ts';
import { updateUser, type UserRow } from '../models/users.ts';
import { deleteWorkOfGrader } from '../models/work-split.ts';
import { checkPassword } from './log-in-user.ts';

// A field of the form that is wrong, not a failed login: a 401 would tell the client the session ended.
const wrongPassword = (field: string) =>
  new AppError('VALIDATION_FAILED', 'Your current password is not right.', [
    { path: field, message: 'Your current password is not right.' },
  ]);

/**
 * A new password, asked with the current one (under the login throttle, so it cannot be used to
 * guess). Every other session ends (token version bumped); the caller gets a fresh token.
 */
export async function changePassword(
  ctx: AppContext,
  user: UserRow,
  currentPassword: string,
  newPassword: string,
  address: string,
): Promise<UserRow> {
  if (!(await checkPassword(ctx, user.email, currentPassword, address))) throw wrongPassword('currentPassword');
  await assertAcceptablePassword(newPassword, user, 'newPassword');
  const passwordHash = await hashPassword(newPassword);
  const changed = await updateUser(ctx.db, user.id, {
    passwordHash,
    tokenVersion: sql`${users.tokenVersion} + 1` as unknown as number,
  });
  forgetUser(ctx, user.id);
  return changed;
}

/** The placeholder a deleted account keeps: no name, no reachable email, no usable password. */
export const DELETED_ACCOUNT_NAME = 'Deleted account';

/**
 * Deletes an account, keeping every course's grades whole (decision 0014):
 * - a student's submissions and grades stay in their courses (the course's record of the work,
 *   like a paper gradebook); the account row becomes a tombstone: name "Deleted account", an
 *   email nobody can own, a password hash nothing matches, every session ended. Nothing that
 *   points at the row dangles, and the email is free to register again, as a new account that
 *   sees none of the old one's work;
 * - an instructor who still owns courses is refused (409): their students' grades live in those
 *   courses and the product has no way yet to hand a course over; one without courses is
 *   deleted like a student.
 */
export async function deleteAccount(ctx: AppContext, user: UserRow, password: string, address: string): Promise<void> {
  if (!(await checkPassword(ctx, user.email, password, address))) throw wrongPassword('password');
  if (user.role === 'instructor') {
    const owned = await selectCourseIdsOwnedBy(ctx.db, user.id);
    if (owned.length > 0) {
      throw conflict(
        `You teach ${owned.length} course${owned.length === 1 ? '' : 's'}, and your students' grades live there, so this account cannot be deleted while it owns them (Gradewise cannot hand a course over yet).`,
      );
    }
  }
  await ctx.db.transaction((tx) => tombstoneAccount(ctx, tx, user.id));
  forgetUser(ctx, user.id);
}

/**
 * The account row becomes a tombstone, inside the caller's transaction (the caller forgets the
 * cached user once it commits): every session ends, the email is free to register again.
 */
export async function tombstoneAccount(ctx: AppContext, db: Db, userId: string): Promise<void> {
  await db.delete(emailLinks).where(eq(emailLinks.userId, userId));
  // A TA's seats and share of the work end with the account (the tombstone keeps no cascade firing).
  await deleteStaffSeatsOfUser(db, userId);
  await deleteWorkOfGrader(db, userId);
  await updateUser(db, userId, {
    name: DELETED_ACCOUNT_NAME,
    email: `deleted-${userId}@deleted.invalid`,
    // Not an argon2 hash: verification of any password fails (auth/passwords.ts answers false).
    passwordHash: '!deleted',
    tokenVersion: sql`${users.tokenVersion} + 1` as unknown as number,
    emailVerifiedAt: null,
    deletedAt: currentTime(ctx),
  });
}
