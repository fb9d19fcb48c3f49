import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  enrollments,
  ltiContexts,
  ltiDeployments,
  ltiKeys,
  ltiLaunchHandoffs,
  ltiLineItems,
  ltiLoginStates,
  ltiMembers,
  ltiPlatforms,
  ltiScorePosts,
  ltiUsers,
} from '../db/schema.ts';
import {
  claimedValues,
  recordWorkRowFailure,
  selectUnfinishedWorkRowIds,
  succeededValues,
  whileUnfinished,
} from './work-rows.ts';

/** The LTI tables (migration 0022, decision 0074): reads and writes, no rules. */
export type LtiKeyRow = typeof ltiKeys.$inferSelect;
export type LtiPlatformRow = typeof ltiPlatforms.$inferSelect;
export type NewLtiPlatformRow = typeof ltiPlatforms.$inferInsert;
export type LtiContextRow = typeof ltiContexts.$inferSelect;
export type NewLtiContextRow = typeof ltiContexts.$inferInsert;
export type LtiHandoffRow = typeof ltiLaunchHandoffs.$inferSelect;

// ---- the tool's keys

export async function selectActiveKey(db: Db): Promise<LtiKeyRow | undefined> {
  const [row] = await db.select().from(ltiKeys).where(isNull(ltiKeys.retiredAt)).limit(1);
  return row;
}

/** The keys still published: the active one and retired ones not yet expired, newest first. */
export async function selectPublishedKeys(db: Db, now: Date): Promise<LtiKeyRow[]> {
  return db
    .select()
    .from(ltiKeys)
    .where(or(isNull(ltiKeys.retiredAt), gt(ltiKeys.expiresAt, now)))
    .orderBy(sql`${ltiKeys.createdAt} desc`);
}

/** Inserts a key as the active one unless there already is one (the partial unique index decides). */
export async function insertActiveKey(db: Db, row: typeof ltiKeys.$inferInsert): Promise<LtiKeyRow | undefined> {
  const [inserted] = await db.insert(ltiKeys).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function retireActiveKey(db: Db, now: Date, expiresAt: Date): Promise<LtiKeyRow | undefined> {
  const [row] = await db
    .update(ltiKeys)
    .set({ retiredAt: now, expiresAt })
    .where(isNull(ltiKeys.retiredAt))
    .returning();
  return row;
}

export async function deleteExpiredKeys(db: Db, now: Date): Promise<void> {
  await db.delete(ltiKeys).where(lt(ltiKeys.expiresAt, now));
}

// ---- platforms and deployments

export async function insertPlatform(db: Db, row: NewLtiPlatformRow): Promise<LtiPlatformRow | undefined> {
  const [inserted] = await db.insert(ltiPlatforms).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function selectPlatformById(db: Db, id: string): Promise<LtiPlatformRow | undefined> {
  const [row] = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, id)).limit(1);
  return row;
}

/** The platform registered for this issuer, and client id when one is given (the login may omit it). */
export async function selectPlatformsByIssuer(db: Db, issuer: string, clientId?: string): Promise<LtiPlatformRow[]> {
  return db
    .select()
    .from(ltiPlatforms)
    .where(
      clientId === undefined
        ? eq(ltiPlatforms.issuer, issuer)
        : and(eq(ltiPlatforms.issuer, issuer), eq(ltiPlatforms.clientId, clientId)),
    )
    .limit(2);
}

export async function selectPlatformsRegisteredBy(db: Db, userId: string): Promise<LtiPlatformRow[]> {
  return db
    .select()
    .from(ltiPlatforms)
    .where(eq(ltiPlatforms.registeredById, userId))
    .orderBy(asc(ltiPlatforms.createdAt));
}

export async function deletePlatform(db: Db, id: string): Promise<void> {
  await db.delete(ltiPlatforms).where(eq(ltiPlatforms.id, id));
}

export async function insertDeployments(db: Db, platformId: string, deploymentIds: string[]): Promise<void> {
  if (deploymentIds.length === 0) return;
  await db
    .insert(ltiDeployments)
    .values(deploymentIds.map((deploymentId) => ({ platformId, deploymentId })))
    .onConflictDoNothing();
}

