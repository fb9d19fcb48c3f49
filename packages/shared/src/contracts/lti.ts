import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { AuthOutput, LoginInput } from './auth.ts';

/**
 * LTI 1.3 Advantage (issue 32, decision 0074): registering an LMS ("platform") with Gradewise
 * ("the tool"), the URLs an LMS administrator pastes, and the launch handoff to the web app.
 */

const HttpUrl = lazySchema(() =>
  z
    .url({ protocol: /^https?$/, message: 'must be an http:// or https:// address' })
    .max(2000, 'must be at most 2000 characters'),
);
const Identifier = (what: string) =>
  z.string().trim().min(1, `${what} is required`).max(255, `${what} must be at most 255 characters`);

export const RegisterPlatformInput = lazySchema(() =>
  z.object({
    name: z.string().trim().min(1, 'A name is required (e.g. "University Canvas")').max(120),
    issuer: HttpUrl,
    clientId: Identifier('The client id'),
    deploymentIds: z.array(Identifier('A deployment id')).min(1, 'At least one deployment id is required').max(50),
    authLoginUrl: HttpUrl,
    authTokenUrl: HttpUrl,
    keysetUrl: HttpUrl,
  }),
);
export type RegisterPlatformInput = z.infer<typeof RegisterPlatformInput>;

export const PlatformOutput = lazySchema(() =>
  z.object({
    _id: z.string(),
    name: z.string(),
    issuer: z.string(),
    clientId: z.string(),
    deploymentIds: z.array(z.string()),
    authLoginUrl: z.string(),
    authTokenUrl: z.string(),
    keysetUrl: z.string(),
    createdAt: z.string(),
  }),
);
export type PlatformOutput = z.infer<typeof PlatformOutput>;

export const PlatformList = lazySchema(() => z.object({ platforms: z.array(PlatformOutput) }));
export type PlatformList = z.infer<typeof PlatformList>;

export const AddDeploymentsInput = lazySchema(() =>
  z.object({ deploymentIds: RegisterPlatformInput.shape.deploymentIds }),
);

/** What an LMS administrator pastes into the LMS's tool registration. */
export const ToolConfigOutput = lazySchema(() =>
  z.object({
    loginUrl: z.string(),
    launchUrl: z.string(),
    jwksUrl: z.string(),
    deepLinkingUrl: z.string(),
    /** The key the tool signs with now (its `kid`), for a platform that takes a pasted key. */
    activeKeyId: z.string(),
  }),
);
export type ToolConfigOutput = z.infer<typeof ToolConfigOutput>;

export const RotateKeyOutput = lazySchema(() =>
  z.object({ message: z.string(), kid: z.string(), retiredKid: z.string().nullable() }),
);

export const LtiLanding = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('course'), courseId: z.string() }),
    z.object({ kind: z.literal('assignment'), courseId: z.string(), assignmentId: z.string() }),
    z.object({ kind: z.literal('link'), contextId: z.string(), contextTitle: z.string() }),
    z.object({
      kind: z.literal('deep-link'),
      code: z.string(),
      courseId: z.string().nullable(),
      contextTitle: z.string(),
    }),
  ]),
);
export type LtiLanding = z.infer<typeof LtiLanding>;

export const HandoffInput = lazySchema(() => z.object({ code: z.string().min(1).max(200) }));
export const HandoffOutput = lazySchema(() =>
  AuthOutput.extend({
    landing: LtiLanding,
    /**
     * On an instructor's first launch only: the one-time code that links this LMS identity to an
     * existing Gradewise password account instead of the new one (decision 0076).
     */
    accountLinkCode: z.string().optional(),
  }),
);
export type HandoffOutput = z.infer<typeof HandoffOutput>;

/** "Use my existing Gradewise account": the launch's link code and that account's sign-in. */
export const AccountLinkInput = lazySchema(() => LoginInput.extend({ code: z.string().min(1).max(200) }));
export type AccountLinkInput = z.input<typeof AccountLinkInput>;
export const AccountLinkOutput = lazySchema(() => AuthOutput.extend({ landing: LtiLanding }));
export type AccountLinkOutput = z.infer<typeof AccountLinkOutput>;

