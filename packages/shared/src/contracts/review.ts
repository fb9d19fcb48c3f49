import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { Person, PersonRef } from './courses.ts';
import { FileUrl } from './files.ts';
import {
  GradeLifecycleFields,
  GraderInfo,
  GradingComment,
  ReviewStatus,
  RubricItemsInput,
  RubricTextFields,
} from './grading.ts';
import { StudentRegradeState } from './regrades.ts';
import { GradingWorkFields } from './work-split.ts';

/**
 * Contracts of the instructor's review loop around the grading engine: the review queue of a
 * question, the grading report (staff and student views), trying a rubric draft before saving it,
 * and the grades CSV. All under /api/assignments/:assignmentId[/questions/:questionId].
 */

// ---------------------------------------------------------------- review queue

// ReviewStatus lives in grading.ts (the staff submission rows carry it too); re-exported here.
export { isLeftForGradeAll, ReviewStatus } from './grading.ts';

/** k of "grade these first" when GRADE_FIRST_COUNT is not set. */
export const GRADE_FIRST_DEFAULT = 5;

/**
 * "Grade these first": while a question has fewer than `target` grades the instructor saved
 * themselves, the review queue starts with the answers that best represent the class (the
 * medoids of the biggest clusters of alike answers), so the first grades teach the most.
 */
export const GradeFirstState = lazySchema(() =>
  z.object({
    /** k: how many of their own grades the instructor saves before the queue is by the suggestions' doubt (0: off). */
    target: z.number(),
    /** Saved grades on the question's current answers, not counting grades applied to a group. */
    ownGrades: z.number(),
    /** ownGrades < target and some answer can be read: the queue starts with the answers to grade first. */
    isActive: z.boolean(),
  }),
);
export type GradeFirstState = z.infer<typeof GradeFirstState>;

export const ReviewQueueItem = lazySchema(() =>
  z.object({
    submissionId: z.string(),
    student: Person,
    isLate: z.boolean(),
    status: ReviewStatus,
    /** The AI's confidence (0..100) of the suggestion the item rests on; null when there is none. */
    confidenceLevel: z.number().nullable(),
    /**
     * The grader's chance (0..1) that the suggestion is off by more than 40% of the points, most
     * likely first in the queue (decision 0097); null when the grader does not measure it.
     */
    missChance: z.number().nullable().optional(),
    /** The saved grade, when there is one. */
    grade: z.number().nullable(),
    /** One of the answers to grade first (only while grade-first is active). */
    isGradeFirst: z.boolean().optional(),
    /** For an answer to grade first: how many answers (itself included) it stands for. */
    represents: z.number().nullable().optional(),
    /** How many alike answers its group has (itself included); null when it is in no group. */
    groupSize: z.number().nullable().optional(),
    // The work split and who has it open (decision 0031).
    ...GradingWorkFields.partial().shape,
  }),
);
export type ReviewQueueItem = z.infer<typeof ReviewQueueItem>;

/**
 * GET .../questions/:questionId/review-queue (owning instructor): the latest submission of every
 * student, lowest confidence first (items without a confidence last, then by student name), so the
 * answers the AI was least sure of are read first — except while "grade first" is active: then the
 * answers to grade first lead, most representative first. The order does not change as grades are
 * saved (until the k-th own grade switches it), so a reviewer walking it keeps their place.
 */
/** GET .../review-queue?share=mine|all */
export const ReviewQueueQuery = lazySchema(() =>
  z.object({
    share: z.enum(['mine', 'all'], { error: 'share must be "mine" or "all".' }).optional(),
  }),
);
export type ReviewQueueQuery = z.infer<typeof ReviewQueueQuery>;

export const ReviewQueueOutput = lazySchema(() =>
  z.object({
    questionPoints: z.number(),
    items: z.array(ReviewQueueItem),
    /** Items without a saved grade: what is left to review. */
    remaining: z.number(),
    gradeFirst: GradeFirstState.optional(),
    /**
     * Whose items these are (decision 0031): `mine` (the default) lists the caller's share of the
     * work split — every item when nothing is split — and `all` every item.
     */
    share: z
      .object({
        scope: z.enum(['mine', 'all']),
        /** Some answer of this question belongs to particular graders. */
        isSplit: z.boolean(),
        /** Items in the caller's share, and items in all. */
        mine: z.number(),
        total: z.number(),
        /**
         * Items of the whole question without a saved grade, whoever's they are: what the owner has
         * left to grade (`remaining` counts only the items listed).
         */
        remainingInQuestion: z.number().optional(),
      })
      .optional(),
  }),
);
export type ReviewQueueOutput = z.infer<typeof ReviewQueueOutput>;

// ---------------------------------------------------------------- grading report

