import { createHash, randomBytes } from 'node:crypto';
import { forgetUser } from '../auth/user-cache.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { currentTime } from '../lib/clock.ts';
import { notFound } from '../lib/errors.ts';
import { isId, newId } from '../lib/ids.ts';
import {
  ASSIGNMENT_CUSTOM_PARAMETER,
  CLAIM,
  courseRoleOf,
  DEEP_LINKING_REQUEST,
  type LaunchClaims,
  type LtiCourseRole,
} from '../lti/claims.ts';
import { LaunchRefusal, verifyIdToken } from '../lti/verify-id-token.ts';
import { selectAssignmentWithCourse } from '../models/assignments.ts';
import { insertStaffMember, selectStaffRole } from '../models/course-staff.ts';
import { insertCourse, selectCourseById, type CourseRow } from '../models/courses.ts';
import { insertEnrollments } from '../models/enrollments.ts';
import {
  insertHandoff,
  insertLoginState,
  insertLtiUser,
  isKnownDeployment,
  linkContext,
  moveContextLinkable,
  moveLtiUser,
  selectContext,
  selectContextById,
  selectLoginState,
  selectLtiUserId,
  selectPlatformById,
  selectPlatformsByIssuer,
  selectHandoff,
  takeHandoff,
  takeLoginState,
  upsertContext,
  upsertLineItem,
  type LtiContextRow,
  type LtiPlatformRow,
} from '../models/lti.ts';
import { insertUser, selectUserById, type UserRow } from '../models/users.ts';
import { loadVisibleCourse, requireOwner } from '../policies/course-access.ts';
import { logInUser } from './log-in-user.ts';
import { tombstoneAccount } from './manage-account.ts';

/**
 * The LTI 1.3 launch (decision 0074): OIDC third-party login initiation, then the id_token the
 * platform form-posts back, verified in full before anything is written; then, in one transaction,
 * the person's account, their seat in the linked course and a one-time handoff code the web app
 * trades for a session. A refused launch writes nothing but the use of its login state.
 */

const LOGIN_STATE_TTL_MS = 10 * 60 * 1000;
const HANDOFF_TTL_MS = 2 * 60 * 1000;
/** Long enough to remember and type a password, short enough that a forgotten tab is no risk. */
const ACCOUNT_LINK_TTL_MS = 10 * 60 * 1000;
/** Picking the assignment to link takes longer than a sign-in. */
const DEEP_LINK_TTL_MS = 30 * 60 * 1000;

/** Where the web app takes the person after a launch. */
export type LtiLanding =
  | { kind: 'course'; courseId: string }
  | { kind: 'assignment'; courseId: string; assignmentId: string }
  | { kind: 'link'; contextId: string; contextTitle: string }
  | { kind: 'deep-link'; code: string; courseId: string | null; contextTitle: string };

/** What a deep linking request asked, kept server-side until the instructor picks an assignment. */
export interface DeepLinkRequest {
  kind: 'deep-link-request';
  platformId: string;
  contextId: string;
  deploymentId: string;
  returnUrl: string;
  data: string | null;
  courseId: string | null;
}

/**
 * An instructor's first launch, kept server-side: the LMS identity it linked to a new account, which
 * the instructor may move to an existing password account instead (decision 0076).
 */
export interface AccountLinkRequest {
  kind: 'account-link';
  platformId: string;
  subject: string;
  /** The account this launch made; the identity moves only while it is still this one's. */
  launchUserId: string;
  contextId: string;
  courseId: string | null;
  role: LtiCourseRole;
  landing: LtiLanding;
}

export interface LoginInitiation {
  iss: string;
  login_hint: string;
  target_link_uri: string;
  lti_message_hint?: string;
  client_id?: string;
  lti_deployment_id?: string;
}

/** The tool's own URLs, built on the address the tool is reached at. */
export function toolUrls(baseUrl: string) {
  return {
    loginUrl: `${baseUrl}/api/lti/login`,
    launchUrl: `${baseUrl}/api/lti/launch`,
    jwksUrl: `${baseUrl}/api/lti/jwks`,
    deepLinkingUrl: `${baseUrl}/api/lti/launch`,
  };
}

/**
 * Step 1: the platform sends the browser here with who is logging in. Answers the address of the
 * platform's authorization endpoint to send the browser to, and the state the browser must carry
 * back (the route sets it as a cookie: the binding of this login to this browser).
 */
