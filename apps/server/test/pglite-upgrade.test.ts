import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PgBoss from 'pg-boss';
import { PGlite as PGlite17 } from 'pglite-pg17';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, migrateDatabase, openPglite, wrapPglite, type Database } from '../src/db/client.ts';
import { PgliteUpgradeError, pgVersionOf, upgradePaths, upgradePgliteDataDir } from '../src/db/pglite/upgrade.ts';

/**
 * The first start on PGlite 0.5 (PostgreSQL 18) upgrades a data directory PGlite 0.3 (PostgreSQL
 * 17) wrote (db/pglite/upgrade.ts, decision 0056). The 17 directory is made here by PGlite 0.3
 * itself, with the app's migrations, rows that a dump must quote, and a pg-boss queue holding a
 * job.
 */

/**
 * Each heavy case starts PostgreSQL three to five times (0.3 to dump, 0.5's initdb and restore,
 * the server's open, the backup's check): about 20 s of CPU on a quiet machine. The bound is for a
 * loaded 2-core machine (decision 0049 saw 200 s there), not a timing.
 */
const HEAVY_CASE_MS = 600_000;

const NAMES = [
  `O'Brien "quoted" \\ back\\slash`,
  'tab\there, new\nline, carriage\rreturn',
  'ünïcødé 日本語 😀 \u00a0non-breaking',
  `'); drop table users; --`,
];
const QUEUE = 'upgrade-check';
const JOB_DATA = { id: randomUUID(), note: `it's "a" \\ job\twith ünïcødé` };

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-pglite-upgrade-'));
let template17: string;
let jobId: string;
const migrationFiles = fs.readdirSync(MIGRATIONS_DIR).filter((file) => file.endsWith('.sql')).length;

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function bossOn(database: Database): PgBoss {
  return new PgBoss({
    db: { executeSql: (text, values) => database.executeSql(text, values) },
    schedule: false,
    supervise: false,
  });
}

beforeAll(async () => {
  template17 = path.join(scratch, 'template', 'pglite');
  fs.mkdirSync(path.dirname(template17));
  const old = new PGlite17(template17);
  const database = wrapPglite(old as unknown as PGlite);
  await migrateDatabase(database);
  for (const [index, name] of NAMES.entries()) {
    await database.executeSql(
      `insert into users (id, name, email, password_hash, role) values ($1, $2, $3, 'x', 'instructor')`,
      [randomUUID(), name, `user${index}@example.test`],
    );
  }
  const boss = bossOn(database);
  await boss.start();
  await boss.createQueue(QUEUE);
  jobId = (await boss.send(QUEUE, JOB_DATA))!;
  await boss.stop({ graceful: false, close: false, wait: true });
  await old.close();
  expect(pgVersionOf(template17)).toBe('17');
}, HEAVY_CASE_MS);

/** A copy of the 17 template in a data directory of its own. */
function copyOf17(name: string): string {
  const dataDir = path.join(scratch, name, 'pglite');
  fs.cpSync(template17, dataDir, { recursive: true });
  return dataDir;
}

function siblings(dataDir: string): string[] {
  return fs.readdirSync(path.dirname(dataDir)).sort();
}

async function userNames(database: { executeSql: Database['executeSql'] }): Promise<string[]> {
  const { rows } = await database.executeSql<{ name: string }>('select name from users order by email');
  return rows.map((row) => row.name);
}

async function migrationsApplied(database: Database): Promise<{ count: number; newest: string }> {
  const { rows } = await database.executeSql<{ count: number; newest: string }>(
    'select count(*)::int as count, max(created_at)::text as newest from drizzle.__drizzle_migrations',
  );
  return rows[0]!;
}

