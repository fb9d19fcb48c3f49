import fs from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import type { QuestionForStaff } from '@gradewise/shared/contracts/questions';
import type { AppContext } from '../src/context.ts';
import { MIGRATIONS_DIR, type Database, type Db } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { fileExtractions, grades, gradingRuns, submissions } from '../src/db/schema.ts';
import { buildApp } from '../src/http/app.ts';
import { JOB_DEFINITIONS } from '../src/job-registry.ts';
import { updateUser } from '../src/models/users.ts';
import { FileUrlSigner } from '../src/storage/file-url-signer.ts';
import {
  addStudents,
  addTa,
  createAssignment,
  createCourse,
  createQuestion,
  submitAnswer,
} from './support/course-fixtures.ts';
import { expectStatus, registerUser, type TestUser } from './support/http.ts';
import { gradeWithAi, questionPath, saveGrade, saveRubric } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * The whole staff list of a question is kept serialised between changes (decision 0065). Each test
 * reads the list (so it is kept), changes one thing the list shows, through the product's routes or
 * as a job writes its rows, and checks the next read against a read by an app that kept nothing.
 * The first test shows a list is really kept: a change made with the database's triggers off is
 * not seen.
 */
let t: TestApp;
// One second into a ten-minute window of link expiries: a lease's five minutes lapse inside it.
let nowMs = Date.parse('2026-11-20T10:00:01Z');
let owner: TestUser;
let ta: TestUser;
let secondTa: TestUser;
let students: TestUser[];
let courseId: string;
let assignmentId: string;
let questionId: string;
/** The answers of Eve, Bob and Carol (students[0..2]), in that order. */
let submissionIds: string[];

beforeAll(async () => {
  t = await createTestApp({}, { withJobs: true, clock: () => new Date(nowMs) });
  // Links signed on the test's clock, so a test can move their expiry window.
  t.ctx.fileUrls = new FileUrlSigner(new TextEncoder().encode('kept-lists-test-secret'), { now: () => nowMs });
  owner = await registerUser(t.app, { role: 'instructor', name: 'Prof Ada' });
  ta = await registerUser(t.app, { role: 'instructor', name: 'Tom Assistant' });
  secondTa = await registerUser(t.app, { role: 'instructor', name: 'Sam Assistant' });
  students = [];
  for (const name of ['Eve', 'Bob', 'Carol']) students.push(await registerUser(t.app, { name }));
  courseId = (await createCourse(t.app, owner))._id;
  await addTa(t.app, owner, courseId, ta);
  await addTa(t.app, owner, courseId, secondTa);
  await addStudents(
    t.app,
    owner,
    courseId,
    students.map((student) => student.email),
  );
  assignmentId = (await createAssignment(t.app, owner, courseId))._id;
  questionId = (await createQuestion(t.app, owner, assignmentId))._id;
  for (const student of students)
    await submitAnswer(t.app, student, assignmentId, questionId, `Answer of ${student.name} about osmosis`);
  await settled();
  const list = JSON.parse(await whole(owner)) as QuestionForStaff;
  submissionIds = students.map((student) => list.submissions!.find((row) => row.student._id === student.id)!._id);
});
afterAll(async () => {
  await t?.close();
});

const url = () => `${questionPath(assignmentId, questionId)}?includeSubmissions=1`;

async function whole(user: TestUser, app = t.app): Promise<string> {
  const response = await app.inject({ method: 'GET', url: url(), headers: user.auth });
  expectStatus(response, 200, 'whole list');
  return response.body;
}

/** The list as an app that kept nothing reads it: the same database, a context of its own. */
async function fresh(user: TestUser): Promise<string> {
  const app = await buildApp({ ...t.ctx });
  try {
    return await whole(user, app);
  } finally {
    await app.close();
  }
}

/** Until no job is queued or running (extraction, suggestions, refreshes after a save): their writes are done. */
async function settled(): Promise<void> {
  const idle = async () => {
    const open = await Promise.all(JOB_DEFINITIONS.map((job) => t.ctx.jobs!.countOpenJobs(job.name)));
    return open.every((count) => count === 0) ? true : undefined;
  };
  expect(await t.ctx.jobs!.waitFor('kept-lists-idle', idle, { timeoutMs: 60_000, pollMs: 100 })).toBe(true);
}

