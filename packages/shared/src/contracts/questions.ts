import { z } from 'zod';
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
export const CreateQuestionFields = z.object({
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
});
export type CreateQuestionFields = z.input<typeof CreateQuestionFields>;
export const CREATE_QUESTION_FILE_FIELDS = { question: 'questionFile', solution: 'solutionFile' } as const;

/** GET /api/assignments/:assignmentId/questions, in creation order. */
export const QuestionSummary = z.object({
  _id: z.string(),
  /** null when the instructor gave none (the web shows 'Untitled Question'). */
  title: z.string().nullable(),
  points: z.number(),
  createdAt: z.string(),
});
export type QuestionSummary = z.infer<typeof QuestionSummary>;
export const QuestionList = z.array(QuestionSummary);
export type QuestionList = z.infer<typeof QuestionList>;

/** GET .../questions/:questionId?includeSubmissions=1 adds `submissions`. */
export const QuestionDetailQuery = z.object({
  includeSubmissions: z.enum(['0', '1', 'true', 'false']).optional(),
});
export type QuestionDetailQuery = z.infer<typeof QuestionDetailQuery>;

const QuestionDetailBase = QuestionSummary.extend({
  assignment: z.object({ _id: z.string(), title: z.string() }),
  course: AssignmentCourse,
  questionFile: FileUrl,
});

/**
 * A row of the staff submissions table: the submission with its grading fields (grading.ts) and,
 * beside the spec's fields, whose share it is and who has it open (work-split.ts, decision 0031).
 */
export const QuestionSubmissionForStaff = SubmissionForStaff.extend(SubmissionGradingFields.shape).extend(
  GradingWorkFields.partial().shape,
);
export type QuestionSubmissionForStaff = z.infer<typeof QuestionSubmissionForStaff>;
/** A student's own row: the submission with the grade the instructor saved, if any. */
export const QuestionSubmissionForStudent = SubmissionForStudent.extend(SubmissionGradeForStudent.shape);
export type QuestionSubmissionForStudent = z.infer<typeof QuestionSubmissionForStudent>;

/**
 * The owning instructor's view: the solution PDF, the rubric (`autoRubric`: empty, or one element
 * with questionText, solutionText and items) and, with includeSubmissions=1, the latest
 * submission of every student who submitted, with its grading fields.
 */
export const QuestionForStaff = QuestionDetailBase.extend({
  viewer: z.literal('staff'),
  /** `ta` for a teaching assistant (grades, but may not edit the rubric); absent: the owner. */
  staffRole: StaffRole.optional(),
  solutionFile: FileUrl.nullable(),
  autoRubric: AutoRubric,
  /** Whether students see this question's grades now, and what holds them (decision 0023). */
  gradeRelease: QuestionGradeRelease.optional(),
  submissions: z.array(QuestionSubmissionForStaff).optional(),
});
export type QuestionForStaff = z.infer<typeof QuestionForStaff>;

/** An enrolled student's view: never the solution; with includeSubmissions=1, only their own latest submission. */
export const QuestionForStudent = QuestionDetailBase.extend({
  viewer: z.literal('student'),
  submissions: z.array(QuestionSubmissionForStudent).optional(),
});
export type QuestionForStudent = z.infer<typeof QuestionForStudent>;

export const QuestionDetail = z.discriminatedUnion('viewer', [QuestionForStaff, QuestionForStudent]);
export type QuestionDetail = z.infer<typeof QuestionDetail>;

export const CreateQuestionOutput = z.object({ message: z.string(), question: QuestionForStaff });
export type CreateQuestionOutput = z.infer<typeof CreateQuestionOutput>;
