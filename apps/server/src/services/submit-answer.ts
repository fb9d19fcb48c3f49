import { UploadOnBehalfFields } from '@gradewise/shared/contracts/submissions';
import type { AppContext } from '../context.ts';
import { badRequest } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { parseInput } from '../lib/parse-input.ts';
import { insertSubmission, selectNextVersion, type SubmissionListRow } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import {
  loadVisibleQuestion,
  requireOwner,
  requireStudent,
  type AsOwner,
  type AsStudent,
  type QuestionScope,
} from '../policies/course-access.ts';
import { checkPdf, type CheckedFile, type UploadedFile } from '../storage/file-content.ts';
import { findEnrolledStudentByEmail } from './add-students.ts';
import { storeFilesThen } from './store-files.ts';

export interface QuestionPath {
  assignmentId: string;
  questionId: string;
}

/** Before the upload is read: only a student enrolled in the course submits (others: 404, the owner: 403). */
export async function authorizeSubmission(
  ctx: AppContext,
  user: UserRow,
  path: QuestionPath,
): Promise<AsStudent<QuestionScope>> {
  return requireStudent(
    await loadVisibleQuestion(ctx.db, user, path.assignmentId, path.questionId),
    'Only enrolled students submit answers. To add an answer for a student, use "Upload on Behalf of a Student".',
  );
}

/** A student submits their own answer: a new version of it. */
export async function submitAnswer(
  ctx: AppContext,
  scope: AsStudent<QuestionScope>,
  student: UserRow,
  file: UploadedFile | undefined,
): Promise<SubmissionListRow> {
  if (!file) throw badRequest('Please select a PDF to submit.');
  const checked = checkPdf('submission', file.content, file.filename);
  return recordSubmission(ctx, scope, student, student, checked);
}

/** Before the upload is read: only the owning instructor uploads on a student's behalf. */
export async function authorizeUploadOnBehalf(
  ctx: AppContext,
  user: UserRow,
  path: QuestionPath,
): Promise<AsOwner<QuestionScope>> {
  return requireOwner(
    await loadVisibleQuestion(ctx.db, user, path.assignmentId, path.questionId),
    'upload answers on behalf of students',
  );
}

/**
 * The owning instructor uploads an answer for an enrolled student (a paper hand-in, an emailed
 * PDF). It becomes that student's next version, late or not by the time of this upload.
 */
export async function uploadOnBehalf(
  ctx: AppContext,
  scope: AsOwner<QuestionScope>,
  instructor: UserRow,
  form: { fields: Record<string, string>; file?: UploadedFile },
): Promise<SubmissionListRow> {
  if (!form.file) throw badRequest('Please select a PDF to upload.');
  const { studentEmail } = parseInput(UploadOnBehalfFields, form.fields);
  const checked = checkPdf('submission', form.file.content, form.file.filename);
  const student = await findEnrolledStudentByEmail(ctx, scope.course.id, studentEmail);
  return recordSubmission(ctx, scope, student, instructor, checked);
}

const MAX_VERSION_ATTEMPTS = 5;

/**
 * Every upload is a new version. The version number is max + 1 inside the transaction; two uploads
 * of the same student racing for one number are told apart by the unique index on
 * (question, student, version), and the loser retries with the next number. storeFilesThen removes
 * the blob of a failed attempt, so retries leave nothing behind.
 * `isLate` is fixed now, against the deadline in force now, and never recomputed.
 */
async function recordSubmission(
  ctx: AppContext,
  scope: QuestionScope,
  student: UserRow,
  uploader: UserRow,
  file: CheckedFile,
): Promise<SubmissionListRow> {
  const person = (account: UserRow) => ({ id: account.id, name: account.name, email: account.email });
  for (let attempt = 1; ; attempt += 1) {
    try {
      const submittedAt = new Date();
      const deadline = scope.assignment.deadline;
      const submission = await storeFilesThen(ctx, [file], uploader.id, async (tx, [stored]) =>
        insertSubmission(tx, {
          id: newId(),
          questionId: scope.question.id,
          studentId: student.id,
          fileId: stored!.id,
          version: await selectNextVersion(tx, scope.question.id, student.id),
          isLate: deadline !== null && submittedAt.getTime() > deadline.getTime(),
          uploadedById: uploader.id,
          submittedAt,
        }),
      );
      return { submission, student: person(student), uploadedBy: person(uploader), versionCount: submission.version };
    } catch (error) {
      if (attempt >= MAX_VERSION_ATTEMPTS || !isUniqueViolation(error)) throw error;
    }
  }
}

function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
