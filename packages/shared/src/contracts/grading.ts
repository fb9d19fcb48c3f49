import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { CommentRegion } from './comment-region.ts';
import { ExtractionStateFields } from './submissions.ts';

/**
 * Contracts of the grading engine (spec section 7, under
 * /api/assignments/:assignmentId/questions/:questionId): rubric generation and editing, grading,
 * regrading, saving a grade, grade-all and its progress. Staff only; the student side never sees
 * these shapes except through the student presenters of the courses API.
 */

// ---------------------------------------------------------------- who produced a suggestion

/** The two kinds of grader: the built-in offline one and an LLM. */
export const GRADER_KINDS = ['builtin', 'llm'] as const;
export type GraderKind = (typeof GRADER_KINDS)[number];

/** Who wrote a rubric (version): one of the graders, or the instructor. */
export const RUBRIC_SOURCES = [...GRADER_KINDS, 'instructor'] as const;

/** Which grader produced an AI rubric or suggestion: the UI always shows it. */
export const GraderInfo = lazySchema(() =>
  z.object({
    kind: z.enum(GRADER_KINDS),
    /** 'builtin' | 'openai' | 'anthropic' | 'openai-compatible' */
    provider: z.string(),
    model: z.string(),
  }),
);
export type GraderInfo = z.infer<typeof GraderInfo>;

/** Work rows (grading runs, rubric generations) move queued -> running -> succeeded | failed. */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export const JobStatus = lazySchema(() => z.enum(JOB_STATUSES));
export type JobStatus = z.infer<typeof JobStatus>;

// ---------------------------------------------------------------- rubrics

/**
 * What a rubric can hold and be saved with. The same numbers bound what the AI may propose
 * (ai/llm and ai/builtin clamp their output with them, see clampText), so whatever a grader
 * drafts can be saved again unchanged.
 */
export const RUBRIC_TEXT_MAX = 100_000;
export const RUBRIC_ITEMS_MAX = 50;
export const RUBRIC_ITEM_ID_MAX = 64;
export const RUBRIC_CRITERION_MAX = 2000;
export const RUBRIC_GUIDANCE_MAX = 5000;

/** The spec's default when the AI gives no confidence. */
export const DEFAULT_CONFIDENCE = 50;

export const RubricItem = lazySchema(() =>
  z.object({
    id: z.string(),
    criterion: z.string(),
    points: z.number(),
    guidance: z.string(),
  }),
);
export type RubricItem = z.infer<typeof RubricItem>;

/** The spec's `autoRubric`: empty when the question has no rubric, else one element. */
export const AutoRubricEntry = lazySchema(() =>
  z.object({
    questionText: z.string(),
    solutionText: z.string(),
    items: z.array(RubricItem),
    /** Who wrote the current version: an AI grader or the instructor. */
    source: z.enum(RUBRIC_SOURCES),
    updatedAt: z.string(),
    /** Bumped by every write; send it back as save-rubric's `expectedVersion`. */
    version: z.number().int().optional(),
  }),
);
export type AutoRubricEntry = z.infer<typeof AutoRubricEntry>;
export const AutoRubric = lazySchema(() => z.array(AutoRubricEntry));
export type AutoRubric = z.infer<typeof AutoRubric>;

export const GenerateRubricOutput = lazySchema(() =>
  z.object({
    message: z.string(),
    autoRubric: AutoRubric,
    grader: GraderInfo,
  }),
);
export type GenerateRubricOutput = z.infer<typeof GenerateRubricOutput>;