describe('upgrading a PostgreSQL 17 data directory to 18', () => {
  it(
    'keeps every row, the queued job and the applied migrations, keeps the old directory as an openable backup, and runs once',
    async () => {
      const dataDir = copyOf17('upgrade');
      const lines: string[] = [];
      const database = await openPglite(dataDir, { log: { warn: (line) => void lines.push(line) } });
      let backup: string;
      try {
        expect(pgVersionOf(dataDir)).toBe('18');
        const [backupName, ...others] = siblings(dataDir).filter((name) => name !== 'pglite');
        expect(others).toEqual([]);
        expect(backupName).toMatch(/^pglite-pg17-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
        backup = path.join(path.dirname(dataDir), backupName!);
        expect(lines.join('\n')).toContain(backup);
        expect(lines.at(-1)).toMatch(/^Upgraded the embedded database to PostgreSQL 18\./);

        expect(await userNames(database)).toEqual(NAMES);
        // No migration runs again: drizzle finds every one applied.
        const applied = await migrationsApplied(database);
        expect(applied.count).toBe(migrationFiles);
        await migrateDatabase(database);
        expect(await migrationsApplied(database)).toEqual(applied);

        const boss = bossOn(database);
        await boss.start();
        try {
          const [job] = await boss.fetch<typeof JOB_DATA>(QUEUE);
          expect(job?.id).toBe(jobId);
          expect(job?.data).toEqual(JOB_DATA);
        } finally {
          await boss.stop({ graceful: false, close: false, wait: true });
        }
        await database.executeSql(
          `insert into users (id, name, email, password_hash, role) values ($1, 'after', 'z@example.test', 'x', 'student')`,
          [randomUUID()],
        );
      } finally {
        await database.close();
      }

      // The backup is the 17 directory as it was: the old PGlite opens it.
      const old = new PGlite17(backup);
      try {
        expect(pgVersionOf(backup)).toBe('17');
        const { rows } = await old.query<{ name: string }>('select name from users order by email');
        expect(rows.map((row) => row.name)).toEqual(NAMES);
      } finally {
        await old.close();
      }

      // A second start changes nothing.
      const before = siblings(dataDir);
      const again = await openPglite(dataDir, { log: { warn: (line) => void lines.push(`again: ${line}`) } });
      try {
        expect(await userNames(again)).toEqual([...NAMES, 'after']);
      } finally {
        await again.close();
      }
      expect(siblings(dataDir)).toEqual(before);
      expect(lines.filter((line) => line.startsWith('again: '))).toEqual([]);

      // A stop between the two renames (the 17 directory moved away, the checked copy not yet in
      // place) is finished by the next start.
      const { copy, verified } = upgradePaths(dataDir);
      fs.renameSync(dataDir, copy);
      fs.writeFileSync(verified, `${backup}\n`);
      const finished = await openPglite(dataDir, { log: { warn: (line) => void lines.push(`finish: ${line}`) } });
      try {
        expect(await userNames(finished)).toEqual([...NAMES, 'after']);
      } finally {
        await finished.close();
      }
      expect(siblings(dataDir)).toEqual(before);
      expect(lines.filter((line) => line.startsWith('finish: '))).toEqual([
        `finish: Finished the interrupted upgrade of the embedded database in ${dataDir} (PostgreSQL 18).`,
      ]);
    },
    HEAVY_CASE_MS,
  );

  it(
    'refuses to start when the copy does not match, and leaves the 17 directory as it was',
    async () => {
      const dataDir = copyOf17('refused');
      const upgrade = upgradePgliteDataDir(dataDir, {
        beforeCompare: async (restored) => {
          await restored.exec(`delete from users where email = 'user0@example.test'`);
        },
      });
      await expect(upgrade).rejects.toThrow(PgliteUpgradeError);
      await expect(upgrade).rejects.toThrow(
        /upgrading the embedded database in .* failed, and the database was left as it was: the copy's rows differ \(public\.users: 4 before, 3 after\)/,
      );
      expect(siblings(dataDir)).toEqual(['pglite']);
      expect(pgVersionOf(dataDir)).toBe('17');
      const old = new PGlite17(dataDir);
      try {
        const { rows } = await old.query<{ name: string }>('select name from users order by email');
        expect(rows.map((row) => row.name)).toEqual(NAMES);
      } finally {
        await old.close();
      }
    },
    HEAVY_CASE_MS,
  );

  it('refuses a version it does not know without a change, and removes a stopped attempt beside a current directory', async () => {
    const unknown = path.join(scratch, 'unknown', 'pglite');
    fs.mkdirSync(unknown, { recursive: true });
    fs.writeFileSync(path.join(unknown, 'PG_VERSION'), '16\n');
    await expect(openPglite(unknown)).rejects.toThrow(
      /the embedded database in .* is PostgreSQL 16; this version of Gradewise runs PostgreSQL 18 and upgrades only 17\. Nothing was changed\./,
    );
    expect(siblings(unknown)).toEqual(['pglite']);
    expect(fs.readdirSync(unknown)).toEqual(['PG_VERSION']);

    // An 18 directory with an earlier attempt's copy beside it: the copy never replaced anything.
    const current = path.join(scratch, 'current', 'pglite');
    fs.mkdirSync(current, { recursive: true });
    fs.writeFileSync(path.join(current, 'PG_VERSION'), '18\n');
    const { copy } = upgradePaths(current);
    fs.mkdirSync(copy);
    fs.writeFileSync(path.join(copy, 'PG_VERSION'), '18\n');
    expect(await upgradePgliteDataDir(current)).toBeUndefined();
    expect(siblings(current)).toEqual(['pglite']);

    // No directory and an unchecked copy: refused, nothing removed.
    const lost = path.join(scratch, 'lost', 'pglite');
    const lostCopy = upgradePaths(lost).copy;
    fs.mkdirSync(lostCopy, { recursive: true });
    await expect(upgradePgliteDataDir(lost)).rejects.toThrow(
      /is missing and .*pglite-pg18-upgrade, an unfinished upgrade's copy/,
    );
    expect(fs.existsSync(lostCopy)).toBe(true);
  });
});