const GradingReportBase = lazySchema(() =>
  z.object({
    submission: z.object({
      _id: z.string(),
      file: FileUrl,
      isLate: z.boolean(),
      submittedAt: z.string(),
      student: PersonRef,
    }),
    question: z.object({ _id: z.string(), title: z.string().nullable(), points: z.number() }),
    isAlreadyGraded: z.boolean(),
    /** The saved grade; null until an instructor saved one (possibly on an earlier version: see below). */
    grade: z.number().nullable(),
    ...GradeLifecycleFields.shape,
    /** Empty until graded (spec section 4: filled only when isAlreadyGraded). */
    extractedText: z.string(),
    comments: z.array(GradingComment),
  }),
);

/** The owner's report: every comment of the saved grade (declined ones too, marked), and who graded. */
export const GradingReportForStaff = lazySchema(() =>
  GradingReportBase.extend({
    viewer: z.literal('staff'),
    confidenceLevel: z.number().nullable(),
    grader: GraderInfo.nullable(),
  }),
);
export type GradingReportForStaff = z.infer<typeof GradingReportForStaff>;

/**
 * A student's report of their own latest submission: only the accepted comments of the saved grade
 * and the final grade. No declined comments, no confidence, no grader, nothing of the solution.
 */
export const GradingReportForStudent = lazySchema(() =>
  GradingReportBase.extend({
    viewer: z.literal('student'),
    /**
     * A grade is saved but not released yet (decision 0023): the report then carries no grade, no
     * comments and no text, exactly as before grading, and the screen says "not released yet".
     */
    gradeWithheld: z.boolean().optional(),
    /** The released grade started from an AI suggestion an instructor reviewed (the AI-use note). */
    isAiAssisted: z.boolean().optional(),
    /** The student's regrade requests on this question and whether they may open another. */
    regrade: StudentRegradeState.optional(),
  }),
);
export type GradingReportForStudent = z.infer<typeof GradingReportForStudent>;

/** GET .../questions/:questionId/grade/:submissionId/report */
export const GradingReport = lazySchema(() =>
  z.discriminatedUnion('viewer', [GradingReportForStaff, GradingReportForStudent]),
);
export type GradingReport = z.infer<typeof GradingReport>;

// ---------------------------------------------------------------- rubric trial

export const RUBRIC_TRIAL_SUBMISSIONS_MAX = 3;
export const RUBRIC_TRIAL_ANSWER_MAX = 50_000;

/**
 * POST .../questions/:questionId/rubric-trial (owning instructor): grades a pasted sample answer
 * or up to three real submissions with a rubric that is not saved yet. Nothing is stored: it is
 * the wizard's "try it" step. The items must add up to the question's points, as on save.
 */
export const RubricTrialInput = lazySchema(() =>
  z
    .object({
      ...RubricTextFields,
      items: RubricItemsInput.min(1, 'A rubric needs at least one item.'),
      sampleAnswer: z
        .string()
        .max(RUBRIC_TRIAL_ANSWER_MAX, `A sample answer must be at most ${RUBRIC_TRIAL_ANSWER_MAX} characters.`)
        .optional(),
      submissionIds: z
        .array(z.string().max(64))
        .max(
          RUBRIC_TRIAL_SUBMISSIONS_MAX,
          `Try the rubric on at most ${RUBRIC_TRIAL_SUBMISSIONS_MAX} submissions at a time.`,
        )
        .optional(),
    })
    .refine((input) => Boolean(input.sampleAnswer?.trim()) || (input.submissionIds?.length ?? 0) > 0, {
      message: 'Paste a sample answer or choose at least one submission to try the rubric on.',
      path: ['sampleAnswer'],
    }),
);
export type RubricTrialInput = z.input<typeof RubricTrialInput>;

export const RubricTrialComment = lazySchema(() =>
  z.object({
    text: z.string(),
    pointsDeducted: z.number(),
    rubricItemId: z.string().nullable(),
    /** The criterion of the judged item, as sent in the trial. */
    criterion: z.string().nullable(),
  }),
);
export type RubricTrialComment = z.infer<typeof RubricTrialComment>;

export const RubricTrialResult = lazySchema(() =>
  z.object({
    /** 'Sample answer' or the student's name. */
    label: z.string(),
    submissionId: z.string().nullable(),
    comments: z.array(RubricTrialComment),
    totalScore: z.number(),
    confidenceLevel: z.number(),
  }),
);
export type RubricTrialResult = z.infer<typeof RubricTrialResult>;

export const RubricTrialOutput = lazySchema(() =>
  z.object({
    grader: GraderInfo,
    questionPoints: z.number(),
    results: z.array(RubricTrialResult),
  }),
);
export type RubricTrialOutput = z.infer<typeof RubricTrialOutput>;

// ---------------------------------------------------------------- grades CSV

/**
 * GET /api/assignments/:assignmentId/grades.csv and GET .../questions/:questionId/grades.csv
 * (owning instructor) answer text/csv: one row per student (roster and anyone who submitted), with
 * these columns around one column per question (the grade that counts for the latest submission:
 * its own saved grade, else the one saved on an earlier version; empty only when no grade was ever
 * saved): Student name, Email, <questions...>, Total, Late.
 */
export const GRADES_CSV_FIXED_COLUMNS = { name: 'Student name', email: 'Email', total: 'Total', late: 'Late' } as const;