export const RubricItemInput = lazySchema(() =>
  z.object({
    /** Keep the id of an existing item so comments that point at it stay linked; new items omit it. */
    id: z.string().trim().min(1).max(RUBRIC_ITEM_ID_MAX).optional(),
    criterion: z
      .string({ error: 'Each rubric item needs a criterion.' })
      .trim()
      .min(1, 'Each rubric item needs a criterion.')
      .max(RUBRIC_CRITERION_MAX, `A rubric criterion must be at most ${RUBRIC_CRITERION_MAX} characters.`),
    points: z
      .number({ error: 'Each rubric item needs points (a number).' })
      .finite()
      .min(0, 'Rubric item points cannot be negative.'),
    guidance: z
      .string()
      .max(RUBRIC_GUIDANCE_MAX, `Rubric guidance must be at most ${RUBRIC_GUIDANCE_MAX} characters.`)
      .default(''),
  }),
);
export type RubricItemInput = z.input<typeof RubricItemInput>;

/**
 * The texts a rubric is drafted from and graded against, as saving a rubric and trying one send
 * them: one home for their limits and messages.
 */
export const RubricTextFields = {
  questionText: lazySchema(() =>
    z
      .string({ error: 'Question text is required.' })
      .max(RUBRIC_TEXT_MAX, `Question text must be at most ${RUBRIC_TEXT_MAX} characters.`),
  ),
  solutionText: lazySchema(() =>
    z
      .string({ error: 'Solution text is required.' })
      .max(RUBRIC_TEXT_MAX, `Solution text must be at most ${RUBRIC_TEXT_MAX} characters.`),
  ),
};

/** A rubric's items as an editor sends them (saving checks that their points add up). */
export const RubricItemsInput = lazySchema(() =>
  z
    .array(RubricItemInput, { error: 'Rubric items must be a list.' })
    .max(RUBRIC_ITEMS_MAX, `A rubric can have at most ${RUBRIC_ITEMS_MAX} items.`),
);

/**
 * PATCH save-rubric. The spec's client sends questionText and solutionText; items are optional
 * (kept as they are when absent) and, when sent, must add up to the question's points.
 */
export const SaveRubricInput = lazySchema(() =>
  z.object({
    ...RubricTextFields,
    items: RubricItemsInput.optional(),
    /**
     * Optimistic concurrency: the rubric `version` the editor loaded (null: there was no rubric yet).
     * When it is no longer current the save is refused with 409 and who saved what and when.
     * Absent (the spec's client): the save is not checked.
     */
    expectedVersion: z.number().int().nullable().optional(),
  }),
);
export type SaveRubricInput = z.input<typeof SaveRubricInput>;

export const SaveRubricOutput = lazySchema(() =>
  z.object({
    message: z.string(),
    autoRubric: AutoRubric,
    /**
     * Saved grades this save recomputed: changing an item's points or wording re-applies to every
     * saved grade whose comments are tied to that item (each grade's previous state is kept).
     */
    regradedCount: z.number().int().optional(),
  }),
);
export type SaveRubricOutput = z.infer<typeof SaveRubricOutput>;

// ---------------------------------------------------------------- grading

/** Text in a submission's PDF that a reader cannot see; kept out of what the grader reads. */
export const HiddenTextFinding = lazySchema(() =>
  z.object({
    page: z.number(),
    text: z.string(),
    /**
     * Why it counts as hidden: 'white-or-transparent', 'low-contrast', 'tiny', 'off-page', 'covered-by-image',
     * 'covered-by-text', 'covered-by-annotation', 'clipped', 'blank-glyphs', 'remapped-glyphs'.
     */
    reason: z.string(),
  }),
);
export type HiddenTextFinding = z.infer<typeof HiddenTextFinding>;

export const RubricItemRef = lazySchema(() => z.object({ id: z.string(), criterion: z.string(), points: z.number() }));

export const GradingComment = lazySchema(() =>
  z.object({
    _id: z.string(),
    id: z.string(),
    text: z.string(),
    pointsDeducted: z.number(),
    accepted: z.boolean(),
    /** The rubric item this comment judges; null for a general remark. */
    rubricItemId: z.string().nullable(),
    /** The judged item as it is in the current rubric, when it still exists. */
    rubricItem: RubricItemRef.nullable().optional(),
    /** Where on the answer the comment points (a page and a box on it); null or absent: nowhere in particular. */
    region: CommentRegion.nullable().optional(),
  }),
);
export type GradingComment = z.infer<typeof GradingComment>;

