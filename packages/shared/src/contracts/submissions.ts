import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { Email } from './auth.ts';
import { Person, PersonRef } from './courses.ts';
import { FileUrl } from './files.ts';

/** Both upload routes are multipart with the answer PDF in this file field. */
export const SUBMISSION_FILE_FIELD = 'file';

/** POST .../questions/:questionId/upload-submission text fields (plus the PDF in `file`). */
export const UploadOnBehalfFields = lazySchema(() =>
  z.object({
    studentEmail: z
      .string({ error: "Please enter the student's email." })
      .trim()
      .min(1, "Please enter the student's email.")
      .pipe(Email),
  }),
);
export type UploadOnBehalfFields = z.input<typeof UploadOnBehalfFields>;

/**
 * Where reading the text of a submitted PDF stands: 'queued' once it is stored, 'reading' while a
 * reader thread has it, then 'done' (Converted Text shows it) or 'failed' (`extractionError` says why).
 */
export const ExtractionStatus = lazySchema(() => z.enum(['queued', 'reading', 'done', 'failed']));
export type ExtractionStatus = z.infer<typeof ExtractionStatus>;

/** Optional fields (absent for files stored before extraction started at submission). */
export const ExtractionStateFields = {
  extractionStatus: lazySchema(() => ExtractionStatus.optional()),
  /** Why reading the text failed, in a sentence; null unless it failed. */
  extractionError: lazySchema(() => z.string().nullable().optional()),
};

/**
 * Every upload is kept as a version; the lists show the latest per student. `isLate` was fixed when
 * the version was uploaded, against the assignment deadline in force then.
 */
const SubmissionBase = lazySchema(() =>
  z.object({
    _id: z.string(),
    file: FileUrl,
    isLate: z.boolean(),
    /** 1 for the first upload of this student to this question, then 2, 3, ... */
    version: z.number().int(),
    submittedAt: z.string(),
    ...ExtractionStateFields,
  }),
);

/** What a student sees: only their own latest submission. */
export const SubmissionForStudent = lazySchema(() => SubmissionBase.extend({ student: PersonRef }));
export type SubmissionForStudent = z.infer<typeof SubmissionForStudent>;

/** What the owning instructor sees: the latest submission per student, with how many versions exist. */
export const SubmissionForStaff = lazySchema(() =>
  SubmissionBase.extend({
    student: Person,
    /** Number of versions this student uploaded for this question; > 1 means earlier ones exist. */
    versions: z.number().int(),
    /** Who uploaded this version: the student, or the instructor on their behalf. */
    uploadedBy: PersonRef,
  }),
);
export type SubmissionForStaff = z.infer<typeof SubmissionForStaff>;

/** GET .../questions/:questionId/submissions/:submissionId/versions (owning instructor). */
export const SubmissionVersion = lazySchema(() => SubmissionBase.extend({ uploadedBy: PersonRef }));
export type SubmissionVersion = z.infer<typeof SubmissionVersion>;
export const SubmissionVersionsOutput = lazySchema(() =>
  z.object({
    student: Person,
    /** Every version of this student's answer to this question, newest first. */
    versions: z.array(SubmissionVersion),
  }),
);
export type SubmissionVersionsOutput = z.infer<typeof SubmissionVersionsOutput>;

export const SubmitAnswerOutput = lazySchema(() => z.object({ message: z.string(), submission: SubmissionForStudent }));
export type SubmitAnswerOutput = z.infer<typeof SubmitAnswerOutput>;
export const UploadOnBehalfOutput = lazySchema(() => z.object({ message: z.string(), submission: SubmissionForStaff }));
export type UploadOnBehalfOutput = z.infer<typeof UploadOnBehalfOutput>;
