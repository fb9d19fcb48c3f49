import { currentTime } from '../lib/clock.ts';
import { sql } from 'drizzle-orm';
import { assertAcceptablePassword, loadPasswordEstimator } from '../auth/password-policy.ts';
import { hashPassword } from '../auth/passwords.ts';
import { forgetUser } from '../auth/user-cache.ts';
import type { AppContext } from '../context.ts';
import { users } from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import { noAccountEmail, resetPasswordEmail, RESET_LINK_MINUTES } from '../mail/messages.ts';
import { insertEmailLink, retireEmailLinks, useEmailLink } from '../models/email-links.ts';
import { claimPendingEnrollments } from '../models/enrollments.ts';
import { selectUserById, selectUserByEmail, updateUser } from '../models/users.ts';
import { clearAllLoginAttempts } from './login-throttle.ts';
import { takeMailSend } from './mail-throttle.ts';
import { invalidLink } from './finish-registration.ts';

/** Password reset needs email: without SMTP it says so (there is no other way to prove the address). */
export function requireMailer(ctx: AppContext): Mailer {
  if (!ctx.mailer) {
    throw new AppError(
      'EMAIL_NOT_CONFIGURED',
      'Password reset by email is not available: this Gradewise server has no email (SMTP) set up. Ask the person who runs it.',
    );
  }
  return ctx.mailer;
}

export const RESET_REQUESTED_MESSAGE =
  'If an account uses this email, we sent it a link to reset the password. Check your inbox (and spam folder).';

/**
 * "Forgot password": sends a single-use reset link to the address. The answer is the same whether
 * or not an account uses it (an address without one gets an email saying so), so it lists nothing,
 * and the same when the address has had its few emails of the hour (services/mail-throttle.ts):
 * then nothing is sent and the last link sent keeps working.
 */
export async function requestPasswordReset(ctx: AppContext, email: string): Promise<void> {
  const mailer = requireMailer(ctx);
  if (!(await takeMailSend(ctx, email))) return;
  const user = await selectUserByEmail(ctx.db, email);
  if (!user) {
    await mailer.send(noAccountEmail(email, mailer.link('/register')));
    return;
  }
  const now = currentTime(ctx);
  const secret = await ctx.db.transaction(async (tx) => {
    await retireEmailLinks(tx, email, 'reset-password', now);
    return insertEmailLink(tx, {
      purpose: 'reset-password',
      email,
      userId: user.id,
      expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * 60 * 1000),
    });
  });
  await mailer.send(resetPasswordEmail(email, mailer.link(`/reset-password?token=${encodeURIComponent(secret)}`)));
}

/**
 * Following a reset link: a new password, every session ended (token version bumped), the login
 * throttle cleared. The link proves the address too, so a student's waiting invitations attach.
 */
export async function resetPassword(ctx: AppContext, secret: string, password: string): Promise<void> {
  requireMailer(ctx);
  const now = currentTime(ctx);
  // Hashed before the transaction, so the (one-connection) embedded database is not held meanwhile.
  const passwordHash = await hashPassword(password);
  // Loaded now (on the first reset after a start), not inside the transaction below.
  await loadPasswordEstimator();
  const changed = await ctx.db.transaction(async (tx) => {
    const link = await useEmailLink(tx, secret, 'reset-password', now);
    const user = link?.userId ? await selectUserById(tx, link.userId) : undefined;
    // The account changed address or was deleted since the link was sent: the link is void.
    if (!link || !user || user.deletedAt || user.email !== link.email) throw invalidLink('password reset');
    // Checked inside so a refused password leaves the link unused (the transaction rolls back).
    await assertAcceptablePassword(password, user);
    await updateUser(tx, user.id, {
      passwordHash,
      tokenVersion: sql`${users.tokenVersion} + 1` as unknown as number,
      emailVerifiedAt: user.emailVerifiedAt ?? now,
    });
    if (user.role === 'student') await claimPendingEnrollments(tx, user.id, user.email);
    return user;
  });
  forgetUser(ctx, changed.id);
  await clearAllLoginAttempts(ctx, changed.email);
}
