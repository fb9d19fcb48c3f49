import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { files } from '../db/schema.ts';

export type FileRow = typeof files.$inferSelect;
export type NewFileRow = typeof files.$inferInsert;

export async function insertFiles(db: Db, rows: NewFileRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(files).values(rows);
}

export async function selectFileById(db: Db, id: string): Promise<FileRow | undefined> {
  const [row] = await db.select().from(files).where(eq(files.id, id)).limit(1);
  return row;
}

/** Which of these storage keys some file row names (the orphan sweep keeps those). */
export async function selectReferencedStorageKeys(db: Db, storageKeys: string[]): Promise<Set<string>> {
  if (storageKeys.length === 0) return new Set();
  const rows = await db
    .select({ storageKey: files.storageKey })
    .from(files)
    .where(inArray(files.storageKey, storageKeys));
  return new Set(rows.map((row) => row.storageKey));
}

/** A page of the rows whose blob is still on local disk, in id order after `afterId`. */
export async function selectLocalFiles(db: Db, afterId: string | undefined, limit: number): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(afterId ? and(eq(files.location, 'local'), gt(files.id, afterId)) : eq(files.location, 'local'))
    .orderBy(asc(files.id))
    .limit(limit);
}

/** Switches a row to the bucket once its copy there is verified; false when another run switched it first. */
export async function markFileInBucket(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(files)
    .set({ location: 's3' })
    .where(and(eq(files.id, id), eq(files.location, 'local')))
    .returning({ id: files.id });
  return rows.length === 1;
}
