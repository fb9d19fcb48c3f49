import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { StaffRole } from './staff.ts';

export const ASSIGNMENT_TITLE_MAX_LENGTH = 200;

/**
 * POST /api/assignments (JSON). `deadline` is optional: an ISO 8601 date-time with a time zone
 * (a datetime-local value converted with `new Date(value).toISOString()`); '' or null means none.
 */
export const CreateAssignmentInput = lazySchema(() =>
  z.object({
    title: z
      .string({ error: 'Please provide a title.' })
      .trim()
      .min(1, 'Please provide a title.')
      .max(ASSIGNMENT_TITLE_MAX_LENGTH, `The title must be at most ${ASSIGNMENT_TITLE_MAX_LENGTH} characters.`),
    courseId: z
      .string({ error: 'No courseId found. Make sure you navigated from a course.' })
      .trim()
      .min(1, 'No courseId found. Make sure you navigated from a course.'),
    deadline: z.preprocess(
      (value) => (value === '' ? null : value),
      z.iso
        .datetime({ offset: true, error: 'Please enter a valid deadline (a date and time with a time zone).' })
        .nullable()
        .optional(),
    ),
    /**
     * Whether a student may submit a new version after a grade is saved (the earlier grade keeps
     * counting, shown as "grade on an earlier version", until the new one is graded). Default false:
     * a graded answer is final unless the instructor reopens the question for that student.
     */
    allowsResubmission: z.boolean({ error: 'Allow resubmission must be true or false.' }).optional(),
  }),
);
export type CreateAssignmentInput = z.input<typeof CreateAssignmentInput>;

/** GET /api/assignments?courseId= (optional filter; without it, every assignment the caller can see). */
export const AssignmentListQuery = lazySchema(() => z.object({ courseId: z.string().optional() }));
export type AssignmentListQuery = z.infer<typeof AssignmentListQuery>;

export const AssignmentCourse = lazySchema(() => z.object({ _id: z.string(), title: z.string() }));

export const AssignmentSummary = lazySchema(() =>
  z.object({
    _id: z.string(),
    title: z.string(),
    /** The sum of its questions' points (0 while it has none). */
    points: z.number(),
    /** ISO 8601, or null when the assignment has no deadline. */
    deadline: z.string().nullable(),
    course: AssignmentCourse,
    questionCount: z.number().int(),
    createdAt: z.string(),
    /** See CreateAssignmentInput.allowsResubmission. */
    allowsResubmission: z.boolean().optional(),
    /** Anonymous grading: staff see "Student 1…N" instead of names on every grading surface. */
    isAnonymous: z.boolean().optional(),
    /** The assignment holds its grades: students see none until it releases them (decision 0023). */
    gradesHeld: z.boolean().optional(),
    /** When held grades were last released (null: never held). */
    gradesReleasedAt: z.string().nullable().optional(),
    /** Days after release during which a student may ask for a regrade (0: not at all). */
    regradeWindowDays: z.number().int().optional(),
    /** Regrade requests one student may open on this assignment. */
    regradeRequestLimit: z.number().int().optional(),
  }),
);
export type AssignmentSummary = z.infer<typeof AssignmentSummary>;
export const AssignmentList = lazySchema(() => z.array(AssignmentSummary));
export type AssignmentList = z.infer<typeof AssignmentList>;

/**
 * GET /api/assignments/:id. `viewer` is `staff` for the owning instructor (who may create questions)
 * and `student` for an enrolled student.
 */
export const AssignmentDetail = lazySchema(() =>
  AssignmentSummary.extend({
    viewer: z.enum(['staff', 'student']),
    /** For staff: `owner` or `ta` (a TA may grade but not manage); absent for students. */
    staffRole: StaffRole.optional(),
  }),
);
export type AssignmentDetail = z.infer<typeof AssignmentDetail>;

export const CreateAssignmentOutput = lazySchema(() => z.object({ message: z.string(), assignment: AssignmentDetail }));
export type CreateAssignmentOutput = z.infer<typeof CreateAssignmentOutput>;

/** PATCH /api/assignments/:id/settings (owning instructor): the assignment's rules, changed later. */
export const UpdateAssignmentSettingsInput = lazySchema(() =>
  z.object({
    allowsResubmission: z.boolean({ error: 'Allow resubmission must be true or false.' }),
  }),
);
export type UpdateAssignmentSettingsInput = z.input<typeof UpdateAssignmentSettingsInput>;

export const UpdateAssignmentSettingsOutput = lazySchema(() =>
  z.object({ message: z.string(), assignment: AssignmentDetail }),
);
export type UpdateAssignmentSettingsOutput = z.infer<typeof UpdateAssignmentSettingsOutput>;

/**
 * PUT /api/assignments/:id/anonymous-grading (owning instructor). While on, staff see "Student 1…N"
 * (stable per assignment) instead of names and emails on every route and export of the assignment,
 * the grading report, the regrade queue and the audit CSV included (issue 28). The class list
 * (roster, work split) stays named, and the owner's grades CSV is the explicit reveal: named, and
 * recorded (`GET .../identity-reveals`), as is turning anonymity off while names are hidden.
 */
export const SetAnonymousGradingInput = lazySchema(() =>
  z.object({
    isAnonymous: z.boolean({ error: 'Anonymous grading must be true or false.' }),
  }),
);
export type SetAnonymousGradingInput = z.input<typeof SetAnonymousGradingInput>;

export const SetAnonymousGradingOutput = lazySchema(() =>
  z.object({ message: z.string(), assignment: AssignmentDetail }),
);
export type SetAnonymousGradingOutput = z.infer<typeof SetAnonymousGradingOutput>;

/** What showed student names while the assignment's grading was anonymous. */
export const IDENTITY_REVEAL_KINDS = ['grades-csv', 'anonymity-off'] as const;

/** One time names were shown while the assignment was anonymous, by whom and when. */
export const IdentityReveal = lazySchema(() =>
  z.object({
    _id: z.string(),
    kind: z.enum(IDENTITY_REVEAL_KINDS),
    /** The question of a question's grades CSV; null for the whole assignment. */
    questionId: z.string().nullable(),
    revealedBy: z.object({ _id: z.string(), name: z.string() }),
    revealedAt: z.string(),
    /** A sentence for the screen: "Prof Ada downloaded the grades CSV with names." */
    description: z.string(),
  }),
);
export type IdentityReveal = z.infer<typeof IdentityReveal>;

/** GET /api/assignments/:id/identity-reveals (course staff): newest first. */
export const IdentityRevealsOutput = lazySchema(() => z.object({ reveals: z.array(IdentityReveal) }));
export type IdentityRevealsOutput = z.infer<typeof IdentityRevealsOutput>;
