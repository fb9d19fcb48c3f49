import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { AssignmentDetail } from './assignments.ts';
import { Person, PersonRef } from './courses.ts';
import { GraderInfo, GradingComment, RubricItemRef } from './grading.ts';

/**
 * Regrade requests and the release of grades (issue 12 items 3 and 5; decision 0023).
 * Every shape here is an addition: the spec's calls are unchanged.
 */

export const REGRADE_REASON_MAX_LENGTH = 2000;
export const REGRADE_REPLY_MAX_LENGTH = 2000;
export const DEFAULT_REGRADE_WINDOW_DAYS = 7;
export const DEFAULT_REGRADE_REQUEST_LIMIT = 3;
export const REGRADE_WINDOW_DAYS_MAX = 365;
export const REGRADE_REQUEST_LIMIT_MAX = 50;

// ---------------------------------------------------------------- release of grades

/**
 * POST /api/assignments/:id/grade-release and POST .../questions/:questionId/grade-release (owning
 * instructor): `released: false` holds the grades (students see none of them), `true` releases them.
 */
export const GradeReleaseInput = lazySchema(() =>
  z.object({
    released: z.boolean({ error: 'Released must be true or false.' }),
  }),
);
export type GradeReleaseInput = z.input<typeof GradeReleaseInput>;

/** Where the grades of an assignment or question stand. */
export const GradeReleaseState = lazySchema(() =>
  z.object({
    /** The assignment (or question) itself holds its grades. */
    isHeld: z.boolean(),
    /** When held grades were last released; null when they never were held. */
    releasedAt: z.string().nullable(),
  }),
);
export type GradeReleaseState = z.infer<typeof GradeReleaseState>;

export const GradeReleaseOutput = lazySchema(() => z.object({ message: z.string(), release: GradeReleaseState }));
export type GradeReleaseOutput = z.infer<typeof GradeReleaseOutput>;

/** The staff question detail's release fields: the question's own hold and its assignment's. */
export const QuestionGradeRelease = lazySchema(() =>
  z.object({
    question: GradeReleaseState,
    assignment: GradeReleaseState,
    /** Students of this question see their grades now (neither the question nor the assignment holds them). */
    isReleased: z.boolean(),
  }),
);
export type QuestionGradeRelease = z.infer<typeof QuestionGradeRelease>;

// ---------------------------------------------------------------- regrade settings

