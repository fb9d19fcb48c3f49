import type { InvitationConfirmer } from '@gradewise/shared/contracts/courses';
import type { AppContext } from '../context.ts';
import {
  selectCourseSummariesEnrolledBy,
  selectCourseSummariesTaughtBy,
  selectCourseWithInstructor,
  type CourseSummaryRow,
  type CourseWithInstructor,
} from '../models/courses.ts';
import {
  claimPendingEnrollments,
  hasPendingEnrollments,
  selectInvitationsOfEmail,
  selectPendingOfCourse,
  selectRosterOfCourse,
  type PendingWithRegistrant,
  type RosterStudent,
  type WaitingInvitationRow,
} from '../models/enrollments.ts';
import { selectUsersByEmails, type UserRow } from '../models/users.ts';
import { loadVisibleCourse, type CourseScope } from '../policies/course-access.ts';
import { whyNotClosable } from './add-students.ts';

/**
 * GET /courses: instructors see the courses they own and those they are a TA of, students the courses they are enrolled in.
 *
 * For a student whose address is proved (they followed an email link) it first claims any
 * invitation still pending for their email. Finishing registration does that already; this catches
 * the one race it cannot: an instructor adding the email while the account is being created (each
 * transaction misses the other's uncommitted row). In the normal case it is one index read that
 * finds nothing; only a found invitation opens the claiming transaction (a read costs a fraction of
 * a write transaction on every call, issue 11). An unproved address never claims anything (decision 0014).
 */
export async function listCoursesFor(ctx: AppContext, user: UserRow): Promise<CourseSummaryRow[]> {
  if (user.role === 'instructor') {
    // Owned courses, then those the instructor is a TA of, each newest first.
    return selectCourseSummariesTaughtBy(ctx.db, user.id);
  }
  if (user.emailVerifiedAt && (await hasPendingEnrollments(ctx.db, user.email))) {
    await ctx.db.transaction((tx) => claimPendingEnrollments(tx, user.id, user.email));
  }
  return selectCourseSummariesEnrolledBy(ctx.db, user.id);
}

export interface CourseDetail {
  scope: CourseScope;
  row: CourseWithInstructor;
  students: RosterStudent[];
  /** Only loaded for the owner (a TA cannot act on invitations). */
  pending: PendingForOwner[];
}

export interface PendingForOwner extends PendingWithRegistrant {
  /**
   * The account registered with the email (a student registrant's, or an instructor account's) is
   * one "Not my student" closes (never proved the address, holds nothing): for an instructor
   * account the invitation waits for the owner to close it, not for another address (decision
   * 0090); a student registrant that proved or uses the address is only confirmed (decision 0096).
   */
  accountClosable: boolean;
}

export async function loadCourseDetail(ctx: AppContext, user: UserRow, courseId: string): Promise<CourseDetail> {
  const scope = await loadVisibleCourse(ctx.db, user, courseId);
  const [row, students, pending] = await Promise.all([
    selectCourseWithInstructor(ctx.db, scope.course.id),
    selectRosterOfCourse(ctx.db, scope.course.id),
    scope.role === 'owner' ? selectPendingOfCourse(ctx.db, scope.course.id) : Promise.resolve([]),
  ]);
  return { scope, row: row!, students, pending: await withClosableAccounts(ctx, pending) };
}

/**
 * Tells the owner which invitations' accounts "Not my student" can close (`whyNotClosable`, the one
 * rule the server acts by), so the page offers it only where the server will act: an instructor
 * account it will not close sends the owner to ask for another address, a student registrant it
 * will not close is only confirmed. Reads only the accounts registered with invited emails (a few).
 */
async function withClosableAccounts(ctx: AppContext, pending: PendingWithRegistrant[]): Promise<PendingForOwner[]> {
  const held = pending
    .filter((invite) => invite.registrant || invite.registeredAsInstructor)
    .map((invite) => invite.email);
  const closable = new Set<string>();
  for (const account of await selectUsersByEmails(ctx.db, held)) {
    if ((await whyNotClosable(ctx.db, account)) === null) closable.add(account.email);
  }
  return pending.map((invite) => ({ ...invite, accountClosable: closable.has(invite.email) }));
}

/** Who turns an invitation into a seat on this server: the emailed link with SMTP, else the instructor. */
export function invitationConfirmer(ctx: AppContext): InvitationConfirmer {
  return ctx.mailer ? 'email' : 'instructor';
}

/**
 * The invitations that wait for the caller's own email (GET /api/invitations). A student whose
 * address is proved has none left (GET /api/courses claimed them); an instructor account never
 * takes a student seat, so it has none to wait for either.
 */
export async function listWaitingInvitations(
  ctx: AppContext,
  user: UserRow,
): Promise<{ rows: WaitingInvitationRow[]; waitingFor: InvitationConfirmer }> {
  const rows = user.role === 'student' ? await selectInvitationsOfEmail(ctx.db, user.email) : [];
  return { rows, waitingFor: invitationConfirmer(ctx) };
}