/**
 * Answer of POST grade/:submissionId and regrade/:submissionId. The first four fields are the
 * spec's; the rest say who graded, what was hidden, and which run (or saved grade) this is.
 */
export const GradingOutput = lazySchema(() =>
  z.object({
    submissionText: z.string(),
    gradingResult: z.object({
      comments: z.array(GradingComment),
      totalScore: z.number(),
    }),
    questionPoints: z.number(),
    /** 0..100; higher means a smaller expected disagreement with a human grader. */
    confidenceLevel: z.number(),
    /** Null only for a grade an instructor saved without any AI suggestion. */
    grader: GraderInfo.nullable(),
    hiddenText: z.array(HiddenTextFinding),
    /**
     * The pages of the answer whose text was read by OCR (a scanned page without a text layer), in
     * order; empty when every page had a text layer. The screen labels such a text as read by OCR.
     */
    ocrPages: z.array(z.number().int()).optional(),
    gradingRunId: z.string().nullable(),
    /** True when this answer is the instructor's saved grade rather than a fresh AI suggestion. */
    isAlreadyGraded: z.boolean(),
    /**
     * The newest saved grade of this submission when this answer was made (null: none yet). The
     * screen sends the one it loaded as save-grade's `expectedGradeId`.
     */
    currentGradeId: z.string().nullable().optional(),
    /**
     * How many of the instructor's saved grades on this question the AI suggestion was fitted to
     * (0: none yet). Absent for a grade saved without an AI suggestion.
     */
    examplesUsed: z.number().optional(),
    /** The rubric version the saved grade shown was written under (null: before versions were kept). */
    rubricVersion: z.number().nullable().optional(),
    /**
     * Set when the saved grade shown was recomputed by a rubric change (not by a person): the
     * screen says "Updated by rubric change on <date> (version N)".
     */
    rubricChange: z.object({ version: z.number().nullable(), at: z.string(), by: z.string() }).nullable().optional(),
  }),
);
export type GradingOutput = z.infer<typeof GradingOutput>;

/** What a saved grade can hold; AI suggestions are clamped to the same numbers (see RUBRIC_TEXT_MAX). */
export const GRADE_COMMENTS_MAX = 200;
export const GRADE_COMMENT_TEXT_MAX = 5000;
export const GRADE_FEEDBACK_MAX = 20_000;

export const SaveGradeCommentInput = lazySchema(() =>
  z.object({
    _id: z.string().max(64).optional(),
    id: z.string().max(64).optional(),
    text: z
      .string({ error: 'Each comment needs a text.' })
      .max(GRADE_COMMENT_TEXT_MAX, `A comment must be at most ${GRADE_COMMENT_TEXT_MAX} characters.`),
    pointsDeducted: z
      .number({ error: 'Points deducted must be a number.' })
      .finite('Points deducted must be a number.'),
    accepted: z.boolean({ error: 'Each comment must say whether it is accepted.' }),
    rubricItemId: z.string().max(64).nullable().optional(),
    /** Optional place on the answer (see CommentRegion); its page must exist in the submission's PDF. */
    region: CommentRegion.nullable().optional(),
  }),
);
export type SaveGradeCommentInput = z.input<typeof SaveGradeCommentInput>;

/**
 * POST save-grade/:submissionId. `grade` must be within 0..points and equal
 * computeFinalGrade(points, comments) (points minus accepted deductions) to the hundredth;
 * each comment deducts 0..points. `feedback` is sent as an empty string by the spec's client.
 */
