import type {
  ExtractionStatus,
  SubmissionForStaff,
  SubmissionForStudent,
  SubmissionVersion,
} from '@gradewise/shared/contracts/submissions';
import type { FileExtractionRow } from '../models/file-extractions.ts';
import type { SubmissionListRow } from '../models/submissions.ts';
import type { StudentIdentities } from '../services/anonymous-grading.ts';
import type { FileUrlSigner } from '../storage/file-url-signer.ts';

/**
 * Submission rows -> contract outputs, per role. Each function signs only the file of the row it
 * is given, and the loaders only give a student their own rows, so a student can never receive a
 * link to a classmate's answer. Grade fields join these outputs later (grading presenters extend them).
 */
function presentSubmissionBase(row: SubmissionListRow, signer: FileUrlSigner) {
  return {
    _id: row.submission.id,
    file: signer.urlFor(row.submission.fileId),
    isLate: row.submission.isLate,
    version: row.submission.version,
    submittedAt: row.submission.submittedAt.toISOString(),
    ...presentExtractionState(row.extraction),
  };
}

const EXTRACTION_STATUS: Record<FileExtractionRow['status'], ExtractionStatus> = {
  queued: 'queued',
  reading: 'reading',
  succeeded: 'done',
  failed: 'failed',
};

/** The optional extraction fields; none for a file that has no extraction row (stored before extraction at submission). */
export function presentExtractionState(extraction: Pick<FileExtractionRow, 'status' | 'error'> | undefined): {
  extractionStatus?: ExtractionStatus;
  extractionError?: string | null;
} {
  if (!extraction) return {};
  const extractionStatus = EXTRACTION_STATUS[extraction.status];
  return { extractionStatus, extractionError: extractionStatus === 'failed' ? (extraction.error ?? null) : null };
}

export function presentSubmissionForStudent(row: SubmissionListRow, signer: FileUrlSigner): SubmissionForStudent {
  return { ...presentSubmissionBase(row, signer), student: { _id: row.student.id, name: row.student.name } };
}

/** Staff see the student as `identities` says: named, or "Student N" on an anonymous assignment. */
export function presentSubmissionForStaff(
  row: SubmissionListRow,
  signer: FileUrlSigner,
  identities: StudentIdentities,
): SubmissionForStaff {
  return {
    ...presentSubmissionBase(row, signer),
    student: identities.person(row.student),
    versions: row.versionCount,
    uploadedBy: identities.uploader(row.uploadedBy, row.student.id),
  };
}

export function presentSubmissionVersion(
  row: SubmissionListRow,
  signer: FileUrlSigner,
  identities: StudentIdentities,
): SubmissionVersion {
  return { ...presentSubmissionBase(row, signer), uploadedBy: identities.uploader(row.uploadedBy, row.student.id) };
}