export const LinkContextInput = lazySchema(() =>
  z.union([z.object({ courseId: z.string().min(1) }), z.object({ create: z.literal(true) })]),
);
export type LinkContextInput = z.infer<typeof LinkContextInput>;
export const LinkContextOutput = lazySchema(() => z.object({ message: z.string(), courseId: z.string() }));
export type LinkContextOutput = z.infer<typeof LinkContextOutput>;

export const DeepLinkInput = lazySchema(() =>
  z.object({ code: z.string().min(1).max(200), assignmentId: z.string().min(1) }),
);
export type DeepLinkInput = z.infer<typeof DeepLinkInput>;
/** The signed LtiDeepLinkingResponse and where the browser form-posts it (field `JWT`). */
export const DeepLinkOutput = lazySchema(() => z.object({ returnUrl: z.string(), jwt: z.string() }));
export type DeepLinkOutput = z.infer<typeof DeepLinkOutput>;

/** POST /api/courses/:id/lti-roster-sync: what Names and Role Provisioning brought in. */
export const RosterSyncOutput = lazySchema(() =>
  z.object({
    message: z.string(),
    contexts: z.number().int(),
    active: z.number().int(),
    left: z.number().int(),
  }),
);
export type RosterSyncOutput = z.infer<typeof RosterSyncOutput>;

/** Where a student's score stands with the LMS (Assignment and Grade Services, decision 0076). */
export const GRADE_PASSBACK_STATES = ['sent', 'pending', 'failed', 'nothing-released'] as const;

export const GradePassbackRow = lazySchema(() =>
  z.object({
    /** The student as staff see them on a grading surface (a label while the assignment is anonymous). */
    student: z.object({ _id: z.string(), name: z.string() }),
    lmsCourse: z.string(),
    state: z.enum(GRADE_PASSBACK_STATES),
    /** What was sent (null while nothing was). */
    scoreGiven: z.number().nullable(),
    scoreMaximum: z.number().nullable(),
    gradingProgress: z.string().nullable(),
    /** Why the post failed or waits for a retry: the LMS's own words when it answered. */
    message: z.string().nullable(),
    at: z.string(),
  }),
);
export type GradePassbackRow = z.infer<typeof GradePassbackRow>;

/** GET /api/assignments/:id/lti-grade-passback: the course's staff only. */
export const GradePassbackOutput = lazySchema(() =>
  z.object({
    /** The LMS courses linked to the course that take grades; empty: grades stay in Gradewise. */
    lmsCourses: z.array(z.string()),
    rows: z.array(GradePassbackRow),
  }),
);
export type GradePassbackOutput = z.infer<typeof GradePassbackOutput>;

/** POST /api/assignments/:id/lti-grade-passback: the owner sends every LMS student's score again. */
export const SendGradesOutput = lazySchema(() => z.object({ message: z.string(), queued: z.number().int() }));
export type SendGradesOutput = z.infer<typeof SendGradesOutput>;

/** One LMS course linked to a Gradewise course, as its staff see it (decision 0076). */
export const CourseLmsLink = lazySchema(() =>
  z.object({
    lmsCourse: z.string(),
    /** The name the LMS was registered under. */
    lms: z.string(),
    /** It offers its roster (Names and Role Provisioning) / takes grades (Assignment and Grade Services). */
    offersRoster: z.boolean(),
    takesGrades: z.boolean(),
    /** The last roster sync, at a launch or on demand. */
    rosterSyncedAt: z.string().nullable(),
    /** People the syncs found in the LMS course, and those marked as left since. */
    active: z.number().int(),
    left: z.number().int(),
  }),
);
export type CourseLmsLink = z.infer<typeof CourseLmsLink>;

/** GET /api/courses/:id/lti-links: the course's staff; empty when no LMS course is linked. */
export const CourseLmsLinksOutput = lazySchema(() => z.object({ links: z.array(CourseLmsLink) }));
export type CourseLmsLinksOutput = z.infer<typeof CourseLmsLinksOutput>;
