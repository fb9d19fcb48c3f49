import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { AssignmentCourse } from './assignments.ts';
import { FileUrl } from './files.ts';
import { AutoRubric, SubmissionGradeForStudent, SubmissionGradingFields } from './grading.ts';
import { QuestionGradeRelease } from './regrades.ts';
import { SubmissionForStaff, SubmissionForStudent } from './submissions.ts';
import { StaffRole } from './staff.ts';
import { GradingWorkFields } from './work-split.ts';

export const DEFAULT_QUESTION_POINTS = 10;
export const MAX_QUESTION_POINTS = 1000;
export const QUESTION_TITLE_MAX_LENGTH = 200;

/**
 * POST /api/assignments/:assignmentId/questions is multipart/form-data: text fields `title`
 * (optional) and `points` (default 10, > 0), files `questionFile` (PDF, required) and
 * `solutionFile` (PDF, optional).
 */
export const CreateQuestionFields = lazySchema(() =>
  z.object({
    title: z
      .string()
      .trim()
      .max(QUESTION_TITLE_MAX_LENGTH, `The title must be at most ${QUESTION_TITLE_MAX_LENGTH} characters.`)
      .optional()
      .transform((title) => (title ? title : null)),
    points: z.preprocess(
      (value) => (value === undefined || value === '' ? DEFAULT_QUESTION_POINTS : value),
      z.coerce
        .number({ error: 'Points must be a number.' })
        .gt(0, 'Points must be greater than 0.')
        .max(MAX_QUESTION_POINTS, `Points must be at most ${MAX_QUESTION_POINTS}.`),
    ),
  }),
);
export type CreateQuestionFields = z.input<typeof CreateQuestionFields>;
export const CREATE_QUESTION_FILE_FIELDS = { question: 'questionFile', solution: 'solutionFile' } as const;

/** GET /api/assignments/:assignmentId/questions, in creation order. */
export const QuestionSummary = lazySchema(() =>
  z.object({
    _id: z.string(),
    /** null when the instructor gave none (the web shows 'Untitled Question'). */
    title: z.string().nullable(),
    points: z.number(),
    createdAt: z.string(),
  }),
);
export type QuestionSummary = z.infer<typeof QuestionSummary>;
export const QuestionList = lazySchema(() => z.array(QuestionSummary));
export type QuestionList = z.infer<typeof QuestionList>;

/** GET .../questions/:questionId?includeSubmissions=1 adds `submissions`. */
/** The most rows one page of the question page's submissions may ask for. */
export const MAX_SUBMISSIONS_PAGE_SIZE = 100;

/**
 * A count in a query string: digits only (a minus sign allowed, so '-1' is told it is out of range
 * rather than not a number), so '1e3', '' and '0x10' are refused rather than guessed at.
 */
const QueryCount = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,7}$/, `The ${name} must be a whole number.`)
    .transform(Number)
    .refine((value) => value >= min && value <= max, `The ${name} must be between ${min} and ${max}.`);

/**
 * includeSubmissions=1 alone: every submission the caller may see (the spec's API). With `limit`
 * (and optionally `offset`, default 0): one page of that list in the table's order, and
 * `submissionsPage` says what the table needs to page (decision 0042). With `submissionId`: that
 * list narrowed to the one submission (none when it is not in the list, e.g. an earlier version):
 * what the grading screen reads (decision 0046).
 */
export const QuestionDetailQuery = lazySchema(() =>
  z
    .object({
      includeSubmissions: z.enum(['0', '1', 'true', 'false']).optional(),
      offset: QueryCount('offset', 0, 1_000_000).optional(),
      limit: QueryCount('limit', 1, MAX_SUBMISSIONS_PAGE_SIZE).optional(),
      submissionId: z
        .string()
        .regex(
          /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
          'The submissionId must be the id of a submission.',
        )
        .transform((id) => id.toLowerCase())
        .optional(),
    })
    .refine((query) => query.offset === undefined || query.limit !== undefined, {
      message: 'An offset needs a limit: say how many submissions a page holds.',
      path: ['limit'],
    })
    .refine((query) => query.limit === undefined || isTrueFlag(query.includeSubmissions), {
      message: 'A limit or offset pages the submissions: ask for them with includeSubmissions=1.',
      path: ['includeSubmissions'],
    })
    .refine((query) => query.submissionId === undefined || isTrueFlag(query.includeSubmissions), {
      message: 'A submissionId picks one of the submissions: ask for them with includeSubmissions=1.',
      path: ['includeSubmissions'],
    })
    .refine((query) => query.submissionId === undefined || query.limit === undefined, {
      message: 'Ask for one submission or for a page of them, not both.',
      path: ['submissionId'],
    }),
);
export type QuestionDetailQuery = z.input<typeof QuestionDetailQuery>;

/** includeSubmissions=1 or =true. */
export function isTrueFlag(flag: string | undefined): boolean {
  return flag === '1' || flag === 'true';
}

/**
 * With a paged request: where the page sits in the whole list, and what the table shows from the
 * whole list rather than the page (decision 0042).
 */
export const SubmissionsPage = lazySchema(() =>
  z.object({
    offset: z.number(),
    limit: z.number(),
    /** Every submission the caller may see (staff: one latest per student). */
    total: z.number(),
    /** Any of them has a grade that counts (the Grading Report column is shown for all pages). */
    anyGraded: z.boolean(),
    /** Staff only: how many Grade All would ask the AI about now (the button's "N left"). */
    leftForGradeAll: z.number().optional(),
  }),
);
export type SubmissionsPage = z.infer<typeof SubmissionsPage>;

