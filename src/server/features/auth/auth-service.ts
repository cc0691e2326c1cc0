import type { Db } from '../../db/client.js';
import type { Login, Register } from '../../../common/schemas/auth.js';
import { HttpError } from '../../lib/http-errors.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import {
  findUserByUsername,
  insertUser,
  setAdmin,
  setPasswordHash,
  type UserRow,
} from './users-repository.js';

export const INVALID_CREDENTIALS = 'Invalid username or password';
export const USERNAME_TAKEN = 'Username already exists';

export async function registerUser(db: Db, input: Register): Promise<UserRow> {
  // Cheap check first so a taken name does not cost an argon2 hash; the unique index decides races.
  if (await findUserByUsername(db, input.username)) throw new HttpError(400, USERNAME_TAKEN);
  const user = await insertUser(db, {
    username: input.username,
    passwordHash: await hashPassword(input.password),
    phoneNumber: input.phoneNumber ?? null,
    email: input.email ?? null,
    displayName: input.displayName ?? null,
    bio: input.bio ?? null,
    avatarUrl: input.avatarUrl ?? null,
  });
  if (!user) throw new HttpError(400, USERNAME_TAKEN);
  return user;
}

/** Returns the user when the password matches; undefined otherwise (same time either way). */
export async function authenticate(db: Db, input: Login): Promise<UserRow | undefined> {
  const user = await findUserByUsername(db, input.username);
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  return user && ok ? user : undefined;
}

/** ADMIN_USERNAME + ADMIN_PASSWORD make sure that admin exists, with that password (decisions.md). */
export async function ensureAdmin(db: Db, admin: { username: string; password: string }): Promise<UserRow> {
  const existing = await findUserByUsername(db, admin.username);
  if (existing) {
    if (!existing.isAdmin) await setAdmin(db, existing.id, true);
    if (!(await verifyPassword(existing.passwordHash, admin.password))) {
      await setPasswordHash(db, existing.id, await hashPassword(admin.password));
    }
    return { ...existing, isAdmin: true };
  }
  const created = await insertUser(db, {
    username: admin.username,
    passwordHash: await hashPassword(admin.password),
    isAdmin: true,
  });
  if (!created) throw new Error(`Could not create admin ${admin.username}`);
  return created;
}