export const SaveGradeInput = lazySchema(() =>
  z.object({
    grade: z.number({ error: 'Grade must be a number.' }).finite('Grade must be a number.'),
    feedback: z
      .string()
      .max(GRADE_FEEDBACK_MAX, `Feedback must be at most ${GRADE_FEEDBACK_MAX} characters.`)
      .default(''),
    comments: z
      .array(SaveGradeCommentInput, { error: 'Comments must be a list.' })
      .max(GRADE_COMMENTS_MAX, `A grade can have at most ${GRADE_COMMENTS_MAX} comments.`),
    /**
     * Optimistic concurrency: the saved grade the screen loaded (GradingOutput.currentGradeId; null
     * when it loaded none). When another grade was saved since, the save is refused with 409 and who
     * saved what and when. Absent: refused with 428 PRECONDITION_REQUIRED, from every client, so
     * no save overwrites another unseen (issue 28). Optional here so that answer says what to send.
     */
    expectedGradeId: z.string().max(64).nullable().optional(),
    /**
     * The AI run the screen showed (GradingOutput.gradingRunId; null: none). The grade is recorded
     * against it, never against a newer run the screen did not show. Absent (the spec's client): the
     * newest finished run.
     */
    basedOnRunId: z.string().max(64).nullable().optional(),
  }),
);
export type SaveGradeInput = z.input<typeof SaveGradeInput>;

export const SavedGrade = lazySchema(() =>
  z.object({
    _id: z.string(),
    id: z.string(),
    submissionId: z.string(),
    grade: z.number(),
    feedback: z.string(),
    comments: z.array(GradingComment),
    confidenceLevel: z.number().nullable(),
    gradingRunId: z.string().nullable(),
    savedBy: z.object({ _id: z.string(), name: z.string() }),
    createdAt: z.string(),
  }),
);
export type SavedGrade = z.infer<typeof SavedGrade>;

export const SaveGradeOutput = lazySchema(() =>
  z.object({
    message: z.string(),
    grade: SavedGrade,
  }),
);
export type SaveGradeOutput = z.infer<typeof SaveGradeOutput>;

/**
 * POST save-grade/:submissionId/undo: takes back the caller's own save moments after it (the
 * toast's Undo). The answer returns to the grade it had before, or to not graded (decision 0032).
 */
export const UndoSaveGradeInput = lazySchema(() =>
  z.object({
    gradeId: z.string({ error: 'Say which saved grade to undo.' }).min(1, 'Say which saved grade to undo.').max(64),
  }),
);
export type UndoSaveGradeInput = z.input<typeof UndoSaveGradeInput>;

export const UndoSaveGradeOutput = lazySchema(() =>
  z.object({
    message: z.string(),
    /** The answer's current grade after the undo: the one before the undone save, or null (not graded). */
    currentGradeId: z.string().nullable(),
    /** That grade's points, or null. */
    grade: z.number().nullable(),
  }),
);
export type UndoSaveGradeOutput = z.infer<typeof UndoSaveGradeOutput>;

// ---------------------------------------------------------------- grade-all

export const GradeAllOutput = lazySchema(() =>
  z.object({
    message: z.string(),
    /** Null when there was nothing to grade. */
    batchId: z.string().nullable(),
    /** Grading runs queued by this request. */
    queued: z.number(),
  }),
);
export type GradeAllOutput = z.infer<typeof GradeAllOutput>;

export const GradingProgressQuery = lazySchema(() =>
  z.object({
    /** A batch of this question; the latest batch when absent. */
    batchId: z.string().optional(),
  }),
);

/** Counted from our own tables (grading runs of the batch), never from the queue's internals. */
export const GradingProgressOutput = lazySchema(() =>
  z.object({
    batchId: z.string().nullable(),
    total: z.number(),
    done: z.number(),
    failed: z.number(),
    running: z.number(),
    remaining: z.number(),
    isFinished: z.boolean(),
  }),
);
export type GradingProgressOutput = z.infer<typeof GradingProgressOutput>;

// ---------------------------------------------------------------- submission rows (staff)

/**
 * A saved grade belongs to the version it graded. Rows, reports and the CSV show the grade that
 * counts for the latest version: its own, else the newest grade saved on an earlier version of the
 * same student's answer ("grade on an earlier version", until the new version is graded), so a
 * saved grade never turns into a blank. `grade` and `isAlreadyGraded` describe that counting grade.
 */
