import { createHash } from 'node:crypto';
import { lockKey } from '#server/db/advisory-locks.js';
import type { Db, Executor } from '#server/db/client.js';
import { USERNAME_TAKEN, USERNAME_TOO_SIMILAR, type Login, type Register } from '#common/schemas/auth.js';
import { HttpError } from '#server/lib/http-errors.js';
import { confirmRegistrationEmail, type ConfirmationLinks } from './email-confirmation.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { deleteSessionsExpiredBy } from './sessions-repository.js';
import type { AuthThrottle } from './throttle.js';
import { usernameKey, usernameSkeleton } from './usernames.js';
import {
  backfillUsernameKeys,
  deleteUser,
  findProfile,
  findSimilarUser,
  findUserByUsername,
  insertUser,
  setAdmin,
  setAvatarUrl,
  setManualEarningsCents,
  setPasswordHash,
  setProfileText,
  type NewUserRow,
  type UserRow,
} from './users-repository.js';

export const INVALID_CREDENTIALS = 'Invalid username or password';
export { USERNAME_TAKEN, USERNAME_TOO_SIMILAR };

function lockId(value: string): number {
  return createHash('sha256').update(value).digest().readInt32BE(0);
}

/** The message for a name that is taken or too similar to a taken one; undefined when it is free. */
async function similarityProblem(db: Executor, username: string): Promise<string | undefined> {
  const similar = await findSimilarUser(db, username);
  if (!similar) return undefined;
  return similar.usernameKey === usernameKey(username) ||
    similar.username.toLowerCase() === username.toLowerCase()
    ? USERNAME_TAKEN
    : USERNAME_TOO_SIMILAR;
}

/**
 * Inserts an account unless its name is taken or looks like a taken one. Race-safe: the
 * transaction holds advisory locks on the name's key and skeleton, so two look-alikes registered at the
 * same moment are decided one after the other (two locks, taken in a fixed order, cannot deadlock).
 */
async function createUser(
  db: Db,
  user: NewUserRow,
  afterInsert?: (tx: Executor, created: UserRow) => Promise<unknown>,
): Promise<UserRow> {
  const locks = [...new Set([lockId(usernameKey(user.username)), lockId(usernameSkeleton(user.username))])];
  locks.sort((a, b) => a - b);
  return db.transaction(async (tx) => {
    for (const id of locks) await lockKey(tx, 'usernames', id);
    const problem = await similarityProblem(tx, user.username);
    if (problem) throw new HttpError(400, problem);
    const created = await insertUser(tx, user);
    if (!created) throw new HttpError(400, USERNAME_TAKEN);
    await afterInsert?.(tx, created);
    return created;
  });
}

/** Registers an account; an address given is mailed its confirmation link (made from `links`). */
export async function registerUser(db: Db, input: Register, links: ConfirmationLinks): Promise<UserRow> {
  // Cheap check first so a taken name does not cost an argon2 hash; createUser decides races.
  const problem = await similarityProblem(db, input.username);
  if (problem) throw new HttpError(400, problem);
  return createUser(
    db,
    {
      username: input.username,
      passwordHash: await hashPassword(input.password),
      phoneNumber: input.phoneNumber ?? null,
      email: input.email ?? null,
      displayName: input.displayName ?? null,
      bio: input.bio ?? null,
      avatarUrl: input.avatarUrl ?? null,
    },
    (tx, created) => confirmRegistrationEmail(tx, created, links),
  );
}

/**
 * Checks a sign-in under the account's brute-force limit (throttle.ts): 429 once its device class is
 * locked, else the user when the password matches, undefined otherwise (same time either way).
 * `device` is the browser's device cookie; it counts as known only for the account it names.
 */
export async function authenticate(
  db: Db,
  throttle: AuthThrottle,
  input: Login,
  device: { userId: number; id: string } | null,
): Promise<UserRow | undefined> {
  const user = await findUserByUsername(db, input.username);
  const knownDevice = user && device?.userId === user.id ? device.id : null;
  const charge = await throttle.chargeAccount(input.username, knownDevice);
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!user || !ok) return undefined;
  await throttle.succeeded(charge);
  return user;
}

/** `npm run admin -- promote <username>`: that user, now an admin; undefined when nobody has the name. */
export async function promoteAdmin(db: Db, username: string): Promise<UserRow | undefined> {
  // The same username lookups as sign-in (normalised key): older accounts get their keys first.
  await backfillUsernameKeys(db);
  const user = await findUserByUsername(db, username);
  if (user) await setAdmin(db, user.id, true);
  return user;
}

/** Why `npm run admin -- create <username>` must not create that name (taken, or like a taken one); null if free. */
export async function newAdminNameProblem(db: Db, username: string): Promise<string | null> {
  await backfillUsernameKeys(db);
  const existing = await findUserByUsername(db, username);
  if (existing) return `${existing.username} already exists: use "promote" to make them an admin.`;
  const similar = await findSimilarUser(db, username);
  if (similar)
    return `${username} is too similar to the existing user ${similar.username}: choose another name.`;
  return null;
}

/**
 * ADMIN_USERNAME + ADMIN_PASSWORD make sure that admin exists, with that password (docs/product-decisions.md
 * 'Running it').
 */
export async function ensureAdmin(db: Db, admin: { username: string; password: string }): Promise<UserRow> {
  // Runs before the app (and its start-up backfill) in main.ts: the same lookups need the keys filled.
  await backfillUsernameKeys(db);
  const existing = await findUserByUsername(db, admin.username);
  if (existing) {
    if (!existing.isAdmin) await setAdmin(db, existing.id, true);
    if (!(await verifyPassword(existing.passwordHash, admin.password))) {
      await setPasswordHash(db, existing.id, await hashPassword(admin.password));
    }
    return { ...existing, isAdmin: true };
  }
  try {
    return await createUser(db, {
      username: admin.username,
      passwordHash: await hashPassword(admin.password),
      isAdmin: true,
    });
  } catch (error) {
    if (error instanceof HttpError) {
      throw new Error(`Could not create admin ${admin.username}: ${error.message}`, { cause: error });
    }
    throw error;
  }
}

/**
 * Deletes an account inside the caller's transaction: its videos, purchases, sessions and payout requests go
 * with it (foreign keys cascade). The admin's moderation calls it: the auth feature alone writes user rows.
 */
export async function deleteAccount(tx: Executor, userId: number): Promise<void> {
  await deleteUser(tx, userId);
}

/** A user's public profile (name, display name, bio, avatar), undefined for no such account. */
export const profileOf = findProfile;

// Reads that other features build on (an account's row by id or by name); writes go through the use-cases here.
export { findUserById, findUserByUsername, type UserRow } from './users-repository.js';

/** Expired sessions are dead already: the app's recurring sweep drops them so the table stays small. */
export async function deleteExpiredSessions(db: Executor, now: Date): Promise<void> {
  await deleteSessionsExpiredBy(db, now);
}

/** A capper's display name and bio, as the profile settings save them: the auth feature writes user rows. */
export async function saveProfileText(
  db: Executor,
  userId: number,
  text: { displayName?: string | null; bio?: string | null },
): Promise<void> {
  await setProfileText(db, userId, { displayName: text.displayName ?? null, bio: text.bio ?? null });
}

/** The avatar as served (null: the initial instead), once the picture is in media storage. */
export const saveAvatarUrl = setAvatarUrl;

/**
 * A capper's bonus as kept on the account: the earnings feature sets it, having checked it against the
 * ledger under the balance lock (the auth feature alone writes user rows).
 */
export const saveManualEarnings = setManualEarningsCents;