/** Reads the list (kept from then on), makes the change, and checks the next read is current. */
async function expectCurrentAfter(change: () => Promise<unknown>, viewer = owner): Promise<QuestionForStaff> {
  await settled();
  const before = await whole(viewer);
  expect(await whole(viewer)).toBe(before);
  await change();
  await settled();
  const after = await whole(viewer);
  expect(after).not.toBe(before);
  expect(after).toBe(await fresh(viewer));
  return JSON.parse(after) as QuestionForStaff;
}

const rowOf = (list: QuestionForStaff, index: number) =>
  list.submissions!.find((row) => row._id === submissionIds[index])!;

describe('the whole staff list, kept between changes', () => {
  it('is answered from what was kept while the database says nothing changed', async () => {
    await settled();
    const before = await whole(owner);
    // The same change a saved grade makes, written with triggers off: the revision does not move.
    await t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.update(submissions).set({ isLate: true }).where(eq(submissions.id, submissionIds[0]!));
    });
    expect(await whole(owner)).toBe(before);
    const current = await fresh(owner);
    expect(current).not.toBe(before);
    // Put back, with the triggers on: every reader sees it at once.
    await t.ctx.db.update(submissions).set({ isLate: false }).where(eq(submissions.id, submissionIds[0]!));
    expect(await whole(owner)).toBe(await fresh(owner));
  });

  it('shows an AI suggestion and its run as the job writes them', async () => {
    const list = await expectCurrentAfter(() =>
      gradeWithAi(t.app, owner, { assignmentId, questionId, submissionId: submissionIds[1]! }),
    );
    expect(rowOf(list, 1).gradingStatus).toBe('succeeded');
    // A worker's later write to the run (as a retry or a refresh would make it).
    await expectCurrentAfter(() =>
      t.ctx.db
        .update(gradingRuns)
        .set({ confidence: 1 })
        .where(inArray(gradingRuns.submissionId, [submissionIds[1]!])),
    );
  });

  it('shows a saved grade, and a grade changed or removed underneath', async () => {
    const list = await expectCurrentAfter(() =>
      saveGrade(t.app, owner, { assignmentId, questionId, submissionId: submissionIds[0]!, points: 10 }, [
        { text: 'Say which way the water goes', pointsDeducted: 2, accepted: true },
      ]),
    );
    expect(rowOf(list, 0).grade).toBe(8);
    await expectCurrentAfter(() =>
      t.ctx.db.update(grades).set({ grade: 6 }).where(eq(grades.submissionId, submissionIds[0]!)),
    );
    await expectCurrentAfter(() => t.ctx.db.delete(grades).where(eq(grades.submissionId, submissionIds[0]!)));
  });

  it("shows an answer's extracted text as the extraction job rewrites it", async () => {
    const [row] = await t.ctx.db
      .select({ fileId: submissions.fileId })
      .from(submissions)
      .where(eq(submissions.id, submissionIds[2]!));
    const list = await expectCurrentAfter(() =>
      t.ctx.db
        .update(fileExtractions)
        .set({ text: 'Read again: osmosis.' })
        .where(eq(fileExtractions.fileId, row!.fileId)),
    );
    expect(rowOf(list, 2).extractedText).toBe('Read again: osmosis.');
  });

  it('shows a new rubric, a new answer and a reopened question', async () => {
    await expectCurrentAfter(() =>
      saveRubric(
        t.app,
        owner,
        { assignmentId, questionId },
        {
          questionText: 'Explain osmosis.',
          solutionText: 'Water crosses a membrane towards more solute.',
          items: [{ criterion: 'Names the membrane', points: 10 }],
        },
      ),
    );
    const dan = await registerUser(t.app, { name: 'Dan' });
    await addStudents(t.app, owner, courseId, [dan.email]);
    const list = await expectCurrentAfter(() =>
      submitAnswer(t.app, dan, assignmentId, questionId, 'Answer of Dan about osmosis'),
    );
    expect(list.submissions!.map((row) => row.student).map((student) => (student as { name: string }).name)).toContain(
      'Dan',
    );
    await saveGrade(t.app, owner, { assignmentId, questionId, submissionId: submissionIds[1]!, points: 10 });
    const reopened = await expectCurrentAfter(async () =>
      expectStatus(
        await t.app.inject({
          method: 'POST',
          url: `${questionPath(assignmentId, questionId)}/submissions/${submissionIds[1]}/reopen`,
          headers: owner.auth,
        }),
        200,
        'reopen',
      ),
    );
    expect(rowOf(reopened, 1).isReopened).toBe(true);
  });

  it('shows renamed students and staff', async () => {
    const list = await expectCurrentAfter(() => updateUser(t.ctx.db, students[0]!.id, { name: 'Evelyn' }));
    expect(rowOf(list, 0).student.name).toBe('Evelyn');
    // A grader's name reaches every answer they are assigned (assignedTo).
    await expectCurrentAfter(() =>
      t.app.inject({
        method: 'PUT',
        url: `/api/courses/${courseId}/work-split/questions/${questionId}`,
        headers: owner.auth,
        payload: { graderIds: [ta.id] },
      }),
    );
    const renamed = await expectCurrentAfter(() => updateUser(t.ctx.db, ta.id, { name: 'Tomas Assistant' }));
    expect(rowOf(renamed, 0).assignedTo?.map((person) => person.name)).toEqual(['Tomas Assistant']);
  });

  it("keeps each viewer's own share apart, and follows the roster and the graders", async () => {
    // The question's grader is `ta`: the same list is theirs for them, nobody's for the other TA.
    const forTa = JSON.parse(await whole(ta)) as QuestionForStaff;
    const forSecondTa = JSON.parse(await whole(secondTa)) as QuestionForStaff;
    expect(forTa.submissions!.every((row) => row.isMine)).toBe(true);
    expect(forSecondTa.submissions!.some((row) => row.isMine)).toBe(false);
    expect(forSecondTa.staffRole).toBe('ta');
    await expectCurrentAfter(
      () =>
        t.app.inject({
          method: 'PUT',
          url: `/api/courses/${courseId}/work-split/questions/${questionId}`,
          headers: owner.auth,
          payload: { graderIds: [ta.id, owner.id] },
        }),
      ta,
    );
    // A new student on the roster (who has not answered) moves the graders' ranges over the class.
    const zed = await registerUser(t.app, { name: 'Zed' });
    await expectCurrentAfter(() => addStudents(t.app, owner, courseId, [zed.email]), ta);
  });

  it('shows who has an answer open, and stops when the lease lapses with no write', async () => {
    const opened = await expectCurrentAfter(async () =>
      expectStatus(
        await t.app.inject({
          method: 'POST',
          url: `${questionPath(assignmentId, questionId)}/grade/${submissionIds[2]}/lease`,
          headers: ta.auth,
        }),
        200,
        'lease',
      ),
    );
    expect(rowOf(opened, 2).openBy?.name).toBe('Tomas Assistant');
    const whileOpen = await whole(owner);
    nowMs += 6 * 60_000;
    const lapsed = await whole(owner);
    expect(lapsed).not.toBe(whileOpen);
    expect(lapsed).toBe(await fresh(owner));
    expect(rowOf(JSON.parse(lapsed) as QuestionForStaff, 2).openBy).toBeNull();
  });

  it('signs fresh links when their window moves on, and follows held grades and anonymity', async () => {
    const before = await whole(owner);
    nowMs += 11 * 60_000;
    const later = await whole(owner);
    expect(later).not.toBe(before);
    expect(later).toBe(await fresh(owner));
    // The assignment's own row (read for access on every request) holds the grades.
    const held = await expectCurrentAfter(async () =>
      expectStatus(
        await t.app.inject({
          method: 'POST',
          url: `/api/assignments/${assignmentId}/grade-release`,
          headers: owner.auth,
          payload: { released: false },
        }),
        200,
        'hold grades',
      ),
    );
    expect(held.gradeRelease?.assignment.isHeld).toBe(true);
    const anonymous = await expectCurrentAfter(async () =>
      expectStatus(
        await t.app.inject({
          method: 'PUT',
          url: `/api/assignments/${assignmentId}/anonymous-grading`,
          headers: owner.auth,
          payload: { isAnonymous: true },
        }),
        200,
        'anonymous grading',
      ),
    );
    expect(JSON.stringify(anonymous.submissions)).not.toContain('Evelyn');
  });

  it('is sent compressed as the client asks, the same bytes once decompressed', async () => {
    const plain = await t.app.inject({ method: 'GET', url: url(), headers: owner.auth });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const decoders = { br: brotliDecompressSync, gzip: gunzipSync };
    for (const [acceptEncoding, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['x-gzip;q=1, br;q=0.5', 'gzip'],
    ] as const) {
      // Twice: the first read compresses the kept list, the second sends what that made.
      for (const round of [1, 2]) {
        const response = await t.app.inject({
          method: 'GET',
          url: url(),
          headers: { ...owner.auth, 'accept-encoding': acceptEncoding },
        });
        expect(response.statusCode, `${acceptEncoding}, read ${round}`).toBe(200);
        expect(response.headers['content-encoding']).toBe(encoding);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(String(response.headers.vary).toLowerCase()).toContain('accept-encoding');
        expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
        expect(decoders[encoding](response.rawPayload).toString()).toBe(plain.body);
      }
    }
  });
});

