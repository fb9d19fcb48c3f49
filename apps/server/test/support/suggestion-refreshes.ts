import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { suggestionRefreshes } from '../../src/db/schema.ts';
import type { TestApp } from './test-app.ts';

/** The question's refreshes of suggestions, oldest first. */
export function refreshesOf(t: TestApp, questionId: string) {
  return t.ctx.db
    .select()
    .from(suggestionRefreshes)
    .where(eq(suggestionRefreshes.questionId, questionId))
    .orderBy(suggestionRefreshes.createdAt);
}

/**
 * Waits (woken as the queue settles each row) until every refresh of the question has finished,
 * each successfully; returns them.
 */
export async function refreshesFinished(t: TestApp, questionId: string) {
  for (const { id } of await refreshesOf(t, questionId)) {
    const row = await t.ctx.jobs!.waitFor(
      id,
      async () => {
        const [current] = await t.ctx.db.select().from(suggestionRefreshes).where(eq(suggestionRefreshes.id, id));
        return current && (current.status === 'succeeded' || current.status === 'failed') ? current : undefined;
      },
      { timeoutMs: 120_000, pollMs: 200 },
    );
    expect(row?.status).toBe('succeeded');
  }
  return refreshesOf(t, questionId);
}
