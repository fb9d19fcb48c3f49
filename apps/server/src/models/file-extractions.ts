import { and, eq, inArray } from 'drizzle-orm';
import type { HiddenTextFinding } from '@gradewise/shared/contracts/grading';
import type { Db } from '../db/client.ts';
import { fileExtractions } from '../db/schema.ts';

export interface ExtractedPage {
  page: number;
  text: string;
  method: 'text-layer' | 'ocr';
  ocrConfidence?: number;
}

export type FileExtractionRow = Omit<typeof fileExtractions.$inferSelect, 'pages' | 'hiddenText'> & {
  pages: ExtractedPage[];
  hiddenText: HiddenTextFinding[];
};
export type NewFileExtractionRow = typeof fileExtractions.$inferInsert & {
  pages: ExtractedPage[];
  hiddenText: HiddenTextFinding[];
};

export async function selectFileExtraction(db: Db, fileId: string): Promise<FileExtractionRow | undefined> {
  const [row] = await db.select().from(fileExtractions).where(eq(fileExtractions.fileId, fileId)).limit(1);
  return row as FileExtractionRow | undefined;
}

export async function selectFileExtractions(db: Db, fileIds: string[]): Promise<Map<string, FileExtractionRow>> {
  if (fileIds.length === 0) return new Map();
  const rows = await db.select().from(fileExtractions).where(inArray(fileExtractions.fileId, fileIds));
  return new Map(rows.map((row) => [row.fileId, row as FileExtractionRow]));
}

/** One row per file: the first finished extraction wins; a concurrent duplicate is dropped. */
export async function insertFileExtraction(db: Db, row: NewFileExtractionRow): Promise<FileExtractionRow> {
  await db.insert(fileExtractions).values(row).onConflictDoNothing({ target: fileExtractions.fileId });
  return (await selectFileExtraction(db, row.fileId))!;
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
    .where(inArray(fileExtractions.fileId, fileIds));
  return new Map(rows.map((row) => [row.fileId, row.status]));
}

/** file id -> extracted text, for the files whose extraction succeeded. */
export async function selectExtractedTexts(db: Db, fileIds: string[]): Promise<Map<string, string>> {
  if (fileIds.length === 0) return new Map();
  const rows = await db
    .select({ fileId: fileExtractions.fileId, text: fileExtractions.text })
    .from(fileExtractions)
    .where(and(inArray(fileExtractions.fileId, fileIds), eq(fileExtractions.status, 'succeeded')));
  return new Map(rows.map((row) => [row.fileId, row.text]));
}