export async function selectDeploymentIds(db: Db, platformId: string): Promise<string[]> {
  const rows = await db
    .select({ id: ltiDeployments.deploymentId })
    .from(ltiDeployments)
    .where(eq(ltiDeployments.platformId, platformId))
    .orderBy(asc(ltiDeployments.createdAt), asc(ltiDeployments.deploymentId));
  return rows.map((row) => row.id);
}

export async function isKnownDeployment(db: Db, platformId: string, deploymentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: ltiDeployments.deploymentId })
    .from(ltiDeployments)
    .where(and(eq(ltiDeployments.platformId, platformId), eq(ltiDeployments.deploymentId, deploymentId)))
    .limit(1);
  return row !== undefined;
}

// ---- OIDC login states

/** Records a login in flight, sweeping the ones that expired unused. */
export async function insertLoginState(db: Db, row: typeof ltiLoginStates.$inferInsert, now: Date): Promise<void> {
  await db.delete(ltiLoginStates).where(lt(ltiLoginStates.expiresAt, now));
  await db.insert(ltiLoginStates).values(row);
}

/** Takes the login state out (it can be used once): answers it if it was there. */
export async function takeLoginState(db: Db, state: string): Promise<typeof ltiLoginStates.$inferSelect | undefined> {
  const [row] = await db.delete(ltiLoginStates).where(eq(ltiLoginStates.state, state)).returning();
  return row;
}

// ---- people, contexts, handoffs

export async function selectLtiUserId(db: Db, platformId: string, subject: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: ltiUsers.userId })
    .from(ltiUsers)
    .where(and(eq(ltiUsers.platformId, platformId), eq(ltiUsers.subject, subject)))
    .limit(1);
  return row?.userId;
}

export async function insertLtiUser(db: Db, platformId: string, subject: string, userId: string): Promise<void> {
  await db.insert(ltiUsers).values({ platformId, subject, userId });
}

/**
 * Moves an LMS identity from one account to another; false when it is no longer the `fromUserId`'s
 * (linked elsewhere meanwhile), and then nothing moved.
 */
export async function moveLtiUser(
  db: Db,
  platformId: string,
  subject: string,
  fromUserId: string,
  toUserId: string,
): Promise<boolean> {
  const rows = await db
    .update(ltiUsers)
    .set({ userId: toUserId })
    .where(and(eq(ltiUsers.platformId, platformId), eq(ltiUsers.subject, subject), eq(ltiUsers.userId, fromUserId)))
    .returning({ userId: ltiUsers.userId });
  return rows.length === 1;
}

/** Hands an unlinked context's "link it" permission from one account to another. */
export async function moveContextLinkable(db: Db, id: string, fromUserId: string, toUserId: string): Promise<void> {
  await db
    .update(ltiContexts)
    .set({ linkableById: toUserId })
    .where(and(eq(ltiContexts.id, id), eq(ltiContexts.linkableById, fromUserId)));
}

export async function selectContext(db: Db, platformId: string, contextId: string): Promise<LtiContextRow | undefined> {
  const [row] = await db
    .select()
    .from(ltiContexts)
    .where(and(eq(ltiContexts.platformId, platformId), eq(ltiContexts.contextId, contextId)))
    .limit(1);
  return row;
}

export async function selectContextById(db: Db, id: string): Promise<LtiContextRow | undefined> {
  const [row] = await db.select().from(ltiContexts).where(eq(ltiContexts.id, id)).limit(1);
  return row;
}

/** Inserts the context, or updates what the platform says about it now (title, service URLs). */
export async function upsertContext(db: Db, row: NewLtiContextRow): Promise<LtiContextRow> {
  const [saved] = await db
    .insert(ltiContexts)
    .values(row)
    .onConflictDoUpdate({
      target: [ltiContexts.platformId, ltiContexts.contextId],
      set: {
        title: row.title,
        deploymentId: row.deploymentId,
        // A launch without a service claim leaves the URL the last one gave.
        ...(row.membershipsUrl ? { membershipsUrl: row.membershipsUrl } : {}),
        ...(row.lineItemsUrl ? { lineItemsUrl: row.lineItemsUrl } : {}),
        ...(row.linkableById ? { linkableById: row.linkableById } : {}),
      },
    })
    .returning();
  return saved!;
}

/** Links an unlinked context to a course; answers undefined when it was linked meanwhile. */
export async function linkContext(db: Db, id: string, courseId: string): Promise<LtiContextRow | undefined> {
  const [row] = await db
    .update(ltiContexts)
    .set({ courseId })
    .where(and(eq(ltiContexts.id, id), isNull(ltiContexts.courseId)))
    .returning();
  return row;
}