export async function startLogin(
  ctx: AppContext,
  params: LoginInitiation,
  baseUrl: string,
): Promise<{ redirectTo: string; state: string }> {
  const platforms = await selectPlatformsByIssuer(ctx.db, params.iss, params.client_id);
  if (platforms.length === 0) {
    throw new LaunchRefusal('unknown-platform', `No LMS with issuer ${params.iss} is registered with Gradewise.`);
  }
  if (platforms.length > 1) {
    throw new LaunchRefusal(
      'ambiguous-platform',
      'Several registrations share this issuer; the LMS must send its client_id.',
    );
  }
  const platform = platforms[0]!;
  const { launchUrl } = toolUrls(baseUrl);
  if (!sameOrigin(params.target_link_uri, baseUrl)) {
    throw new LaunchRefusal('target', 'The LMS asked to open an address that is not Gradewise.');
  }
  const state = randomBytes(24).toString('base64url');
  const nonce = randomBytes(24).toString('base64url');
  const now = currentTime(ctx);
  const loginParams = Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  await insertLoginState(
    ctx.db,
    { state, nonce, platformId: platform.id, loginParams, expiresAt: new Date(now.getTime() + LOGIN_STATE_TTL_MS) },
    now,
  );
  const query = new URLSearchParams({
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: platform.clientId,
    redirect_uri: launchUrl,
    login_hint: params.login_hint,
    state,
    nonce,
  });
  if (params.lti_message_hint) query.set('lti_message_hint', params.lti_message_hint);
  const redirectTo = new URL(platform.authLoginUrl);
  for (const [name, value] of query) redirectTo.searchParams.set(name, value);
  return { redirectTo: redirectTo.toString(), state };
}

function sameOrigin(url: string, baseUrl: string): boolean {
  try {
    return new URL(url).origin === new URL(baseUrl).origin;
  } catch {
    return false;
  }
}

/**
 * When the browser came back without its state cookie (an LMS page framing Gradewise, with
 * third-party cookies blocked): the login it started, to be started again in a tab of its own.
 * Undefined when the state is unknown or spent.
 */
export async function loginToRestart(ctx: AppContext, state: string): Promise<LoginInitiation | undefined> {
  const row = state ? await selectLoginState(ctx.db, state) : undefined;
  if (!row || row.expiresAt < currentTime(ctx)) return undefined;
  const params = row.loginParams;
  if (!params['iss'] || !params['login_hint'] || !params['target_link_uri']) return undefined;
  return params as unknown as LoginInitiation;
}

export interface LaunchPost {
  idToken: string | undefined;
  state: string | undefined;
  /** Whether the browser carried this state's cookie back. */
  browserHasState: boolean;
}

