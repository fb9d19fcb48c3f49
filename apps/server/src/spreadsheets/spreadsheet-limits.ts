import type { ZipLimits } from './zip-guard.ts';

/**
 * The limits of a roster spreadsheet, apart from the reader: the upload route and the thread
 * launcher need them on the server's thread, which must not load SheetJS (2 MB of source and
 * about 3 MB of heap kept for good) only to read these numbers; the reading itself runs on its
 * own thread (read-spreadsheet-off-thread.ts).
 */
export interface SpreadsheetLimits extends ZipLimits {
  maxFileBytes: number;
}

export const ROSTER_SPREADSHEET_LIMITS: SpreadsheetLimits = {
  maxFileBytes: 5 * 1024 * 1024,
  maxUncompressedBytes: 20 * 1024 * 1024,
  maxEntries: 200,
  maxRows: 10_000,
  // Excel 2003's own width (column IV): far more than any roster, and 10,000 rows of it are cheap to read.
  maxColumns: 256,
  maxCells: 200_000,
};
