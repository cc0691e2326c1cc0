import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id (an ambient const enum, which isolated modules cannot read).
const ARGON2ID = 2;

// OWASP's argon2id minimum: 19 MiB memory, 2 iterations, parallelism 1 (docs/product-decisions.md 'Security
// overrides').
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** A hash to verify against when the user does not exist, so timing does not reveal usernames. */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-' + Math.random());
  return dummyHash;
}
