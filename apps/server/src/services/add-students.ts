import { Email } from '@gradewise/shared/contracts/auth';
import { MAX_ROSTER_ENTRIES, type AddStudentsOutput, type RosterRejection } from '@gradewise/shared/contracts/courses';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { forgetUser } from '../auth/user-cache.ts';
import { AppError, badRequest, conflict, notFound, payloadTooLarge } from '../lib/errors.ts';
import {
  deletePendingEnrollment,
  insertEnrollments,
  insertPendingEnrollments,
  isEnrolled,
  selectPendingEmailsOfCourse,
} from '../models/enrollments.ts';
import { accountHoldsAnything, selectUsersByEmails } from '../models/users.ts';
import type { UserRow } from '../models/users.ts';
import { tombstoneAccount } from './manage-account.ts';
import { loadVisibleCourse, requireOwner, type AsOwner, type CourseScope } from '../policies/course-access.ts';

/** Before anything is read: only the owning instructor changes a roster. */
export async function authorizeRosterChange(
  ctx: AppContext,
  user: UserRow,
  courseId: string,
): Promise<AsOwner<CourseScope>> {
  return requireOwner(await loadVisibleCourse(ctx.db, user, courseId), 'add students');
}

export type RosterSource = 'emails' | 'excel';

/**
 * Adds students to a course roster by email, like a class list:
 * - an email with a student account is enrolled (or counted as already enrolled);
 * - an email with no account yet becomes a pending enrolment (an invitation), so the roster can be
 *   built before anyone signs up. It turns into an enrolment only for an address its owner has
 *   proved: when they follow the link emailed at registration (with SMTP), or when this instructor
 *   confirms the registrant (`confirmInvitedStudent`, the only way without SMTP). Whoever merely
 *   registers the address first sees nothing of the course (decision 0014);
 * - anything else is rejected with a reason, and the rest of the list still goes in.
 *
 * Instructor accounts are rejected, the owner's own email included. Roles are per account and the
 * product has no co-instructor or TA seat: an instructor on a roster would get a student's view
 * they can never open (their course list shows the courses they own), could submit answers that
 * land among the students' work, and would show up in the class list as a student. Co-teaching
 * needs a staff role of its own, not a student seat. For the same reason registration only claims
 * pending enrolments for student accounts.
 *
 * Except an instructor account nobody relies on (issue 28, decision 0090): anyone can register a
 * student's address as an instructor before the owner adds it, and refusing it here let that
 * account keep the student out. When the account never proved the address and holds nothing (what
 * "Not my student" may close, `whyNotClosable`), the invitation is made and waits: the owner
 * closes that account from the Students page, and the person who proves the address joins.
 */
