import { and, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { gradingLeases, users } from '../db/schema.ts';
import { anyOfPlaceholder } from './any-of.ts';

export interface ActiveLease {
  submissionId: string;
  graderId: string;
  graderName: string;
  startedAt: Date;
  expiresAt: Date;
}

const activeLeaseColumns = {
  submissionId: gradingLeases.submissionId,
  graderId: gradingLeases.graderId,
  graderName: users.name,
  startedAt: gradingLeases.startedAt,
  expiresAt: gradingLeases.expiresAt,
};

/**
 * The leases of the placeholder `submissionIds` that have not lapsed at the placeholder `now`, as
 * one JSON value (`[submissionId, graderId, graderName, startedAt, expiresAt]` each), for a
 * statement that reads them beside other things (models/work-split.ts); `leasesFromJson` reads it.
 */
export function activeLeasesJson(): SQL<ActiveLeaseJson[]> {
  return sql<ActiveLeaseJson[]>`(select coalesce(json_agg(json_build_array(
      ${gradingLeases.submissionId}, ${gradingLeases.graderId}, ${users.name}, ${gradingLeases.startedAt}, ${gradingLeases.expiresAt}
    )), '[]'::json)
    from ${gradingLeases} inner join ${users} on ${eq(users.id, gradingLeases.graderId)}
    where ${and(anyOfPlaceholder(gradingLeases.submissionId, 'submissionIds'), gt(gradingLeases.expiresAt, sql.placeholder('now')))})`;
}

/** A lease as `activeLeasesJson` gives it (times as ISO text). */
export type ActiveLeaseJson = [string, string, string, string, string];

/** `activeLeasesJson`'s value, by submission id, as `selectActiveLeases` gives it. */
export function leasesFromJson(leases: readonly ActiveLeaseJson[]): Map<string, ActiveLease> {
  return new Map(
    leases.map(([submissionId, graderId, graderName, startedAt, expiresAt]) => [
      submissionId,
      { submissionId, graderId, graderName, startedAt: new Date(startedAt), expiresAt: new Date(expiresAt) },
    ]),
  );
}

// Read whenever a grader opens an answer: prepared (db/prepared.ts, issue 11).
const activeLeases = preparedPerDb((db) =>
  db
    .select(activeLeaseColumns)
    .from(gradingLeases)
    .innerJoin(users, eq(users.id, gradingLeases.graderId))
    .where(
      and(
        anyOfPlaceholder(gradingLeases.submissionId, 'submissionIds'),
        gt(gradingLeases.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare('active_leases'),
);

/** The leases of these submissions that have not lapsed at `now`, by submission id. */
export async function selectActiveLeases(
  db: Db,
  submissionIds: readonly string[],
  now: Date,
): Promise<Map<string, ActiveLease>> {
  if (submissionIds.length === 0) return new Map();
  const rows = await activeLeases(db).execute({ submissionIds: [...submissionIds], now });
  return new Map(rows.map((row) => [row.submissionId, row]));
}

/**
 * Takes or renews the grader's lease of a submission, in one statement: it writes only when there
 * is no lease, the lease is the grader's own, or it has lapsed — so two graders opening one answer
 * at the same moment never both get it. A renewal keeps when the grader started. Answers whether
 * the grader holds the lease now.
 */
export async function takeLease(
  db: Db,
  lease: { submissionId: string; graderId: string; now: Date; expiresAt: Date },
): Promise<boolean> {
  const taken = await db
    .insert(gradingLeases)
    .values({
      submissionId: lease.submissionId,
      graderId: lease.graderId,
      startedAt: lease.now,
      expiresAt: lease.expiresAt,
    })
    .onConflictDoUpdate({
      target: gradingLeases.submissionId,
      set: {
        graderId: sql`excluded.grader_id`,
        startedAt: sql`CASE WHEN ${gradingLeases.graderId} = excluded.grader_id AND ${gradingLeases.expiresAt} > excluded.started_at
          THEN ${gradingLeases.startedAt} ELSE excluded.started_at END`,
        expiresAt: sql`excluded.expires_at`,
      },
      setWhere: sql`${gradingLeases.graderId} = excluded.grader_id OR ${gradingLeases.expiresAt} <= excluded.started_at`,
    })
    .returning({ submissionId: gradingLeases.submissionId });
  return taken.length > 0;
}

/** Gives up the grader's own lease of a submission (someone else's stays). */
export async function deleteLease(db: Db, submissionId: string, graderId: string): Promise<void> {
  await db
    .delete(gradingLeases)
    .where(and(eq(gradingLeases.submissionId, submissionId), eq(gradingLeases.graderId, graderId)));
}