const QuestionDetailBase = lazySchema(() =>
  QuestionSummary.extend({
    assignment: z.object({ _id: z.string(), title: z.string() }),
    course: AssignmentCourse,
    questionFile: FileUrl,
  }),
);

/**
 * A row of the staff submissions table: the submission with its grading fields (grading.ts) and,
 * beside the spec's fields, whose share it is and who has it open (work-split.ts, decision 0031).
 */
export const QuestionSubmissionForStaff = lazySchema(() =>
  SubmissionForStaff.extend(SubmissionGradingFields.shape).extend(GradingWorkFields.partial().shape),
);
export type QuestionSubmissionForStaff = z.infer<typeof QuestionSubmissionForStaff>;
/**
 * A row of one page of the staff table (a paged read, decision 0057): the table's fields only. The
 * answer's text, its comments and its hidden-text findings (most of a row's bytes, and most of its
 * reading cost) are left out: the table shows none of them, and the grading screen reads them with
 * the answer. The spec's unpaged read and the one-submission read keep every field.
 */
export const QuestionTableRowForStaff = lazySchema(() =>
  QuestionSubmissionForStaff.omit({
    comments: true,
    extractedText: true,
    hiddenText: true,
  }),
);
export type QuestionTableRowForStaff = z.infer<typeof QuestionTableRowForStaff>;
/** A student's own row: the submission with the grade the instructor saved, if any. */
export const QuestionSubmissionForStudent = lazySchema(() =>
  SubmissionForStudent.extend(SubmissionGradeForStudent.shape),
);
export type QuestionSubmissionForStudent = z.infer<typeof QuestionSubmissionForStudent>;

/**
 * The owning instructor's view: the solution PDF, the rubric (`autoRubric`: empty, or one element
 * with questionText, solutionText and items) and, with includeSubmissions=1, the latest
 * submission of every student who submitted, with its grading fields.
 */
export const QuestionForStaff = lazySchema(() =>
  QuestionDetailBase.extend({
    viewer: z.literal('staff'),
    /** `ta` for a teaching assistant (grades, but may not edit the rubric); absent: the owner. */
    staffRole: StaffRole.optional(),
    solutionFile: FileUrl.nullable(),
    autoRubric: AutoRubric,
    /** Whether students see this question's grades now, and what holds them (decision 0023). */
    gradeRelease: QuestionGradeRelease.optional(),
    /**
     * Comments on this question may state the expected answer (off by default, decision 0088). Staff
     * only: a student's view never carries it.
     */
    showExpectedAnswer: z.boolean().optional(),
    submissions: z.array(QuestionSubmissionForStaff).optional(),
    submissionsPage: SubmissionsPage.optional(),
  }),
);
export type QuestionForStaff = z.infer<typeof QuestionForStaff>;

/** An enrolled student's view: never the solution; with includeSubmissions=1, only their own latest submission. */
export const QuestionForStudent = lazySchema(() =>
  QuestionDetailBase.extend({
    viewer: z.literal('student'),
    submissions: z.array(QuestionSubmissionForStudent).optional(),
    submissionsPage: SubmissionsPage.optional(),
  }),
);
export type QuestionForStudent = z.infer<typeof QuestionForStudent>;

export const QuestionDetail = lazySchema(() => z.discriminatedUnion('viewer', [QuestionForStaff, QuestionForStudent]));
export type QuestionDetail = z.infer<typeof QuestionDetail>;

/** A paged read (`limit`, decision 0042): staff rows are table rows (decision 0057); a student's row is as in QuestionDetail. */
export const QuestionPageForStaff = lazySchema(() =>
  QuestionForStaff.extend({
    submissions: z.array(QuestionTableRowForStaff).optional(),
  }),
);
export type QuestionPageForStaff = z.infer<typeof QuestionPageForStaff>;
export const QuestionPage = lazySchema(() =>
  z.discriminatedUnion('viewer', [QuestionPageForStaff, QuestionForStudent]),
);
export type QuestionPage = z.infer<typeof QuestionPage>;

export const CreateQuestionOutput = lazySchema(() => z.object({ message: z.string(), question: QuestionForStaff }));
export type CreateQuestionOutput = z.infer<typeof CreateQuestionOutput>;

/**
 * PATCH /api/assignments/:assignmentId/questions/:questionId/feedback-settings (not in the spec,
 * decision 0088), the question's owner only: whether the grader's comments may state the expected
 * answer (the value, the formula, the reference's words) where an answer falls short.
 */
export const QuestionFeedbackSettingsInput = lazySchema(() =>
  z.object({
    showExpectedAnswer: z.boolean({ error: 'must be true or false.' }),
  }),
);
export type QuestionFeedbackSettingsInput = z.input<typeof QuestionFeedbackSettingsInput>;
export const QuestionFeedbackSettingsOutput = lazySchema(() =>
  z.object({
    message: z.string(),
    showExpectedAnswer: z.boolean(),
    /** Pending suggestions queued to be written again with the new setting (built-in grader only). */
    refreshQueued: z.boolean(),
  }),
);
export type QuestionFeedbackSettingsOutput = z.infer<typeof QuestionFeedbackSettingsOutput>;