export async function insertHandoff(db: Db, row: typeof ltiLaunchHandoffs.$inferInsert, now: Date): Promise<void> {
  await db.delete(ltiLaunchHandoffs).where(lt(ltiLaunchHandoffs.expiresAt, now));
  await db.insert(ltiLaunchHandoffs).values(row);
}

export async function takeHandoff(db: Db, codeHash: string): Promise<LtiHandoffRow | undefined> {
  const [row] = await db.delete(ltiLaunchHandoffs).where(eq(ltiLaunchHandoffs.codeHash, codeHash)).returning();
  return row;
}

/** The login state without using it up (to offer starting the same login again). */
export async function selectLoginState(db: Db, state: string): Promise<typeof ltiLoginStates.$inferSelect | undefined> {
  const [row] = await db.select().from(ltiLoginStates).where(eq(ltiLoginStates.state, state)).limit(1);
  return row;
}

export async function selectHandoff(db: Db, codeHash: string): Promise<LtiHandoffRow | undefined> {
  const [row] = await db.select().from(ltiLaunchHandoffs).where(eq(ltiLaunchHandoffs.codeHash, codeHash)).limit(1);
  return row;
}

// ---- the LMS roster (Names and Role Provisioning Services)

export type LtiMemberRow = typeof ltiMembers.$inferSelect;

export async function selectContextsOfCourse(db: Db, courseId: string): Promise<LtiContextRow[]> {
  return db.select().from(ltiContexts).where(eq(ltiContexts.courseId, courseId)).orderBy(asc(ltiContexts.createdAt));
}

export async function upsertMember(db: Db, row: typeof ltiMembers.$inferInsert): Promise<void> {
  await db
    .insert(ltiMembers)
    .values(row)
    .onConflictDoUpdate({
      target: [ltiMembers.contextId, ltiMembers.userId],
      set: { role: row.role, status: row.status, syncedAt: row.syncedAt },
    });
}

/** Marks everyone of the context the sync did not see as left; answers how many changed. */
export async function markMissingMembersLeft(db: Db, contextId: string, seen: string[]): Promise<number> {
  const rows = await db
    .update(ltiMembers)
    .set({ status: 'left' })
    .where(
      and(
        eq(ltiMembers.contextId, contextId),
        eq(ltiMembers.status, 'active'),
        seen.length > 0 ? notInArray(ltiMembers.userId, seen) : undefined,
      ),
    )
    .returning({ userId: ltiMembers.userId });
  return rows.length;
}

export async function selectMembers(db: Db, contextId: string): Promise<LtiMemberRow[]> {
  return db.select().from(ltiMembers).where(eq(ltiMembers.contextId, contextId));
}

// ---- Assignment and Grade Services: line items and score posts (decision 0076)

export type LtiScorePostRow = typeof ltiScorePosts.$inferSelect;

/** The LMS courses linked to the course that offer line items (AGS). */
export async function selectGradebookContextsOfCourse(db: Db, courseId: string): Promise<LtiContextRow[]> {
  return db
    .select()
    .from(ltiContexts)
    .where(and(eq(ltiContexts.courseId, courseId), isNotNull(ltiContexts.lineItemsUrl)))
    .orderBy(asc(ltiContexts.createdAt));
}

export async function selectLineItemUrl(db: Db, assignmentId: string, contextId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ url: ltiLineItems.url })
    .from(ltiLineItems)
    .where(and(eq(ltiLineItems.assignmentId, assignmentId), eq(ltiLineItems.contextId, contextId)))
    .limit(1);
  return row?.url;
}

/** Records the line item of an assignment in an LMS course; the newest one the LMS names wins. */
export async function upsertLineItem(
  db: Db,
  row: { assignmentId: string; contextId: string; url: string },
): Promise<void> {
  await db
    .insert(ltiLineItems)
    .values(row)
    .onConflictDoUpdate({ target: [ltiLineItems.assignmentId, ltiLineItems.contextId], set: { url: row.url } });
}