/** Step 2: the platform form-posts the id_token. Answers the one-time code the web app redeems. */
export async function completeLaunch(
  ctx: AppContext,
  post: LaunchPost,
): Promise<{ code: string; landing: LtiLanding; contextId: string }> {
  if (!post.idToken || !post.state) {
    throw new LaunchRefusal(
      'malformed',
      'The LMS did not send a launch (no id_token or state). Please launch again from your course.',
    );
  }
  if (!post.browserHasState) {
    throw new LaunchRefusal(
      'browser',
      'This launch did not start in this browser window, so it cannot sign you in. If your LMS shows Gradewise inside its page, open it in a new tab.',
    );
  }
  const now = currentTime(ctx);
  const login = await takeLoginState(ctx.db, post.state);
  if (!login || login.expiresAt < now) {
    throw new LaunchRefusal(
      'state',
      'This launch was already used or has expired. Please launch again from your course.',
    );
  }
  const platform = await selectPlatformById(ctx.db, login.platformId);
  if (!platform) throw new LaunchRefusal('unknown-platform', 'The LMS this launch came from is no longer registered.');
  const claims = await verifyIdToken(post.idToken, {
    issuer: platform.issuer,
    clientId: platform.clientId,
    keysetUrl: platform.keysetUrl,
    nonce: login.nonce,
    now,
  });
  const deploymentId = claims[CLAIM.deploymentId];
  if (!(await isKnownDeployment(ctx.db, platform.id, deploymentId))) {
    throw new LaunchRefusal(
      'deployment',
      `The LMS deployment "${deploymentId}" is not registered with Gradewise. Ask the person who registered the LMS to add it.`,
    );
  }
  const contextClaim = claims[CLAIM.context];
  if (!contextClaim) throw new LaunchRefusal('context', 'Gradewise opens from a course: this launch names none.');
  const role = courseRoleOf(claims[CLAIM.roles]);
  if (role === 'other') {
    throw new LaunchRefusal(
      'role',
      'Gradewise opens for the instructors, teaching assistants and students of a course; your role in this course has no place in Gradewise.',
      'FORBIDDEN',
    );
  }
  const isDeepLinking = claims[CLAIM.messageType] === DEEP_LINKING_REQUEST;
  if (isDeepLinking && role === 'learner') {
    throw new LaunchRefusal('role', 'Only instructors can add Gradewise assignments to a course.', 'FORBIDDEN');
  }
  const known = await selectContext(ctx.db, platform.id, contextClaim.id);
  const course = known?.courseId ? await selectCourseById(ctx.db, known.courseId) : undefined;
  const assignmentId = requestedAssignmentId(claims);
  if (assignmentId !== undefined) {
    const found = isId(assignmentId) ? await selectAssignmentWithCourse(ctx.db, assignmentId) : undefined;
    if (!found || !course || found.course.id !== course.id) {
      throw new LaunchRefusal(
        'course',
        'This link opens a Gradewise assignment that is not part of the course it was launched from.',
        'FORBIDDEN',
      );
    }
  }
  if (!course && role !== 'instructor') {
    throw new LaunchRefusal(
      'not-set-up',
      'Your instructor has not set up Gradewise for this course yet. Please try again later.',
      'FORBIDDEN',
    );
  }

  // Only an instructor's very first launch may take the identity to an existing account: later the
  // LMS-made account may own courses of its own. Deep linking keeps its own code bound to the account.
  const offerAccountLink =
    role !== 'learner' && !isDeepLinking && (await selectLtiUserId(ctx.db, platform.id, claims.sub)) === undefined;

  return ctx.db.transaction(async (tx) => {
    const user = await accountFor(tx, platform, claims, role);
    if (course) await takeSeat(tx, course, user, role);
    const saved = await upsertContext(tx, {
      id: newId(),
      platformId: platform.id,
      deploymentId,
      contextId: contextClaim.id,
      title: contextClaim.title ?? contextClaim.label ?? 'LMS course',
      membershipsUrl: claims[CLAIM.namesRoleService]?.context_memberships_url ?? null,
      lineItemsUrl: claims[CLAIM.agsEndpoint]?.lineitems ?? null,
      linkableById: course ? null : user.id,
    });
    // A deep-linked assignment's launch names its line item (AGS): scores go there (decision 0076).
    const lineItemUrl = claims[CLAIM.agsEndpoint]?.lineitem;
    if (course && assignmentId && lineItemUrl) {
      await upsertLineItem(tx, { assignmentId, contextId: saved.id, url: lineItemUrl });
    }
    let landing: LtiLanding;
    if (isDeepLinking) {
      const settings = claims[CLAIM.deepLinkingSettings]!;
      const request: DeepLinkRequest = {
        kind: 'deep-link-request',
        platformId: platform.id,
        contextId: saved.id,
        deploymentId,
        returnUrl: settings.deep_link_return_url,
        data: settings.data ?? null,
        courseId: course?.id ?? null,
      };
      const deepLinkCode = await newHandoff(tx, user.id, request, now, DEEP_LINK_TTL_MS);
      landing = { kind: 'deep-link', code: deepLinkCode, courseId: course?.id ?? null, contextTitle: saved.title };
    } else if (!course) {
      landing = { kind: 'link', contextId: saved.id, contextTitle: saved.title };
    } else if (assignmentId) {
      landing = { kind: 'assignment', courseId: course.id, assignmentId };
    } else {
      landing = { kind: 'course', courseId: course.id };
    }
    let accountLinkCode: string | undefined;
    if (offerAccountLink) {
      const request: AccountLinkRequest = {
        kind: 'account-link',
        platformId: platform.id,
        subject: claims.sub,
        launchUserId: user.id,
        contextId: saved.id,
        courseId: course?.id ?? null,
        role,
        landing,
      };
      accountLinkCode = await newHandoff(tx, user.id, request, now, ACCOUNT_LINK_TTL_MS);
    }
    const code = await newHandoff(tx, user.id, { kind: 'landing', landing, accountLinkCode }, now);
    return { code, landing, contextId: saved.id };
  });
}

