import { and, eq, getTableColumns, inArray, notInArray, or, sql } from 'drizzle-orm';
import { anyOf, anyOfPlaceholder } from './any-of.ts';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { fileExtractions } from '../db/schema.ts';

export type FileExtractionRow = typeof fileExtractions.$inferSelect;
export type NewFileExtractionRow = typeof fileExtractions.$inferInsert;

export async function selectFileExtraction(db: Db, fileId: string): Promise<FileExtractionRow | undefined> {
  const [row] = await db.select().from(fileExtractions).where(eq(fileExtractions.fileId, fileId)).limit(1);
  return row;
}

/** An extraction as lists show it: without `pages`, the text again page by page, which lists never read. */
export type FileExtractionListRow = Omit<FileExtractionRow, 'pages'>;
const { pages: _pages, ...extractionListColumns } = getTableColumns(fileExtractions);

/**
 * Where reading a file stands, as a row of the staff table shows it (decision 0057): its state and
 * whether text was kept hidden, not the text or the findings (an answer's text is most of its bytes).
 */
export interface FileExtractionState extends Pick<FileExtractionRow, 'fileId' | 'status' | 'error'> {
  hasHiddenText: boolean;
}

/**
 * The columns of an extraction a question page's read takes, as a value its caller passes
 * (decision 0084): a row of the whole list and a student's own row read the text
 * (`EXTRACTION_LISTED`), a row of a page of the staff table only its state (`EXTRACTION_STATE`).
 */
export const EXTRACTION_LISTED = { name: 'extraction_listed', columns: extractionListColumns } as const;
export const EXTRACTION_STATE = {
  name: 'extraction_state',
  columns: {
    fileId: fileExtractions.fileId,
    status: fileExtractions.status,
    error: fileExtractions.error,
    hasHiddenText: sql<boolean>`jsonb_array_length(${fileExtractions.hiddenText}) > 0`,
  },
} as const;
export type ExtractionColumns = typeof EXTRACTION_LISTED | typeof EXTRACTION_STATE;
/** The extraction a read with these columns gives. */
export type ExtractionOf<Columns extends ExtractionColumns> = Columns extends typeof EXTRACTION_LISTED
  ? FileExtractionListRow
  : FileExtractionState;

// Read by every question page: prepared (db/prepared.ts, issue 11), one statement per column set.
function prepareExtractionsOfFiles<Columns extends ExtractionColumns['columns']>(
  db: Db,
  name: string,
  columns: Columns,
) {
  return db
    .select(columns)
    .from(fileExtractions)
    .where(anyOfPlaceholder(fileExtractions.fileId, 'fileIds'))
    .prepare(name);
}
const extractionsOfFiles = {
  [EXTRACTION_LISTED.name]: preparedPerDb((db) =>
    prepareExtractionsOfFiles(db, 'file_extractions_of_files', EXTRACTION_LISTED.columns),
  ),
  [EXTRACTION_STATE.name]: preparedPerDb((db) =>
    prepareExtractionsOfFiles(db, 'file_extraction_states_of_files', EXTRACTION_STATE.columns),
  ),
};

/** The extraction of each given file that has one, with the given columns, by file id. */
export async function selectFileExtractions<Columns extends ExtractionColumns>(
  db: Db,
  columns: Columns,
  fileIds: string[],
): Promise<Map<string, ExtractionOf<Columns>>> {
  if (fileIds.length === 0) return new Map();
  const rows = await extractionsOfFiles[columns.name](db).execute({ fileIds });
  // The statement of `columns.name` selects exactly `columns`: its rows are this set's extractions.
  return new Map(rows.map((row) => [row.fileId, row as ExtractionOf<Columns>]));
}

export const UNFINISHED_EXTRACTION_STATUSES = ['queued', 'reading'] as const;

/** A submission's file, in the transaction that stores the submission: its extract-text job reads it. */
export async function insertQueuedFileExtraction(db: Db, fileId: string): Promise<void> {
  await db.insert(fileExtractions).values({ fileId, status: 'queued' }).onConflictDoNothing();
}