export async function addStudentsToCourse(
  ctx: AppContext,
  { course }: AsOwner<CourseScope>,
  owner: UserRow,
  entries: string[],
  source: RosterSource,
): Promise<AddStudentsOutput> {
  if (entries.length === 0) {
    throw badRequest(
      source === 'excel' ? 'No email addresses were found in this spreadsheet.' : 'Please enter at least one email.',
    );
  }
  if (entries.length > MAX_ROSTER_ENTRIES) {
    throw payloadTooLarge(
      `Please add at most ${MAX_ROSTER_ENTRIES} students at a time (this list has ${entries.length}).`,
    );
  }

  const rejected: RosterRejection[] = [];
  const emails = new Set<string>();
  for (const entry of entries) {
    const parsed = Email.safeParse(entry);
    if (parsed.success) emails.add(parsed.data);
    else rejected.push({ entry, reason: 'This is not a valid email address.' });
  }

  const counts = await ctx.db.transaction(async (tx) => {
    const accounts = await selectUsersByEmails(tx, [...emails]);
    const studentIds: string[] = [];
    /** Emails an instructor account holds that "Not my student" may close: invited all the same. */
    const heldByClosable: string[] = [];
    for (const account of accounts) {
      if (account.id === owner.id) {
        rejected.push({ entry: account.email, reason: 'This is your own email: you teach this course.' });
      } else if (account.role !== 'student') {
        if ((await whyNotClosable(tx, account)) === null) heldByClosable.push(account.email);
        else
          rejected.push({
            entry: account.email,
            reason: 'This is an instructor account; only student accounts can be enrolled.',
          });
      } else {
        studentIds.push(account.id);
      }
    }
    const accountEmails = new Set(accounts.map((account) => account.email));
    const emailsWithoutAccount = [...emails].filter((email) => !accountEmails.has(email));
    const toInvite = [...emailsWithoutAccount, ...heldByClosable];
    const added = await insertEnrollments(tx, course.id, studentIds);
    const invited = new Set(await insertPendingEnrollments(tx, course.id, toInvite, owner.id));
    return {
      added: added.length,
      alreadyEnrolled: studentIds.length - added.length,
      invited: invited.size,
      alreadyInvited: toInvite.length - invited.size,
      invitedPastInstructor: heldByClosable.filter((email) => invited.has(email)).length,
    };
  });

  if (counts.added + counts.alreadyEnrolled + counts.invited + counts.alreadyInvited === 0) {
    // Nothing usable at all: a 400 that says why, entry by entry.
    const first = rejected[0];
    throw new AppError(
      'VALIDATION_FAILED',
      rejected.length === 1 && first
        ? `No students were added: ${first.entry} — ${first.reason}`
        : `No students were added: none of the ${rejected.length} entries can be enrolled.`,
      rejected.map((rejection) => ({ path: rejection.entry, message: rejection.reason })),
    );
  }
  return {
    message: describeOutcome(source, counts, rejected.length, Boolean(ctx.mailer)),
    added: counts.added,
    alreadyEnrolled: counts.alreadyEnrolled,
    invited: counts.invited,
    alreadyInvited: counts.alreadyInvited,
    rejected,
  };
}

function describeOutcome(
  source: RosterSource,
  counts: {
    added: number;
    alreadyEnrolled: number;
    invited: number;
    alreadyInvited: number;
    invitedPastInstructor: number;
  },
  rejectedCount: number,
  sendsEmail: boolean,
): string {
  const head = source === 'excel' ? 'Students added via Excel successfully!' : 'Students added successfully.';
  const parts = [`${counts.added} added`];
  if (counts.alreadyEnrolled > 0) parts.push(`${counts.alreadyEnrolled} already enrolled`);
  // As it happens on this server: with SMTP the student proves the address and joins; without, the
  // instructor confirms the registered student on the Students page (decision 0072).
  const withoutAccount = counts.invited - counts.invitedPastInstructor;
  if (withoutAccount > 0) {
    parts.push(
      sendsEmail
        ? `${withoutAccount} invited (no account yet; they join once they register and confirm their email)`
        : `${withoutAccount} invited (no account yet; once they register, you confirm them on the Students page)`,
    );
  }
  if (counts.invitedPastInstructor > 0) {
    parts.push(
      `${counts.invitedPastInstructor} invited whose email an instructor account holds without having proved it (if it is not your student's, choose "Not my student" on the Students page)`,
    );
  }
  if (counts.alreadyInvited > 0) parts.push(`${counts.alreadyInvited} already invited`);
  if (rejectedCount > 0) parts.push(`${rejectedCount} rejected`);
  return `${head} ${parts.join(', ')}.`;
}

/** For upload-on-behalf: the enrolled student with this email, or a 4xx that says what is wrong. */
export async function findEnrolledStudentByEmail(ctx: AppContext, courseId: string, email: string): Promise<UserRow> {
  const [account] = await selectUsersByEmails(ctx.db, [email]);
  if (account && account.role === 'student' && (await isEnrolled(ctx.db, courseId, account.id))) return account;
  if (!account && (await selectPendingEmailsOfCourse(ctx.db, courseId, [email])).has(email)) {
    throw badRequest(
      `${email} is invited to this course but has not registered yet, so nothing can be submitted for them.`,
    );
  }
  throw badRequest(`No student with the email ${email} is enrolled in this course.`);
}

