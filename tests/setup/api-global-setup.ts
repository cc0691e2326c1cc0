// Migrates one database per run; every API test file then starts from a copy of it:
// PGlite loads a dumped data directory, PostgreSQL clones a template database.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '#server/db/client.js';
import { templateDatabaseName, withAdminConnection } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDumpPath: string | null;
    pgTemplate: string | null;
  }
}

export default async function setup(project: TestProject) {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const template = templateDatabaseName();
    await withAdminConnection(databaseUrl, async (client) => {
      await client.query(`drop database if exists ${template}`);
      await client.query(`create database ${template}`);
    });
    const url = new URL(databaseUrl);
    url.pathname = `/${template}`;
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    await database.migrate();
    await database.close();
    project.provide('pgTemplate', template);
    project.provide('pgliteDumpPath', null);
    return async () => {
      await withAdminConnection(databaseUrl, (client) => client.query(`drop database if exists ${template}`));
    };
  }

  const dir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-api-'));
  const database = await openDatabase({});
  await database.migrate();
  const dump = await database.dumpDataDir();
  await database.close();
  const dumpPath = path.join(dir, 'migrated.tar.gz');
  writeFileSync(dumpPath, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteDumpPath', dumpPath);
  project.provide('pgTemplate', null);
  return () => rmSync(dir, { recursive: true, force: true });
}