/**
 * Marks a file as being read, creating its row if needed. A finished row is left alone: a success,
 * or a failure whose code is in `keepFailedCodes` (a file fault, never read again).
 */
export async function claimFileExtraction(db: Db, fileId: string, keepFailedCodes: readonly string[]): Promise<void> {
  await db
    .insert(fileExtractions)
    .values({ fileId, status: 'reading' })
    .onConflictDoUpdate({
      target: fileExtractions.fileId,
      set: { status: 'reading', finishedAt: null },
      setWhere: or(
        inArray(fileExtractions.status, [...UNFINISHED_EXTRACTION_STATUSES]),
        and(
          eq(fileExtractions.status, 'failed'),
          sql`${fileExtractions.errorCode} IS NOT NULL`,
          notInArray(fileExtractions.errorCode, [...keepFailedCodes]),
        ),
      ),
    });
}

/**
 * Stores a finished read (text, or the failure and its code) and answers the row as stored: a
 * success stored meanwhile by another reader wins over this one, whatever this one found.
 */
export async function finishFileExtraction(db: Db, row: NewFileExtractionRow): Promise<FileExtractionRow> {
  const { fileId, ...values } = row;
  const [stored] = await db
    .insert(fileExtractions)
    .values({ ...row, finishedAt: new Date() })
    .onConflictDoUpdate({
      target: fileExtractions.fileId,
      set: { ...values, error: row.error ?? null, errorCode: row.errorCode ?? null, finishedAt: new Date() },
      setWhere: sql`${fileExtractions.status} <> 'succeeded'`,
    })
    .returning();
  // Nothing comes back only when the success stored meanwhile was kept: that row is the answer.
  return stored ?? (await selectFileExtraction(db, fileId))!;
}

/** A failed extract-text attempt (not a failure of the file): final, it is 'failed'; otherwise queued for its retry. */
export async function recordFileExtractionFailure(
  db: Db,
  fileId: string,
  failure: { code: string; message: string },
  isFinal: boolean,
): Promise<void> {
  await db
    .update(fileExtractions)
    .set({
      error: failure.message,
      errorCode: failure.code,
      status: isFinal ? 'failed' : 'queued',
      finishedAt: isFinal ? new Date() : null,
    })
    .where(
      and(eq(fileExtractions.fileId, fileId), inArray(fileExtractions.status, [...UNFINISHED_EXTRACTION_STATUSES])),
    );
}

export async function selectUnfinishedFileExtractionIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ fileId: fileExtractions.fileId })
    .from(fileExtractions)
    .where(inArray(fileExtractions.status, [...UNFINISHED_EXTRACTION_STATUSES]))
    .orderBy(fileExtractions.createdAt);
  return rows.map((row) => row.fileId);
}

/** file id -> whether its text was read, without the (possibly large) text itself. */
export async function selectExtractionStatuses(
  db: Db,
  fileIds: string[],
): Promise<Map<string, FileExtractionRow['status']>> {
  if (fileIds.length === 0) return new Map();
  const rows = await db
    .select({ fileId: fileExtractions.fileId, status: fileExtractions.status })
    .from(fileExtractions)
    .where(anyOf(fileExtractions.fileId, fileIds));
  return new Map(rows.map((row) => [row.fileId, row.status]));
}

/** file id -> extracted text, for the files whose extraction succeeded. */
export async function selectExtractedTexts(db: Db, fileIds: string[]): Promise<Map<string, string>> {
  if (fileIds.length === 0) return new Map();
  const rows = await db
    .select({ fileId: fileExtractions.fileId, text: fileExtractions.text })
    .from(fileExtractions)
    .where(and(anyOf(fileExtractions.fileId, fileIds), eq(fileExtractions.status, 'succeeded')));
  return new Map(rows.map((row) => [row.fileId, row.text]));
}
