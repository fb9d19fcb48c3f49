import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateDatabase, wrapPglite } from '../../src/db/client.ts';
import { pgliteStartOptions } from '../../src/db/pglite/memory.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
    postgresTemplateDatabase: string;
  }
}

/**
 * Migrates one database per run and lets every test file clone it: a PGlite data-dir dump, or a
 * PostgreSQL template database. A test file then starts in milliseconds on a fresh schema.
 */
export default async function setup(project: TestProject) {
  const database = project.config.env?.TEST_DATABASE ?? 'pglite';
  if (database === 'postgres') {
    const templateName = `gradewise_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${templateName}`);
    await admin.query(`CREATE DATABASE ${templateName}`);
    const templateUrl = withDatabase(process.env.DATABASE_URL!, templateName);
    const { openPostgres } = await import('../../src/db/client.ts');
    const templateDb = openPostgres(templateUrl, 2);
    await migrateDatabase(templateDb);
    await templateDb.close();
    project.provide('postgresTemplateDatabase', templateName);
    project.provide('pgliteTemplatePath', '');
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${templateName}`).catch(() => {});
      await admin.end();
    };
  }

  // The server's settings (shared_buffers), so the dump is made as the server would make it.
  const client = new PGlite(await pgliteStartOptions(undefined, { creates: true }));
  const database_ = wrapPglite(client);
  await migrateDatabase(database_);
  const dump = await client.dumpDataDir('none');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gradewise-template-'));
  const templatePath = path.join(dir, 'template.tar');
  await fs.writeFile(templatePath, Buffer.from(await dump.arrayBuffer()));
  await client.close();
  project.provide('pgliteTemplatePath', templatePath);
  project.provide('postgresTemplateDatabase', '');
  return async () => {
    await fs.rm(dir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
