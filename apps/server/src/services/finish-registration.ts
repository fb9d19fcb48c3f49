import { currentTime } from '../lib/clock.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { useEmailLink } from '../models/email-links.ts';
import { claimPendingEnrollments } from '../models/enrollments.ts';
import { insertUser, type UserRow } from '../models/users.ts';

export const invalidLink = (what: string) =>
  new AppError(
    'LINK_INVALID',
    `This ${what} link is not valid any more: it was already used, has expired or was replaced by a newer one.`,
  );

/**
 * Following the registration link (email delivery on): the link proves the address, so the account
 * is created verified and, for a student, every invitation waiting for this address becomes an
 * enrolment in the same transaction. An instructor account never takes a student's seat; the
 * invitations stay pending (decision 0014). Answers the new account (the caller is logged in).
 */
export async function finishRegistration(ctx: AppContext, secret: string): Promise<UserRow> {
  const now = currentTime(ctx);
  return ctx.db.transaction(async (tx) => {
    const link = await useEmailLink(tx, secret, 'register', now);
    if (!link?.registration) throw invalidLink('registration');
    const user = await insertUser(tx, {
      id: newId(),
      name: link.registration.name,
      email: link.email,
      passwordHash: link.registration.passwordHash,
      role: link.registration.role,
      emailVerifiedAt: now,
    });
    // Two links for one address, both followed: the first made the account.
    if (!user) throw new AppError('EMAIL_TAKEN', 'An account with this email already exists. Please log in instead.');
    if (user.role === 'student') await claimPendingEnrollments(tx, user.id, user.email);
    return user;
  });
}
