import { z } from 'zod';
import { IMAGE_MIME_TYPES, PDF_MIME_TYPE } from '@gradewise/shared/contracts/files';

/**
 * Form schemas for picked files. They check what the browser can tell from the name and claimed
 * type, so a person who picked the wrong file hears it at once; the server still decides from the
 * content (magic bytes) and refuses anything else with its own message.
 */
const hasExtension = (file: File, extensions: readonly string[]) =>
  extensions.some((extension) => file.name.toLowerCase().endsWith(extension));

export const isPdfFile = (file: File) => file.type === PDF_MIME_TYPE || hasExtension(file, ['.pdf']);
export const isImageFile = (file: File) =>
  (IMAGE_MIME_TYPES as readonly string[]).includes(file.type) ||
  hasExtension(file, ['.png', '.jpg', '.jpeg', '.webp', '.gif']);
export const isSpreadsheetFile = (file: File) => hasExtension(file, ['.xlsx', '.xls']);

export const NOT_A_PDF_MESSAGE = 'Please choose a PDF file.';
export const NOT_AN_IMAGE_MESSAGE = 'Please choose an image (PNG, JPEG, WebP or GIF).';
export const NOT_A_SPREADSHEET_MESSAGE = 'Please choose an Excel file (.xlsx or .xls).';

/** A PDF the form cannot be sent without; `missingMessage` is the spec's text for that field. */
export const requiredPdf = (missingMessage: string) =>
  z.instanceof(File, { error: missingMessage }).refine(isPdfFile, NOT_A_PDF_MESSAGE);

export const optionalPdf = () => z.instanceof(File).refine(isPdfFile, NOT_A_PDF_MESSAGE).optional();

export const optionalImage = () => z.instanceof(File).refine(isImageFile, NOT_AN_IMAGE_MESSAGE).optional();

export const requiredSpreadsheet = (missingMessage: string) =>
  z.instanceof(File, { error: missingMessage }).refine(isSpreadsheetFile, NOT_A_SPREADSHEET_MESSAGE);