function requestedAssignmentId(claims: LaunchClaims): string | undefined {
  const value = claims[CLAIM.custom]?.[ASSIGNMENT_CUSTOM_PARAMETER];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const hashCode = (code: string) => createHash('sha256').update(code).digest('base64url');

async function newHandoff(
  db: Db,
  userId: string,
  landing: Record<string, unknown> | object,
  now: Date,
  ttlMs = HANDOFF_TTL_MS,
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await insertHandoff(
    db,
    {
      codeHash: hashCode(code),
      userId,
      landing: landing as Record<string, unknown>,
      expiresAt: new Date(now.getTime() + ttlMs),
    },
    now,
  );
  return code;
}

/**
 * The Gradewise account of this LMS person: the one linked before, else a new one. Accounts are
 * never matched by email (an LMS asserting someone's address would take their account over); a new
 * account takes the LMS's email when no account has it, else an address of its own that cannot
 * receive mail. Learners get student accounts, instructors and TAs instructor accounts.
 */
export interface LmsPerson {
  sub: string;
  name?: string | undefined;
  given_name?: string | undefined;
  family_name?: string | undefined;
  email?: string | undefined;
}

export async function accountFor(
  db: Db,
  platform: LtiPlatformRow,
  claims: LmsPerson,
  role: LtiCourseRole,
): Promise<UserRow> {
  const wanted = role === 'learner' ? 'student' : 'instructor';
  const linkedId = await selectLtiUserId(db, platform.id, claims.sub);
  if (linkedId) {
    const user = await selectUserById(db, linkedId);
    if (!user || user.deletedAt)
      throw new LaunchRefusal('account', 'The Gradewise account of this LMS user was deleted.', 'FORBIDDEN');
    if (user.role !== wanted) {
      throw new LaunchRefusal(
        'account-role',
        `Your Gradewise account is a${user.role === 'instructor' ? 'n instructor' : ' student'} account, but this course lists you as a${wanted === 'instructor' ? 'n instructor' : ' student'}.`,
        'FORBIDDEN',
      );
    }
    return user;
  }
  const name =
    claims.name?.trim() || [claims.given_name, claims.family_name].filter(Boolean).join(' ').trim() || 'LMS user';
  const email = claims.email?.trim().toLowerCase();
  const base = { name, passwordHash: '!lti', role: wanted, emailVerifiedAt: null } as const;
  const subjectHash = createHash('sha256').update(`${platform.id}\n${claims.sub}`).digest('hex').slice(0, 24);
  const user =
    (email && /^[^\s@]+@[^\s@]+$/.test(email) ? await insertUser(db, { ...base, id: newId(), email }) : undefined) ??
    (await insertUser(db, { ...base, id: newId(), email: `lti-${subjectHash}@lti.invalid` }));
  if (!user) throw new Error('Could not create the account of an LMS user');
  await insertLtiUser(db, platform.id, claims.sub, user.id);
  return user;
}

/** The person's seat in the linked course: a learner is enrolled; an instructor or TA who does not own it gets a TA seat. */
export async function takeSeat(db: Db, course: CourseRow, user: UserRow, role: LtiCourseRole): Promise<void> {
  if (role === 'learner') {
    await insertEnrollments(db, course.id, [user.id]);
    return;
  }
  if (course.instructorId === user.id || (await selectStaffRole(db, course.id, user.id))) return;
  await insertStaffMember(db, { courseId: course.id, userId: user.id, role: 'ta', addedById: course.instructorId });
}

/** Step 3: the web app trades the code for a session and where to land. Once, within two minutes. */
export async function redeemHandoff(
  ctx: AppContext,
  code: string,
): Promise<{ user: UserRow; landing: LtiLanding; accountLinkCode: string | undefined }> {
  const row = await takeHandoff(ctx.db, hashCode(code));
  const landing = row?.landing as { kind?: string; landing?: LtiLanding; accountLinkCode?: string } | undefined;
  if (!row || row.expiresAt < currentTime(ctx) || landing?.kind !== 'landing' || !landing.landing) {
    throw new LaunchRefusal(
      'handoff',
      'This sign-in link was already used or has expired. Please launch Gradewise again from your course.',
    );
  }
  const user = await selectUserById(ctx.db, row.userId);
  if (!user || user.deletedAt) throw new LaunchRefusal('account', 'This account no longer exists.');
  return { user, landing: landing.landing, accountLinkCode: landing.accountLinkCode };
}

const spentAccountLink = () =>
  new LaunchRefusal(
    'handoff',
    'This offer to use your existing Gradewise account was already used or has expired. Please launch Gradewise again from your course.',
  );

/**
 * "Use my existing Gradewise account" on an instructor's first launch: the account's email and
 * password, checked as a sign-in is (same throttle), then the LMS identity moves from the account
 * the launch made to that one, never by email alone. The code is used up by the first right
 * password; the launch's own account is retired (it owned nothing yet). Answers the account and
 * where the launch lands.
 */
export async function linkExistingAccount(
  ctx: AppContext,
  input: { code: string; email: string; password: string },
  address: string,
): Promise<{ user: UserRow; landing: LtiLanding }> {
  const codeHash = hashCode(input.code);
  const pending = await selectHandoff(ctx.db, codeHash);
  if (!pending || pending.expiresAt < currentTime(ctx) || pending.landing['kind'] !== 'account-link') {
    throw spentAccountLink();
  }
  const user = await logInUser(ctx, input.email, input.password, address);
  if (user.role !== 'instructor') {
    throw new LaunchRefusal(
      'account-role',
      'That is a student account; an LMS instructor can only use an instructor account.',
      'FORBIDDEN',
    );
  }
  // Single use: whoever takes the code first links; a replay finds nothing.
  const taken = await takeHandoff(ctx.db, codeHash);
  if (!taken || taken.expiresAt < currentTime(ctx)) throw spentAccountLink();
  const request = taken.landing as unknown as AccountLinkRequest;
  await ctx.db.transaction(async (tx) => {
    const moved = await moveLtiUser(tx, request.platformId, request.subject, request.launchUserId, user.id);
    if (!moved) {
      throw new LaunchRefusal(
        'linked-elsewhere',
        'This LMS identity is already linked to another Gradewise account, so it cannot be linked to this one.',
        'CONFLICT',
      );
    }
    await moveContextLinkable(tx, request.contextId, request.launchUserId, user.id);
    const course = request.courseId ? await selectCourseById(tx, request.courseId) : undefined;
    if (course) await takeSeat(tx, course, user, request.role);
    await retireLaunchAccount(ctx, tx, request.launchUserId);
  });
  ctx.log.info(
    { audit: 'lti-account-link', platformId: request.platformId, subject: request.subject, userId: user.id },
    'LMS identity linked to an existing Gradewise account',
  );
  return { user, landing: request.landing };
}

/** The account a first launch made, left empty by the link: tombstoned as a deleted account is. */
async function retireLaunchAccount(ctx: AppContext, db: Db, userId: string): Promise<void> {
  await tombstoneAccount(ctx, db, userId);
  forgetUser(ctx, userId);
}

/**
 * A deep linking request still open, and the instructor who launched it: its code is the
 * permission (one-time, bound to that account, short-lived). Not used up here: see spendDeepLinkRequest.
 */
export async function readDeepLinkRequest(
  ctx: AppContext,
  code: string,
): Promise<{ user: UserRow; request: DeepLinkRequest }> {
  const row = await selectHandoff(ctx.db, hashCode(code));
  const request = row?.landing as DeepLinkRequest | undefined;
  const user = row ? await selectUserById(ctx.db, row.userId) : undefined;
  if (!row || !user || user.deletedAt || row.expiresAt < currentTime(ctx) || request?.kind !== 'deep-link-request') {
    throw new LaunchRefusal(
      'handoff',
      'This request to add a Gradewise link was already answered or has expired. Please start again from your LMS.',
    );
  }
  return { user, request };
}

/** Uses a deep linking request up; false when someone else answered it meanwhile. */
export async function spendDeepLinkRequest(ctx: AppContext, code: string): Promise<boolean> {
  return (await takeHandoff(ctx.db, hashCode(code))) !== undefined;
}

/**
 * The first launch from an LMS course: its instructor links it to a course they own, or creates
 * one with the LMS course's title. Only the instructor whose launch found it unlinked may.
 */
export async function linkLtiContext(
  ctx: AppContext,
  user: UserRow,
  contextId: string,
  choice: { courseId: string } | { create: true },
): Promise<{ course: CourseRow; context: LtiContextRow }> {
  const context = isId(contextId) ? await selectContextById(ctx.db, contextId) : undefined;
  if (!context || context.linkableById !== user.id) throw notFound('LMS course not found.');
  const existing =
    'courseId' in choice
      ? requireOwner(await loadVisibleCourse(ctx.db, user, choice.courseId), 'link it to an LMS course').course
      : undefined;
  return ctx.db.transaction(async (tx) => {
    const course = existing ?? (await insertCourse(tx, { id: newId(), title: context.title, instructorId: user.id }));
    const linked = await linkContext(tx, context.id, course.id);
    if (!linked)
      throw new LaunchRefusal('linked', 'This LMS course is already linked to a Gradewise course.', 'CONFLICT');
    return { course, context: linked };
  });
}