/**
 * The instructor confirms that the student account registered with an invited email is the student
 * they meant: it is enrolled and the invitation is done. Without SMTP this is how an invitation
 * attaches (the server cannot check who reads the address); with SMTP it also covers accounts
 * registered before email was set up.
 */
export async function confirmInvitedStudent(
  ctx: AppContext,
  { course }: AsOwner<CourseScope>,
  email: string,
): Promise<{ message: string }> {
  return ctx.db.transaction(async (tx) => {
    const [pending] = [...(await selectPendingEmailsOfCourse(tx, course.id, [email]))];
    if (!pending) throw notFound(`${email} is not waiting for a confirmation in this course.`);
    const [account] = await selectUsersByEmails(tx, [email]);
    if (!account) throw badRequest(`Nobody has registered with ${email} yet, so there is no one to confirm.`);
    if (account.role !== 'student') {
      throw badRequest(`${email} was registered as an instructor account; only student accounts can be enrolled.`);
    }
    await insertEnrollments(tx, course.id, [account.id]);
    await deletePendingEnrollment(tx, course.id, email);
    return { message: `${account.name} (${email}) is now enrolled in this course.` };
  });
}

/**
 * "Not my student": the account registered with an invited email is not the person the instructor
 * invited. Without SMTP anyone can register any address first, and an address holds one account,
 * so such an account would keep the real student out for good (issue 28). It is closed, as a
 * deleted account is (a tombstone, every session ended), and the invitation keeps waiting: the
 * real student registers with their address and the instructor confirms them.
 *
 * Only an account nobody relies on is closed: its address was never proved (a proved address
 * belongs to whoever reads it, instructor or not) and it holds nothing (no seat in any course, no
 * course of its own, no LMS identity). Anything else is refused with a 409 that says why.
 */
export async function declineRegistrant(
  ctx: AppContext,
  { course }: AsOwner<CourseScope>,
  email: string,
): Promise<{ message: string }> {
  const closed = await ctx.db.transaction(async (tx) => {
    const [pending] = [...(await selectPendingEmailsOfCourse(tx, course.id, [email]))];
    if (!pending) throw notFound(`${email} is not waiting for a confirmation in this course.`);
    const [account] = await selectUsersByEmails(tx, [email]);
    if (!account) throw badRequest(`Nobody has registered with ${email} yet, so there is no account to close.`);
    const refusal = await whyNotClosable(tx, account);
    if (refusal === 'proved') {
      throw conflict(
        `The account registered with ${email} has proved this email address, so it belongs to whoever reads that mailbox and is not closed. If that is not your student, ask them which email they use.`,
      );
    }
    if (refusal === 'in-use') {
      throw conflict(
        `The account registered with ${email} is already in use (it belongs to a course, teaches one or is linked to an LMS), so it is not closed here. Ask your student which other email they can use.`,
      );
    }
    await tombstoneAccount(ctx, tx, account.id);
    return account;
  });
  forgetUser(ctx, closed.id);
  ctx.log.info(
    { audit: 'registrant-declined', courseId: course.id, userId: closed.id },
    'An invited email was freed: the account registered with it was closed by the course owner',
  );
  return {
    message: `The account ${closed.name} registered with ${email} is closed. The invitation still waits: your student can now register with this email, and you confirm them here.`,
  };
}

/**
 * Why "Not my student" may not close this account, or null when it may: an account nobody relies
 * on never proved its address (a proved address belongs to whoever reads it, instructor or not)
 * and holds nothing (no seat in any course, no course of its own, no LMS identity). The one home
 * of that rule: declineRegistrant closes such an account, addStudentsToCourse invites past one, and
 * the owner's Students page offers "Not my student" beside one (`loadCourseDetail`).
 */
export async function whyNotClosable(tx: Db, account: UserRow): Promise<'proved' | 'in-use' | null> {
  if (account.emailVerifiedAt) return 'proved';
  if (await accountHoldsAnything(tx, account.id)) return 'in-use';
  return null;
}
