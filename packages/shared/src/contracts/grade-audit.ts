import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { GraderInfo, RUBRIC_SOURCES } from './grading.ts';

/**
 * The audit trail of saved grades (issue 12, items 2 and 6): every saved grade of a submission with
 * the AI suggestion it started from, what the person changed, who saved it, when and under which
 * rubric version, including grades recomputed by a rubric change. Staff only.
 */

export const GRADE_REASONS = ['save', 'group', 'rubric-change'] as const;
export const GradeReason = lazySchema(() => z.enum(GRADE_REASONS));
export type GradeReason = z.infer<typeof GradeReason>;

export const AuditComment = lazySchema(() =>
  z.object({
    id: z.string(),
    text: z.string(),
    pointsDeducted: z.number(),
    accepted: z.boolean(),
    rubricItemId: z.string().nullable(),
  }),
);
export type AuditComment = z.infer<typeof AuditComment>;

/** One difference between two states of a grade's comments, matched by comment id. */
export const CommentChange = lazySchema(() =>
  z.object({
    kind: z.enum(['added', 'removed', 'edited', 'accepted', 'declined']),
    commentId: z.string(),
    rubricItemId: z.string().nullable(),
    textFrom: z.string().nullable(),
    textTo: z.string().nullable(),
    pointsFrom: z.number().nullable(),
    pointsTo: z.number().nullable(),
  }),
);
export type CommentChange = z.infer<typeof CommentChange>;

/** What changed from one state (the AI suggestion, or the grade before) to this grade. */
export const GradeDiff = lazySchema(() =>
  z.object({
    scoreFrom: z.number(),
    scoreTo: z.number(),
    comments: z.array(CommentChange),
    /** The same, in sentences ("Score 7 → 6.", "Edited: …"): what the panel and the CSV show. */
    summary: z.array(z.string()),
  }),
);
export type GradeDiff = z.infer<typeof GradeDiff>;

export const AiSuggestionRecord = lazySchema(() =>
  z.object({
    gradingRunId: z.string(),
    score: z.number().nullable(),
    confidence: z.number().nullable(),
    grader: GraderInfo,
    comments: z.array(AuditComment),
    suggestedAt: z.string(),
  }),
);
export type AiSuggestionRecord = z.infer<typeof AiSuggestionRecord>;

export const GradeHistoryEntry = lazySchema(() =>
  z.object({
    gradeId: z.string(),
    reason: GradeReason,
    grade: z.number(),
    comments: z.array(AuditComment),
    savedBy: z.object({ _id: z.string(), name: z.string() }),
    savedAt: z.string(),
    /** The rubric version in force when it was written (null: saved before versions were kept). */
    rubricVersion: z.number().nullable(),
    /** The AI suggestion the grade started from (null: none, e.g. graded by hand or applied to a group). */
    aiSuggestion: AiSuggestionRecord.nullable(),
    /** What the person changed from that suggestion (null without one). */
    changesFromSuggestion: GradeDiff.nullable(),
    /** What changed from the grade saved before on this submission (null for the first). */
    changesFromPrevious: GradeDiff.nullable(),
    /** For 'group': the grade it was copied from. For 'rubric-change': the grade it recomputed. */
    appliedFromGradeId: z.string().nullable(),
    replacesGradeId: z.string().nullable(),
    /** True for the submission's current grade (the newest). */
    isCurrent: z.boolean(),
  }),
);
export type GradeHistoryEntry = z.infer<typeof GradeHistoryEntry>;

/** GET .../questions/:questionId/submissions/:submissionId/grade-history: newest first. */
export const GradeHistoryOutput = lazySchema(() =>
  z.object({
    submissionId: z.string(),
    questionPoints: z.number(),
    entries: z.array(GradeHistoryEntry),
  }),
);
export type GradeHistoryOutput = z.infer<typeof GradeHistoryOutput>;

/** One rubric version: who wrote it, when, and what it changed. */
export const RubricVersionSummary = lazySchema(() =>
  z.object({
    version: z.number(),
    source: z.enum(RUBRIC_SOURCES),
    createdBy: z.object({ _id: z.string(), name: z.string() }).nullable(),
    createdAt: z.string(),
    items: z.array(z.object({ id: z.string(), criterion: z.string(), points: z.number(), guidance: z.string() })),
    /** Sentences: "Item 'Units' (item-2): points 2 → 1." */
    changes: z.array(z.string()),
    regradedCount: z.number(),
  }),
);
export type RubricVersionSummary = z.infer<typeof RubricVersionSummary>;

/** GET .../questions/:questionId/rubric-versions: newest first. */
export const RubricVersionsOutput = lazySchema(() => z.object({ versions: z.array(RubricVersionSummary) }));
export type RubricVersionsOutput = z.infer<typeof RubricVersionsOutput>;

/** The audit CSV's columns, in order (GET /api/assignments/:assignmentId/audit.csv and per question). */
export const AUDIT_CSV_COLUMNS = [
  'Question',
  'Student',
  'Email',
  'Submission version',
  'Saved at (UTC)',
  'Saved by',
  'Reason',
  'Rubric version',
  'Grade',
  'Points',
  'AI grader',
  'AI model',
  'AI score',
  'AI confidence',
  'Changes from AI suggestion',
  'Changes from previous grade',
  'Saved comments',
  'Current',
] as const;
