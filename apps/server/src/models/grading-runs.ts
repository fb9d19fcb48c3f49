import type { GradingSuggestion } from '../ai/grader-types.ts';
import { newId } from '../lib/ids.ts';
import { and, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { anyOfPlaceholder } from './any-of.ts';
import type { Db } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { gradingRuns } from '../db/schema.ts';
import {
  ACTIVE_STATUSES,
  claimedValues,
  isUnfinished,
  recordWorkRowFailure,
  selectUnfinishedWorkRowIds,
  succeededValues,
  whileUnfinished,
} from './work-rows.ts';

export type GradingRunRow = typeof gradingRuns.$inferSelect;
export type NewGradingRunRow = typeof gradingRuns.$inferInsert;

import type { StoredComment } from '../db/json-columns.ts';

export type { StoredComment };

/**
 * A run as lists show it: every column but `rawOutput`, the provider's whole answer, which only
 * re-reading a suggestion needs. A question page reads two runs for each of hundreds of answers;
 * carrying their raw answers through the database and the driver was most of its cost.
 */
export type GradingRunListRow = Omit<GradingRunRow, 'rawOutput'>;
const { rawOutput: _rawOutput, ...runListColumns } = getTableColumns(gradingRuns);

/**
 * A run as a submissions row shows it: its state, its suggestion and the grader that made it, not
 * its tokens, timings, errors or attempts. The question page reads three runs per row shown; on
 * PGlite every column of every row costs a copy and a decode in its protocol parser (issue 11).
 */
export type GradingRunSummary = Pick<
  GradingRunRow,
  'id' | 'submissionId' | 'status' | 'confidence' | 'comments' | 'totalScore' | 'graderKind' | 'provider' | 'model'
>;
/**
 * A run as a row of the staff table shows it (a paged read, decision 0057): a summary without its
 * comments. On PGlite a run's comments are most of what reading it costs (turning the stored
 * JSON back into text and parsing it: 25 rows' newest runs in 2.8 ms with them, 0.8 without).
 */
export type GradingRunStanding = Omit<GradingRunSummary, 'comments'>;
const runStandingColumns = {
  id: gradingRuns.id,
  submissionId: gradingRuns.submissionId,
  status: gradingRuns.status,
  confidence: gradingRuns.confidence,
  totalScore: gradingRuns.totalScore,
  graderKind: gradingRuns.graderKind,
  provider: gradingRuns.provider,
  model: gradingRuns.model,
};
const runSummaryColumns = { ...runStandingColumns, comments: gradingRuns.comments };

/** Queued or running: its job has work left to do. */
export function isActiveRun(run: Pick<GradingRunRow, 'status'>): boolean {
  return (ACTIVE_STATUSES as readonly string[]).includes(run.status);
}

export async function selectGradingRunById(db: Db, id: string): Promise<GradingRunRow | undefined> {
  const [row] = await db.select().from(gradingRuns).where(eq(gradingRuns.id, id)).limit(1);
  return row;
}

/**
 * Inserts a queued run unless the submission already has one in flight (a partial unique index
 * decides, so two concurrent requests cannot both insert). Answers undefined when one exists.
 */
export async function insertGradingRunUnlessActive(db: Db, run: NewGradingRunRow): Promise<GradingRunRow | undefined> {
  const [row] = await db.insert(gradingRuns).values(run).onConflictDoNothing().returning();
  return row;
}

/** The most rows one statement of `insertGradingRunsUnlessActive` inserts. */
const MOST_RUNS_PER_INSERT = 256;

/**
 * `insertGradingRunUnlessActive` for many runs (Grade All queues a class): answers the ids of the
 * runs inserted; a submission with a run in flight is skipped, as one at a time. The runs go in
 * statements of 256, 128, 64, ... 1 rows (the binary digits of the count), so a class of any size
 * is a few statements of at most nine shapes (PGlite keeps each shape as one named statement,
 * decision 0045) instead of one statement per run inside Grade All's transaction (issue 11).
 */
export async function insertGradingRunsUnlessActive(
  db: Db,
  runs: readonly NewGradingRunRow[],
  mostPerStatement = MOST_RUNS_PER_INSERT,
): Promise<Set<string>> {
  const inserted = new Set<string>();
  for (let start = 0; start < runs.length;) {
    const size = Math.min(mostPerStatement, 2 ** Math.floor(Math.log2(runs.length - start)));
    const rows = await db
      .insert(gradingRuns)
      .values(runs.slice(start, start + size))
      .onConflictDoNothing()
      .returning({ id: gradingRuns.id });
    for (const row of rows) inserted.add(row.id);
    start += size;
  }
  return inserted;
}

/**
 * Inserts a run that is already finished: a built-in refresh computes the suggestion first, so the
 * new suggestion replaces the shown one in one step, with no in-flight state in between.
 */
export async function insertFinishedGradingRun(
  db: Db,
  run: Omit<NewGradingRunRow, 'status' | 'finishedAt'> & {
    comments: StoredComment[];
    totalScore: number;
    confidence: number;
    missChance?: number | null;
  },
): Promise<GradingRunRow> {
  const [row] = await db
    .insert(gradingRuns)
    .values({ ...run, status: 'succeeded', attempts: 1, finishedAt: new Date() })
    .returning();
  return row!;
}

export async function selectActiveGradingRun(db: Db, submissionId: string): Promise<GradingRunRow | undefined> {
  const [row] = await db
    .select()
    .from(gradingRuns)
    .where(and(eq(gradingRuns.submissionId, submissionId), isUnfinished(gradingRuns)))
    .limit(1);
  return row;
}

export async function selectLatestSucceededRun(db: Db, submissionId: string): Promise<GradingRunRow | undefined> {
  const [row] = await db
    .select()
    .from(gradingRuns)
    .where(and(eq(gradingRuns.submissionId, submissionId), eq(gradingRuns.status, 'succeeded')))
    .orderBy(desc(gradingRuns.finishedAt), desc(gradingRuns.createdAt))
    .limit(1);
  return row;
}

/** Newest run per submission (any status), for the submissions table. */
export async function selectLatestRunsBySubmission(
  db: Db,
  submissionIds: string[],
): Promise<Map<string, GradingRunListRow>> {
  return selectNewestRunEach(newestRuns(db), submissionIds);
}

/** Newest succeeded run per submission. */
export async function selectLatestSucceededRunsBySubmission(
  db: Db,
  submissionIds: string[],
): Promise<Map<string, GradingRunListRow>> {
  return selectNewestRunEach(newestSucceededRuns(db), submissionIds);
}

/**
 * The newest run of each submission. Runs pile up: every saved grade re-suggests the question's
 * pending answers (refresh-suggestions), so a class of 300 graded one by one leaves tens of
 * thousands of runs. Each submission's newest run is the first entry of its part of an index
 * (`grading_runs_submission_newest_idx`, or `..._newest_succeeded_idx` for succeeded runs), read
 * with one LIMIT 1 per submission; a DISTINCT ON read and sorted every run of the class (130 ms
 * instead of 3 to 9 on 25,200 runs, decision 0040). Only the winners' rows are read in full.
 */
function prepareNewestRunEach<Columns extends typeof runListColumns | typeof runSummaryColumns>(
  db: Db,
  name: string,
  columns: Columns,
  condition: SQL,
  order: SQL,
) {
  const newest = sql`(SELECT newest.id FROM unnest(${sql.placeholder('submissionIds')}::uuid[]) AS s(id) CROSS JOIN LATERAL (SELECT r.id FROM grading_runs r WHERE r.submission_id = s.id AND ${condition} ORDER BY ${order} LIMIT 1) newest)`;
  return db
    .select(columns)
    .from(gradingRuns)
    .where(sql`${gradingRuns.id} IN ${newest}`)
    .prepare(name);
}

const ANY_RUN = sql`true`;
const NEWEST_FIRST = sql`r.created_at DESC, r.id DESC`;
const SUCCEEDED = sql`r.status = 'succeeded'`;
const NEWEST_FINISHED_FIRST = sql`r.finished_at DESC, r.id DESC`;

// Read by every question page and list of answers: prepared (db/prepared.ts, issue 11).
const newestRuns = preparedPerDb((db) =>
  prepareNewestRunEach(db, 'newest_run_each', runListColumns, ANY_RUN, NEWEST_FIRST),
);
const newestSucceededRuns = preparedPerDb((db) =>
  prepareNewestRunEach(db, 'newest_succeeded_run_each', runListColumns, SUCCEEDED, NEWEST_FINISHED_FIRST),
);

async function selectNewestRunEach<Row extends { submissionId: string }>(
  query: { execute(values: { submissionIds: string[] }): Promise<Row[]> },
  submissionIds: string[],
): Promise<Map<string, Row>> {
  if (submissionIds.length === 0) return new Map();
  const rows = await query.execute({ submissionIds });
  return new Map(rows.map((row) => [row.submissionId, row]));
}

// Read by every question page and grading screen: prepared (db/prepared.ts). Each submission's two
// runs are found as `prepareNewestRunEach` finds them (one LIMIT 1 per index each), in one
// statement, and a run that is both (the usual case) is read once.
function prepareNewestRunPairs<Columns extends typeof runStandingColumns>(db: Db, name: string, columns: Columns) {
  const newest = sql`(SELECT
      (SELECT r.id FROM grading_runs r WHERE r.submission_id = s.id ORDER BY ${NEWEST_FIRST} LIMIT 1) AS latest_id,
      (SELECT r.id FROM grading_runs r WHERE r.submission_id = s.id AND ${SUCCEEDED} ORDER BY ${NEWEST_FINISHED_FIRST} LIMIT 1) AS succeeded_id
    FROM unnest(${sql.placeholder('submissionIds')}::uuid[]) AS s(id) OFFSET 0) newest`;
  // OFFSET 0 keeps `newest` a subquery of its own: pulled up into the join, its two lookups ran
  // twice per submission (once for the join, once for the isLatest columns), a third more time.
  return db
    .select({
      ...columns,
      isLatest: sql<boolean>`${gradingRuns.id} = newest.latest_id`,
      isLatestSucceeded: sql<boolean>`${gradingRuns.id} IS NOT DISTINCT FROM newest.succeeded_id`,
    })
    .from(gradingRuns)
    .innerJoin(newest, sql`${gradingRuns.id} IN (newest.latest_id, newest.succeeded_id)`)
    .prepare(name);
}

/**
 * The columns of a run a question page's read takes, as a value its caller passes (decision 0084):
 * a row of the whole list reads the suggestion's comments, a row of a page of the staff table does
 * not (decision 0057). `name` names the set's prepared statements.
 */
export const RUN_SUMMARY = { name: 'run_summary', columns: runSummaryColumns } as const;
export const RUN_STANDING = { name: 'run_standing', columns: runStandingColumns } as const;
export type RunColumns = typeof RUN_SUMMARY | typeof RUN_STANDING;
/** The run a read with these columns gives. */
export type RunOf<Columns extends RunColumns> = Columns extends typeof RUN_SUMMARY
  ? GradingRunSummary
  : GradingRunStanding;

const newestRunPairs = {
  [RUN_SUMMARY.name]: preparedPerDb((db) => prepareNewestRunPairs(db, 'newest_run_summary_pairs', RUN_SUMMARY.columns)),
  [RUN_STANDING.name]: preparedPerDb((db) =>
    prepareNewestRunPairs(db, 'newest_run_standing_pairs', RUN_STANDING.columns),
  ),
};

/** Each submission's newest run and newest succeeded run, from one read of the pairs. */
export interface LatestRuns<Run> {
  latest: Map<string, Run>;
  latestSucceeded: Map<string, Run>;
}

/**
 * `selectLatestRunsBySubmission` and `selectLatestSucceededRunsBySubmission` in one statement, with
 * the given columns: `RUN_SUMMARY` as a row of the whole list shows them, `RUN_STANDING` as a row
 * of the staff table does.
 */
export async function selectLatestRuns<Columns extends RunColumns>(
  db: Db,
  columns: Columns,
  submissionIds: string[],
): Promise<LatestRuns<RunOf<Columns>>> {
  const latest = new Map<string, RunOf<Columns>>();
  const latestSucceeded = new Map<string, RunOf<Columns>>();
  if (submissionIds.length === 0) return { latest, latestSucceeded };
  const rows = await newestRunPairs[columns.name](db).execute({ submissionIds });
  for (const { isLatest, isLatestSucceeded, ...fields } of rows) {
    // The statement of `columns.name` selects exactly `columns`: its rows are this set's runs.
    const run = fields as RunOf<Columns>;
    if (isLatest) latest.set(run.submissionId, run);
    if (isLatestSucceeded) latestSucceeded.set(run.submissionId, run);
  }
  return { latest, latestSucceeded };
}

export async function selectUnfinishedGradingRunIds(db: Db): Promise<string[]> {
  return selectUnfinishedWorkRowIds(db, gradingRuns);
}

/** Claims an unfinished run for an attempt; answers undefined when it already finished. */
export async function markGradingRunRunning(db: Db, id: string): Promise<GradingRunRow | undefined> {
  const [row] = await db
    .update(gradingRuns)
    .set(claimedValues(gradingRuns))
    .where(whileUnfinished(gradingRuns, id))
    .returning();
  return row;
}

/** Stores what the provider answered, before anything is made of it ("a retry never pays twice"). */
export async function storeGradingRunOutput(
  db: Db,
  id: string,
  output: Pick<
    NewGradingRunRow,
    | 'rawOutput'
    | 'graderKind'
    | 'provider'
    | 'model'
    | 'promptVersion'
    | 'inputTokens'
    | 'outputTokens'
    | 'latencyMs'
    | 'examplesUsed'
  >,
): Promise<void> {
  await db.update(gradingRuns).set(output).where(eq(gradingRuns.id, id));
}

export async function markGradingRunSucceeded(
  db: Db,
  id: string,
  result: { comments: StoredComment[]; totalScore: number; confidence: number; missChance: number | null },
): Promise<GradingRunRow | undefined> {
  const [row] = await db
    .update(gradingRuns)
    .set({ ...result, ...succeededValues() })
    .where(whileUnfinished(gradingRuns, id))
    .returning();
  return row;
}

/** Final: marks the run failed. Not final: notes the error and leaves it for its retry. */
export async function recordGradingRunFailure(
  db: Db,
  id: string,
  failure: { code: string; message: string },
  isFinal: boolean,
): Promise<void> {
  await recordWorkRowFailure(db, gradingRuns, id, failure, isFinal);
}

/** Progress of a grade-all batch, counted from its runs. */
export async function countBatchRuns(
  db: Db,
  batchId: string,
): Promise<{ succeeded: number; failed: number; running: number; queued: number }> {
  const rows = await db
    .select({ status: gradingRuns.status, count: sql<number>`count(*)::int` })
    .from(gradingRuns)
    .where(eq(gradingRuns.batchId, batchId))
    .groupBy(gradingRuns.status);
  const counts = { succeeded: 0, failed: 0, running: 0, queued: 0 };
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}

const runsByIds = preparedPerDb((db) =>
  db
    .select(runListColumns)
    .from(gradingRuns)
    .where(anyOfPlaceholder(gradingRuns.id, 'ids'))
    .prepare('grading_runs_by_ids'),
);
export async function selectGradingRunsByIds(db: Db, ids: string[]): Promise<Map<string, GradingRunListRow>> {
  if (ids.length === 0) return new Map();
  const rows = await runsByIds(db).execute({ ids });
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The smallest class any of these built-in runs was graded with (its judgement's
 * `confidenceInputs.typicality.classSize`; a judgement from before classes were read counts 0),
 * or null without any built-in run among them.
 */
export async function selectSmallestClassRead(db: Db, runIds: string[]): Promise<number | null> {
  if (runIds.length === 0) return null;
  const [row] = await db
    .select({
      smallest: sql<
        number | null
      >`min(coalesce((${gradingRuns.rawOutput} -> 'confidenceInputs' -> 'typicality' ->> 'classSize')::integer, 0))`,
    })
    .from(gradingRuns)
    .where(and(inArray(gradingRuns.id, runIds), eq(gradingRuns.graderKind, 'builtin')));
  return row?.smallest ?? null;
}

/** A suggestion as a run stores it. AI suggestions start accepted: the total shown is the grader's. */
export function storedSuggestion(suggestion: GradingSuggestion): {
  comments: StoredComment[];
  totalScore: number;
  confidence: number;
  missChance: number | null;
} {
  return {
    comments: suggestion.comments.map((comment) => ({ id: newId(), ...comment, accepted: true })),
    totalScore: suggestion.totalScore,
    confidence: Math.round(suggestion.confidence),
    missChance: suggestion.missChance ?? null,
  };
}
