// Work that must follow a commit, never a rollback (caches, the domain events' in-process subscribers).
// Every transaction opened through db.transaction carries a list of callbacks, run once it has committed;
// a savepoint's callbacks join its parent's only if the savepoint is released, so a rolled-back nested
// transaction drops them. Both engines go through drizzle's node-postgres session, so one wrapper serves both.
import type { Db, Executor, Tx } from './client.js';

type Callback = () => void | Promise<void>;

interface Scope {
  root: Db;
  callbacks: Callback[];
}

const scopes = new WeakMap<object, Scope>();

/** Makes db.transaction (and its transactions' nested ones) collect after-commit callbacks. */
export function trackCommits(db: Db): Db {
  const begin = db.transaction.bind(db);
  const transaction: Db['transaction'] = async (run, config) => {
    const callbacks: Callback[] = [];
    const result = await begin((tx) => run(track(tx, db, callbacks)), config);
    await runAll(callbacks);
    return result;
  };
  db.transaction = transaction;
  scopes.set(db, { root: db, callbacks: [] });
  return db;
}

function track(tx: Tx, root: Db, callbacks: Callback[]): Tx {
  scopes.set(tx, { root, callbacks });
  const nest = tx.transaction.bind(tx);
  const transaction: Tx['transaction'] = async (run) => {
    const inner: Callback[] = [];
    const result = await nest((savepoint) => run(track(savepoint, root, inner)));
    callbacks.push(...inner);
    return result;
  };
  tx.transaction = transaction;
  return tx;
}

function isTransaction(executor: Executor): executor is Tx {
  return 'rollback' in executor && typeof executor.rollback === 'function';
}

/**
 * Runs `callback` once `executor`'s transaction has committed (before the db.transaction call that opened
 * it returns), or at once when `executor` is the database itself (its statements commit as they run).
 */
export async function afterCommit(executor: Executor, callback: Callback): Promise<void> {
  if (isTransaction(executor)) {
    const scope = scopes.get(executor);
    if (!scope) throw new Error('afterCommit: this transaction was not opened through a tracked database');
    scope.callbacks.push(callback);
    return;
  }
  await runAll([callback]);
}

/** The database a transaction belongs to (the executor itself when it is the database). */
export function databaseOf(executor: Executor): Db {
  const scope = scopes.get(executor);
  if (scope) return scope.root;
  if (isTransaction(executor))
    throw new Error('databaseOf: this transaction was not opened through a tracked database');
  return executor as Db;
}

async function runAll(callbacks: readonly Callback[]): Promise<void> {
  for (const callback of callbacks) {
    // The transaction has committed: a failing callback is reported, never turned into the caller's error.
    try {
      await callback();
    } catch (error) {
      console.error('An after-commit callback failed:', error);
    }
  }
}
