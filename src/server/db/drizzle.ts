// drizzle-orm as the server loads it: its CommonJS build, through require() (docs/decisions/002, 'drizzle-orm
// loaded as CommonJS'). Node 22 and later read a package's package.json again for each ES module they load
// from it, and drizzle-orm's is large and the server uses many of its modules: a slow start and garbage
// that V8 keeps. Its .cjs files need no such lookup, on every Node line. Every value of drizzle-orm the
// code uses comes from here (lint keeps other files to type imports), so one copy of drizzle-orm is loaded.
import { createRequire } from 'node:module';
import type * as Orm from 'drizzle-orm';
import type * as NodePostgres from 'drizzle-orm/node-postgres';
import type * as Migrator from 'drizzle-orm/node-postgres/migrator';
import type * as PgCore from 'drizzle-orm/pg-core';

const load = createRequire(import.meta.url);
const orm = load('drizzle-orm') as typeof Orm;
const pgCore = load('drizzle-orm/pg-core') as typeof PgCore;
const nodePostgres = load('drizzle-orm/node-postgres') as typeof NodePostgres;
const migrator = load('drizzle-orm/node-postgres/migrator') as typeof Migrator;

export const {
  and,
  asc,
  between,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNull,
  like,
  lt,
  lte,
  max,
  ne,
  notInArray,
  or,
  sql,
} = orm;

export const {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} = pgCore;

export const { drizzle } = nodePostgres;
export const { migrate } = migrator;

export type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
export type { AnyPgColumn, PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
