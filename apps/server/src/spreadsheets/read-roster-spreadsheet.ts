import * as XLSX from '@e965/xlsx';
import { MAX_ROSTER_ENTRIES } from '@gradewise/shared/contracts/courses';
import { payloadTooLarge, unsupportedFile } from '../lib/errors.ts';
import { ROSTER_SPREADSHEET_LIMITS, type SpreadsheetLimits } from './spreadsheet-limits.ts';
import { checkZipWithinLimits, ZipRejected } from './zip-guard.ts';

/**
 * Reads the email addresses out of a roster spreadsheet (.xlsx or .xls): every cell of every sheet
 * that holds something shaped like an email, wherever it is (with or without a header row, in any
 * column, several per cell separated by commas or semicolons, or as a mailto: link).
 *
 * Limits hold before the parser runs: the upload size (multipart, per route), the zip's unpacked
 * size and entry count, and the worksheet rows, cells and columns (zip-guard.ts). Legacy .xls files
 * are OLE containers, not zips; they are capped by their size, which is small, by `sheetRows`, and
 * by the sheet's range (`!ref`), checked before any cell is visited.
 *
 * This is CPU work on untrusted input: the server runs it on a thread of its own, with a time and
 * memory limit (read-spreadsheet-off-thread.ts), never on the thread that answers requests.
 */
export { ROSTER_SPREADSHEET_LIMITS, type SpreadsheetLimits } from './spreadsheet-limits.ts';

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const hasMagic = (content: Buffer, magic: number[]) => magic.every((byte, index) => content[index] === byte);

export function readEmailsFromSpreadsheet(
  content: Buffer,
  limits: SpreadsheetLimits = ROSTER_SPREADSHEET_LIMITS,
): string[] {
  if (content.length > limits.maxFileBytes) {
    throw payloadTooLarge(
      `The spreadsheet is too large (at most ${Math.floor(limits.maxFileBytes / (1024 * 1024))} MB).`,
    );
  }
  const isZip = hasMagic(content, ZIP_MAGIC);
  // Checked by content: SheetJS would happily read a text file as CSV, which is not what was asked for.
  if (!isZip && !hasMagic(content, OLE_MAGIC)) {
    throw unsupportedFile('This file is not an Excel spreadsheet. Please upload an .xlsx or .xls file.');
  }
  if (isZip) guardZip(content, limits);

  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(content, {
      type: 'buffer',
      dense: true,
      // One row more than allowed: seeing it means the sheet is too long (see `!fullref` below).
      sheetRows: limits.maxRows + 1,
      cellFormula: false,
      cellHTML: false,
      cellNF: false,
      cellStyles: false,
      cellDates: false,
      bookVBA: false,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : '';
    if (/password|encrypt/i.test(reason)) {
      throw unsupportedFile('This spreadsheet is password-protected. Please remove the password and upload it again.');
    }
    throw unsupportedFile(
      'The spreadsheet could not be read. It may be damaged: please save it again as .xlsx or .xls and retry.',
    );
  }

  const emails: string[] = [];
  let rowCount = 0;
  for (const sheetName of workbook.SheetNames) {
    const sheet = workbook.Sheets[sheetName];
    if (!sheet) continue;
    // SheetJS sets !fullref when sheetRows cut the sheet short: the sheet is longer than allowed.
    const rows = sheet['!data'] ?? [];
    rowCount += rows.length;
    if (sheet['!fullref'] || rowCount > limits.maxRows) throw tooManyRows(limits.maxRows);
    // Before any cell is visited: a row array is as long as the sheet is wide, holes included.
    if (sheet['!ref'] && XLSX.utils.decode_range(sheet['!ref']).e.c + 1 > limits.maxColumns) {
      throw tooWide(limits.maxColumns);
    }
    for (const row of rows) {
      for (const cell of row ?? []) {
        if (!cell) continue;
        if (typeof cell.v === 'string') emails.push(...emailLikeTokens(cell.v));
        const target = cell.l?.Target;
        if (typeof target === 'string' && /^mailto:/i.test(target)) emails.push(...emailLikeTokens(target));
      }
    }
    if (emails.length > MAX_ROSTER_ENTRIES * 2) break; // far over the cap already: stop reading
  }
  return emails;
}

function guardZip(content: Buffer, limits: SpreadsheetLimits): void {
  try {
    checkZipWithinLimits(content, limits);
  } catch (error) {
    if (!(error instanceof ZipRejected)) throw error;
    const { problem } = error;
    switch (problem.kind) {
      case 'too-large':
        throw payloadTooLarge(
          `The spreadsheet is too large once unpacked (at most ${Math.floor(limits.maxUncompressedBytes / (1024 * 1024))} MB): ${problem.detail}.`,
        );
      case 'too-many-rows':
        throw tooManyRows(limits.maxRows);
      case 'too-wide':
        throw tooWide(limits.maxColumns);
      case 'too-many-cells':
        throw payloadTooLarge(
          `The spreadsheet has too many filled cells (at most ${limits.maxCells.toLocaleString('en-US')}). Please keep only the columns with email addresses.`,
        );
      case 'encrypted':
        throw unsupportedFile(
          'This spreadsheet is password-protected. Please remove the password and upload it again.',
        );
      case 'damaged':
        throw unsupportedFile(
          'The spreadsheet could not be read. It may be damaged: please save it again as .xlsx or .xls and retry.',
        );
    }
  }
}

const tooManyRows = (maxRows: number) => payloadTooLarge(`The spreadsheet has too many rows (at most ${maxRows}).`);

const tooWide = (maxColumns: number) =>
  payloadTooLarge(
    `The spreadsheet uses too many columns (at most ${maxColumns}, up to column ${XLSX.utils.encode_col(maxColumns - 1)}). Please keep only the columns with email addresses.`,
  );

/** Pieces of a cell that contain an @: each is an entry (validated as an email later, or rejected). */
function emailLikeTokens(text: string): string[] {
  return text
    .split(/[\s,;<>()"'[\]]+/)
    .map((token) => token.replace(/^mailto:/i, '').replace(/[.:]+$/, ''))
    .filter((token) => token.includes('@'));
}