/** The students of the course who have an LMS identity on this platform: their LMS user id (`sub`). */
export async function selectLmsSubjects(
  db: Db,
  platformId: string,
  userIds: readonly string[],
): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: ltiUsers.userId, subject: ltiUsers.subject })
    .from(ltiUsers)
    .where(and(eq(ltiUsers.platformId, platformId), inArray(ltiUsers.userId, [...userIds])));
  return new Map(rows.map((row) => [row.userId, row.subject]));
}

/** Every LMS user of the platform among the course's enrolled students. */
export async function selectEnrolledLmsStudentIds(db: Db, courseId: string, platformId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: ltiUsers.userId })
    .from(ltiUsers)
    .innerJoin(enrollments, eq(enrollments.userId, ltiUsers.userId))
    .where(and(eq(ltiUsers.platformId, platformId), eq(enrollments.courseId, courseId)));
  return rows.map((row) => row.userId);
}

/**
 * Queues a score post unless one is queued for the same LMS course, assignment and student (a
 * partial unique index decides): that one has not computed its score yet, so it sends this change
 * too. Answers the inserted row, or undefined when the change joined the queued one.
 */
export async function insertScorePostUnlessQueued(
  db: Db,
  row: { id: string; contextId: string; assignmentId: string; studentId: string },
): Promise<LtiScorePostRow | undefined> {
  const [inserted] = await db
    .insert(ltiScorePosts)
    .values({ ...row, status: 'queued' })
    .onConflictDoNothing()
    .returning();
  return inserted;
}

/** Claims a post for a try; throws the database's unique violation while another post of the same score runs. */
export async function markScorePostRunning(db: Db, id: string): Promise<LtiScorePostRow | undefined> {
  const [row] = await db
    .update(ltiScorePosts)
    .set({ ...claimedValues(ltiScorePosts), startedAt: new Date() })
    .where(whileUnfinished(ltiScorePosts, id))
    .returning();
  return row;
}

export async function markScorePostSucceeded(
  db: Db,
  id: string,
  result: { scoreGiven: number | null; scoreMaximum: number | null; gradingProgress: string | null; skipped: boolean },
): Promise<void> {
  await db
    .update(ltiScorePosts)
    .set({ ...result, ...succeededValues(), platformMessage: null })
    .where(and(eq(ltiScorePosts.id, id), eq(ltiScorePosts.status, 'running')));
}

/** Keeps what the LMS answered to a failed try (the job's own failure record says only that it failed). */
export async function noteScorePostPlatformMessage(db: Db, id: string, message: string): Promise<void> {
  await db.update(ltiScorePosts).set({ platformMessage: message }).where(whileUnfinished(ltiScorePosts, id));
}

export async function recordScorePostFailure(
  db: Db,
  id: string,
  failure: { code: string; message: string },
  isFinal: boolean,
): Promise<void> {
  await recordWorkRowFailure(db, ltiScorePosts, id, failure, isFinal);
}

export async function selectUnfinishedScorePostIds(db: Db): Promise<string[]> {
  return selectUnfinishedWorkRowIds(db, ltiScorePosts);
}

/** The assignment's newest post per (LMS course, student): the state the instructor sees. */
export async function selectLatestScorePosts(db: Db, assignmentId: string): Promise<LtiScorePostRow[]> {
  return db
    .selectDistinctOn([ltiScorePosts.contextId, ltiScorePosts.studentId])
    .from(ltiScorePosts)
    .where(eq(ltiScorePosts.assignmentId, assignmentId))
    .orderBy(ltiScorePosts.contextId, ltiScorePosts.studentId, desc(ltiScorePosts.createdAt), desc(ltiScorePosts.id));
}

/** Launches sync the roster at most this often: answers true (and stamps the time) when this one may. */
export async function claimLaunchRosterSync(db: Db, contextId: string, now: Date, everyMs: number): Promise<boolean> {
  const rows = await db
    .update(ltiContexts)
    .set({ rosterSyncedAt: now })
    .where(
      and(
        eq(ltiContexts.id, contextId),
        or(isNull(ltiContexts.rosterSyncedAt), lt(ltiContexts.rosterSyncedAt, new Date(now.getTime() - everyMs))),
      ),
    )
    .returning({ id: ltiContexts.id });
  return rows.length > 0;
}

/** Records that the context's roster was synced now (on demand), which the launches' rate counts. */
export async function stampRosterSync(db: Db, contextId: string, now: Date): Promise<void> {
  await db.update(ltiContexts).set({ rosterSyncedAt: now }).where(eq(ltiContexts.id, contextId));
}
