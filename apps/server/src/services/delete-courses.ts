import { inArray } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { courses } from '../db/schema.ts';
import { deleteFilesNoRowNames, selectFileIdsOfCourses } from '../models/files.ts';

/**
 * Deletes courses with everything in them, stored files included (decision 0081). The rows go
 * first, in one transaction: the courses (their assignments, questions and submissions cascade),
 * then the file rows nothing names any more. The objects are removed only after that commits, so
 * no row can ever name an object already gone; an object whose removal fails (the storage is down)
 * is named by no row, and the orphan sweep (services/sweep-orphan-files.ts) removes it later.
 */
export async function deleteCourses(ctx: AppContext, courseIds: string[]): Promise<void> {
  if (courseIds.length === 0) return;
  const storageKeys = await ctx.db.transaction(async (tx) => {
    const fileIds = await selectFileIdsOfCourses(tx, courseIds);
    await tx.delete(courses).where(inArray(courses.id, courseIds));
    return deleteFilesNoRowNames(tx, fileIds);
  });
  await removeStoredFiles(ctx, storageKeys);
}

/** Removes objects whose rows are already gone; one that cannot be removed now is left for the sweep. */
async function removeStoredFiles(ctx: AppContext, storageKeys: string[]): Promise<void> {
  for (const storageKey of storageKeys) {
    await ctx.storage.delete(storageKey).catch((error: unknown) => {
      ctx.log.warn(
        { err: error, storageKey },
        `the stored file ${storageKey} of a deleted course could not be removed now; no row names it, so the orphan sweep removes it later`,
      );
    });
  }
}
