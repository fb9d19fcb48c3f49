import { UploadOnBehalfFields } from '@gradewise/shared/contracts/submissions';
import { canResubmit, RESUBMISSION_REFUSED_MESSAGE } from '@gradewise/shared/resubmission';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { badRequest, conflict } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { parseInput } from '../lib/parse-input.ts';
import { isVersionGraded, selectNewestGradeAtOfAnswer } from '../models/grades.ts';
import { answerLockKey, takeTransactionLock } from '../models/locks.ts';
import { selectNewestReopeningAt } from '../models/submission-reopenings.ts';
import { insertQueuedFileExtraction } from '../models/file-extractions.ts';
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
import { extractTextJob } from './ensure-file-extraction.ts';
import { refreshAfterGradedAnswerReplaced } from './refresh-suggestions.ts';
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
  const checked = await checkPdf('submission', file.bytes, file.filename);
  return recordSubmission(ctx, scope, student, student, checked, { isGradedAnswerFinal: true });
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
  const checked = await checkPdf('submission', form.file.bytes, form.file.filename);
  const student = await findEnrolledStudentByEmail(ctx, scope.course.id, studentEmail);
  // The instructor's own upload is their decision: it is not held back by a saved grade (that
  // grade keeps counting as a grade on an earlier version until the new version is graded).
  return recordSubmission(ctx, scope, student, instructor, checked, { isGradedAnswerFinal: false });
}

const MAX_VERSION_ATTEMPTS = 5;

/**
 * Every upload is a new version. The version number is max + 1 inside the transaction; two uploads
 * of the same student racing for one number are told apart by the unique index on
 * (question, student, version), and the loser retries with the next number. storeFilesThen removes
 * the blob of a failed attempt, so retries leave nothing behind.
 * `isLate` is fixed now, against the deadline in force now, and never recomputed.
 * A student's new version after a saved grade is refused (see @gradewise/shared/resubmission); the
 * check runs under the lock of the student's answer, which save-grade takes too, so a grade saved
 * at the same moment cannot slip between the check and the insert.
 * The file's text extraction is queued in the same transaction (a file_extractions row), and its
 * job is sent once that has committed (see startTextExtraction).
 * A new version of a graded answer takes that grade out of what the built-in grader learns from
 * (the question's examples, the course's convention): the suggestions made with it are checked
 * once the version is in (refreshAfterGradedAnswerReplaced, decision 0124).
 */
async function recordSubmission(
  ctx: AppContext,
  scope: QuestionScope,
  student: UserRow,
  uploader: UserRow,
  file: CheckedFile,
  rule: { isGradedAnswerFinal: boolean },
): Promise<SubmissionListRow> {
  const person = (account: UserRow) => ({ id: account.id, name: account.name, email: account.email });
  // Refused before the file is stored; checked again in the transaction, where it holds.
  refuseVersionBeyondCap(ctx, await selectNextVersion(ctx.db, scope.question.id, student.id), student, uploader);
  for (let attempt = 1; ; attempt += 1) {
    try {
      const submittedAt = new Date();
      const deadline = scope.assignment.deadline;
      const { submission, replacesGraded } = await storeFilesThen(ctx, [file], uploader.id, async (tx, [stored]) => {
        await takeTransactionLock(tx, answerLockKey(scope.question.id, student.id));
        if (rule.isGradedAnswerFinal) await checkResubmissionAllowed(tx, scope, student.id);
        const version = await selectNextVersion(tx, scope.question.id, student.id);
        refuseVersionBeyondCap(ctx, version, student, uploader);
        // Read under the answer's lock, which save-grade takes too: no grade lands between.
        const replacesGraded = version > 1 && (await isVersionGraded(tx, scope.question.id, student.id, version - 1));
        const inserted = await insertSubmission(tx, {
          id: newId(),
          questionId: scope.question.id,
          studentId: student.id,
          fileId: stored!.id,
          version,
          isLate: deadline !== null && submittedAt.getTime() > deadline.getTime(),
          uploadedById: uploader.id,
          submittedAt,
        });
        await insertQueuedFileExtraction(tx, inserted.fileId);
        return { submission: inserted, replacesGraded };
      });
      await startTextExtraction(ctx, submission.fileId);
      if (replacesGraded) await refreshAfterGradedAnswerReplaced(ctx, scope.question.id);
      return {
        submission,
        student: person(student),
        uploadedBy: person(uploader),
        versionCount: submission.version,
        extraction: { status: 'queued', error: null },
      };
    } catch (error) {
      if (attempt >= MAX_VERSION_ATTEMPTS || !isUniqueViolation(error)) throw error;
    }
  }
}

async function checkResubmissionAllowed(db: Db, scope: QuestionScope, studentId: string): Promise<void> {
  const newestGradeAt = await selectNewestGradeAtOfAnswer(db, scope.question.id, studentId);
  const newestReopeningAt = await selectNewestReopeningAt(db, scope.question.id, studentId);
  if (!canResubmit({ allowsResubmission: scope.assignment.allowsResubmission, newestGradeAt, newestReopeningAt })) {
    throw conflict(RESUBMISSION_REFUSED_MESSAGE);
  }
}

/**
 * Every version is kept (a file and a row each), so one student could otherwise fill the disk with
 * one question. MAX_SUBMISSION_VERSIONS per student and question is far above honest use.
 */
function refuseVersionBeyondCap(ctx: AppContext, nextVersion: number, student: UserRow, uploader: UserRow): void {
  const cap = ctx.config.maxSubmissionVersions;
  if (nextVersion <= cap) return;
  throw conflict(
    student.id === uploader.id
      ? `You have already submitted ${cap} versions of this answer, the most allowed. Your latest version is kept; ask your instructor if you need to replace it.`
      : `${student.name} already has ${cap} versions of this answer, the most allowed. Their latest version is kept.`,
  );
}

/**
 * Sends the extract-text job of a stored submission. The queued row is already committed, so a
 * send that fails (the queue is stopping, or this process runs without one) loses nothing: every
 * queued row gets its job at the next boot (jobs/job-queue.ts). The upload itself has succeeded.
 */
async function startTextExtraction(ctx: AppContext, fileId: string): Promise<void> {
  if (!ctx.jobs) return;
  try {
    await ctx.jobs.send(extractTextJob, { id: fileId });
  } catch (error) {
    ctx.log.warn({ err: error, fileId }, 'could not send the extract-text job; it is sent again at the next start');
  }
}

function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
