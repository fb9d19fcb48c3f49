import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { Person } from './courses.ts';
import { GradeFirstState, ReviewStatus } from './review.ts';

/**
 * Answer groups (docs/decisions/0012-answer-groups.md): alike answers to one question — the same
 * text after normalisation, or the same final value and the same key points — so the instructor
 * can grade one and apply that grade to the rest. Staff only: students never see groups.
 * Under /api/assignments/:assignmentId/questions/:questionId.
 */

/**
 * Why a member is flagged as differing from its group:
 * - 'score-differs': its own AI suggestion is far (over 20% of the points) from the group's score;
 * - 'less-alike': it joined the group but shares clearly fewer key points with the representative.
 */
export const AnswerGroupFlag = lazySchema(() => z.enum(['score-differs', 'less-alike']));
export type AnswerGroupFlag = z.infer<typeof AnswerGroupFlag>;

export const AnswerGroupMember = lazySchema(() =>
  z.object({
    submissionId: z.string(),
    student: Person,
    status: ReviewStatus,
    /** The saved grade, when there is one. */
    grade: z.number().nullable(),
    /** The score of the newest AI suggestion, when there is one. */
    suggestedScore: z.number().nullable(),
    /** How alike (0..1) it is to the group's representative; 1 for the representative. */
    similarity: z.number(),
    isRepresentative: z.boolean(),
    flags: z.array(AnswerGroupFlag),
    /** Its saved grade was applied from this member's grade with "Apply to group"; null otherwise. */
    appliedFromSubmissionId: z.string().nullable(),
  }),
);
export type AnswerGroupMember = z.infer<typeof AnswerGroupMember>;

export const AnswerGroup = lazySchema(() =>
  z.object({
    /** Stable while the representative stays the same: the representative's submission id. */
    groupId: z.string(),
    size: z.number(),
    representativeSubmissionId: z.string(),
    /** The final value every member ends on, as the representative wrote it; null when none. */
    finalValue: z.string().nullable(),
    /** Up to five key terms every member uses, as the representative wrote them. */
    keyTerms: z.array(z.string()),
    /** The representative first, then the most alike. */
    members: z.array(AnswerGroupMember),
  }),
);
export type AnswerGroup = z.infer<typeof AnswerGroup>;

/** GET .../answer-groups (owning instructor): groups of the current answers, biggest first. */
export const AnswerGroupsOutput = lazySchema(() =>
  z.object({
    questionPoints: z.number(),
    groups: z.array(AnswerGroup),
    /** Current answers whose text has not been read yet (read when first graded): not grouped. */
    withoutText: z.number(),
    gradeFirst: GradeFirstState,
  }),
);
export type AnswerGroupsOutput = z.infer<typeof AnswerGroupsOutput>;

/** A member as the grading screen's notice names it. */
const AnswerGroupMemberName = lazySchema(() => AnswerGroupMember.pick({ submissionId: true, student: true }));

/** How many other members the notice names ("Alike to A, B and 297 more" names two of them, or three). */
export const ANSWER_GROUP_NAMED_OTHERS = 3;

/**
 * GET .../answer-groups/of/:submissionId (owning instructor): what the grading screen's notice shows
 * of the open answer's group, without the other members (decision 0095): on a 300-answer question
 * the whole list (GET .../answer-groups) was about 100 KB the screen's first view waited for, to
 * draw one sentence. `group` is null for an answer in no group (or not a current answer).
 */
export const AnswerGroupOfSubmissionOutput = lazySchema(() =>
  z.object({
    questionPoints: z.number(),
    group: z
      .object({
        groupId: z.string(),
        size: z.number(),
        representativeSubmissionId: z.string(),
        /** The open answer itself, as the whole list shows it. */
        member: AnswerGroupMember,
        /** The first ANSWER_GROUP_NAMED_OTHERS other members, in the group's order. */
        namedOthers: z.array(AnswerGroupMemberName),
        /** Other members without a saved grade: what Apply to group could grade. */
        openOthers: z.number(),
        /** The member this answer's grade was applied from with Apply to group; null otherwise. */
        appliedFrom: AnswerGroupMemberName.nullable(),
      })
      .nullable(),
  }),
);
export type AnswerGroupOfSubmissionOutput = z.infer<typeof AnswerGroupOfSubmissionOutput>;

export const APPLY_TO_GROUP_MAX = 1000;

/**
 * POST .../answer-groups/apply (owning instructor): copies the saved grade of `fromSubmissionId`
 * (its comments, deductions and accepted flags) as a saved grade to members of its group that
 * have none. `submissionIds` are the members the instructor confirmed in the dialog; absent, every
 * member without a saved grade. Each applied grade is an ordinary saved grade: open to review and
 * change like any other.
 */
export const ApplyToGroupInput = lazySchema(() =>
  z.object({
    fromSubmissionId: z
      .string({ error: 'Choose the graded answer whose grade to apply.' })
      .min(1, 'Choose the graded answer whose grade to apply.')
      .max(64),
    submissionIds: z
      .array(z.string().max(64))
      .max(APPLY_TO_GROUP_MAX, `Apply to at most ${APPLY_TO_GROUP_MAX} answers at a time.`)
      .optional(),
  }),
);
export type ApplyToGroupInput = z.input<typeof ApplyToGroupInput>;

export const ApplyToGroupOutput = lazySchema(() =>
  z.object({
    message: z.string(),
    applied: z.array(z.object({ submissionId: z.string(), grade: z.number() })),
    /** Confirmed members left as they were: graded in the meantime, or no longer alike to the source. */
    skipped: z.array(z.object({ submissionId: z.string(), reason: z.enum(['already-graded', 'not-in-group']) })),
  }),
);
export type ApplyToGroupOutput = z.infer<typeof ApplyToGroupOutput>;