export const GradeLifecycleFields = lazySchema(() =>
  z.object({
    /** The counting grade was saved on an earlier version than this one. */
    isGradeOnEarlierVersion: z.boolean().optional(),
    /** The version the counting grade was saved on (null: no grade). */
    gradedVersion: z.number().int().nullable().optional(),
  }),
);
export type GradeLifecycleFields = z.infer<typeof GradeLifecycleFields>;

/** POST .../questions/:questionId/submissions/:submissionId/reopen (owning instructor). */
export const ReopenSubmissionOutput = lazySchema(() =>
  z.object({
    message: z.string(),
    student: z.object({ _id: z.string(), name: z.string() }),
    reopenedAt: z.string(),
  }),
);
export type ReopenSubmissionOutput = z.infer<typeof ReopenSubmissionOutput>;

/**
 * Where a latest submission stands:
 * - 'needs-review': the AI suggested a grade, nobody saved one yet;
 * - 'graded': an instructor saved a grade;
 * - 'grading': an AI run is queued or running;
 * - 'failed': the newest AI run failed and nothing is saved;
 * - 'not-graded': no AI run and no saved grade.
 */
export const ReviewStatus = lazySchema(() => z.enum(['needs-review', 'graded', 'grading', 'failed', 'not-graded']));
export type ReviewStatus = z.infer<typeof ReviewStatus>;

/**
 * What Grade All asks the AI about: a latest version with no saved grade of its own, no run in
 * flight and no finished suggestion (a failed run is tried again). A suggestion that exists is not
 * paid for again; asking again is Regrade on one answer, or the confirmed re-suggest.
 */
export const isLeftForGradeAll = (status: ReviewStatus) => status === 'not-graded' || status === 'failed';

/**
 * Grading fields of one submission row in the staff question detail (includeSubmissions=1).
 * `grade`/`comments` come from the newest saved grade; `confidenceLevel` and `grader` from it or,
 * when nothing is saved yet, from the newest finished AI run.
 */
export const SubmissionGradingFields = lazySchema(() =>
  z.object({
    grade: z.number().nullable(),
    isAlreadyGraded: z.boolean(),
    ...GradeLifecycleFields.shape,
    /** The instructor reopened this question for the student and no grade was saved since. */
    isReopened: z.boolean().optional(),
    confidenceLevel: z.number().nullable(),
    comments: z.array(GradingComment),
    extractedText: z.string(),
    grader: GraderInfo.nullable(),
    gradingStatus: z.enum(['none', 'queued', 'running', 'succeeded', 'failed']),
    /**
     * Where this version stands for the reviewer (issue 13): 'needs-review' (an AI suggestion waits),
     * 'grading' (a run is queued or running), 'failed', 'graded' (its own saved grade) or 'not-graded'.
     * The same rule as the review queue's status.
     */
    reviewStatus: ReviewStatus,
    /** The score of the newest finished AI suggestion; null when there is none. */
    suggestedScore: z.number().nullable(),
    hasHiddenText: z.boolean(),
    hiddenText: z.array(HiddenTextFinding),
    ...ExtractionStateFields,
  }),
);
export type SubmissionGradingFields = z.infer<typeof SubmissionGradingFields>;

/**
 * Grading fields of a student's own submission row (the Grade column): only the grade the
 * instructor saved. Comments reach students through the grading report; no confidence, grader,
 * hidden-text or AI-draft field ever does.
 */
export const SubmissionGradeForStudent = lazySchema(() =>
  z.object({
    grade: z.number().nullable(),
    isAlreadyGraded: z.boolean(),
    ...GradeLifecycleFields.shape,
    /** Whether a new version would be accepted now (see CreateAssignmentInput.allowsResubmission). */
    canResubmit: z.boolean().optional(),
    /** A grade is saved but the instructor has not released it yet: `grade` stays null until then. */
    gradeWithheld: z.boolean().optional(),
  }),
);
export type SubmissionGradeForStudent = z.infer<typeof SubmissionGradeForStudent>;
