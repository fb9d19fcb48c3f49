import { createHash } from 'node:crypto';
import { IMAGE_MIME_TYPES, PDF_MIME_TYPE, type ImageMimeType } from '@gradewise/shared/contracts/files';
import { unsupportedFile } from '../lib/errors.ts';

/**
 * Decides what an upload is from its bytes. The client's filename and claimed content type are
 * never trusted: a text file renamed .pdf is refused here, and a stored file is always served with
 * the type found here.
 */

export type FileKind = 'course-image' | 'syllabus' | 'question' | 'solution' | 'submission';

/** A file as it arrived in a request, before any check. */
export interface UploadedFile {
  content: Buffer;
  /** The browser's name for it: metadata only, never used for storage or type detection. */
  filename: string;
}

/** An upload that passed its content check, ready for `storeFilesThen`. */
export interface CheckedFile {
  kind: FileKind;
  content: Buffer;
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

/**
 * A PDF starts with `%PDF-` and has an end-of-file marker near its end. The second check refuses
 * truncated uploads (an interrupted copy) that a viewer or the grader would choke on later.
 */
export function isPdf(content: Buffer): boolean {
  if (!startsWith(content, ascii('%PDF-'))) return false;
  const tail = content.subarray(Math.max(0, content.length - 1024)).toString('latin1');
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

export function checkPdf(kind: FileKind, content: Buffer, originalName: string | null): CheckedFile {
  if (content.length === 0) throw unsupportedFile(`${describe(kind)} is empty.`);
  if (!isPdf(content)) throw unsupportedFile(`${describe(kind)} is not a valid PDF. Please choose a PDF file.`);
  return toCheckedFile(kind, content, PDF_MIME_TYPE, originalName);
}

export function checkImage(kind: FileKind, content: Buffer, originalName: string | null): CheckedFile {
  if (content.length === 0) throw unsupportedFile(`${describe(kind)} is empty.`);
  const mimeType = sniffImageType(content);
  // SVG is deliberately not accepted: it can carry scripts.
  if (!mimeType || !IMAGE_MIME_TYPES.includes(mimeType)) {
    throw unsupportedFile(`${describe(kind)} must be a PNG, JPEG, WebP or GIF image.`);
  }
  return toCheckedFile(kind, content, mimeType, originalName);
}

function toCheckedFile(kind: FileKind, content: Buffer, mimeType: string, originalName: string | null): CheckedFile {
  return {
    kind,
    content,
    mimeType,
    sha256: createHash('sha256').update(content).digest('hex'),
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
