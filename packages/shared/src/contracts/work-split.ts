import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { PersonRef } from './courses.ts';

/**
 * The work split of a course team (issue 12 item 1, decisions 0021 and 0031). The owning
 * instructor gives questions to graders (the owner and the TAs) and students to graders; each
 * answer then belongs to one grader, to a few, or to everyone (nothing assigned). The rule is in
 * the server's services/work-split.ts:
 * - a question with graders of its own splits its students among them in contiguous ranges (by
 *   name; by anonymous label while the assignment is anonymous), so three graders on one question
 *   never get the same answer;
 * - else a student's grader (their section) grades their answers;
 * - else the answer is everyone's.
 */

/** GET /api/courses/:id/work-split (owner and TAs). */
export const WorkSplitGrader = lazySchema(() => PersonRef.extend({ isOwner: z.boolean() }));
export type WorkSplitGrader = z.infer<typeof WorkSplitGrader>;

export const WorkSplitQuestion = lazySchema(() =>
  z.object({
    questionId: z.string(),
    assignmentId: z.string(),
    assignmentTitle: z.string(),
    /** The question's title, or "Question N". */
    questionLabel: z.string(),
    /** Who grades it; empty: the student split (or everyone) decides. */
    graderIds: z.array(z.string()),
  }),
);
export type WorkSplitQuestion = z.infer<typeof WorkSplitQuestion>;

export const WorkSplitStudent = lazySchema(() =>
  z.object({
    _id: z.string(),
    name: z.string(),
    email: z.string(),
    /** Their grader for questions without graders of their own; null: nobody in particular. */
    graderId: z.string().nullable(),
  }),
);
export type WorkSplitStudent = z.infer<typeof WorkSplitStudent>;

export const WorkSplitOutput = lazySchema(() =>
  z.object({
    /** The owner first, then the TAs by name. */
    graders: z.array(WorkSplitGrader),
    /** Assignments in creation order, their questions in order. */
    questions: z.array(WorkSplitQuestion),
    /** The roster, by name. */
    students: z.array(WorkSplitStudent),
  }),
);
export type WorkSplitOutput = z.infer<typeof WorkSplitOutput>;

const MAX_GRADERS_PER_QUESTION = 50;
/** A course roster's upper bound (MAX_ROSTER_ENTRIES) plus room. */
const MAX_STUDENT_CHANGES = 5000;

/** PUT /api/courses/:id/work-split/questions/:questionId (owner): who grades this question. */
export const SetQuestionGradersInput = lazySchema(() =>
  z.object({
    graderIds: z
      .array(z.string())
      .max(MAX_GRADERS_PER_QUESTION, { error: `At most ${MAX_GRADERS_PER_QUESTION} graders per question.` }),
  }),
);
export type SetQuestionGradersInput = z.input<typeof SetQuestionGradersInput>;

/**
 * PUT /api/courses/:id/work-split/students (owner): each listed student's grader (null: nobody in
 * particular). Students not listed keep theirs.
 */
export const SetStudentGradersInput = lazySchema(() =>
  z.object({
    students: z
      .array(z.object({ studentId: z.string(), graderId: z.string().nullable() }))
      .min(1, { error: 'Name at least one student.' })
      .max(MAX_STUDENT_CHANGES, { error: `At most ${MAX_STUDENT_CHANGES} students at once.` }),
  }),
);
export type SetStudentGradersInput = z.input<typeof SetStudentGradersInput>;

export const WorkSplitChangeOutput = lazySchema(() => z.object({ message: z.string(), split: WorkSplitOutput }));
export type WorkSplitChangeOutput = z.infer<typeof WorkSplitChangeOutput>;

// ---------------------------------------------------------------- who has an answer open

/** A grader who has a submission open in the grading screen, since when. */
export const GradingLeaseHolder = lazySchema(() => PersonRef.extend({ since: z.string() }));
export type GradingLeaseHolder = z.infer<typeof GradingLeaseHolder>;

/**
 * POST .../grade/:submissionId/lease (staff): "I have this answer open". Taken (or renewed) when
 * nobody else holds it; otherwise the answer says who does, and the grading screen shows it. A
 * lease lapses by itself `expiresAt` (the screen renews it while open); it warns, never blocks.
 */
export const GradingLeaseOutput = lazySchema(() =>
  z.object({
    /** The caller holds the lease now. */
    isMine: z.boolean(),
    /** Who holds it (the caller, or the other grader who has it open). */
    holder: GradingLeaseHolder,
    expiresAt: z.string(),
  }),
);
export type GradingLeaseOutput = z.infer<typeof GradingLeaseOutput>;

/** Minutes a lease lasts without renewal; the grading screen renews it every GRADING_LEASE_RENEW_SECONDS. */
export const GRADING_LEASE_MINUTES = 5;
export const GRADING_LEASE_RENEW_SECONDS = 120;

/**
 * What staff lists (question page rows, review queue items) say about the split and about who has
 * an answer open.
 */
export const GradingWorkFields = lazySchema(() =>
  z.object({
    /** The graders this answer belongs to; empty: everyone's. */
    assignedTo: z.array(PersonRef),
    /** It is in the caller's share (theirs, or everyone's). */
    isMine: z.boolean(),
    /** Someone has it open in the grading screen right now (the caller included); null: nobody. */
    openBy: GradingLeaseHolder.nullable(),
  }),
);
export type GradingWorkFields = z.infer<typeof GradingWorkFields>;