/**
 * The rule the kept list rests on (decision 0065): every table it is made from has triggers of
 * migration 0018 that count a change to it. A new table or column the list reads, left out of
 * that migration's list, would leave the list silently stale; this derives the tables from the SQL
 * the route really issues and fails on one without them. It runs last, when the class has every
 * kind of row the list shows (runs, grades, a lease, reopenings, graders, anonymous numbers).
 */
describe('every table the kept list is made from', () => {
  it('has change triggers of migration 0018 (tables found in the SQL the whole-list read issues)', async () => {
    await settled();
    const made = new Set<string>();
    const readOnEveryRequest = new Set<string>();
    // The owner's and a TA's list (a TA's share reads the work split).
    for (const viewer of [owner, ta]) {
      const { making, keptRead } = await statementsOfTheWholeList(viewer);
      expect(
        making.length,
        'the first read makes the list: it issues statements the kept read does not',
      ).toBeGreaterThan(0);
      for (const statement of making) for (const table of await tablesReadBy(statement)) made.add(table);
      for (const statement of keptRead)
        for (const table of await tablesReadBy(statement)) readOnEveryRequest.add(table);
    }
    // The recording saw the list's own reads, not nothing.
    expect([...made]).toEqual(expect.arrayContaining(['submissions', 'grades', 'grading_runs']));

    const counted = await eventsCountedByMigration0018();
    const missing: string[] = [];
    for (const table of [...made].sort()) {
      if (STAMPED.has(table)) {
        // Read for authorization on every request and kept in the stamp (services/kept-question-lists.ts).
        expect(readOnEveryRequest.has(table), `${table} is in the stamp only if every request reads it`).toBe(true);
        continue;
      }
      const needed = COUNTED_THROUGH_OTHER_ROWS[table] ?? ['INSERT', 'UPDATE', 'DELETE'];
      const events = counted.get(table) ?? new Set<string>();
      const lacking = needed.filter((event) => !events.has(event));
      if (lacking.length > 0) missing.push(`${table} (no ${lacking.join(', ')} trigger)`);
    }
    expect(
      missing,
      'The whole staff list reads these tables, but migration 0018 counts no change to them, so a kept list ' +
        'would not see it: add them to its triggers in a new migration (decision 0065).',
    ).toEqual([]);
  });
});

