import { IMAGE_MIME_TYPES, PDF_MIME_TYPE, type ImageMimeType } from '@gradewise/shared/contracts/files';
import { unsupportedFile } from '../lib/errors.ts';
import type { UploadBytes } from './upload-bytes.ts';

/**
 * Decides what an upload is from its bytes. The client's filename and claimed content type are
 * never trusted: a text file renamed .pdf is refused here, and a stored file is always served with
 * the type found here.
 */

export type FileKind = 'course-image' | 'syllabus' | 'question' | 'solution' | 'submission';

/** A file as it arrived in a request, before any check (its bytes wait in a temporary file, storage/upload-bytes.ts). */
export interface UploadedFile {
  bytes: UploadBytes;
  /** The browser's name for it: metadata only, never used for storage or type detection. */
  filename: string;
}

/** An upload that passed its content check, ready for `storeFilesThen`. */
export interface CheckedFile {
  kind: FileKind;
  bytes: UploadBytes;
  mimeType: string;
  sha256: string;
  /** Kept as metadata only (shown nowhere as a path); storage keys are random. */
  originalName: string | null;
}

const startsWith = (content: Buffer, bytes: number[], offset = 0) =>
  content.length >= offset + bytes.length && bytes.every((byte, index) => content[offset + index] === byte);

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

export function sniffImageType(content: Buffer): ImageMimeType | null {
  if (startsWith(content, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(content, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(content, ascii('RIFF')) && startsWith(content, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(content, ascii('GIF87a')) || startsWith(content, ascii('GIF89a'))) return 'image/gif';
  return null;
}

/** How far from its end a PDF's end-of-file marker may be. */
const PDF_TAIL_BYTES = 1024;

/**
 * A PDF starts with `%PDF-` and has an end-of-file marker near its end. The second check refuses
 * truncated uploads (an interrupted copy) that a viewer or the grader would choke on later.
 * Only the first bytes and the last kilobyte are read, not the whole file.
 */
export async function isPdf(bytes: UploadBytes): Promise<boolean> {
  if (!startsWith(await bytes.slice(0, 5), ascii('%PDF-'))) return false;
  const tailStart = Math.max(0, bytes.size - PDF_TAIL_BYTES);
  const tail = (await bytes.slice(tailStart, bytes.size - tailStart)).toString('latin1');
  return tail.includes('%%EOF');
}

function describe(kind: FileKind): string {
  return {
    'course-image': 'The course image',
    syllabus: 'The syllabus',
    question: 'The question file',
    solution: 'The solution file',
    submission: 'The file',
  }[kind];
}

export async function checkPdf(kind: FileKind, bytes: UploadBytes, originalName: string | null): Promise<CheckedFile> {
  if (bytes.size === 0) throw unsupportedFile(`${describe(kind)} is empty.`);
  if (!(await isPdf(bytes))) throw unsupportedFile(`${describe(kind)} is not a valid PDF. Please choose a PDF file.`);
  return toCheckedFile(kind, bytes, PDF_MIME_TYPE, originalName);
}

/** The longest signature `sniffImageType` looks at (WebP: RIFF, four bytes of size, WEBP). */
const IMAGE_SIGNATURE_BYTES = 12;

export async function checkImage(
  kind: FileKind,
  bytes: UploadBytes,
  originalName: string | null,
): Promise<CheckedFile> {
  if (bytes.size === 0) throw unsupportedFile(`${describe(kind)} is empty.`);
  const mimeType = sniffImageType(await bytes.slice(0, IMAGE_SIGNATURE_BYTES));
  // SVG is deliberately not accepted: it can carry scripts.
  if (!mimeType || !IMAGE_MIME_TYPES.includes(mimeType)) {
    throw unsupportedFile(`${describe(kind)} must be a PNG, JPEG, WebP or GIF image.`);
  }
  return toCheckedFile(kind, bytes, mimeType, originalName);
}

function toCheckedFile(kind: FileKind, bytes: UploadBytes, mimeType: string, originalName: string | null): CheckedFile {
  return {
    kind,
    bytes,
    mimeType,
    sha256: bytes.sha256,
    originalName: originalName ? cleanName(originalName) : null,
  };
}

/** Printable, bounded, no path parts: the name is only ever metadata. */
function cleanName(name: string): string | null {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = [...base]
    .filter((char) => char.charCodeAt(0) > 0x1f && char.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .slice(0, 255);
  return cleaned.length > 0 ? cleaned : null;
}
