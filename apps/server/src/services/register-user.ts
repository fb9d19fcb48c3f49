import { currentTime } from '../lib/clock.ts';
import type { RegisterInput } from '@gradewise/shared/contracts/auth';
import { assertAcceptablePassword } from '../auth/password-policy.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { AppContext } from '../context.ts';
import { newId } from '../lib/ids.ts';
import type { Mailer } from '../mail/mailer.ts';
import { alreadyRegisteredEmail, finishRegistrationEmail, REGISTRATION_LINK_HOURS } from '../mail/messages.ts';
import { insertEmailLink, retireEmailLinks } from '../models/email-links.ts';
import { hasPendingEnrollments } from '../models/enrollments.ts';
import { insertUser, selectUserByEmail } from '../models/users.ts';
import { takeMailSend } from './mail-throttle.ts';

export type RegistrationInput = { name: string; email: string; password: string; role: RegisterInput['role'] & string };

export type Registration =
  /**
   * No email delivery: the caller is offered to sign in, whether or not an account was made (the
   * address had one already, or an invitation waits for it; see below), so the answer lists nothing.
   */
  | { kind: 'sign-in' }
  /** Email delivery: a link was sent; the account is created when it is followed. */
  | { kind: 'link-sent' };

/**
 * Registration never says whether an address has an account (issue 28). Either way, a pending
 * invitation for this email is NOT turned into an enrolment here: an invitation attaches only to
 * an address its owner has proved (decision 0014).
 * - Without SMTP (the embedded default): a new address gets its account at once, and every answer
 *   is the same offer to sign in, with no token: an address that already has an account gets
 *   the same words and nothing changes (its owner signs in with their own password). An address
 *   that a course's invitation waits for is not taken as an instructor account either (same
 *   answer): nobody can prove it here, and such an account would keep the invited student from
 *   ever registering. As a student it is made, and the course's instructor confirms the
 *   registrant by name ("registered, awaiting your confirmation").
 * - With SMTP: nothing is created yet. A link to finish registering goes to the address, and the
 *   answer is the same whether or not the address already has an account (that owner gets an
 *   email saying so instead), so registration cannot be used to list accounts.
 */
export async function registerUser(ctx: AppContext, input: RegistrationInput): Promise<Registration> {
  await assertAcceptablePassword(input.password, input);
  const passwordHash = await hashPassword(input.password);
  if (ctx.mailer) {
    await sendRegistrationLink(ctx, ctx.mailer, { ...input, passwordHash });
    return { kind: 'link-sent' };
  }
  if (input.role === 'instructor' && (await hasPendingEnrollments(ctx.db, input.email))) return { kind: 'sign-in' };
  // A taken address inserts nothing (the unique email decides, races included): the same answer.
  await insertUser(ctx.db, {
    id: newId(),
    name: input.name,
    email: input.email,
    passwordHash,
    role: input.role,
  });
  return { kind: 'sign-in' };
}

async function sendRegistrationLink(
  ctx: AppContext,
  mailer: Mailer,
  input: Omit<RegistrationInput, 'password'> & { passwordHash: string },
): Promise<void> {
  // The address has had its few emails of the hour: nothing is sent, the answer is the same.
  if (!(await takeMailSend(ctx, input.email))) return;
  // Both branches send one email, so the answer takes about as long either way.
  if (await selectUserByEmail(ctx.db, input.email)) {
    await mailer.send(alreadyRegisteredEmail(input.email, mailer.link('/login'), mailer.link('/forgot-password')));
    return;
  }
  const now = currentTime(ctx);
  const secret = await ctx.db.transaction(async (tx) => {
    // Registering again (a typo in the name, a lost email) replaces the earlier link.
    await retireEmailLinks(tx, input.email, 'register', now);
    return insertEmailLink(tx, {
      purpose: 'register',
      email: input.email,
      registration: { name: input.name, passwordHash: input.passwordHash, role: input.role },
      expiresAt: new Date(now.getTime() + REGISTRATION_LINK_HOURS * 3600 * 1000),
    });
  });
  await mailer.send(
    finishRegistrationEmail(input.email, input.name, mailer.link(`/verify-email?token=${encodeURIComponent(secret)}`)),
  );
}
