import { inflateRawSync } from 'node:zlib';

/**
 * Checks a zip container (.xlsx is one) before any spreadsheet library touches it, so a zip bomb
 * costs us at most `maxUncompressedBytes` of memory and never reaches the parser:
 * 1. the central directory's declared sizes must add up to at most the cap (cheap, no inflation);
 * 2. every entry is then inflated for real with the remaining budget as a hard output limit, and
 *    must inflate to exactly its declared size, so a directory that lies about sizes is refused too.
 * Worksheet rows, cells and the columns they use (cell references and the `<dimension>` element)
 * are counted on the way, so these caps hold before parsing too: 10,000 rows of one cell at column
 * XFD are a 52 KB file that SheetJS turns into 10,000 rows 16,384 cells wide.
 */
export interface ZipLimits {
  maxEntries: number;
  maxUncompressedBytes: number;
  maxRows: number;
  /** Highest column a worksheet may use (1 = A). A cell far to the right makes every row that wide once parsed. */
  maxColumns: number;
  /** Cells in all worksheets together. */
  maxCells: number;
}

export type ZipProblem =
  | { kind: 'damaged'; detail: string }
  | { kind: 'too-large'; detail: string }
  | { kind: 'too-many-rows'; rows: number }
  | { kind: 'too-wide'; columns: number }
  | { kind: 'too-many-cells'; cells: number }
  | { kind: 'encrypted' };

