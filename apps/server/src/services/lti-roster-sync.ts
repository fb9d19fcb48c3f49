import type { JWK } from 'jose';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { currentTime } from '../lib/clock.ts';
import { AppError } from '../lib/errors.ts';
import { courseRoleOf, SCOPE } from '../lti/claims.ts';
import { importPrivateKey } from '../lti/keys.ts';
import { fetchServiceToken, nextPageOf } from '../lti/service-token.ts';
import { LaunchRefusal } from '../lti/verify-id-token.ts';
import { selectCourseById, type CourseRow } from '../models/courses.ts';
import {
  claimLaunchRosterSync,
  markMissingMembersLeft,
  selectContextById,
  selectContextsOfCourse,
  selectMembers,
  selectPlatformById,
  stampRosterSync,
  upsertMember,
  type LtiContextRow,
} from '../models/lti.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleCourse, requireGrader, requireOwner } from '../policies/course-access.ts';
import { accountFor, takeSeat } from './lti-launch.ts';
import { activeToolKey } from './lti-registration.ts';

/**
 * Names and Role Provisioning Services 2.0 (decision 0074): reads the LMS course's membership,
 * every page (`Link: <…>; rel="next"`), and brings the Gradewise course in line: each active
 * Learner enrolled, each Instructor or TA given a staff seat (accounts as at launch), and everyone
 * no longer listed, or listed Inactive, marked as left (their seat and work stay). All pages are
 * read before anything is written; the writes are one transaction per LMS course.
 */

const NRPS_MEDIA_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';
/** A course with more pages than this is refused rather than read without end. */
const MAX_PAGES = 200;

const Member = z.object({
  user_id: z.string().min(1).max(255),
  roles: z.array(z.string()),
  status: z.string().optional(),
  name: z.string().max(200).optional(),
  given_name: z.string().max(200).optional(),
  family_name: z.string().max(200).optional(),
  email: z.string().max(320).optional(),
});
const MembershipPage = z.object({ members: z.array(Member) });

export interface RosterSyncResult {
  contexts: number;
  active: number;
  left: number;
}

export async function syncLtiRoster(ctx: AppContext, user: UserRow, courseId: string): Promise<RosterSyncResult> {
  const { course } = requireOwner(await loadVisibleCourse(ctx.db, user, courseId), 'sync its roster from the LMS');
  const contexts = (await selectContextsOfCourse(ctx.db, course.id)).filter((context) => context.membershipsUrl);
  if (contexts.length === 0) {
    throw new AppError('BAD_REQUEST', 'This course is not linked to an LMS course that offers its roster (NRPS).');
  }
  const result: RosterSyncResult = { contexts: contexts.length, active: 0, left: 0 };
  for (const context of contexts) {
    // A sync on demand counts for the launches' rate too: they need not sync again this hour.
    await stampRosterSync(ctx.db, context.id, currentTime(ctx));
    const counts = await syncContextRoster(ctx, course, context);
    result.active += counts.active;
    result.left += counts.left;
  }
  return result;
}

/** Launches sync the roster of their LMS course at most this often (decision 0076). */
const LAUNCH_ROSTER_SYNC_EVERY_MS = 60 * 60 * 1000;

/**
 * At a launch into a linked course (decision 0076): the roster is synced when none was in the
 * last hour, by a launch or on demand. The claim is made before the launch answers; the sync itself
 * runs after, so the LMS's speed never slows a launch, and its failure is only logged (the owner's
 * "Sync roster" button says why). Answers whether a sync was started.
 */
export async function syncRosterAtLaunch(ctx: AppContext, contextId: string): Promise<boolean> {
  try {
    const context = await selectContextById(ctx.db, contextId);
    const course = context?.courseId ? await selectCourseById(ctx.db, context.courseId) : undefined;
    if (!context?.membershipsUrl || !course) return false;
    const now = currentTime(ctx);
    if (!(await claimLaunchRosterSync(ctx.db, context.id, now, LAUNCH_ROSTER_SYNC_EVERY_MS))) return false;
    void syncContextRoster(ctx, course, context).catch((error: unknown) =>
      ctx.log.warn({ err: error, contextId }, 'the roster sync at a launch failed'),
    );
    return true;
  } catch (error) {
    // The launch itself succeeded: a roster that could not be synced never refuses it.
    ctx.log.warn({ err: error, contextId }, 'the roster sync at a launch could not start');
    return false;
  }
}