/**
 * Rows of the question, its assignment and course: the route reads them for authorization on every
 * request (policies/course-access.ts) and they are part of the kept list's stamp.
 */
const STAMPED = new Set(['questions', 'assignments', 'courses']);

/**
 * A user appears on a list only through a row of a counted table (an answer, a grader, a lease, the
 * roster or staff), whose own triggers count its insert and delete; what a user row adds is a name
 * and an email, counted on update by migration 0018's row trigger.
 */
const COUNTED_THROUGH_OTHER_ROWS: Record<string, string[]> = { users: ['UPDATE'] };

interface Statement {
  text: string;
  params: unknown[];
}

/**
 * The SQL of reading the whole list twice in a context that kept nothing yet: the first read makes
 * the list, the second is answered from what was kept. Both read the question as the caller may
 * see it, then the list's revision (services/kept-question-lists.ts); what the first issues after
 * the revision is the making. Every statement is recorded: drizzle's (through its logger, on the
 * same connection) and raw SQL.
 */
async function statementsOfTheWholeList(viewer: TestUser): Promise<{ making: Statement[]; keptRead: Statement[] }> {
  const recorded: Statement[] = [];
  const logger = { logQuery: (text: string, params: unknown[]) => recorded.push({ text, params }) };
  const client = (t.ctx.db as unknown as { $client: unknown }).$client;
  const db = (t.ctx.database.kind === 'pglite'
    ? drizzlePglite(client as PGlite, { schema, logger })
    : drizzleNodePostgres(client as pg.Pool, { schema, logger })) as unknown as Db;
  const database: Database = {
    ...t.ctx.database,
    db,
    executeSql: (text, values) => {
      recorded.push({ text, params: values ?? [] });
      return t.ctx.database.executeSql(text, values);
    },
  };
  const ctx: AppContext = { ...t.ctx, db, database };
  const app = await buildApp(ctx);
  try {
    const first = await whole(viewer, app);
    const made = recorded.splice(0);
    expect(await whole(viewer, app)).toBe(first);
    const keptRead = recorded.splice(0);
    // The kept read ends with the revision; the read that made the list issued it before making.
    const revision = keptRead.at(-1)!;
    expect(await tablesReadBy(revision), 'the kept read ends with the revision').toEqual(['question_list_changes']);
    const start = made.findIndex((statement) => statement.text === revision.text);
    expect(start, 'the read that made the list read the revision').toBeGreaterThanOrEqual(0);
    return { making: made.slice(start + 1), keptRead };
  } finally {
    await app.close();
  }
}