export class ZipRejected extends Error {
  constructor(readonly problem: ZipProblem) {
    super(problem.kind);
  }
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const ZIP64_MARKER = 0xffffffff;

interface CentralEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

export interface ZipSummary {
  entries: number;
  uncompressedBytes: number;
  worksheetRows: number;
  worksheetCells: number;
}

export function checkZipWithinLimits(zip: Buffer, limits: ZipLimits): ZipSummary {
  const entries = readCentralDirectory(zip, limits);
  const declared = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (declared > limits.maxUncompressedBytes) {
    throw new ZipRejected({ kind: 'too-large', detail: `it declares ${declared} bytes once unpacked` });
  }

  let budget = limits.maxUncompressedBytes;
  let worksheetRows = 0;
  let worksheetCells = 0;
  for (const entry of entries) {
    if (entry.flags & 0x1) throw new ZipRejected({ kind: 'encrypted' });
    const content = inflateEntry(zip, entry, budget);
    budget -= content.length;
    if (/^xl\/worksheets\/[^/]+\.xml$/i.test(entry.name)) {
      const shape = measureWorksheet(content);
      worksheetRows += shape.rows;
      worksheetCells += shape.cells;
      if (worksheetRows > limits.maxRows || shape.declaredRows > limits.maxRows) {
        throw new ZipRejected({ kind: 'too-many-rows', rows: Math.max(worksheetRows, shape.declaredRows) });
      }
      if (shape.columns > limits.maxColumns) throw new ZipRejected({ kind: 'too-wide', columns: shape.columns });
      if (worksheetCells > limits.maxCells) throw new ZipRejected({ kind: 'too-many-cells', cells: worksheetCells });
    }
  }
  return {
    entries: entries.length,
    uncompressedBytes: limits.maxUncompressedBytes - budget,
    worksheetRows,
    worksheetCells,
  };
}

function readCentralDirectory(zip: Buffer, limits: ZipLimits): CentralEntry[] {
  const eocd = findEndOfCentralDirectory(zip);
  const totalEntries = zip.readUInt16LE(eocd + 10);
  const directorySize = zip.readUInt32LE(eocd + 12);
  const directoryOffset = zip.readUInt32LE(eocd + 16);
  // Zip64 is only needed for archives far beyond any roster: refuse it rather than parse it.
  if (totalEntries === 0xffff || directorySize === ZIP64_MARKER || directoryOffset === ZIP64_MARKER) {
    throw new ZipRejected({ kind: 'too-large', detail: 'it is a Zip64 archive' });
  }
  if (totalEntries > limits.maxEntries) {
    throw new ZipRejected({ kind: 'too-large', detail: `it holds ${totalEntries} files` });
  }
  if (directoryOffset + directorySize > eocd)
    throw new ZipRejected({ kind: 'damaged', detail: 'central directory out of bounds' });

  const entries: CentralEntry[] = [];
  let position = directoryOffset;
  for (let index = 0; index < totalEntries; index += 1) {
    if (position + 46 > eocd || zip.readUInt32LE(position) !== CENTRAL_SIGNATURE) {
      throw new ZipRejected({ kind: 'damaged', detail: 'bad central directory entry' });
    }
    const nameLength = zip.readUInt16LE(position + 28);
    const extraLength = zip.readUInt16LE(position + 30);
    const commentLength = zip.readUInt16LE(position + 32);
    const entry: CentralEntry = {
      flags: zip.readUInt16LE(position + 8),
      method: zip.readUInt16LE(position + 10),
      compressedSize: zip.readUInt32LE(position + 20),
      uncompressedSize: zip.readUInt32LE(position + 24),
      localHeaderOffset: zip.readUInt32LE(position + 42),
      name: zip.toString('utf8', position + 46, position + 46 + nameLength),
    };
    if (
      entry.compressedSize === ZIP64_MARKER ||
      entry.uncompressedSize === ZIP64_MARKER ||
      entry.localHeaderOffset === ZIP64_MARKER
    ) {
      throw new ZipRejected({ kind: 'too-large', detail: 'it uses Zip64 sizes' });
    }
    entries.push(entry);
    position += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function findEndOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  const lowest = Math.max(0, zip.length - 22 - 0xffff);
  for (let position = zip.length - 22; position >= lowest; position -= 1) {
    if (zip.readUInt32LE(position) === EOCD_SIGNATURE) return position;
  }
  throw new ZipRejected({ kind: 'damaged', detail: 'no end of central directory' });
}

function inflateEntry(zip: Buffer, entry: CentralEntry, budget: number): Buffer {
  const local = entry.localHeaderOffset;
  if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_SIGNATURE) {
    throw new ZipRejected({ kind: 'damaged', detail: `bad local header for ${entry.name}` });
  }
  const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  const dataEnd = dataStart + entry.compressedSize;
  if (dataEnd > zip.length) throw new ZipRejected({ kind: 'damaged', detail: `${entry.name} is truncated` });
  const data = zip.subarray(dataStart, dataEnd);

  let content: Buffer;
  if (entry.method === 0) {
    content = data;
  } else if (entry.method === 8) {
    try {
      // The hard limit: inflation stops at the budget, whatever the archive claims.
      content = inflateRawSync(data, { maxOutputLength: Math.max(1, budget) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
        throw new ZipRejected({ kind: 'too-large', detail: `${entry.name} unpacks beyond the limit` });
      }
      throw new ZipRejected({ kind: 'damaged', detail: `${entry.name} does not inflate` });
    }
  } else {
    throw new ZipRejected({ kind: 'damaged', detail: `${entry.name} uses compression method ${entry.method}` });
  }
  if (content.length > budget)
    throw new ZipRejected({ kind: 'too-large', detail: `${entry.name} unpacks beyond the limit` });
  if (content.length !== entry.uncompressedSize) {
    throw new ZipRejected({ kind: 'damaged', detail: `${entry.name} does not match its declared size` });
  }
  return content;
}

interface WorksheetShape {
  /** `<row>` elements. */
  rows: number;
  /** `<c>` elements. */
  cells: number;
  /** The rightmost column any cell reference or the `<dimension>` names (1 = A). */
  columns: number;
  /** The last row the `<dimension>` names (SheetJS sizes the sheet by it). */
  declaredRows: number;
}

/** Counts `<row>` and `<c>` elements (with or without a namespace prefix) and the columns in use. */
function measureWorksheet(xml: Buffer): WorksheetShape {
  const text = xml.toString('latin1');
  const shape: WorksheetShape = { rows: 0, cells: 0, columns: 0, declaredRows: 0 };
  const rowPattern = /<(?:[A-Za-z_][\w.-]*:)?row[\s>/]/g;
  while (rowPattern.exec(text)) shape.rows += 1;
  // A cell's own reference (r="XFD10000"); cells without one follow the previous cell, so the
  // cell count bounds how far right they can reach.
  const cellPattern = /<(?:[A-Za-z_][\w.-]*:)?c(?=[\s>/])([^>]*)/g;
  for (let match = cellPattern.exec(text); match; match = cellPattern.exec(text)) {
    shape.cells += 1;
    const reference = /\sr\s*=\s*["']\$?([A-Za-z]{1,4})\$?\d/.exec(match[1] ?? '');
    if (reference) shape.columns = Math.max(shape.columns, columnNumber(reference[1]!));
  }
  const dimension = /<(?:[A-Za-z_][\w.-]*:)?dimension\s[^>]*?\bref\s*=\s*["']([^"']+)["']/.exec(text);
  for (const corner of dimension?.[1]?.split(':') ?? []) {
    const parts = /^\$?([A-Za-z]{1,4})\$?(\d{1,8})$/.exec(corner.trim());
    if (!parts) continue;
    shape.columns = Math.max(shape.columns, columnNumber(parts[1]!));
    shape.declaredRows = Math.max(shape.declaredRows, Number(parts[2]));
  }
  return shape;
}

/** A = 1, Z = 26, AA = 27, XFD = 16384. */
export function columnNumber(letters: string): number {
  let number = 0;
  for (const letter of letters.toUpperCase()) number = number * 26 + (letter.charCodeAt(0) - 64);
  return number;
}