/** One LMS course's roster read in full, then written in one transaction. */
async function syncContextRoster(
  ctx: AppContext,
  course: CourseRow,
  context: LtiContextRow,
): Promise<{ active: number; left: number }> {
  const result = { active: 0, left: 0 };
  const platform = await selectPlatformById(ctx.db, context.platformId);
  if (!platform) return result;
  const key = await activeToolKey(ctx);
  const members = await readMembership(ctx, platform, context.membershipsUrl!, key.kid, key.privateJwk as JWK);
  const now = currentTime(ctx);
  await ctx.db.transaction(async (tx) => {
    const seen: string[] = [];
    for (const member of members) {
      const role = courseRoleOf(member.roles);
      if (role === 'other') continue;
      const active = (member.status ?? 'Active') === 'Active';
      if (!active) continue;
      const account = await accountFor(tx, platform, { ...member, sub: member.user_id }, role);
      await takeSeat(tx, course, account, role);
      await upsertMember(tx, { contextId: context.id, userId: account.id, role, status: 'active', syncedAt: now });
      seen.push(account.id);
    }
    result.active = seen.length;
    result.left = await markMissingMembersLeft(tx, context.id, seen);
  });
  return result;
}

async function readMembership(
  ctx: AppContext,
  platform: { authTokenUrl: string; clientId: string },
  url: string,
  kid: string,
  privateJwk: JWK,
): Promise<z.infer<typeof Member>[]> {
  let token: string;
  try {
    token = await fetchServiceToken({
      tokenUrl: platform.authTokenUrl,
      clientId: platform.clientId,
      scopes: [SCOPE.memberships],
      key: await importPrivateKey(privateJwk),
      kid,
      now: currentTime(ctx),
    });
  } catch (error) {
    throw new AppError('UNAVAILABLE', `Could not reach the LMS for the roster: ${(error as Error).message}`);
  }
  const members: z.infer<typeof Member>[] = [];
  let next: string | undefined = url;
  for (let page = 0; next; page += 1) {
    if (page >= MAX_PAGES) throw new LaunchRefusal('roster', `The LMS roster has more than ${MAX_PAGES} pages.`);
    const response: Response = await fetch(next, {
      headers: { authorization: `Bearer ${token}`, accept: NRPS_MEDIA_TYPE },
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new AppError('UNAVAILABLE', `The LMS refused the roster (${response.status}).`);
    const parsed = MembershipPage.safeParse(await response.json());
    if (!parsed.success) throw new AppError('UNAVAILABLE', 'The LMS answered a roster Gradewise cannot read.');
    members.push(...parsed.data.members);
    next = nextPageOf(response.headers.get('link'));
  }
  return members;
}

export interface CourseLmsLinkView {
  lmsCourse: string;
  lms: string;
  offersRoster: boolean;
  takesGrades: boolean;
  rosterSyncedAt: Date | null;
  active: number;
  left: number;
}

/** GET /api/courses/:id/lti-links: the LMS courses linked to the course, for its staff. */
export async function readCourseLmsLinks(
  ctx: AppContext,
  user: UserRow,
  courseId: string,
): Promise<CourseLmsLinkView[]> {
  const { course } = requireGrader(await loadVisibleCourse(ctx.db, user, courseId), 'see its LMS links');
  const views: CourseLmsLinkView[] = [];
  for (const context of await selectContextsOfCourse(ctx.db, course.id)) {
    const [platform, members] = await Promise.all([
      selectPlatformById(ctx.db, context.platformId),
      selectMembers(ctx.db, context.id),
    ]);
    views.push({
      lmsCourse: context.title,
      lms: platform?.name ?? 'LMS',
      offersRoster: context.membershipsUrl !== null,
      takesGrades: context.lineItemsUrl !== null,
      rosterSyncedAt: context.rosterSyncedAt,
      active: members.filter((member) => member.status === 'active').length,
      left: members.filter((member) => member.status === 'left').length,
    });
  }
  return views;
}
