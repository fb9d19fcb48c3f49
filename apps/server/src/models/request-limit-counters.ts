import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { requestLimitCounters } from '../db/schema.ts';

/**
 * One more request under `key` in its fixed window of `windowMs`: a window that has run out starts
 * over at this request. One statement (an upsert), so concurrent requests from several processes
 * each see the count the others committed. Answers the count and the milliseconds left in the window.
 */
export async function incrementRequestCounter(
  db: Db,
  key: string,
  windowMs: number,
): Promise<{ hits: number; msLeft: number }> {
  const window = sql`make_interval(secs => ${windowMs / 1000})`;
  const expired = sql`${requestLimitCounters.resetsAt} <= clock_timestamp()`;
  const [row] = await db
    .insert(requestLimitCounters)
    .values({ key, hits: 1, resetsAt: sql`clock_timestamp() + ${window}` })
    .onConflictDoUpdate({
      target: requestLimitCounters.key,
      set: {
        hits: sql`CASE WHEN ${expired} THEN 1 ELSE ${requestLimitCounters.hits} + 1 END`,
        resetsAt: sql`CASE WHEN ${expired} THEN clock_timestamp() + ${window} ELSE ${requestLimitCounters.resetsAt} END`,
      },
    })
    .returning({
      hits: requestLimitCounters.hits,
      msLeft: sql<number>`GREATEST(0, CEIL(EXTRACT(EPOCH FROM (${requestLimitCounters.resetsAt} - clock_timestamp())) * 1000))::integer`,
    });
  return { hits: row!.hits, msLeft: Number(row!.msLeft) };
}

/** Forgets windows that ran out before `before` (they would start over anyway). */
export async function deleteExpiredRequestCounters(db: Db, before: Date): Promise<void> {
  await db.delete(requestLimitCounters).where(lt(requestLimitCounters.resetsAt, before));
}