/** The tables PostgreSQL's plan of `statement` reads (every scan, in subqueries and CTEs too). */
async function tablesReadBy(statement: Statement): Promise<string[]> {
  const { rows } = await t.ctx.database.executeSql<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON) ${statement.text}`,
    statement.params,
  );
  const plan = rows[0]!['QUERY PLAN'];
  const tables = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const relation = (node as Record<string, unknown>)['Relation Name'];
      if (typeof relation === 'string') tables.add(relation);
      Object.values(node).forEach(visit);
    }
  };
  visit(typeof plan === 'string' ? JSON.parse(plan) : plan);
  return [...tables];
}

/** Per table, the events (INSERT, UPDATE, DELETE) a trigger function of migration 0018 counts. */
async function eventsCountedByMigration0018(): Promise<Map<string, Set<string>>> {
  const migration = fs.readFileSync(path.join(MIGRATIONS_DIR, '0018_question-list-changes.sql'), 'utf8');
  const functions = [...migration.matchAll(/CREATE FUNCTION "(\w+)"\(\) RETURNS trigger/g)].map((match) => match[1]!);
  expect(functions.length).toBeGreaterThan(0);
  const { rows } = await t.ctx.database.executeSql<{ table: string; event: string; action: string }>(
    `select event_object_table as "table", event_manipulation as "event", action_statement as "action"
       from information_schema.triggers where trigger_schema = 'public'`,
  );
  const counted = new Map<string, Set<string>>();
  for (const { table, event, action } of rows) {
    const called = /EXECUTE FUNCTION (\w+)\(/.exec(action)?.[1];
    if (!called || !functions.includes(called)) continue;
    if (!counted.has(table)) counted.set(table, new Set());
    counted.get(table)!.add(event);
  }
  return counted;
}
