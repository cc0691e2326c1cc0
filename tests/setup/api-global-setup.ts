// Migrates one database per run; every API test file then starts from a copy of it:
// PGlite loads a dumped data directory, PostgreSQL clones a template database. With TEST_MEDIA_STORAGE=s3
// it also starts the S3-compatible server the media lives on, one bucket per test app.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '#server/db/client.js';
import { templateDatabaseName, withAdminConnection } from './postgres.js';
import { startTestS3Server } from './s3-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDumpPath: string | null;
    pgTemplate: string | null;
    /** The S3-compatible server's URL when the suite runs with media in a bucket (TEST_MEDIA_STORAGE=s3). */
    s3Endpoint: string | null;
  }
}

/** TEST_MEDIA_STORAGE=s3: every test app keeps its media in a bucket of a server started here. */
async function startMediaStore(project: TestProject): Promise<() => Promise<void>> {
  const mode = process.env.TEST_MEDIA_STORAGE ?? 'local';
  if (mode !== 's3' && mode !== 'local')
    throw new Error(`TEST_MEDIA_STORAGE must be local or s3, not ${mode}`);
  if (mode === 'local') {
    project.provide('s3Endpoint', null);
    return async () => {};
  }
  const directory = mkdtempSync(path.join(os.tmpdir(), 'pickreel-s3-'));
  const server = await startTestS3Server(directory);
  project.provide('s3Endpoint', server.endpoint);
  return async () => {
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  };
}

export default async function setup(project: TestProject) {
  const stopMediaStore = await startMediaStore(project);
  const stopDatabase = await setupDatabase(project);
  return async () => {
    await stopDatabase();
    await stopMediaStore();
  };
}

async function setupDatabase(project: TestProject): Promise<() => Promise<void> | void> {
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