const wholeNumber = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a whole number.` })
    .int(`${label} must be a whole number.`)
    .min(0, `${label} must be 0 or more.`)
    .max(max, `${label} must be at most ${max}.`);

/** PATCH /api/assignments/:id/regrade-settings (owning instructor). 0 days: no regrade requests. */
export const RegradeSettingsInput = lazySchema(() =>
  z.object({
    regradeWindowDays: wholeNumber('The regrade window (days)', REGRADE_WINDOW_DAYS_MAX),
    regradeRequestLimit: wholeNumber('The number of regrade requests per student', REGRADE_REQUEST_LIMIT_MAX),
  }),
);
export type RegradeSettingsInput = z.input<typeof RegradeSettingsInput>;

export const RegradeSettingsOutput = lazySchema(() => z.object({ message: z.string(), assignment: AssignmentDetail }));
export type RegradeSettingsOutput = z.infer<typeof RegradeSettingsOutput>;

// ---------------------------------------------------------------- requests

export const REGRADE_STATUSES = ['open', 'accepted', 'rejected'] as const;
export const RegradeStatus = lazySchema(() => z.enum(REGRADE_STATUSES));
export type RegradeStatus = z.infer<typeof RegradeStatus>;

/**
 * POST /api/assignments/:assignmentId/questions/:questionId/regrade-requests (the student, on their
 * own graded and released latest submission). `rubricItemId` null or absent: the whole answer.
 */
export const CreateRegradeRequestInput = lazySchema(() =>
  z.object({
    submissionId: z.string({ error: 'Which submission? submissionId is required.' }).min(1).max(64),
    rubricItemId: z.string().min(1).max(200).nullable().optional(),
    reason: z
      .string({ error: 'Please say why the grade should be looked at again.' })
      .trim()
      .min(1, 'Please say why the grade should be looked at again.')
      .max(REGRADE_REASON_MAX_LENGTH, `The reason must be at most ${REGRADE_REASON_MAX_LENGTH} characters.`),
  }),
);
export type CreateRegradeRequestInput = z.input<typeof CreateRegradeRequestInput>;

/** A request as its student sees it: what they asked, and the answer once resolved. */
export const RegradeRequestForStudent = lazySchema(() =>
  z.object({
    _id: z.string(),
    questionId: z.string(),
    submissionId: z.string(),
    /** null: the whole answer. */
    rubricItemId: z.string().nullable(),
    /** What the student picked, in words (a comment of their report, or "Whole answer"). */
    target: z.string(),
    reason: z.string(),
    status: RegradeStatus,
    reply: z.string().nullable(),
    createdAt: z.string(),
    resolvedAt: z.string().nullable(),
  }),
);
export type RegradeRequestForStudent = z.infer<typeof RegradeRequestForStudent>;

export const CreateRegradeRequestOutput = lazySchema(() =>
  z.object({ message: z.string(), request: RegradeRequestForStudent }),
);
export type CreateRegradeRequestOutput = z.infer<typeof CreateRegradeRequestOutput>;

/**
 * On the student's report: their requests on this question, and whether (and until when) they may
 * open another. `blockedReason` says why not, in words, when `canRequest` is false.
 */
export const StudentRegradeState = lazySchema(() =>
  z.object({
    requests: z.array(RegradeRequestForStudent),
    canRequest: z.boolean(),
    blockedReason: z.string().nullable(),
    windowClosesAt: z.string().nullable(),
    windowDays: z.number().int(),
    used: z.number().int(),
    limit: z.number().int(),
  }),
);
export type StudentRegradeState = z.infer<typeof StudentRegradeState>;

/** The AI's second look at the disputed item only: a draft for staff, never applied by itself. */
export const RegradeAiRecheck = lazySchema(() =>
  z.object({
    grader: GraderInfo,
    /** The item's (or whole answer's) points the AI would give, out of `points`. */
    score: z.number(),
    points: z.number(),
    confidenceLevel: z.number(),
    comments: z.array(z.object({ text: z.string(), pointsDeducted: z.number(), rubricItemId: z.string().nullable() })),
    createdAt: z.string(),
  }),
);
export type RegradeAiRecheck = z.infer<typeof RegradeAiRecheck>;

/** A request in the staff queue, with everything needed to decide it. */
export const RegradeRequestForStaff = lazySchema(() =>
  z.object({
    _id: z.string(),
    status: RegradeStatus,
    reason: z.string(),
    reply: z.string().nullable(),
    createdAt: z.string(),
    resolvedAt: z.string().nullable(),
    resolvedBy: PersonRef.nullable(),
    student: Person,
    assignment: z.object({ _id: z.string(), title: z.string() }),
    question: z.object({ _id: z.string(), title: z.string().nullable(), points: z.number() }),
    /** The submission the grade was saved on (open it in the grading screen). */
    submissionId: z.string(),
    /** The disputed rubric item (null: the whole answer); `rubricItemId` stays when the item was removed since. */
    rubricItemId: z.string().nullable(),
    rubricItem: RubricItemRef.nullable(),
    /** The grade the student disputed, and the one that counts now. */
    disputedGrade: z.number().nullable(),
    currentGrade: z.number().nullable(),
    /** Every comment of the current grade, as saved (the disputed item's are the ones with its rubricItemId). */
    comments: z.array(GradingComment),
    aiRecheck: RegradeAiRecheck.nullable(),
    /** The grade an accepted request saved, if it saved one. */
    resolvedGrade: z.number().nullable(),
  }),
);
export type RegradeRequestForStaff = z.infer<typeof RegradeRequestForStaff>;

/** GET /api/courses/:id/regrade-requests?status=open|resolved|all (course staff). Default: open. */
export const RegradeQueueQuery = lazySchema(() => z.object({ status: z.enum(['open', 'resolved', 'all']).optional() }));
export type RegradeQueueQuery = z.infer<typeof RegradeQueueQuery>;

export const RegradeQueue = lazySchema(() =>
  z.object({
    requests: z.array(RegradeRequestForStaff),
    openCount: z.number().int(),
    resolvedCount: z.number().int(),
  }),
);
export type RegradeQueue = z.infer<typeof RegradeQueue>;

/**
 * POST /api/regrade-requests/:id/resolve (course staff). `grade` (accept only) is the new score for
 * the answer; it is saved as a new grade through the normal save path. Without it an accepted
 * request keeps the current grade (e.g. staff already regraded it on the grading screen).
 */
export const ResolveRegradeInput = lazySchema(() =>
  z.object({
    decision: z.enum(['accept', 'reject'], { error: 'The decision must be "accept" or "reject".' }),
    reply: z
      .string({ error: 'Please write a reply to the student.' })
      .trim()
      .min(1, 'Please write a reply to the student.')
      .max(REGRADE_REPLY_MAX_LENGTH, `The reply must be at most ${REGRADE_REPLY_MAX_LENGTH} characters.`),
    grade: z.number({ error: 'The grade must be a number.' }).finite().nullable().optional(),
  }),
);
export type ResolveRegradeInput = z.input<typeof ResolveRegradeInput>;

export const RegradeRequestOutput = lazySchema(() =>
  z.object({ message: z.string(), request: RegradeRequestForStaff }),
);
export type RegradeRequestOutput = z.infer<typeof RegradeRequestOutput>;
